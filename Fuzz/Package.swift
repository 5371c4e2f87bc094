// swift-tools-version:6.0
// The libFuzzer targets over DigitKit's decode + preprocess path and its
// stream readers (concatenated images, lists of paths). Kept out of
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
    ]
)
