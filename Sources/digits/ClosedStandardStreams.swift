import Foundation

/// Standard input, output or error closed from the start (`<&-`, `>&-`,
/// `2>&-`): the next file the process opens would take that number, and
/// "standard input" would then read a model file, or results be written
/// into one. Each closed one is given /dev/null opened the other way round,
/// so that the number stays taken and every use of it still fails with
/// EBADF, as on a closed descriptor: reading standard input says "standard
/// input is closed", writing results "standard output is closed", and
/// diagnostics are dropped.
enum ClosedStandardStreams {
    /// Call first, before anything opens a file.
    static func holdNumbers() {
        for (descriptor, otherWay) in [(STDIN_FILENO, O_WRONLY), (STDOUT_FILENO, O_RDONLY), (STDERR_FILENO, O_RDONLY)] {
            guard fcntl(descriptor, F_GETFD) == -1, errno == EBADF else { continue }
            // The lowest free number: this one, as the lower ones are open.
            let opened = open("/dev/null", otherWay)
            if opened >= 0 && opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }
}
