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

#ifdef __cplusplus
}
#endif

#endif
