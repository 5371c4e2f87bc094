// TorchBridgeLoader: finds the TorchBridge functions at run time, so that a
// program that links DigitKit loads libtorch only when it runs a model.
//
// Why this shim exists: linking libtorch into the `digits` executable made
// every command pay for it before main() ran (about 0.5 s and 160 MB for
// `digits --help`, measured in BENCHMARKS.md). The bridge is therefore also
// built as a shared library, libDigitsTorchBridge.so (the DigitsTorchBridge
// product), which this loader opens with dlopen on first use. A program that
// links the TorchBridge target itself (the DigitKit library product does, for
// packages that depend on DigitKit) uses those functions directly and opens
// nothing.
//
// Where the library is looked for, first found wins:
//   1. $DIGITS_TORCH_BRIDGE, the path of the library (then nowhere else);
//   2. beside the shared object that contains this loader, if it is one;
//   3. beside the running executable (SwiftPM's build folder);
//   4. ../lib/digits/ from the running executable (scripts/install's layout);
//   5. the dynamic linker's own search (LD_LIBRARY_PATH, ld.so.cache).
//
// Ownership: the returned table and strings are static; never free them.
// Threads: every function may be called from any thread; the library is
// opened once.

#ifndef DIGITS_TORCH_BRIDGE_LOADER_H
#define DIGITS_TORCH_BRIDGE_LOADER_H

// The bridge's own header, for its types, constants and signatures (one
// source of truth). Included by relative path: this header is compiled into
// modules that do not see the bridge target's include folder.
#include "../../../TorchBridge/include/TorchBridge.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The file name of the bridge library.
#define DIGITS_TORCH_BRIDGE_LIBRARY "libDigitsTorchBridge.so"

/// The functions of TorchBridge.h, as found in this program or in the library.
typedef struct DigitsTorchBridge {
    __typeof__(TBModuleInitWithFileAtPath) *_Nonnull moduleInitWithFileAtPath;
    __typeof__(TBModulePredictImages) *_Nonnull modulePredictImages;
    __typeof__(TBModuleFree) *_Nonnull moduleFree;
    __typeof__(TBMessageFree) *_Nonnull messageFree;
    __typeof__(TBSetThreadCount) *_Nonnull setThreadCount;
    __typeof__(TBThreadCount) *_Nonnull threadCount;
    __typeof__(TBRetainFreedMemory) *_Nonnull retainFreedMemory;
    __typeof__(TBTorchVersion) *_Nonnull torchVersion;
    __typeof__(TBLineModuleInitWithFileAtPath) *_Nonnull lineModuleInitWithFileAtPath;
    __typeof__(TBLineModuleRead) *_Nonnull lineModuleRead;
    __typeof__(TBModuleClassCount) *_Nonnull moduleClassCount;
    __typeof__(TBLocatorModuleInitWithFileAtPath) *_Nonnull locatorModuleInitWithFileAtPath;
    __typeof__(TBLocatorModuleLocate) *_Nonnull locatorModuleLocate;
    __typeof__(TBModuleIsOptimized) *_Nonnull moduleIsOptimized;
} DigitsTorchBridge;

/// The bridge, found and opened on the first call (which loads libtorch).
/// On failure returns NULL and stores in *outMessage a one-line reason that
/// names where the library was looked for and how to build it; the same
/// result is returned on every later call. `outMessage` must not be NULL.
const DigitsTorchBridge *_Nullable DigitsTorchBridgeOpen(const char *_Nullable *_Nonnull outMessage);

/// The libtorch version the bridge was built against, such as "1.13.1",
/// without loading libtorch: from the linked-in bridge, the opened one, or
/// the build information in the library file (TB_BUILD_INFO_PREFIX).
/// NULL when no bridge library is found or it carries no such information.
const char *_Nullable DigitsTorchBridgeTorchVersion(void);

#ifdef __cplusplus
}
#endif

#endif // DIGITS_TORCH_BRIDGE_LOADER_H
