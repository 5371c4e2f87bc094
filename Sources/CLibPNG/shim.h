// CLibPNG: exposes libpng to Swift. The decoder uses only the simplified
// png_image_* API, which reports errors in png_image.message instead of
// longjmp-ing through the caller's (Swift) frames.
#ifndef CLIBPNG_SHIM_H
#define CLIBPNG_SHIM_H
#include <png.h>
#endif
