// Small C helpers DigitKit cannot write in Swift, each for a stated reason.
// Module-prefixed names; no state, no ownership to hand over.
#ifndef CDIGITKIT_SHIMS_H
#define CDIGITKIT_SHIMS_H

#ifdef __cplusplus
extern "C" {
#endif

/// The number of CPUs in the calling thread's affinity mask
/// (sched_getaffinity + CPU_COUNT), or 0 where that cannot be read.
/// Why C: sched_getaffinity and CPU_COUNT are GNU extensions behind
/// _GNU_SOURCE, which Swift's Glibc module does not define, and CPU_COUNT is
/// a macro Swift cannot call.
int CDigitKit_affinityCPUCount(void);

/// Makes glibc's malloc keep freed memory for reuse (the trim threshold at
/// 256 MiB, the mmap threshold at 32 MiB) and use one arena per CPU, at
/// least 2, unless MALLOC_ARENA_MAX is set (each arena reserves 64 MiB of
/// address space): mallopt, the policy of the bridge's TBRetainFreedMemory
/// (TorchBridge/AllocatorTuning.cpp says why), which C++ programs linking
/// the bridge use. 1 when all were set, 0 elsewhere (another C library, or
/// a sanitizer's malloc refusing them).
/// Why C: Swift's Glibc module leaves <malloc.h> out. Why here and not only
/// in the bridge: DigitKit must set it without loading libtorch, before its
/// worker threads allocate (free() adjusts these thresholds without a lock
/// until mallopt has fixed them, and could undo a setting made meanwhile;
/// threads started before it may already have arenas of their own).
int CDigitKit_retainFreedMemory(void);

#ifdef __cplusplus
}
#endif

#endif
