#define _GNU_SOURCE
#include "CDigitKitShims.h"

#if defined(__linux__)
#include <sched.h>
#endif
#include <stdlib.h> // defines __GLIBC__ (through <features.h>) on glibc systems
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int CDigitKit_affinityCPUCount(void) {
#if defined(__linux__) && defined(CPU_COUNT)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0) return 0;
    return CPU_COUNT(&set);
#else
    return 0;
#endif
}

int CDigitKit_retainFreedMemory(void) {
#if defined(__GLIBC__)
    int trim = mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
    int mmap = mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    int arenas = 1;
    if (getenv("MALLOC_ARENA_MAX") == NULL) { // the user's own limit stands
        int cpus = CDigitKit_affinityCPUCount();
        arenas = mallopt(M_ARENA_MAX, cpus > 2 ? cpus : 2);
    }
    return trim == 1 && mmap == 1 && arenas == 1;
#else
    return 0;
#endif
}
