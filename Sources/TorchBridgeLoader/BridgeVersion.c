// DigitsTorchBridgeTorchVersion: the libtorch version of the bridge, read
// from the library file when the bridge is not loaded, so that
// `digits --version` names it without loading libtorch.

#define _GNU_SOURCE // memmem
#include "LoaderInternal.h"

#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/// The most of a library file read while looking for its build information;
/// a debug build of the bridge is a few MB.
#define kMaxScannedBytes ((size_t)512 * 1024 * 1024)
/// The longest version string kept.
#define kMaxVersionLength 63

static pthread_once_t versionOnce = PTHREAD_ONCE_INIT;
static char versionText[kMaxVersionLength + 1];
static const char *version = NULL;

/// Scans the file at `path` for TB_BUILD_INFO_PREFIX and keeps the string
/// after it (printable ASCII up to its NUL), chunk by chunk.
static void scan(const char *path) {
    // The path was a regular file when located; O_NONBLOCK keeps a FIFO
    // swapped in since from blocking the open.
    int file = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (file < 0) return;
    struct stat info;
    if (fstat(file, &info) != 0 || !S_ISREG(info.st_mode)) {
        close(file);
        return;
    }
    static const char prefix[] = TB_BUILD_INFO_PREFIX;
    const size_t prefixLength = sizeof prefix - 1;
    const size_t overlap = prefixLength + kMaxVersionLength + 1;
    static char buffer[1024 * 1024];
    size_t kept = 0;  // bytes carried over from the previous chunk
    size_t total = 0;
    for (;;) {
        ssize_t count = read(file, buffer + kept, sizeof buffer - kept);
        if (count <= 0) break;
        total += (size_t)count;
        size_t filled = kept + (size_t)count;
        char *hit = memmem(buffer, filled, prefix, prefixLength);
        if (hit != NULL) {
            const char *text = hit + prefixLength;
            size_t available = (size_t)(buffer + filled - text);
            size_t length = 0;
            while (length < available && length <= kMaxVersionLength && text[length] > ' ' && text[length] < 127) length++;
            if (length < available) {  // the string ended inside the chunk
                if (length > 0 && length <= kMaxVersionLength && text[length] == '\0') {
                    memcpy(versionText, text, length);
                    versionText[length] = '\0';
                    version = versionText;
                }
                break;
            }
        }
        if (total >= kMaxScannedBytes) break;
        // Keep the tail, so that a prefix cut in two is found in the next chunk.
        size_t tail = filled < overlap ? filled : overlap;
        if (hit != NULL) tail = (size_t)(buffer + filled - hit);
        memmove(buffer, buffer + filled - tail, tail);
        kept = tail;
    }
    close(file);
}

static void findVersion(void) {
    const char *path = DigitsTorchBridgeLocate(NULL);
    if (path != NULL) scan(path);
}

const char *DigitsTorchBridgeTorchVersion(void) {
    const char *message = NULL;
    if (DigitsTorchBridgeIsLinkedIn()) return DigitsTorchBridgeOpen(&message)->torchVersion();
    pthread_once(&versionOnce, findVersion);
    return version;
}
