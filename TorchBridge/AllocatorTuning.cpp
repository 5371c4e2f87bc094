// TBRetainFreedMemory: the allocator policy for running a model over and
// over in one process.
//
// Why this shim exists: every forward pass allocates and frees the same
// temporary buffers (im2col columns, OpenBLAS's per-call work buffer, layer
// outputs). glibc's malloc hands a freed block at the top of the heap back to
// the system as soon as more than 128 KiB is free there, and serves blocks
// above its mmap threshold with a fresh mmap. Either way the next forward pass
// faults the same pages in again and the kernel zeroes them. Measured with
// the shipped model, batch 1 on 2 threads: 3 to 4 brk calls and about 80
// page faults per image, and 0.71 of the throughput of a C++ program whose heap
// happened to be laid out so as not to trim (BENCHMARKS.md). Swift cannot
// call mallopt (Glibc's module map leaves <malloc.h> out), hence C.
//
// Process-wide and opt-in: a library should not change its host's allocator
// behind its back, so DigitKit only calls this when asked (the digits CLI
// asks at start-up).

#include "TorchBridge.h"

#include <cstddef>
#include <cstdlib> // defines __GLIBC__ (through <features.h>) on glibc systems

#if defined(__GLIBC__)
#include <malloc.h>
#include <sched.h>
#endif

namespace {
/// Freed memory at the top of the heap is returned to the system only beyond
/// this. A batch-256 forward pass of the shipped model frees more than 64 MiB
/// at once (layer outputs, oneDNN scratch); below 128 MiB it page-faulted the
/// whole working set back in on every batch (1.1 million faults for the 10k
/// MNIST test set, against 50 thousand at 128 MiB and above).
constexpr size_t kTrimThreshold = 256u * 1024 * 1024;
/// Blocks above this are mapped afresh by mmap unless free heap space holds
/// them. 32 MiB is the most glibc accepts on 64-bit systems (and the ceiling
/// of its own adaptive threshold, which setting the trim threshold turns off).
constexpr size_t kMmapThreshold = 32u * 1024 * 1024;

/// glibc gives threads that contend for malloc arenas of their own, up to
/// eight per CPU, and reserves 64 MiB of address space for each: with
/// `classify --threads 8` the process mapped 1.6 GB, and under a 1.3 GB limit
/// (ulimit -v) it crashed. One arena per CPU the process may run on (at
/// least 2) bounds that; threads beyond the CPUs cannot all allocate at once
/// anyway. glibc fixes the limit once it has made that many arenas, so this
/// must run before threads start.
int arenaCount() {
#if defined(__GLIBC__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 2) return CPU_COUNT(&set);
#endif
    return 2;
}
} // namespace

extern "C" int TBRetainFreedMemory(void) {
#if defined(__GLIBC__)
    int trim = mallopt(M_TRIM_THRESHOLD, static_cast<int>(kTrimThreshold));
    int mmap = mallopt(M_MMAP_THRESHOLD, static_cast<int>(kMmapThreshold));
    // A MALLOC_ARENA_MAX the user set stands.
    int arenas = std::getenv("MALLOC_ARENA_MAX") == nullptr ? mallopt(M_ARENA_MAX, arenaCount()) : 1;
    return trim == 1 && mmap == 1 && arenas == 1;
#else
    return 0;
#endif
}
