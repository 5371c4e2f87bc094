internal import CDigitKitShims
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// The number of cores this process may run on.
public enum AvailableCores {
    /// The CPUs in the process's affinity mask (CDigitKit_affinityCPUCount),
    /// so that `taskset -c 0 digits ...` or a container's cpuset gets one
    /// worker per core it really has; the online CPU count where the mask
    /// cannot be read.
    public static var count: Int {
        let allowed = Int(CDigitKit_affinityCPUCount())
        return allowed > 0 ? allowed : max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}
