// CZlib: exposes zlib to Swift for reading MNIST IDX files, which usually come
// gzipped; gzopen/gzread read raw files too, transparently.
#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
#include <zlib.h>
#endif
