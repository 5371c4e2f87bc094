// CTurboJPEG: exposes libjpeg-turbo's TurboJPEG API to Swift. Its functions
// return a status and keep the error text (tjGetErrorStr2); libjpeg's
// setjmp/longjmp error handling stays inside libjpeg-turbo's own C frames,
// so no error ever longjmps through the caller's (Swift) frames.
#ifndef CTURBOJPEG_SHIM_H
#define CTURBOJPEG_SHIM_H
#include <turbojpeg.h>
#endif
