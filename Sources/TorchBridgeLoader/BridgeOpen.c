// DigitsTorchBridgeOpen: the TorchBridge functions linked into this program,
// or else those of libDigitsTorchBridge.so, opened once.

#include "LoaderInternal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// Weak references: the static linker resolves them where the TorchBridge
// target is linked in (packages depending on the DigitKit product) and
// leaves them NULL where it is not (the digits executable), instead of
// failing the link or making libtorch a load-time dependency.
#pragma weak TBModuleInitWithFileAtPath
#pragma weak TBModulePredictImages
#pragma weak TBModuleFree
#pragma weak TBMessageFree
#pragma weak TBSetThreadCount
#pragma weak TBThreadCount
#pragma weak TBRetainFreedMemory
#pragma weak TBTorchVersion
#pragma weak TBBridgeInterfaceVersion
#pragma weak TBLineModuleInitWithFileAtPath
#pragma weak TBLineModuleRead
#pragma weak TBModuleClassCount
#pragma weak TBLocatorModuleInitWithFileAtPath
#pragma weak TBLocatorModuleLocate
#pragma weak TBModuleIsOptimized

static pthread_once_t openOnce = PTHREAD_ONCE_INIT;
static DigitsTorchBridge bridge;
static const DigitsTorchBridge *opened = NULL;
static char failure[3 * 1024];

bool DigitsTorchBridgeIsLinkedIn(void) {
    return TBModuleInitWithFileAtPath != NULL && TBModulePredictImages != NULL && TBModuleFree != NULL &&
           TBMessageFree != NULL && TBSetThreadCount != NULL && TBThreadCount != NULL &&
           TBRetainFreedMemory != NULL && TBTorchVersion != NULL && TBBridgeInterfaceVersion != NULL &&
           TBLineModuleInitWithFileAtPath != NULL && TBLineModuleRead != NULL && TBModuleClassCount != NULL &&
           TBLocatorModuleInitWithFileAtPath != NULL && TBLocatorModuleLocate != NULL && TBModuleIsOptimized != NULL;
}

/// Writes the failure for a bridge built from another revision; false.
static bool otherRevision(const char *path, int version) {
    snprintf(failure, sizeof failure,
             "%s was built from another revision of digits (bridge interface %d, this program needs %d); "
             "rebuild it with swift build",
             path, version, TB_BRIDGE_INTERFACE_VERSION);
    return false;
}

/// Resolves every function of `library` into `bridge`; false (with the
/// failure written) when one is missing or the interface differs.
static bool resolve(void *library, const char *path) {
    const char *names[] = {
        "TBModuleInitWithFileAtPath", "TBModulePredictImages", "TBModuleFree", "TBMessageFree",
        "TBSetThreadCount", "TBThreadCount", "TBRetainFreedMemory", "TBTorchVersion",
        "TBLineModuleInitWithFileAtPath", "TBLineModuleRead", "TBModuleClassCount",
        "TBLocatorModuleInitWithFileAtPath", "TBLocatorModuleLocate", "TBModuleIsOptimized",
    };
    int (*interfaceVersion)(void) = (int (*)(void))dlsym(library, "TBBridgeInterfaceVersion");
    // A bridge of another revision says so before a function it lacks does:
    // "rebuild it" is the remedy, not "this is not a bridge".
    int version = interfaceVersion == NULL ? 1 : interfaceVersion();
    if (interfaceVersion != NULL && version != TB_BRIDGE_INTERFACE_VERSION) return otherRevision(path, version);
    void *found[sizeof names / sizeof names[0]];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        found[i] = dlsym(library, names[i]);
        if (found[i] == NULL) {
            snprintf(failure, sizeof failure, "%s is not a digits libtorch bridge (it has no %s)", path, names[i]);
            return false;
        }
    }
    if (version != TB_BRIDGE_INTERFACE_VERSION) return otherRevision(path, version);
    // dlsym returns object pointers; POSIX guarantees they convert to functions.
    bridge.moduleInitWithFileAtPath = (__typeof__(bridge.moduleInitWithFileAtPath))found[0];
    bridge.modulePredictImages = (__typeof__(bridge.modulePredictImages))found[1];
    bridge.moduleFree = (__typeof__(bridge.moduleFree))found[2];
    bridge.messageFree = (__typeof__(bridge.messageFree))found[3];
    bridge.setThreadCount = (__typeof__(bridge.setThreadCount))found[4];
    bridge.threadCount = (__typeof__(bridge.threadCount))found[5];
    bridge.retainFreedMemory = (__typeof__(bridge.retainFreedMemory))found[6];
    bridge.torchVersion = (__typeof__(bridge.torchVersion))found[7];
    bridge.lineModuleInitWithFileAtPath = (__typeof__(bridge.lineModuleInitWithFileAtPath))found[8];
    bridge.lineModuleRead = (__typeof__(bridge.lineModuleRead))found[9];
    bridge.moduleClassCount = (__typeof__(bridge.moduleClassCount))found[10];
    bridge.locatorModuleInitWithFileAtPath = (__typeof__(bridge.locatorModuleInitWithFileAtPath))found[11];
    bridge.locatorModuleLocate = (__typeof__(bridge.locatorModuleLocate))found[12];
    bridge.moduleIsOptimized = (__typeof__(bridge.moduleIsOptimized))found[13];
    return true;
}

static void openBridge(void) {
    if (DigitsTorchBridgeIsLinkedIn()) {
        bridge = (DigitsTorchBridge){
            TBModuleInitWithFileAtPath, TBModulePredictImages, TBModuleFree, TBMessageFree,
            TBSetThreadCount, TBThreadCount, TBRetainFreedMemory, TBTorchVersion,
            TBLineModuleInitWithFileAtPath, TBLineModuleRead, TBModuleClassCount,
            TBLocatorModuleInitWithFileAtPath, TBLocatorModuleLocate, TBModuleIsOptimized,
        };
        opened = &bridge;
        return;
    }
    const char *where = NULL;
    const char *path = DigitsTorchBridgeLocate(&where);
    const char *override = getenv("DIGITS_TORCH_BRIDGE");
    if (path == NULL && override != NULL && override[0] != '\0') {
        snprintf(failure, sizeof failure, "the libtorch bridge named by DIGITS_TORCH_BRIDGE, %s, is not a readable file",
                 override);
        return;
    }
    // RTLD_LOCAL: libtorch's thousands of symbols stay out of the global
    // scope, where they could interpose on the host program's own libraries.
    void *library = dlopen(path != NULL ? path : DIGITS_TORCH_BRIDGE_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        if (path != NULL) {
            snprintf(failure, sizeof failure, "cannot open the libtorch bridge: %s", reason ? reason : "unknown error");
        } else {
            snprintf(failure, sizeof failure,
                     "the libtorch bridge %s was not found (looked in %s and the dynamic linker's search path); "
                     "build it with `swift build` or `swift build --product DigitsTorchBridge`, "
                     "or set DIGITS_TORCH_BRIDGE to its path",
                     DIGITS_TORCH_BRIDGE_LIBRARY, where);
        }
        return;
    }
    if (!resolve(library, path != NULL ? path : DIGITS_TORCH_BRIDGE_LIBRARY)) {
        dlclose(library);
        return;
    }
    opened = &bridge;
}

const DigitsTorchBridge *DigitsTorchBridgeOpen(const char **outMessage) {
    pthread_once(&openOnce, openBridge);
    *outMessage = opened == NULL ? failure : NULL;
    return opened;
}

// The constants DigitKit takes from TorchBridge.h (DigitTensor.side and
// .count, Prediction.classCount) must describe an MNIST digit model.
_Static_assert(TB_IMAGE_SIDE == 28, "a digit model reads 28x28 images");
_Static_assert(TB_IMAGE_FLOATS == TB_IMAGE_SIDE * TB_IMAGE_SIDE, "one channel of TB_IMAGE_SIDE squared floats");
_Static_assert(TB_CLASS_COUNT == 10, "one score per digit 0-9");
_Static_assert(TB_LINE_CLASS_COUNT == TB_CLASS_COUNT + 1, "a line model scores CTC's blank and the ten digits");
