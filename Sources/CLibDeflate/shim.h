// CLibDeflate: exposes libdeflate to Swift. The PNG decoder's fast path
// (PNGFastPath) inflates a picture's whole image data in one call with it:
// about twice as fast as zlib's streaming inflate inside libpng, which was
// most of the time a 400x400 PNG took to decode. libdeflate returns a
// status for every failure and never longjmps.
#ifndef CLIBDEFLATE_SHIM_H
#define CLIBDEFLATE_SHIM_H
#include <libdeflate.h>
#endif
