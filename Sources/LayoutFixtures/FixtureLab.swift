import ConfinedFiles
import Foundation
import Layout
import Rendering
import Styling
import Templating
import Typography

/// The fixtures of Tests/Fixtures/layout laid out by our engine the one way both the fidelity
/// check (`pushpreview-fidelity prepare`, against a live Chromium) and the Layout and Styling
/// tests (against Chromium's boxes recorded by `make fidelity-record`) lay them out.
public final class FixtureLab {
    /// The width every fixture is laid out at: a notification's, in CSS pixels (points).
    public static let width = 360.0
    /// The device scales every fixture is laid out and recorded at: iPhone SE's and iPads' 2, the
    /// other iPhones' 3 (Chromium started at that real scale, as on such a screen).
    public static let scales = [2, 3]
    /// The font files @font-face fixtures may name, from Debian's fonts-noto-core (make deps):
    /// fixtures name them under media/ and the fonts come from the system, so no font file
    /// lives in the repository.
    public static let fontFiles = ["media/brand-serif.ttf": "/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf"]

    public let folder: URL
    public let fonts: FontSystem
    public let images = ImageStore()

    /// `folder`: Tests/Fixtures/layout. Its media/ images are registered as the pages name them.
    public init(folder: URL) throws {
        self.folder = folder
        fonts = try FontSystem(fonts: try FontSet.standard())
        for (i, file) in ["photo.jpg", "tall.png"].enumerated() {
            let url = folder.appendingPathComponent("media/\(file)")
            if let data = FileManager.default.contents(atPath: url.path) {
                try images.register("media/\(file)", bytes: [UInt8](data), fileName: "media/\(file)", identity: "\(i)\(url.path)")
            }
        }
    }

    /// The repository's fixture folder, found from this source file.
    public static var repositoryFixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Tests/Fixtures/layout").standardizedFileURL
    }

    /// Where `make fidelity-record` writes Chromium's boxes for a fixture at a device scale.
    public func expectation(_ stem: String, scale: Int) -> URL {
        folder.appendingPathComponent("expected/\(scale)x/\(stem).json")
    }

    /// Every fixture's file name (NAME.html), sorted.
    public var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".html") }.sorted()
    }

    /// One fixture laid out: parsed and sanitized as a template is, its @font-face files loaded
    /// from the system (`fontFiles`), styled and laid out at `width` for a screen of `scale`.
    public func page(_ name: String, scale: Int) throws -> FixturePage {
        let stem = String(name.dropLast(5))
        let source = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        let document = Sanitizer.sanitize(try HTMLParser.parse(source, file: name), allowURL: Sanitizer.localURL)
        let sheets = document.styleSheets.map { Stylesheet($0.text, file: name, firstLine: $0.line) }
        var warnings = (document.warnings + sheets.flatMap(\.warnings)).map(\.description)
        var faces: [String: String] = [:]
        for face in sheets.flatMap(\.fontFaces) {
            for src in face.sources {
                guard let system = Self.fontFiles[src] else { warnings.append("\(name): @font-face \(src) is not one of the fidelity fonts"); continue }
                if let file = try? TrustedFiles.open(URL(fileURLWithPath: system)), fonts.addFace(file, family: face.family) { faces[src] = system }
            }
        }
        let appearance: Appearance = stem.hasSuffix("-dark") ? .dark : .light
        let (styled, styleWarnings) = StyleResolver(sheets: sheets, appearance: appearance, deviceScale: DeviceScale(Double(scale)))
            .resolve(document.body, file: name, fonts: fonts)
        warnings += styleWarnings.map(\.description)
        let scene = LayoutEngine(fonts: fonts) { self.images.size(of: $0) }.layout(styled, width: Self.width)
        return FixturePage(name: name, stem: stem, scale: scale, body: document.body, sheets: sheets, appearance: appearance,
                           fontFaces: faces, styled: styled, warnings: warnings, scene: scene)
    }
}

/// A fixture as our engine sees it: the sanitized body and its sheets, the computed styles and
/// the laid-out scene, and every warning on the way.
public struct FixturePage {
    public var name: String
    public var stem: String
    /// The device scale it was laid out for.
    public var scale: Int
    public var body: Element
    public var sheets: [Stylesheet]
    public var appearance: Appearance
    /// The @font-face sources loaded, each with the system file it stands for.
    public var fontFaces: [String: String]
    public var styled: StyledElement
    public var warnings: [String]
    public var scene: Scene

    /// The page's background: the body's own colour, else white (as the HTML page says).
    public var background: RGBA { styled.style.backgroundColor.a > 0 ? styled.style.backgroundColor : .white }

    /// Every element with an id, its tag, its computed style and its parent's, in document order.
    public var styledElements: [(id: String, tag: String, style: ComputedStyle, parent: ComputedStyle)] {
        var out: [(String, String, ComputedStyle, ComputedStyle)] = []
        func walk(_ e: StyledElement, parent: ComputedStyle) {
            if let id = e.element.id { out.append((id, e.element.tag, e.style, parent)) }
            for case .element(let child) in e.children { walk(child, parent: e.style) }
        }
        walk(styled, parent: ComputedStyle())
        return out
    }
}
