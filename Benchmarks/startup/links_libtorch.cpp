// The reference for Benchmarks/startup_benchmark.py: a program that links
// libtorch (and so has the dynamic linker load and relocate it, and run its
// static initializers) and then exits without calling it.
#include <torch/version.h>

int main() {
    return 0;
}
