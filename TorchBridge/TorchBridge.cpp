// TorchBridge: the C functions of TorchBridge.h, implemented over torch::jit.
//
// Every exported function runs its body inside `guarded`, which catches
// c10::Error, std::bad_alloc, std::exception and `...`, so no C++ exception
// ever unwinds into a Swift (or C) frame.

#include "TorchBridge.h"

#include <torch/script.h>
#include <torch/version.h>
#include <ATen/Parallel.h>
#include <caffe2/serialize/inline_container.h>
#include <caffe2/serialize/versions.h>

#include <dlfcn.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <cstring>
#include <fstream>
#include <new>
#include <sstream>
#include <string>
#include <vector>

struct TBModule {
    // torch::jit::Module is a reference-counted handle; `forward` is not
    // const, but running it under InferenceMode does not change the module.
    mutable torch::jit::Module module;
    // Scores per image of a digit model (TB_CLASS_COUNT or
    // TB_CLASS_COUNT_WITH_REJECTION), set by its probe; unused otherwise.
    int classCount = TB_CLASS_COUNT;
    // Whether `module` is the optimized form of the file's (optimizedForInference).
    bool optimized = false;
};

namespace {

constexpr size_t kMaxMessageLength = 400;

/// Copies `text` into a malloc'd C string for the caller (NULL if malloc fails).
char *copyMessage(const std::string &text) {
    char *copy = static_cast<char *>(std::malloc(text.size() + 1));
    if (copy != nullptr) {
        std::memcpy(copy, text.c_str(), text.size() + 1);
    }
    return copy;
}

std::string trim(const std::string &text) {
    const char *space = " \t\r\n";
    size_t first = text.find_first_not_of(space);
    if (first == std::string::npos) return "";
    size_t last = text.find_last_not_of(space);
    return text.substr(first, last - first + 1);
}

/// Reduces a libtorch error text to one line. TorchScript interpreter errors
/// carry a traceback whose last "SomethingError: ..." line is the cause;
/// other errors lead with their cause on the first line.
std::string oneLine(const std::string &text) {
    std::vector<std::string> lines;
    std::istringstream stream(text);
    for (std::string line; std::getline(stream, line);) {
        line = trim(line);
        if (!line.empty()) lines.push_back(line);
    }
    if (lines.empty()) return "unknown error";
    std::string chosen = lines.front();
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
        size_t colon = it->find("Error: ");
        if (colon != std::string::npos && it->find(' ') > colon) {
            chosen = *it;
            break;
        }
    }
    if (chosen.size() > kMaxMessageLength) chosen = chosen.substr(0, kMaxMessageLength) + "...";
    return chosen;
}

/// A failure raised inside the bridge itself, with the status to report.
struct BridgeFailure {
    TBStatus status;
    std::string message;
};

void setMessage(char **outMessage, const std::string &message) {
    if (outMessage != nullptr) *outMessage = copyMessage(message);
}

/// Runs `body`, translating every exception into a status and message.
/// `context` prefixes messages from libtorch (for example "cannot load model").
template <typename Body>
TBStatus guarded(char **outMessage, TBStatus failureStatus, const char *context, Body body) {
    if (outMessage != nullptr) *outMessage = nullptr;
    try {
        body();
        return TBStatusOK;
    } catch (const BridgeFailure &failure) {
        setMessage(outMessage, failure.message);
        return failure.status;
    } catch (const std::bad_alloc &) {
        setMessage(outMessage, std::string(context) + ": out of memory");
        return TBStatusOutOfMemory;
    } catch (const c10::Error &error) {
        setMessage(outMessage, std::string(context) + ": " + oneLine(error.what_without_backtrace()));
        return failureStatus;
    } catch (const std::exception &error) {
        setMessage(outMessage, std::string(context) + ": " + oneLine(error.what()));
        return failureStatus;
    } catch (...) {
        setMessage(outMessage, std::string(context) + ": unknown C++ exception");
        return failureStatus;
    }
}

std::string describeShape(const at::Tensor &tensor) {
    std::ostringstream text;
    text << "[";
    for (int64_t i = 0; i < tensor.dim(); ++i) text << (i ? ", " : "") << tensor.size(i);
    text << "]";
    return text.str();
}

/// Names what a forward returned, for messages: "a Long tensor of shape [1, 3]".
std::string describe(const c10::IValue &value) {
    if (value.isTensor()) {
        const at::Tensor &tensor = value.toTensor();
        return std::string("a ") + c10::toString(tensor.scalar_type()) + " tensor of shape " + describeShape(tensor);
    }
    if (value.isTuple()) return "a tuple of " + std::to_string(value.toTupleRef().elements().size()) + " elements";
    if (value.isList()) return "a list";
    if (value.isNone()) return "None";
    return std::string("a value of type ") + value.tagKind();
}

/// The [count, classes] float scores of `output`, or a BridgeFailure naming
/// what came instead. `classes` 0 accepts either count a digit model may
/// have (the probe, which learns it).
at::Tensor checkedScores(const c10::IValue &output, int64_t count, int64_t classes, TBStatus status) {
    bool ok = output.isTensor() && at::isFloatingType(output.toTensor().scalar_type()) &&
              output.toTensor().dim() == 2 && output.toTensor().size(0) == count;
    if (ok) {
        int64_t got = output.toTensor().size(1);
        ok = classes == 0 ? (got == TB_CLASS_COUNT || got == TB_CLASS_COUNT_WITH_REJECTION) : got == classes;
    }
    if (!ok) {
        std::ostringstream text;
        text << "not a digit model: expected forward to return a float tensor of shape [" << count << ", ";
        if (classes == 0) {
            text << TB_CLASS_COUNT << "] or [" << count << ", " << TB_CLASS_COUNT_WITH_REJECTION;
        } else {
            text << classes;
        }
        text << "], got " << describe(output);
        throw BridgeFailure{status, text.str()};
    }
    return output.toTensor();
}

/// Throws a BridgeFailure with `status` when `logProbabilities` holds a NaN.
/// A model whose scores are NaN or +infinity (log_softmax turns both into
/// NaN) has failed: its answer must not pass for a confident digit. A score
/// of -infinity is a class the model rules out, and stays.
void requireFinite(const at::Tensor &logProbabilities, TBStatus status) {
    if (at::isnan(logProbabilities).any().item<bool>()) {
        const char *context = status == TBStatusNotADigitModel ? "not a digit model: probe forward" : "forward pass";
        throw BridgeFailure{status, std::string(context) + " returned scores that are not finite numbers (NaN or infinity)"};
    }
}

/// Runs `count` images through the model and writes their log-probabilities,
/// `classes` per image (0 for the probe, which accepts either count);
/// returns the number of classes.
int64_t forward(const TBModule *module, const float *pixels, size_t count, float *logProbabilities, int64_t classes,
                TBStatus shapeStatus) {
    c10::InferenceMode inferenceMode;
    const auto n = static_cast<int64_t>(count);
    // Copy the input: a model may modify its argument in place, and the
    // caller's buffer is const.
    at::Tensor input = torch::from_blob(const_cast<float *>(pixels), {n, 1, TB_IMAGE_SIDE, TB_IMAGE_SIDE},
                                        torch::kFloat)
                           .clone();
    c10::IValue output = module->module.forward({input});
    at::Tensor scores = checkedScores(output, n, classes, shapeStatus);
    at::Tensor logProbs = torch::log_softmax(scores.to(torch::kFloat), 1).contiguous();
    requireFinite(logProbs, shapeStatus);
    const int64_t got = scores.size(1);
    std::memcpy(logProbabilities, logProbs.data_ptr<float>(), sizeof(float) * count * static_cast<size_t>(got));
    return got;
}

/// Runs one picture through an ink locator and writes its per-pixel
/// probabilities, or throws a BridgeFailure with `shapeStatus` when the
/// model returns another shape or values outside 0-1.
void locate(const TBModule *module, const float *pixels, size_t width, size_t height, float *probabilities,
            TBStatus shapeStatus) {
    c10::InferenceMode inferenceMode;
    const auto w = static_cast<int64_t>(width), h = static_cast<int64_t>(height);
    at::Tensor input = torch::from_blob(const_cast<float *>(pixels), {1, 1, h, w}, torch::kFloat).clone();
    c10::IValue output = module->module.forward({input});
    const bool ok = output.isTensor() && at::isFloatingType(output.toTensor().scalar_type()) &&
                    output.toTensor().dim() == 4 && output.toTensor().size(0) == 1 &&
                    output.toTensor().size(1) == 1 && output.toTensor().size(2) == h && output.toTensor().size(3) == w;
    if (!ok) {
        std::ostringstream text;
        text << "not an ink locator: expected forward to return a float tensor of shape [1, 1, " << h << ", " << w
             << "], got " << describe(output);
        throw BridgeFailure{shapeStatus, text.str()};
    }
    at::Tensor map = output.toTensor().to(torch::kFloat).contiguous();
    // NaN fails both comparisons, so this also refuses it.
    if (!(map.ge(0).logical_and(map.le(1))).all().item<bool>()) {
        throw BridgeFailure{shapeStatus, "ink locator returned values that are not probabilities from 0 to 1"};
    }
    std::memcpy(probabilities, map.data_ptr<float>(), sizeof(float) * width * height);
}

/// Why `path` cannot be a TorchScript model, found before torch::jit::load
/// so that the caller gets a status instead of libtorch's text: throws a
/// BridgeFailure for a file that is not a zip archive, not PyTorch's, written
/// by torch.save, or by a newer PyTorch. Returns for anything else, which
/// torch::jit::load then judges.
void classifyArchive(const char *path) {
    char signature[4] = {};
    std::ifstream file(path, std::ios::binary);
    if (!file.read(signature, sizeof signature) || std::memcmp(signature, "PK", 2) != 0) {
        // Unreadable files are left to torch::jit::load, which names the cause.
        if (file.is_open()) throw BridgeFailure{TBStatusNotAnArchive, "not a zip archive"};
        return;
    }
    std::unique_ptr<caffe2::serialize::PyTorchStreamReader> reader;
    try {
        reader = std::make_unique<caffe2::serialize::PyTorchStreamReader>(std::string(path));
    } catch (const c10::Error &error) {
        // The reader checks the version record in its constructor and says
        // why only in its message; these texts are libtorch's (1.x and 2.x).
        const std::string text = error.what_without_backtrace();
        const std::string newer = "Attempted to read a PyTorch file with version ";
        size_t at = text.find(newer);
        if (at != std::string::npos) {
            std::string version;
            for (size_t i = at + newer.size(); i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
                version += text[i];
            }
            throw BridgeFailure{TBStatusNewerFileFormat,
                                "file format version " + (version.empty() ? "unknown" : version) +
                                    ", this libtorch reads up to " +
                                    std::to_string(caffe2::serialize::kMaxSupportedFileFormatVersion)};
        }
        // Any other complaint naming the version record: there is none.
        if (text.find("version") != std::string::npos) {
            throw BridgeFailure{TBStatusNotAPyTorchArchive, "a zip archive without PyTorch's version record"};
        }
        return;
    }
    if (!reader->hasRecord("constants.pkl") && reader->hasRecord("data.pkl")) {
        throw BridgeFailure{TBStatusSavedWithTorchSave, "a torch.save archive: data.pkl without TorchScript code"};
    }
}

/// The status for a torch::jit::load failure: an unknown operator or type
/// (libtorch says so only in its message), or a plain load failure.
TBStatus loadFailureStatus(const std::string &text) {
    bool unknown = text.find("Unknown builtin op") != std::string::npos ||
                   text.find("Unknown type name") != std::string::npos;
    return unknown ? TBStatusUnknownOperator : TBStatusLoadFailed;
}

/// Runs one line image of `width` columns through a line model and writes
/// its [frames, 11] log-probabilities; returns the number of frames, or
/// throws a BridgeFailure with `shapeStatus` naming what came instead.
size_t readLine(const TBModule *module, const float *pixels, size_t width, float *logProbabilities, size_t capacity,
                TBStatus shapeStatus) {
    c10::InferenceMode inferenceMode;
    const auto columns = static_cast<int64_t>(width);
    at::Tensor input =
        torch::from_blob(const_cast<float *>(pixels), {1, 1, TB_LINE_HEIGHT, columns}, torch::kFloat).clone();
    c10::IValue output = module->module.forward({input});
    const bool ok = output.isTensor() && at::isFloatingType(output.toTensor().scalar_type()) &&
                    output.toTensor().dim() == 3 && output.toTensor().size(0) == 1 &&
                    output.toTensor().size(1) >= 1 && output.toTensor().size(1) <= columns &&
                    output.toTensor().size(2) == TB_LINE_CLASS_COUNT;
    if (!ok) {
        std::ostringstream text;
        text << "not a line model: expected forward to return a float tensor of shape [1, T, " << TB_LINE_CLASS_COUNT
             << "] with 1 <= T <= " << columns << ", got " << describe(output);
        throw BridgeFailure{shapeStatus, text.str()};
    }
    const auto frames = static_cast<size_t>(output.toTensor().size(1));
    if (frames * TB_LINE_CLASS_COUNT > capacity) {
        throw BridgeFailure{shapeStatus, "line model returned " + std::to_string(frames) +
                                             " frames, more than the caller's buffer holds"};
    }
    at::Tensor logProbs = torch::log_softmax(output.toTensor().to(torch::kFloat), 2).contiguous();
    requireFinite(logProbs, shapeStatus);
    std::memcpy(logProbabilities, logProbs.data_ptr<float>(), sizeof(float) * frames * TB_LINE_CLASS_COUNT);
    return frames;
}

/// The module to run in place of `module` (in eval mode): frozen and
/// optimized for inference, or `module` itself where libtorch cannot
/// optimize it. Why: freezing folds the batch norms into the convolutions,
/// and where libtorch has oneDNN its convolutions then run on weights packed
/// once, which takes much of the time out of each forward pass (BENCHMARKS.md).
/// Why here and not when the file is saved: libtorch 1.13 does not load such
/// a module back from a file. The optimized module returns the same scores
/// to float rounding (TorchBridge/tests/optimized_twin_test.cpp).
torch::jit::Module optimizedForInference(const torch::jit::Module &module) noexcept {
    try {
        // A module without a "training" attribute was frozen before it was
        // saved: optimize_for_inference would not freeze (and so clone) it,
        // and would change the loaded module's graph in place.
        if (!module.type()->hasAttribute("training")) return module;
        // Only a handle: freezing clones the module, so `module` is not changed.
        torch::jit::Module handle = module;
        return torch::jit::optimize_for_inference(handle);
    } catch (...) {
        // A model libtorch cannot freeze or optimize still runs as it was saved.
        return module;
    }
}

/// `count` grey levels from 0 to 1 that vary from pixel to pixel, the same
/// on every call: an input with "ink" on which to compare two forms of a model.
std::vector<float> patternInput(size_t count) {
    std::vector<float> pixels(count);
    for (size_t i = 0; i < count; ++i) pixels[i] = 0.5f + 0.5f * std::sin(0.37f * static_cast<float>(i));
    return pixels;
}

/// Whether `optimized` gives `plain`'s outputs to float rounding.
bool sameToRounding(const std::vector<float> &plain, const std::vector<float> &optimized) {
    if (plain.size() != optimized.size() || plain.empty()) return false;
    for (size_t i = 0; i < plain.size(); ++i) {
        if (!(std::fabs(plain[i] - optimized[i]) <= 1e-4f * (1 + std::fabs(plain[i])))) return false;
    }
    return true;
}

/// Loads the TorchScript file at `path` in eval mode and checks it with
/// `run(module, pixels)`, which runs `inputFloats` pixels through a module
/// of the kind asked for and returns its outputs, and throws when the model
/// is not of that kind: the probe is an input of zeros. Then keeps the
/// model optimized for inference where that form gives the same outputs
/// for a patterned input. The body of the init functions; `caller` names
/// the function in the message for NULL arguments; `probeContext` prefixes
/// the probe's failures.
template <typename Run>
TBStatus loadChecked(const char *path, TBModule **outModule, char **outMessage, const char *caller,
                     const char *probeContext, size_t inputFloats, Run run) {
    if (outModule != nullptr) *outModule = nullptr;
    if (path == nullptr || outModule == nullptr) {
        if (outMessage != nullptr) *outMessage = copyMessage(std::string(caller) + ": NULL argument");
        return TBStatusInvalidArgument;
    }
    TBModule *loaded = nullptr;
    TBStatus status = guarded(outMessage, TBStatusLoadFailed, "cannot load TorchScript model", [&] {
        classifyArchive(path);
        try {
            loaded = new TBModule{torch::jit::load(path, torch::kCPU)};
        } catch (const c10::Error &error) {
            std::string text = oneLine(error.what_without_backtrace());
            throw BridgeFailure{loadFailureStatus(text), "cannot load TorchScript model: " + text};
        }
        loaded->module.eval();
    });
    if (status == TBStatusOK) {
        status = guarded(outMessage, TBStatusNotADigitModel, probeContext,
                         [&] { run(loaded, std::vector<float>(inputFloats, 0.0f)); });
    }
    if (status == TBStatusOK) {
        // The model is judged as it was saved. Its optimized form replaces it
        // only when it answers a patterned input as the saved form does (which
        // also checks the kind, as the probe does); a model that fails on
        // that input stays as saved.
        TBModule optimized{optimizedForInference(loaded->module), loaded->classCount};
        bool same = false;
        if (optimized.module._ivalue() != loaded->module._ivalue()) {
            guarded(nullptr, TBStatusNotADigitModel, probeContext, [&] {
                const std::vector<float> pattern = patternInput(inputFloats);
                const std::vector<float> saved = run(loaded, pattern), fast = run(&optimized, pattern);
                same = optimized.classCount == loaded->classCount && sameToRounding(saved, fast);
            });
        }
        if (same) {
            loaded->module = optimized.module;
            loaded->optimized = true;
        }
    }
    if (status != TBStatusOK) {
        delete loaded;
        return status;
    }
    *outModule = loaded;
    return TBStatusOK;
}

} // namespace

extern "C" {

TBStatus TBModuleInitWithFileAtPath(const char *path, TBModule **outModule, char **outMessage) {
    return loadChecked(path, outModule, outMessage, "TBModuleInitWithFileAtPath",
                       "not a digit model: probe forward on a [1, 1, 28, 28] input failed", TB_IMAGE_FLOATS,
                       [](TBModule *loaded, const std::vector<float> &pixels) {
                           std::vector<float> scores(TB_CLASS_COUNT_WITH_REJECTION);
                           loaded->classCount = static_cast<int>(
                               forward(loaded, pixels.data(), 1, scores.data(), 0, TBStatusNotADigitModel));
                           scores.resize(static_cast<size_t>(loaded->classCount));
                           return scores;
                       });
}

TBStatus TBLocatorModuleInitWithFileAtPath(const char *path, TBModule **outModule, char **outMessage) {
    constexpr size_t side = 64;
    return loadChecked(path, outModule, outMessage, "TBLocatorModuleInitWithFileAtPath",
                       "not an ink locator: probe forward on a [1, 1, 64, 64] input failed", side * side,
                       [](const TBModule *loaded, const std::vector<float> &pixels) {
                           std::vector<float> map(side * side);
                           locate(loaded, pixels.data(), side, side, map.data(), TBStatusNotADigitModel);
                           return map;
                       });
}

TBStatus TBLocatorModuleLocate(const TBModule *module, const float *pixels, size_t width, size_t height,
                               float *probabilities, char **outMessage) {
    const auto fits = [](size_t side) {
        return side >= TB_LOCATOR_MIN_SIDE && side <= TB_LOCATOR_MAX_SIDE && side % 8 == 0;
    };
    if (module == nullptr || pixels == nullptr || probabilities == nullptr || !fits(width) || !fits(height)) {
        if (outMessage != nullptr) {
            *outMessage = copyMessage("TBLocatorModuleLocate: NULL argument or a side outside " +
                                      std::to_string(TB_LOCATOR_MIN_SIDE) + "-" + std::to_string(TB_LOCATOR_MAX_SIDE) +
                                      " or not a multiple of 8");
        }
        return TBStatusInvalidArgument;
    }
    return guarded(outMessage, TBStatusInferenceFailed, "ink locator forward pass failed", [&] {
        locate(module, pixels, width, height, probabilities, TBStatusInferenceFailed);
    });
}

int TBModuleClassCount(const TBModule *module) {
    return module == nullptr ? 0 : module->classCount;
}

int TBModuleIsOptimized(const TBModule *module) {
    return module != nullptr && module->optimized ? 1 : 0;
}

TBStatus TBLineModuleInitWithFileAtPath(const char *path, TBModule **outModule, char **outMessage) {
    constexpr size_t width = 32;
    return loadChecked(path, outModule, outMessage, "TBLineModuleInitWithFileAtPath",
                       "not a line model: probe forward on a [1, 1, 28, 32] input failed", TB_LINE_HEIGHT * width,
                       [](const TBModule *loaded, const std::vector<float> &pixels) {
                           std::vector<float> scores(width * TB_LINE_CLASS_COUNT);
                           const size_t frames =
                               readLine(loaded, pixels.data(), width, scores.data(), scores.size(), TBStatusNotADigitModel);
                           scores.resize(frames * TB_LINE_CLASS_COUNT);
                           return scores;
                       });
}

TBStatus TBLineModuleRead(const TBModule *module, const float *pixels, size_t width, float *logProbabilities,
                          size_t capacity, size_t *outFrames, char **outMessage) {
    if (outFrames != nullptr) *outFrames = 0;
    if (module == nullptr || pixels == nullptr || logProbabilities == nullptr || outFrames == nullptr ||
        width < TB_LINE_MIN_WIDTH || width > TB_LINE_MAX_WIDTH) {
        if (outMessage != nullptr) {
            *outMessage = copyMessage("TBLineModuleRead: NULL argument or width outside " +
                                      std::to_string(TB_LINE_MIN_WIDTH) + "-" + std::to_string(TB_LINE_MAX_WIDTH));
        }
        return TBStatusInvalidArgument;
    }
    return guarded(outMessage, TBStatusInferenceFailed, "line model forward pass failed", [&] {
        *outFrames = readLine(module, pixels, width, logProbabilities, capacity, TBStatusInferenceFailed);
    });
}

TBStatus TBModulePredictImage(const TBModule *module, const float *pixels, float *logProbabilities,
                              char **outMessage) {
    return TBModulePredictImages(module, pixels, 1, logProbabilities, outMessage);
}

TBStatus TBModulePredictImages(const TBModule *module, const float *pixels, size_t count, float *logProbabilities,
                               char **outMessage) {
    if (module == nullptr || pixels == nullptr || logProbabilities == nullptr || count == 0) {
        if (outMessage != nullptr) *outMessage = copyMessage("TBModulePredictImages: NULL argument or zero count");
        return TBStatusInvalidArgument;
    }
    return guarded(outMessage, TBStatusInferenceFailed, "forward pass failed", [&] {
        forward(module, pixels, count, logProbabilities, module->classCount, TBStatusInferenceFailed);
    });
}

void TBModuleFree(TBModule *module) {
    delete module;
}

void TBMessageFree(char *message) {
    std::free(message);
}

} // extern "C"

/// OpenBLAS (which Debian's libtorch calls for the convolutions' matrix
/// products) keeps a thread pool of its own, sized to the cores and not
/// told of at::set_num_threads: with libtorch on one thread, every forward
/// pass still woke a second OpenBLAS thread, which then spun in
/// sched_yield (64,000 calls and 0.7 s of system time in a 2-second
/// `digits stream` run) on the core the other work needs. Looked up at run
/// time, so that a libtorch on MKL or another BLAS is left alone: in the
/// global scope where the bridge is linked into the program, else among the
/// dependencies of the bridge library, which DigitKit opens RTLD_LOCAL.
static void setBLASThreadCount(int count) {
    using SetThreads = void (*)(int);
    const char *name = "openblas_set_num_threads";
    void *found = dlsym(RTLD_DEFAULT, name);
    Dl_info self;
    if (found == nullptr && dladdr(reinterpret_cast<void *>(&TBSetThreadCount), &self) != 0 && self.dli_fname != nullptr) {
        if (void *library = dlopen(self.dli_fname, RTLD_LAZY | RTLD_NOLOAD)) {
            found = dlsym(library, name);
            dlclose(library);
        }
    }
    if (auto set = reinterpret_cast<SetThreads>(found)) set(count);
}

extern "C" {

TBStatus TBSetThreadCount(int count, char **outMessage) {
    if (count < 1) {
        if (outMessage != nullptr) *outMessage = copyMessage("thread count must be at least 1");
        return TBStatusInvalidArgument;
    }
    return guarded(outMessage, TBStatusInvalidArgument, "cannot set thread count", [&] {
        at::set_num_threads(count);
        setBLASThreadCount(count);
    });
}

int TBThreadCount(void) {
    try {
        return at::get_num_threads();
    } catch (...) {
        return 1;
    }
}

/// The build information TB_BUILD_INFO_PREFIX announces; `used` keeps it in
/// the library although nothing in it reads the array.
__attribute__((used)) extern const char TBBuildInfo[] = TB_BUILD_INFO_PREFIX TORCH_VERSION;

const char *TBTorchVersion(void) {
    return TBBuildInfo + sizeof(TB_BUILD_INFO_PREFIX) - 1;
}

int TBBridgeInterfaceVersion(void) {
    return TB_BRIDGE_INTERFACE_VERSION;
}

} // extern "C"
