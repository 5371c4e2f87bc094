// swift-tools-version:6.0
// The libFuzzer targets over DigitKit's decode + preprocess path, its
// stream readers (concatenated images, lists of paths), its number reader and
// what digits serve parses from a request. Kept out of
// the main package: a libFuzzer entry point has no main() of its own.
// See README.md for how to build and run it.

import PackageDescription

let package = Package(
    name: "digits-fuzz",
    dependencies: [.package(name: "digits", path: "..")],
    targets: [
        .executableTarget(
            name: "DecodeFuzzer",
            dependencies: [.product(name: "DigitKit", package: "digits")],
            // -sanitize=fuzzer,address is given on the command line (README.md),
            // so that DigitKit is instrumented too, not only this target.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "StreamFuzzer",
            dependencies: [.product(name: "DigitKit", package: "digits")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        // The number reader with its models, on drawings its bytes describe
        // (NumberDrawing.swift and ReadingChecks.swift are links to the
        // Swift suite's own, Tests/TestSupport).
        .executableTarget(
            name: "ReadFuzzer",
            dependencies: [.product(name: "DigitKit", package: "digits")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        // What digits serve parses from a request: multipart bodies and raw
        // GRAY WebSocket frames, then each picture decoded and preprocessed.
        .executableTarget(
            name: "RequestFuzzer",
            dependencies: [
                .product(name: "DigitKit", package: "digits"),
                .product(name: "DigitServer", package: "digits"),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
)
