// Tests TorchBridge through its C header alone, as Swift uses it.
//
// usage: bridge_test MODEL SAMPLE_DIR BAD_MODELS_DIR
//   MODEL           the shipped digit model (Models/digits.pt)
//   SAMPLE_DIR      the MNIST sample fixtures (samples.tsv, tensors.f32, logprobs.f32)
//   BAD_MODELS_DIR  the test models that must be refused

#include "TorchBridge.h"

#include <torch/version.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const std::string &what) {
    std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
    if (!ok) ++failures;
}

std::vector<float> readFloats(const std::string &path) {
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file) return {};
    std::vector<float> values(static_cast<size_t>(file.tellg()) / sizeof(float));
    file.seekg(0);
    file.read(reinterpret_cast<char *>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)));
    return values;
}

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

int argmax(const float *scores) {
    int best = 0;
    for (int i = 1; i < TB_CLASS_COUNT; ++i)
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

} // namespace

int main(int argc, char **argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s MODEL SAMPLE_DIR BAD_MODELS_DIR\n", argv[0]);
        return 2;
    }
    const std::string modelPath = argv[1], samples = argv[2], badModels = argv[3];

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
    check(count >= 100 && tensors.size() == count * TB_IMAGE_FLOATS && golden.size() == count * TB_CLASS_COUNT,
          "reads " + std::to_string(count) + " MNIST samples");
    if (failures) return 1;

    // One image at a time: the golden log-probabilities within 1e-4.
    std::vector<float> single(count * TB_CLASS_COUNT);
    float worst = 0;
    size_t correct = 0, agree = 0;
    for (size_t i = 0; i < count; ++i) {
        float *out = &single[i * TB_CLASS_COUNT];
        if (TBModulePredictImage(module, &tensors[i * TB_IMAGE_FLOATS], out, nullptr) != TBStatusOK) {
            check(false, "predicts sample " + std::to_string(i));
            break;
        }
        for (int c = 0; c < TB_CLASS_COUNT; ++c)
            worst = std::fmax(worst, std::fabs(out[c] - golden[i * TB_CLASS_COUNT + c]));
        correct += argmax(out) == labels[i];
        agree += argmax(out) == argmax(&golden[i * TB_CLASS_COUNT]);
    }
    check(worst <= 1e-4f, "log-probabilities match Python torch (max difference " + std::to_string(worst) + ")");
    check(agree == count, "predicted digits match Python torch on " + std::to_string(agree) + "/" + std::to_string(count));
    check(correct * 100 >= count * 98, "labels right on " + std::to_string(correct) + "/" + std::to_string(count));

    // One batch: the same numbers as one at a time.
    std::vector<float> batch(count * TB_CLASS_COUNT);
    status = TBModulePredictImages(module, tensors.data(), count, batch.data(), nullptr);
    float batchWorst = 0;
    for (size_t i = 0; i < batch.size(); ++i) batchWorst = std::fmax(batchWorst, std::fabs(batch[i] - single[i]));
    check(status == TBStatusOK && batchWorst <= 1e-4f,
          "batch of " + std::to_string(count) + " equals single predictions (max difference " + std::to_string(batchWorst) + ")");

    // Arguments the header forbids are refused, not crashed on.
    check(TBModulePredictImages(module, tensors.data(), 0, batch.data(), nullptr) == TBStatusInvalidArgument,
          "refuses a zero count");
    check(TBSetThreadCount(0, nullptr) == TBStatusInvalidArgument, "refuses zero threads");
    check(TBSetThreadCount(1, nullptr) == TBStatusOK && TBThreadCount() == 1, "sets one thread");
    TBModuleFree(module);
    TBModuleFree(nullptr);
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
