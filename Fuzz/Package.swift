// swift-tools-version: 6.0
import PackageDescription

// The libFuzzer executable for every parser of input, built with AddressSanitizer by `make fuzz`
// (scripts/fuzz). A package of its own: --sanitize=fuzzer gives every executable libFuzzer's
// main, which the CLI and the test runner must not have.
let package = Package(
    name: "PushPreviewFuzz",
    dependencies: [.package(name: "PushPreview", path: "..")],
    targets: [.executableTarget(name: "fuzz-target", dependencies: [.product(name: "FuzzTargets", package: "PushPreview")], path: "Sources/fuzz-target")]
)
