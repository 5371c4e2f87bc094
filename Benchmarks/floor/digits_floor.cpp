// The C++ floor for the benchmarks: what libtorch does with no Swift, no
// bridge and no preprocessing beyond the plain ToTensor + Normalize.
//
//   digits_floor throughput MODEL IMAGES_IDX BATCH THREADS COUNT
//       Builds COUNT normalized tensors from an IDX images file (gzipped or
//       raw) first, then times only the forward passes, BATCH images at a
//       time on THREADS intra-op threads. Prints "images_per_second <n>".
//   digits_floor classify MODEL PNG
//       Decodes a 28x28 PNG (libpng simplified API), normalizes it and
//       prints its digit: a whole process's time to first result.
//
// The floor runs the model frozen and optimized for inference, as the bridge
// does (TorchBridge.cpp, optimizedForInference). It uses the same malloc
// policy as digits, by calling the same function (TBRetainFreedMemory,
// TorchBridge/AllocatorTuning.cpp; nothing else of the bridge is used):
// freed memory is kept for the next forward pass. Left
// to glibc's defaults, whether a floor run pays for page faults on every
// batch depends on where its heap top happens to lie.

#include <torch/script.h>
#include <ATen/Parallel.h>

#include <png.h>
#include <zlib.h>

#include "TorchBridge.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr float kMean = 0.1307f, kStd = 0.3081f;

std::vector<uint8_t> readIdxImages(const char *path, int count) {
    gzFile file = gzopen(path, "rb");
    if (!file) throw std::runtime_error(std::string("cannot open ") + path);
    unsigned char header[16];
    if (gzread(file, header, 16) != 16) throw std::runtime_error("truncated header");
    std::vector<uint8_t> pixels(static_cast<size_t>(count) * 784);
    if (gzread(file, pixels.data(), static_cast<unsigned>(pixels.size())) != static_cast<int>(pixels.size()))
        throw std::runtime_error("too few images");
    gzclose(file);
    return pixels;
}

/// The model at `path` in eval mode, optimized for inference as the bridge
/// runs the shipped models (TorchBridge.cpp, optimizedForInference).
torch::jit::Module loadedAsTheBridgeRunsIt(const char *path) {
    torch::jit::Module model = torch::jit::load(path);
    model.eval();
    if (!model.type()->hasAttribute("training")) return model;
    try {
        return torch::jit::optimize_for_inference(model);
    } catch (...) {
        return model;
    }
}

int throughput(const char *modelPath, const char *images, int batch, int threads, int count) {
    at::set_num_threads(threads);
    torch::jit::Module model = loadedAsTheBridgeRunsIt(modelPath);
    std::vector<uint8_t> pixels = readIdxImages(images, count);
    at::Tensor all = torch::from_blob(pixels.data(), {count, 1, 28, 28}, torch::kUInt8).to(torch::kFloat).div(255).sub(kMean).div(kStd);
    c10::InferenceMode guard;
    model.forward({all.narrow(0, 0, std::min(batch, count))});  // warm-up, as digits' load probe is
    auto start = std::chrono::steady_clock::now();
    int64_t sink = 0;
    for (int first = 0; first < count; first += batch) {
        int n = std::min(batch, count - first);
        at::Tensor out = model.forward({all.narrow(0, first, n)}).toTensor();
        sink += out.argmax(1).sum().item<int64_t>();
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("images_per_second %.1f\n", count / seconds);
    return sink < 0;  // keep the work observable
}

int classify(const char *modelPath, const char *pngPath) {
    torch::jit::Module model = loadedAsTheBridgeRunsIt(modelPath);
    png_image image;
    std::memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, pngPath)) throw std::runtime_error(image.message);
    image.format = PNG_FORMAT_GRAY;
    std::vector<uint8_t> gray(PNG_IMAGE_SIZE(image));
    if (!png_image_finish_read(&image, nullptr, gray.data(), 0, nullptr)) throw std::runtime_error(image.message);
    if (image.width != 28 || image.height != 28) throw std::runtime_error("the floor classifies 28x28 PNGs only");
    c10::InferenceMode guard;
    at::Tensor input = torch::from_blob(gray.data(), {1, 1, 28, 28}, torch::kUInt8).to(torch::kFloat).div(255).sub(kMean).div(kStd);
    at::Tensor out = model.forward({input}).toTensor();
    std::printf("%s: %lld\n", pngPath, static_cast<long long>(out.argmax(1).item<int64_t>()));
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    TBRetainFreedMemory();
    try {
        if (argc == 7 && std::strcmp(argv[1], "throughput") == 0)
            return throughput(argv[2], argv[3], std::atoi(argv[4]), std::atoi(argv[5]), std::atoi(argv[6]));
        if (argc == 4 && std::strcmp(argv[1], "classify") == 0) return classify(argv[2], argv[3]);
    } catch (const std::exception &error) {
        std::fprintf(stderr, "digits_floor: %s\n", error.what());
        return 1;
    }
    std::fprintf(stderr, "usage: digits_floor throughput MODEL IMAGES_IDX BATCH THREADS COUNT\n"
                         "       digits_floor classify MODEL PNG\n");
    return 2;
}
