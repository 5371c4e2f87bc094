// Tests that the bridge's optimized modules (optimizedForInference in
// TorchBridge.cpp) answer as the plain modules libtorch loads from the same
// files, and that several threads using one module at once get the answers
// one thread gets.
//
// usage: optimized_twin_test DIGIT_MODEL LOCATOR_MODEL LINE_MODEL SAMPLE_DIR
//   DIGIT_MODEL    Models/digits.pt
//   LOCATOR_MODEL  Models/locator.pt
//   LINE_MODEL     Models/digit-line.pt
//   SAMPLE_DIR     the MNIST sample fixtures (tensors.f32)

#include "TorchBridge.h"
#include "check.h"

#include <torch/script.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace {

/// Runs `body(t)` on `threads` threads at once, t = 0..threads-1, and
/// returns the largest difference any of them reports.
template <typename Body>
float largestOverThreads(size_t threads, Body body) {
    std::vector<float> worst(threads, 0);
    std::vector<std::thread> running;
    for (size_t t = 0; t < threads; ++t) running.emplace_back([&, t] { worst[t] = body(t); });
    for (auto &thread : running) thread.join();
    return *std::max_element(worst.begin(), worst.end());
}

/// What libtorch's plain module, loaded from `path` as it was saved, returns
/// for `pixels` of `shape`; log-softmax over `classDim` unless it is negative.
std::vector<float> plainForward(const std::string &path, const std::vector<float> &pixels,
                                const std::vector<int64_t> &shape, int64_t classDim) {
    torch::jit::Module module = torch::jit::load(path, torch::kCPU);
    module.eval();
    c10::InferenceMode inferenceMode;
    at::Tensor input = torch::from_blob(const_cast<float *>(pixels.data()), shape, torch::kFloat).clone();
    at::Tensor output = module.forward({input}).toTensor().to(torch::kFloat);
    if (classDim >= 0) output = torch::log_softmax(output, classDim);
    output = output.contiguous();
    return std::vector<float>(output.data_ptr<float>(), output.data_ptr<float>() + output.numel());
}

/// A grey picture of `width` x `height` (0 black, 1 white) with MNIST sample
/// digits drawn dark at twice their size along it: the kind of picture the
/// locator is given.
std::vector<float> pictureOfDigits(const std::vector<float> &tensors, size_t width, size_t height) {
    std::vector<float> picture(width * height, 0.9f);
    const size_t side = 2 * TB_IMAGE_SIDE;
    for (size_t k = 0; k * side + side <= width && side <= height; ++k) {
        const float *digit = &tensors[k * TB_IMAGE_FLOATS];
        const float lowest = *std::min_element(digit, digit + TB_IMAGE_FLOATS);
        for (size_t y = 0; y < side; ++y)
            for (size_t x = 0; x < side; ++x) {
                const float ink = digit[(y / 2) * TB_IMAGE_SIDE + x / 2] - lowest;
                picture[(y + (height - side) / 2) * width + k * side + x] = std::fmax(0.05f, 0.9f - 0.3f * ink);
            }
    }
    return picture;
}

void testDigitModel(const std::string &path, const std::vector<float> &tensors, size_t count) {
    TBModule *module = nullptr;
    check(TBModuleInitWithFileAtPath(path.c_str(), &module, nullptr) == TBStatusOK, "loads " + path);
    if (module == nullptr) return;
    check(TBModuleIsOptimized(module) == 1, "digit model: runs optimized for inference");
    const int classes = TBModuleClassCount(module);
    std::vector<float> optimized(count * classes);
    check(TBModulePredictImages(module, tensors.data(), count, optimized.data(), nullptr) == TBStatusOK,
          "predicts a batch of " + std::to_string(count));
    const std::vector<float> plain = plainForward(
        path, std::vector<float>(tensors.begin(), tensors.begin() + count * TB_IMAGE_FLOATS),
        {static_cast<int64_t>(count), 1, TB_IMAGE_SIDE, TB_IMAGE_SIDE}, 1);
    const float worst = largestDifference(optimized, plain);
    check(worst <= 1e-4f, "digit model: log-probabilities as the plain module's (max difference " +
                              std::to_string(worst) + ")");

    // Four threads, each predicting every sample one at a time, many times,
    // against one thread doing the same.
    std::vector<float> alone(count * classes);
    bool ran = true;
    for (size_t i = 0; i < count; ++i)
        ran = ran && TBModulePredictImage(module, &tensors[i * TB_IMAGE_FLOATS], &alone[i * classes], nullptr) == TBStatusOK;
    check(ran, "digit model: predicts each sample alone");
    const float threadWorst = largestOverThreads(4, [&](size_t) {
        float worst = 0;
        std::vector<float> scores(classes);
        for (int round = 0; round < 5; ++round)
            for (size_t i = 0; i < count; ++i) {
                if (TBModulePredictImage(module, &tensors[i * TB_IMAGE_FLOATS], scores.data(), nullptr) != TBStatusOK)
                    return INFINITY;
                for (int c = 0; c < classes; ++c) worst = std::fmax(worst, std::fabs(scores[c] - alone[i * classes + c]));
            }
        return worst;
    });
    check(threadWorst <= 1e-5f, "digit model: four threads at once answer as one (max difference " +
                                    std::to_string(threadWorst) + ")");
    TBModuleFree(module);
}

void testLocator(const std::string &path, const std::vector<float> &tensors) {
    TBModule *module = nullptr;
    check(TBLocatorModuleInitWithFileAtPath(path.c_str(), &module, nullptr) == TBStatusOK, "loads " + path);
    if (module == nullptr) return;
    check(TBModuleIsOptimized(module) == 1, "locator: runs optimized for inference");
    // The sizes digits gives it (128 and 256 square) and others the header allows.
    const std::vector<std::pair<size_t, size_t>> sizes = {{128, 128}, {256, 256}, {128, 96}, {256, 64}, {16, 16}};
    std::vector<std::vector<float>> maps;
    for (auto [width, height] : sizes) {
        const std::vector<float> picture = pictureOfDigits(tensors, width, height);
        std::vector<float> map(width * height, -1);
        const bool ran = TBLocatorModuleLocate(module, picture.data(), width, height, map.data(), nullptr) == TBStatusOK;
        const std::vector<float> plain = plainForward(
            path, picture, {1, 1, static_cast<int64_t>(height), static_cast<int64_t>(width)}, -1);
        const float worst = largestDifference(map, plain);
        check(ran && worst <= 1e-4f, "locator at " + std::to_string(width) + "x" + std::to_string(height) +
                                         ": the plain module's map (max difference " + std::to_string(worst) + ")");
        maps.push_back(map);
    }
    // Two threads, each locating every size in turn.
    const float threadWorst = largestOverThreads(2, [&](size_t t) {
        float worst = 0;
        for (int round = 0; round < 5; ++round)
            for (size_t s = 0; s < sizes.size(); ++s) {
                auto [width, height] = sizes[(s + t) % sizes.size()];
                const std::vector<float> picture = pictureOfDigits(tensors, width, height);
                std::vector<float> map(width * height, -1);
                if (TBLocatorModuleLocate(module, picture.data(), width, height, map.data(), nullptr) != TBStatusOK)
                    return INFINITY;
                worst = std::fmax(worst, largestDifference(map, maps[(s + t) % sizes.size()]));
            }
        return worst;
    });
    check(threadWorst <= 1e-5f, "locator: two threads at once map as one (max difference " +
                                    std::to_string(threadWorst) + ")");
    TBModuleFree(module);
}

void testLineModel(const std::string &path, const std::vector<float> &tensors) {
    TBModule *module = nullptr;
    check(TBLineModuleInitWithFileAtPath(path.c_str(), &module, nullptr) == TBStatusOK, "loads " + path);
    if (module == nullptr) return;
    check(TBModuleIsOptimized(module) == 1, "line model: runs optimized for inference");
    // Four sample digits side by side, as a line image.
    const size_t width = 4 * TB_IMAGE_SIDE;
    const std::vector<float> pixels = lineOfSamples(tensors, {0, 1, 2, 3});
    std::vector<float> frames(width * TB_LINE_CLASS_COUNT);
    size_t count = 0;
    const bool ran =
        TBLineModuleRead(module, pixels.data(), width, frames.data(), frames.size(), &count, nullptr) == TBStatusOK;
    frames.resize(count * TB_LINE_CLASS_COUNT);
    const std::vector<float> plain =
        plainForward(path, pixels, {1, 1, TB_LINE_HEIGHT, static_cast<int64_t>(width)}, 2);
    const float worst = largestDifference(frames, plain);
    check(ran && worst <= 1e-4f, "line model: log-probabilities as the plain module's (max difference " +
                                     std::to_string(worst) + ")");
    TBModuleFree(module);
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: %s DIGIT_MODEL LOCATOR_MODEL LINE_MODEL SAMPLE_DIR\n", argv[0]);
        return 2;
    }
    const std::vector<float> tensors = readFloats(std::string(argv[4]) + "/tensors.f32");
    const size_t count = std::min<size_t>(64, tensors.size() / TB_IMAGE_FLOATS);
    check(count >= 8, "reads " + std::to_string(count) + " MNIST samples");
    if (failures) return 1;
    testDigitModel(argv[1], tensors, count);
    testLocator(argv[2], tensors);
    testLineModel(argv[3], tensors);
    std::printf("%s\n", failures ? "optimized twin test FAILED" : "optimized twin test passed");
    return failures ? 1 : 0;
}
