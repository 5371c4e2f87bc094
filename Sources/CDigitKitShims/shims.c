#define _GNU_SOURCE
#include "CDigitKitShims.h"

#if defined(__linux__)
#include <sched.h>
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
