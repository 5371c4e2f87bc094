// swift-tools-version:6.0
// digits: a handwritten-digit recognizer that runs a TorchScript model
// through a small C++ bridge (TorchBridge/) over libtorch.

import Foundation
import PackageDescription

// MARK: Finding libtorch
//
// By default through pkg-config, as SwiftPM finds system libraries: the
// CTorch target names digits-libtorch.pc, which scripts/install-deps writes
// for Debian/Ubuntu's libtorch-dev and scripts/libtorch-pkgconfig for any
// other libtorch (the official LibTorch zip, a pip torch). No target then
// has unsafe flags, so other packages can depend on DigitKit by version.
//
// LIBTORCH=/prefix, a convenience for this checkout only, uses the install
// at prefix directly (prefix/include, prefix/include/torch/csrc/api/include,
// prefix/lib) through unsafe flags, with an rpath to prefix/lib.
let libtorch = Context.environment["LIBTORCH"].flatMap { $0.isEmpty ? nil : $0 }
let torchInclude = libtorch.map { "\($0)/include" } ?? "/usr/include"
/// The system include dir is searched already; naming it again with
/// -isystem would break libstdc++'s #include_next.
let torchIncludeFlags = (libtorch == nil ? [] : ["-isystem", torchInclude])
    + ["-isystem", "\(torchInclude)/torch/csrc/api/include"]

/// libtorch builds come with either C++ ABI of libstdc++; a pre-C++11-ABI
/// build (older pip wheels, LibTorch's "Pre-cxx11 ABI" zip) says so in the
/// compiler flags its CMake config asks for.
let torchUsesOldABI: Bool = {
    guard let prefix = libtorch,
          let config = try? String(contentsOfFile: "\(prefix)/share/cmake/Torch/TorchConfig.cmake", encoding: .utf8)
    else { return false }
    return config.contains("_GLIBCXX_USE_CXX11_ABI=0")
}()

var bridgeFlags = torchIncludeFlags
if torchUsesOldABI { bridgeFlags.append("-D_GLIBCXX_USE_CXX11_ABI=0") }

var torchLinkerSettings: [LinkerSetting] = [
    .linkedLibrary("torch"),
    .linkedLibrary("torch_cpu"),
    .linkedLibrary("c10"),
]
if let prefix = libtorch {
    torchLinkerSettings.append(.unsafeFlags(["-L\(prefix)/lib", "-Xlinker", "-rpath", "-Xlinker", "\(prefix)/lib"]))
}

let package = Package(
    name: "digits",
    // Hummingbird's minimum on Apple platforms; Linux has none.
    platforms: [.macOS(.v14)],
    products: [
        // For packages that depend on DigitKit: the bridge is linked in, so
        // nothing has to be found at run time.
        .library(name: "DigitKit", targets: ["DigitKit", "TorchBridge"]),
        // The bridge as libDigitsTorchBridge.so, which the digits executable
        // opens on first use (TorchBridgeLoader): commands that run no model
        // do not load libtorch. `swift build` builds it with everything else.
        .library(name: "DigitsTorchBridge", type: .dynamic, targets: ["TorchBridge"]),
        // `digits serve` for a Swift program of one's own: DigitServer(configuration:model:...).run.
        .library(name: "DigitServer", targets: ["DigitServer"]),
        .executable(name: "digits", targets: ["digits"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation --target DigitKit` (Sources/DigitKit/DigitKit.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // `digits serve`: the HTTP server, its WebSocket, start and graceful stop, logs and metrics.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // The C++ shim over torch::jit; a plain C header, built standalone by CMakeLists.txt too.
        .target(
            name: "TorchBridge",
            dependencies: libtorch == nil ? ["CTorch"] : [],
            path: "TorchBridge",
            exclude: ["tests"],
            sources: ["TorchBridge.cpp", "AllocatorTuning.cpp"],
            publicHeadersPath: "include",
            cxxSettings: libtorch == nil ? [] : [.unsafeFlags(bridgeFlags)],
            linkerSettings: libtorch == nil ? [] : torchLinkerSettings
        ),
        // libtorch through pkg-config (digits-libtorch.pc), the way SwiftPM
        // finds system libraries, so that a package depending on DigitKit by
        // version builds (no unsafe flags).
        .systemLibrary(
            name: "CTorch",
            path: "Sources/CTorch",
            pkgConfig: "digits-libtorch",
            providers: [.apt(["libtorch-dev"])]
        ),
        // libpng's simplified png_image_* API, found through pkg-config.
        .systemLibrary(
            name: "CLibPNG",
            path: "Sources/CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        // libjpeg-turbo's TurboJPEG API (status codes and error strings, no
        // longjmp through Swift frames), found through pkg-config.
        .systemLibrary(
            name: "CTurboJPEG",
            path: "Sources/CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        // libdeflate, the PNG decoder's whole-buffer inflate for 8-bit
        // non-interlaced pictures (PNGFastPath), found through pkg-config.
        .systemLibrary(
            name: "CLibDeflate",
            path: "Sources/CLibDeflate",
            pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]
        ),
        // zlib, for gzipped MNIST IDX files.
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Finds the bridge at run time: linked in, or libDigitsTorchBridge.so
        // opened with dlopen on first use. Plain C, no libtorch.
        .target(
            name: "TorchBridgeLoader",
            path: "Sources/TorchBridgeLoader",
            linkerSettings: [.linkedLibrary("dl")]
        ),
        // C helpers for system calls Swift's Glibc module does not expose.
        .target(
            name: "CDigitKitShims",
            path: "Sources/CDigitKitShims"
        ),
        // The Swift API: decoding (PNG, JPEG, PNM), preprocessing, the batch run, the ASCII view, the model, datasets.
        .target(
            name: "DigitKit",
            dependencies: ["TorchBridgeLoader", "CLibPNG", "CLibDeflate", "CTurboJPEG", "CZlib", "CDigitKitShims"]
        ),
        // The JSON objects of the CLI's --json output and of the server's
        // answers: one set of Encodable types for both.
        .target(
            name: "DigitsJSON",
            dependencies: ["DigitKit"]
        ),
        // `digits serve`: the HTTP API, the WebSocket stream, dynamic
        // batching, metrics and the page.
        .target(
            name: "DigitServer",
            dependencies: [
                "DigitKit",
                "DigitsJSON",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ]
        ),
        // The `digits` command-line tool.
        .executableTarget(
            name: "digits",
            dependencies: [
                "DigitKit",
                "DigitsJSON",
                "DigitServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Decode and preprocessing speed: swift run -c release preprocess-benchmark
        .executableTarget(
            name: "preprocess-benchmark",
            dependencies: ["DigitKit"],
            path: "Benchmarks/preprocess-benchmark"
        ),
        // The benchmarks that run the model link the bridge in (no
        // libDigitsTorchBridge.so to find), so that `swift run` builds all they need.
        //
        // The split of the cores between preprocessing and libtorch:
        // swift run -c release thread-split FILE_LIST
        .executableTarget(
            name: "thread-split",
            dependencies: ["DigitKit", "TorchBridge"],
            path: "Benchmarks/thread-split"
        ),
        // Memory over 100,000 classifications: swift run -c release memory-soak
        .executableTarget(
            name: "memory-soak",
            dependencies: ["DigitKit", "TorchBridge"],
            path: "Benchmarks/memory-soak"
        ),
        // What the test targets share: the fixtures, running the built
        // `digits`, a server under test, reference decoders and drawings.
        .target(
            name: "TestSupport",
            dependencies: ["DigitKit", "CZlib"],
            path: "Tests/TestSupport"
        ),
        // Units of the library: decoders and container lexers, the pipeline's
        // stages, the number reader, the stream, the model wrappers.
        .testTarget(
            name: "DigitKitTests",
            dependencies: ["DigitKit", "TestSupport"]
        ),
        // The `digits` command end to end, with the README's examples.
        .testTarget(
            name: "DigitsCLITests",
            dependencies: ["DigitKit", "DigitsJSON", "digits", "TestSupport"]
        ),
        // `digits serve`: its HTTP API, WebSocket stream, limits and service.
        .testTarget(
            name: "ServeTests",
            dependencies: ["DigitKit", "DigitsJSON", "DigitServer", "digits", "TestSupport"]
        ),
        // Accuracy floors on whole data sets: MNIST through the pipeline, the
        // real-world pictures, the photos, the numbers, the held-out sample.
        .testTarget(
            name: "AccuracyTests",
            dependencies: ["DigitKit", "digits", "TestSupport"]
        ),
    ],
    cxxLanguageStandard: .cxx17
)
