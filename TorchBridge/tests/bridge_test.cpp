// Tests TorchBridge through its C header alone, as Swift uses it.
//
// usage: bridge_test MODEL SAMPLE_DIR BAD_MODELS_DIR LINE_MODEL
//   MODEL           the shipped digit model (Models/digits.pt)
//   SAMPLE_DIR      the MNIST sample fixtures (samples.tsv, tensors.f32, logprobs.f32)
//   BAD_MODELS_DIR  the test models that must be refused
//   LINE_MODEL      the shipped line model (Models/digit-line.pt)

#include "TorchBridge.h"
#include "check.h"

#include <torch/version.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<int> readLabels(const std::string &path) {
    std::ifstream file(path);
    std::vector<int> labels;
    for (std::string line; std::getline(file, line);) {
        std::istringstream fields(line);
        std::string name;
        int index = 0, label = 0;
        if (fields >> name >> index >> label) labels.push_back(label);
    }
    return labels;
}

int argmax(const float *scores, int classes) {
    int best = 0;
    for (int i = 1; i < classes; ++i)
        if (scores[i] > scores[best]) best = i;
    return best;
}

/// Loading `path` must fail with `expected` and a message.
void expectRefused(const std::string &path, TBStatus expected) {
    TBModule *module = nullptr;
    char *message = nullptr;
    TBStatus status = TBModuleInitWithFileAtPath(path.c_str(), &module, &message);
    check(status == expected && module == nullptr && message != nullptr,
          "refuses " + path + ": " + (message ? message : "(no message)"));
    TBMessageFree(message);
}

/// The digits a line model's frames spell, CTC's greedy way: the best class
/// of each frame, repeats merged, blanks (class 0) dropped.
std::string greedyText(const std::vector<float> &frames, size_t count) {
    std::string text;
    int previous = 0;
    for (size_t t = 0; t < count; ++t) {
        const float *scores = &frames[t * TB_LINE_CLASS_COUNT];
        int best = 0;
        for (int c = 1; c < TB_LINE_CLASS_COUNT; ++c)
            if (scores[c] > scores[best]) best = c;
        if (best != 0 && best != previous) text += static_cast<char>('0' + best - 1);
        previous = best;
    }
    return text;
}

/// The line model: loaded by its own init only, and reading runs of MNIST
/// sample digits laid side by side.
void testLineModel(const std::string &path, const std::string &digitModelPath, const std::vector<float> &tensors,
                   const std::vector<int> &labels) {
    TBModule *line = nullptr;
    char *message = nullptr;
    TBStatus status = TBLineModuleInitWithFileAtPath(path.c_str(), &line, &message);
    check(status == TBStatusOK && line != nullptr && message == nullptr,
          "loads line model " + path + (message ? std::string(": ") + message : ""));
    TBMessageFree(message);
    if (line == nullptr) return;

    TBModule *wrong = nullptr;
    check(TBModuleInitWithFileAtPath(path.c_str(), &wrong, nullptr) == TBStatusNotADigitModel && wrong == nullptr,
          "the digit init refuses the line model");
    check(TBLineModuleInitWithFileAtPath(digitModelPath.c_str(), &wrong, nullptr) == TBStatusNotADigitModel &&
              wrong == nullptr,
          "the line init refuses the digit model");

    // Runs of three sample digits.
    const size_t runs = labels.size() / 3, width = 3 * TB_IMAGE_SIDE;
    std::vector<float> pixels(TB_LINE_HEIGHT * width), frames(width * TB_LINE_CLASS_COUNT);
    size_t right = 0;
    bool sane = true;
    for (size_t r = 0; r < runs; ++r) {
        std::string expected;
        for (size_t sample = 3 * r; sample < 3 * r + 3; ++sample) expected += static_cast<char>('0' + labels[sample]);
        pixels = lineOfSamples(tensors, {3 * r, 3 * r + 1, 3 * r + 2});
        size_t count = 0;
        status = TBLineModuleRead(line, pixels.data(), width, frames.data(), frames.size(), &count, nullptr);
        sane = sane && status == TBStatusOK && count >= 1 && count <= width;
        if (!sane) break;
        right += greedyText(frames, count) == expected;
    }
    check(sane, "reads runs of 84 columns into 1 to 84 frames");
    check(right * 100 >= runs * 90, "runs of three digits read right: " + std::to_string(right) + "/" + std::to_string(runs));

    size_t count = 0;
    check(TBLineModuleRead(line, pixels.data(), TB_LINE_MIN_WIDTH - 1, frames.data(), frames.size(), &count, nullptr) ==
              TBStatusInvalidArgument,
          "refuses a line narrower than TB_LINE_MIN_WIDTH");
    check(TBLineModuleRead(line, pixels.data(), TB_LINE_MAX_WIDTH + 1, frames.data(), frames.size(), &count, nullptr) ==
              TBStatusInvalidArgument,
          "refuses a line wider than TB_LINE_MAX_WIDTH");
    check(TBLineModuleRead(line, pixels.data(), width, frames.data(), TB_LINE_CLASS_COUNT, &count, &message) ==
                  TBStatusInferenceFailed &&
              message != nullptr && count == 0,
          "refuses to write more frames than the buffer holds");
    TBMessageFree(message);
    TBModuleFree(line);
}

/// The ink-locator functions: a valid locator's map, what its init and the
/// digit init refuse of each other, sides out of range, NaN at run time.
void testLocator(const std::string &models, const std::string &digitModelPath) {
    TBModule *locator = nullptr;
    char *message = nullptr;
    const std::string everywhere = models + "/locator-everywhere.pt";
    check(TBLocatorModuleInitWithFileAtPath(everywhere.c_str(), &locator, &message) == TBStatusOK && locator != nullptr,
          "loads locator " + everywhere + (message ? std::string(": ") + message : ""));
    TBMessageFree(message);
    if (locator == nullptr) return;
    std::vector<float> picture(48 * 32, 0.5f), map(48 * 32, -1.0f);
    bool ones = TBLocatorModuleLocate(locator, picture.data(), 48, 32, map.data(), nullptr) == TBStatusOK;
    for (float p : map) ones = ones && p == 1.0f;
    check(ones, "a 48x32 picture gives a 48x32 map");
    for (auto [width, height] : {std::pair<size_t, size_t>{8, 32}, {32, TB_LOCATOR_MAX_SIDE + 8}, {36, 32}}) {
        check(TBLocatorModuleLocate(locator, picture.data(), width, height, map.data(), nullptr) == TBStatusInvalidArgument,
              "refuses a " + std::to_string(width) + "x" + std::to_string(height) + " picture");
    }
    TBModule *wrong = nullptr;
    check(TBModuleInitWithFileAtPath(everywhere.c_str(), &wrong, nullptr) == TBStatusNotADigitModel && wrong == nullptr,
          "the digit init refuses the locator");
    check(TBLocatorModuleInitWithFileAtPath(digitModelPath.c_str(), &wrong, nullptr) == TBStatusNotADigitModel &&
              wrong == nullptr,
          "the locator init refuses the digit model");
    const std::string halfSize = models + "/locator-half-size.pt";
    check(TBLocatorModuleInitWithFileAtPath(halfSize.c_str(), &wrong, nullptr) == TBStatusNotADigitModel && wrong == nullptr,
          "refuses a locator whose map is half the picture's size");
    TBModuleFree(locator);

    const std::string nanOnInk = models + "/locator-nan-on-ink.pt";
    check(TBLocatorModuleInitWithFileAtPath(nanOnInk.c_str(), &locator, nullptr) == TBStatusOK, "loads " + nanOnInk);
    check(TBLocatorModuleLocate(locator, picture.data(), 48, 32, map.data(), &message) == TBStatusInferenceFailed &&
              message != nullptr,
          "a map of NaN fails the forward pass");
    TBMessageFree(message);
    TBModuleFree(locator);
}

/// A digit model with an 11th class, "not a digit": 11 scores per image.
void testRejectionClass(const std::string &models, const std::vector<float> &tensors) {
    TBModule *module = nullptr;
    const std::string path = models + "/rejection-logits.pt";
    check(TBModuleInitWithFileAtPath(path.c_str(), &module, nullptr) == TBStatusOK &&
              TBModuleClassCount(module) == TB_CLASS_COUNT_WITH_REJECTION,
          "loads an 11-class model and counts 11 classes");
    if (module == nullptr) return;
    std::vector<float> scores(2 * TB_CLASS_COUNT_WITH_REJECTION + 1, 7.0f);
    check(TBModulePredictImages(module, tensors.data(), 2, scores.data(), nullptr) == TBStatusOK &&
              scores.back() == 7.0f,
          "writes 11 log-probabilities per image and not one more");
    double total = 0;
    for (int c = 0; c < TB_CLASS_COUNT_WITH_REJECTION; ++c) total += std::exp(scores[c]);
    check(std::fabs(total - 1) < 1e-4, "its 11 probabilities sum to 1");
    check(TBModuleClassCount(nullptr) == 0, "counts no classes of NULL");
    TBModuleFree(module);
}

/// A model saved frozen runs as it was saved, and answers as the same
/// weights saved plain do.
void testFrozenModel(const std::string &models, const std::vector<float> &tensors) {
    TBModule *frozen = nullptr, *plain = nullptr;
    check(TBModuleInitWithFileAtPath((models + "/frozen-logits.pt").c_str(), &frozen, nullptr) == TBStatusOK &&
              TBModuleInitWithFileAtPath((models + "/logits.pt").c_str(), &plain, nullptr) == TBStatusOK,
          "loads a model saved frozen and the same saved plain");
    if (frozen == nullptr || plain == nullptr) return;
    check(TBModuleIsOptimized(frozen) == 0 && TBModuleIsOptimized(plain) == 1 && TBModuleIsOptimized(nullptr) == 0,
          "runs the frozen one as saved and optimizes the plain one");
    std::vector<float> a(4 * TB_CLASS_COUNT), b(4 * TB_CLASS_COUNT);
    const bool ran = TBModulePredictImages(frozen, tensors.data(), 4, a.data(), nullptr) == TBStatusOK &&
                     TBModulePredictImages(plain, tensors.data(), 4, b.data(), nullptr) == TBStatusOK;
    const float worst = ran ? largestDifference(a, b) : INFINITY;
    check(worst <= 1e-4f, "both answer alike (max difference " + std::to_string(worst) + ")");
    TBModuleFree(frozen);
    TBModuleFree(plain);
}

/// A model that passes the probe but fails, or answers NaN, on a picture
/// with ink cannot be compared with its optimized form, and runs as saved.
void testNotOptimizedWhenUncomparable(const std::string &models) {
    for (const char *name : {"fails-on-ink", "nan-on-ink"}) {
        TBModule *module = nullptr;
        const std::string path = models + "/" + name + ".pt";
        check(TBModuleInitWithFileAtPath(path.c_str(), &module, nullptr) == TBStatusOK &&
                  TBModuleIsOptimized(module) == 0,
              std::string("loads ") + name + ".pt and runs it as saved");
        TBModuleFree(module);
    }
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: %s MODEL SAMPLE_DIR BAD_MODELS_DIR LINE_MODEL\n", argv[0]);
        return 2;
    }
    const std::string modelPath = argv[1], samples = argv[2], badModels = argv[3], lineModelPath = argv[4];

    TBModule *module = nullptr;
    char *message = nullptr;
    TBStatus status = TBModuleInitWithFileAtPath(modelPath.c_str(), &module, &message);
    check(status == TBStatusOK && module != nullptr && message == nullptr,
          "loads " + modelPath + (message ? std::string(": ") + message : ""));
    TBMessageFree(message);
    if (module == nullptr) return 1;

    std::vector<float> tensors = readFloats(samples + "/tensors.f32");
    std::vector<float> golden = readFloats(samples + "/logprobs.f32");
    std::vector<int> labels = readLabels(samples + "/samples.tsv");
    const size_t count = labels.size();
    const int classes = TBModuleClassCount(module);
    check(classes == TB_CLASS_COUNT || classes == TB_CLASS_COUNT_WITH_REJECTION,
          "counts its classes: " + std::to_string(classes));
    check(count >= 100 && tensors.size() == count * TB_IMAGE_FLOATS && golden.size() == count * classes,
          "reads " + std::to_string(count) + " MNIST samples");
    if (failures) return 1;

    // One image at a time: the golden log-probabilities within 1e-4.
    std::vector<float> single(count * classes);
    size_t correct = 0, agree = 0;
    bool ran = true;
    for (size_t i = 0; i < count; ++i) {
        float *out = &single[i * classes];
        if (TBModulePredictImage(module, &tensors[i * TB_IMAGE_FLOATS], out, nullptr) != TBStatusOK) {
            ran = false;
            check(false, "predicts sample " + std::to_string(i));
            break;
        }
        correct += argmax(out, classes) == labels[i];
        agree += argmax(out, classes) == argmax(&golden[i * classes], classes);
    }
    const float worst = ran ? largestDifference(single, golden) : INFINITY;
    check(worst <= 1e-4f, "log-probabilities match Python torch (max difference " + std::to_string(worst) + ")");
    check(agree == count, "predicted digits match Python torch on " + std::to_string(agree) + "/" + std::to_string(count));
    check(correct * 100 >= count * 98, "labels right on " + std::to_string(correct) + "/" + std::to_string(count));

    // One batch: the same numbers as one at a time.
    std::vector<float> batch(count * classes);
    status = TBModulePredictImages(module, tensors.data(), count, batch.data(), nullptr);
    const float batchWorst = largestDifference(batch, single);
    check(status == TBStatusOK && batchWorst <= 1e-4f,
          "batch of " + std::to_string(count) + " equals single predictions (max difference " + std::to_string(batchWorst) + ")");

    // Arguments the header forbids are refused, not crashed on.
    check(TBModulePredictImages(module, tensors.data(), 0, batch.data(), nullptr) == TBStatusInvalidArgument,
          "refuses a zero count");
    check(TBSetThreadCount(0, nullptr) == TBStatusInvalidArgument, "refuses zero threads");
    check(TBSetThreadCount(1, nullptr) == TBStatusOK && TBThreadCount() == 1, "sets one thread");
    TBModuleFree(module);
    TBModuleFree(nullptr);
    testLineModel(lineModelPath, modelPath, tensors, labels);
    testLocator(badModels, modelPath);
    testRejectionClass(badModels, tensors);
    testFrozenModel(badModels, tensors);
    testNotOptimizedWhenUncomparable(badModels);
    TBMessageFree(nullptr);

    expectRefused(badModels + "/wrong-shape.pt", TBStatusNotADigitModel);
    expectRefused(badModels + "/tuple-output.pt", TBStatusNotADigitModel);
    expectRefused(badModels + "/three-channels.pt", TBStatusNotADigitModel);
    expectRefused(badModels + "/raises.pt", TBStatusNotADigitModel);
    expectRefused(badModels + "/does-not-exist.pt", TBStatusLoadFailed);
    // Why a file is not a model, told by status (DigitKit words each for users).
    expectRefused(samples + "/samples.tsv", TBStatusNotAnArchive);
    expectRefused(badModels + "/random-bytes.pt", TBStatusNotAnArchive);
    expectRefused(badModels + "/not-torchscript.pt", TBStatusNotAPyTorchArchive);
    expectRefused(badModels + "/state-dict.pt", TBStatusSavedWithTorchSave);
    expectRefused(badModels + "/newer-pytorch.pt", TBStatusNewerFileFormat);
    check(TBBridgeInterfaceVersion() == TB_BRIDGE_INTERFACE_VERSION, "reports its interface version");
    check(std::strcmp(TBTorchVersion(), TORCH_VERSION) == 0, "reports the libtorch version of its headers");

    std::printf("%s\n", failures ? "bridge test FAILED" : "bridge test passed");
    return failures ? 1 : 0;
}
