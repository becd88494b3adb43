// swift-tools-version: 6.0
import PackageDescription

// One folder per pipeline stage (see DESIGN.md); C libraries only behind the C* targets.
let package = Package(
    name: "PushPreview",
    products: [
        .library(name: "PushPreview", targets: ["PushPreview", "Typography", "Templating"]),
        .executable(name: "pushpreview", targets: ["CLI"]),
        .library(name: "FuzzTargets", targets: ["FuzzTargets"]),
        .executable(name: "pushpreview-bench", targets: ["Benchmarks"]),
        .executable(name: "pushpreview-fidelity", targets: ["Fidelity"]),
    ],
    targets: [
        // Native libraries (Debian 12 / Ubuntu 24.04 packages, installed by scripts/install-deps).
        .systemLibrary(name: "CJPEG", path: "Sources/CJPEG"),
        .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng16"),
        .systemLibrary(name: "CGIF", path: "Sources/CGIF"),
        .systemLibrary(name: "CXML2", path: "Sources/CXML2", pkgConfig: "libxml-2.0"),
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto"),
        .systemLibrary(name: "CYAML", path: "Sources/CYAML", pkgConfig: "yaml-0.1"),
        // The live server (`serve`): libmicrohttpd for HTTP/1.1, nghttp2 for HTTP/2, OpenSSL's TLS.
        .systemLibrary(name: "CHTTP", path: "Sources/CHTTP"),
        .systemLibrary(name: "CPango", path: "Sources/CPango", pkgConfig: "pangocairo pangoft2 fontconfig"),
        // Every setjmp/longjmp of libjpeg and libpng lives here, the one door to ICU, every
        // FFmpeg call (media.c, which loads FFmpeg's libraries when a video is first read), and
        // libxml2's one-time setup before main (xml.c).
        .target(
            name: "CShim", dependencies: ["CJPEG", "CPNG", "CGIF"],
            linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16"), .linkedLibrary("gif"), .linkedLibrary("deflate"), .linkedLibrary("m"),
                             .linkedLibrary("icui18n"), .linkedLibrary("icuuc"), .linkedLibrary("xml2")]),

        // The checked number conversions every stage uses, and the one finding type they report.
        .target(name: "Checked", dependencies: ["ConfinedFiles"]),
        // The one gate to the file system for every path an input names (a folder held open,
        // files opened beneath it by openat2), and the paths the person running it named.
        .target(name: "CFiles"),
        .target(name: "ConfinedFiles", dependencies: ["CFiles"]),
        .target(name: "Diagnostics"),
        // The file formats inputs come in, each read by our own reader with a budget and the
        // position of every error: JSON, property lists (XML, binary, OpenStep) and YAML.
        .target(name: "Formats", dependencies: ["Checked", "CXML2", "CYAML", "ConfinedFiles"]),

        // Pipeline stages.
        .target(name: "Imaging", dependencies: ["CShim", "Checked", "ConfinedFiles"]),
        .target(name: "Payload", dependencies: ["Diagnostics", "Formats", "Checked", "ConfinedFiles"]),
        .target(name: "ServiceStage", dependencies: ["Diagnostics", "Formats", "Payload", "Imaging", "Templating", "CCrypto", "CShim", "Checked", "ConfinedFiles"]),
        .target(name: "Templating", dependencies: ["Diagnostics", "CXML2", "Checked", "ConfinedFiles"]),
        .target(name: "Styling", dependencies: ["Diagnostics", "Templating", "Typography", "Checked"]),
        .target(name: "Typography", dependencies: ["CPango", "Checked", "ConfinedFiles"]),
        .target(name: "Layout", dependencies: ["Styling", "Templating", "Typography", "Imaging", "Checked"]),
        .target(name: "Rendering", dependencies: ["Layout", "Styling", "Templating", "Typography", "Imaging", "CPango", "Checked"]),
        .target(name: "ContentStage", dependencies: ["Diagnostics", "Formats", "Payload", "ServiceStage", "Imaging", "Templating", "Styling", "Typography", "Checked", "ConfinedFiles"]),
        // One listening socket for HTTP/1.1, h2c and HTTP/2 over TLS, and one request handler.
        .target(name: "HTTP", dependencies: ["CHTTP", "ConfinedFiles"]),
        .target(name: "PushPreview", dependencies: ["HTTP", "Formats", "CCrypto", "Diagnostics", "Payload", "ServiceStage", "ContentStage", "Imaging", "Templating", "Styling", "Typography", "Layout", "Rendering", "ProjectImport", "Checked", "ConfinedFiles"]),
        // Reading an app's project (`pushpreview init`, runs with "xcode"): one folder per kind of
        // project under Kinds/ (Xcode, XcodeGen, Tuist, and the cross-platform shells around them),
        // the icons, the code readers (Swift, Objective-C, TypeScript/JavaScript and Dart), the
        // storyboard as a starter template (Templating escapes the text it writes) and what init
        // writes; Imaging draws a sample image.
        .target(name: "ProjectImport", dependencies: ["Diagnostics", "Formats", "Payload", "Templating", "Imaging", "CXML2", "Checked", "ConfinedFiles"]),
        .executableTarget(name: "CLI", dependencies: ["Diagnostics", "Formats", "HTTP", "PushPreview", "ContentStage", "Styling", "Typography", "Imaging", "ProjectImport", "Checked", "ConfinedFiles"]),
        // What each fuzz target does with an input (Fuzz/ runs them; the tests replay crashers).
        .target(name: "FuzzTargets", dependencies: ["Formats", "Checked", "ConfinedFiles", "Payload", "ServiceStage", "Templating", "Styling", "Typography", "Layout", "Rendering", "Imaging", "ProjectImport"]),
        .executableTarget(name: "Benchmarks", dependencies: ["PushPreview", "ContentStage", "Imaging", "Layout", "Rendering", "Styling", "Templating", "Typography", "ConfinedFiles"]),
        .executableTarget(name: "Fidelity", dependencies: ["PushPreview", "LayoutFixtures", "Templating", "Styling", "Layout", "Rendering", "Typography", "Imaging", "ConfinedFiles"]),
        // Tests/Fixtures/layout laid out the one way the fidelity check and the Layout and Styling
        // tests both lay them out.
        .target(name: "LayoutFixtures", dependencies: ["Templating", "Styling", "Layout", "Rendering", "Typography", "ConfinedFiles"]),

        .testTarget(name: "ConfinedFilesTests", dependencies: ["ConfinedFiles"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "ConfinedFiles"]),
        // Our fixtures against Chromium's boxes and computed styles recorded in
        // Tests/Fixtures/layout/expected by `make fidelity-record`: no browser needed.
        .testTarget(name: "LayoutTests", dependencies: ["LayoutFixtures", "Layout"]),
        .testTarget(name: "StylingTests", dependencies: ["LayoutFixtures", "Styling"]),
        .testTarget(name: "TemplatingTests", dependencies: ["Templating"]),
        .testTarget(name: "FormatsTests", dependencies: ["Formats"]),
        .testTarget(name: "PayloadTests", dependencies: ["Formats", "Payload", "Diagnostics", "Checked"]),
        .testTarget(name: "ServiceStageTests", dependencies: ["Formats", "ServiceStage", "Payload", "Imaging", "Templating", "ConfinedFiles"]),
        // An extension written the way iOS teams write theirs (Swift 5 mode, as their code is).
        .testTarget(name: "SeedExtensionTests", dependencies: ["ServiceStage", "Payload", "ConfinedFiles"],
                    swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "ProjectImportTests", dependencies: ["Formats", "ProjectImport", "Payload", "ConfinedFiles"]),
        .testTarget(name: "PushPreviewTests", dependencies: ["Formats", "ConfinedFiles", "Diagnostics", "HTTP", "PushPreview", "Payload", "ServiceStage", "ContentStage", "ProjectImport", "FuzzTargets", "Checked", "Imaging", "Templating", "Styling", "Typography", "Layout", "Rendering"]),
    ]
)
