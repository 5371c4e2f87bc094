// Where libDigitsTorchBridge.so is: the search order of TorchBridgeLoader.h,
// steps 1 to 4, computed once. Step 5 (the dynamic linker's own search) is
// left to dlopen in BridgeOpen.c.

#define _GNU_SOURCE // dladdr
#include "LoaderInternal.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static pthread_once_t locateOnce = PTHREAD_ONCE_INIT;
static char locatedPath[PATH_MAX];
static const char *located = NULL;
static char searched[2 * PATH_MAX + 64];

/// Whether `path` is a regular file this process may read: a FIFO or a
/// device named by DIGITS_TORCH_BRIDGE would block or never end dlopen and
/// the version scan.
static bool isReadableFile(const char *path) {
    struct stat info;
    return stat(path, &info) == 0 && S_ISREG(info.st_mode) && access(path, R_OK) == 0;
}

/// `folder`/`name` into locatedPath, and whether a readable file is there.
static bool tryCandidate(const char *folder, const char *name) {
    int written = snprintf(locatedPath, sizeof locatedPath, "%s/%s", folder, name);
    return written > 0 && (size_t)written < sizeof locatedPath && isReadableFile(locatedPath);
}

/// The folder of `path` (written into `folder`), or false for a bare name.
static bool folderOf(const char *path, char *folder, size_t size) {
    const char *slash = strrchr(path, '/');
    if (slash == NULL || (size_t)(slash - path) >= size) return false;
    memcpy(folder, path, (size_t)(slash - path));
    folder[slash - path] = '\0';
    if (folder[0] == '\0') strcpy(folder, "/");
    return true;
}

/// The folder of the running executable, from /proc/self/exe (Linux).
static bool executableFolder(char *folder, size_t size) {
#if defined(__linux__)
    char executable[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length <= 0) return false;
    executable[length] = '\0';
    return folderOf(executable, folder, size);
#else
    (void)folder;
    (void)size;
    return false;
#endif
}

static void locate(void) {
    const char *override = getenv("DIGITS_TORCH_BRIDGE");
    if (override != NULL && override[0] != '\0') {
        snprintf(searched, sizeof searched, "DIGITS_TORCH_BRIDGE=%s", override);
        if (strlen(override) < sizeof locatedPath && isReadableFile(override)) {
            strcpy(locatedPath, override);
            located = locatedPath;
        }
        return;
    }
    char folder[PATH_MAX];
    // Beside the shared object that holds this code (a DigitKit built as a
    // shared library); for an executable, dladdr names the executable itself.
    Dl_info info;
    if (dladdr((const void *)&DigitsTorchBridgeLocate, &info) != 0 && info.dli_fname != NULL &&
        strstr(info.dli_fname, ".so") != NULL && folderOf(info.dli_fname, folder, sizeof folder) &&
        tryCandidate(folder, DIGITS_TORCH_BRIDGE_LIBRARY)) {
        located = locatedPath;
        return;
    }
    if (!executableFolder(folder, sizeof folder)) {
        snprintf(searched, sizeof searched, "the dynamic linker's search path");
        return;
    }
    snprintf(searched, sizeof searched, "%s and %s/../lib/digits", folder, folder);
    if (tryCandidate(folder, DIGITS_TORCH_BRIDGE_LIBRARY)) {
        located = locatedPath;
        return;
    }
    char installed[PATH_MAX];
    int written = snprintf(installed, sizeof installed, "%s/../lib/digits", folder);
    if (written > 0 && (size_t)written < sizeof installed && tryCandidate(installed, DIGITS_TORCH_BRIDGE_LIBRARY)) {
        located = locatedPath;
    }
}

const char *DigitsTorchBridgeLocate(const char **where) {
    pthread_once(&locateOnce, locate);
    if (where != NULL) *where = searched;
    return located;
}
