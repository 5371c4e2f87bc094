// What the bridge's C++ tests share: a check that prints and counts its
// failures, and a reader for the MNIST sample fixtures' float files.

#ifndef TORCH_BRIDGE_TESTS_CHECK_H
#define TORCH_BRIDGE_TESTS_CHECK_H

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

/// Failed checks so far; a test's exit status.
inline int failures = 0;

/// Prints `what` as passed or failed, and counts a failure.
inline void check(bool ok, const std::string &what) {
    std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
    if (!ok) ++failures;
}

/// The float32 values of the file at `path`; empty when it cannot be read.
inline std::vector<float> readFloats(const std::string &path) {
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file) return {};
    std::vector<float> values(static_cast<size_t>(file.tellg()) / sizeof(float));
    file.seekg(0);
    file.read(reinterpret_cast<char *>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)));
    return values;
}

#endif
