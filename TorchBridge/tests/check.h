// What the bridge's C++ tests share: a check that prints and counts its
// failures, a reader for the MNIST sample fixtures' float files, the largest
// difference between two answers, and sample digits laid out as a line.

#ifndef TORCH_BRIDGE_TESTS_CHECK_H
#define TORCH_BRIDGE_TESTS_CHECK_H

#include "TorchBridge.h"

#include <algorithm>
#include <cmath>
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

/// The largest absolute difference between `a` and `b`, value by value;
/// infinite when their sizes differ, so that a short answer never passes.
inline float largestDifference(const std::vector<float> &a, const std::vector<float> &b) {
    float worst = a.size() == b.size() ? 0 : INFINITY;
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) worst = std::fmax(worst, std::fabs(a[i] - b[i]));
    return worst;
}

/// The sample digits `samples` of `tensors` side by side, as the line model
/// reads them: row y of the line is row y of each digit in turn (each sample
/// is a 20-pixel digit with 4 pixels of background around it).
inline std::vector<float> lineOfSamples(const std::vector<float> &tensors, const std::vector<size_t> &samples) {
    const size_t width = samples.size() * TB_IMAGE_SIDE;
    std::vector<float> pixels(TB_LINE_HEIGHT * width);
    for (size_t k = 0; k < samples.size(); ++k)
        for (size_t y = 0; y < TB_IMAGE_SIDE; ++y)
            for (size_t x = 0; x < TB_IMAGE_SIDE; ++x)
                pixels[y * width + k * TB_IMAGE_SIDE + x] = tensors[samples[k] * TB_IMAGE_FLOATS + y * TB_IMAGE_SIDE + x];
    return pixels;
}

#endif
