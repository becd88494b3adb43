import ConfinedFiles
import ContentStage
import Foundation
import Imaging
import PushPreview
import Styling
import Testing
import ProjectImport

/// Issue 22: Xcode 26's Icon Composer icons (`AppIcon.icon`), read from fixtures in
/// Tests/Fixtures/xcode/icon written in the shapes Icon Composer writes, and composed.
struct IconComposerTests {
    static let fixtures = repositoryRoot.appendingPathComponent("Tests/Fixtures/xcode/icon")

    static func icon(_ name: String) throws -> IconComposerIcon {
        try #require(try IconComposerIcon.read(bundle: try ConfinedFolder(trusted: fixtures.appendingPathComponent("\(name).icon"))))
    }

    /// The composed picture of `appearance`, decoded.
    static func picture(_ files: AppIconFiles, _ appearance: Appearance) throws -> RGBAImage {
        try PNGCodec.decode(try #require(files.composed[appearance]))
    }

    static func near(_ image: RGBAImage, _ x: Int, _ y: Int, _ rgb: (Int, Int, Int), within: Int = 6) -> Bool {
        let p = image.pixel(x: x, y: y)
        return abs(Int(p.r) - rgb.0) <= within && abs(Int(p.g) - rgb.1) <= within && abs(Int(p.b) - rgb.2) <= within && p.a == 255
    }

    /// An SVG layer in front of a PNG layer over a solid fill, each appearance its own: the tile
    /// is blue in light and near-black in dark, the lamp (SVG) yellow in light and white in dark
    /// (its dark fill), the band (PNG) red in both; the group's effects are named, not drawn.
    @Test func layersAreComposedPerAppearance() throws {
        let icon = try Self.icon("Beacon")
        let light = icon.rendition(.light), dark = icon.rendition(.dark), tinted = icon.rendition(.tinted)
        #expect(light.fill == .solid(.init(0.1, 0.45, 0.9, 1)) && dark.fill == .solid(.init(0.08, 0.08, 0.08, 1)) && tinted.fill == .system(dark: true))
        #expect(light.groups.count == 1 && light.groups[0].layers.map(\.name) == ["Band", "Lamp"], "painted back to front")
        #expect(light.groups[0].layers[1].fill == .none && dark.groups[0].layers[1].fill == .solid(.init(1, 1, 1, 1)))
        #expect(light.groups[0].layers[1].offset == .init(0, -250) && light.groups[0].layers[0].offset == .init(0, 200))
        #expect(light.groups[0].layers[0].opacity == 1 && tinted.groups[0].layers[0].opacity == 0.5)
        #expect(light.problems == ["\(icon.file.path): groups[0]: specular, shadow not drawn (Liquid Glass effects); its layers are drawn flat"], "\(light.problems)")

        var problems: [String] = []
        let files = AppIconComposition.files(icon, problems: &problems)
        #expect(problems.count == 1, "light's and dark's findings said once: \(problems)")
        let (l, d) = (try Self.picture(files, .light), try Self.picture(files, .dark))
        #expect(l.width == AppIconComposition.pixels && l.height == AppIconComposition.pixels)
        // 256 px for 1024 pt: the lamp's centre is at (512, 262) pt, the band's at (512, 712) pt.
        #expect(Self.near(l, 10, 10, (26, 115, 230)) && Self.near(d, 10, 10, (20, 20, 20)), "\(l.pixel(x: 10, y: 10)) \(d.pixel(x: 10, y: 10))")
        #expect(Self.near(l, 128, 65, (255, 204, 0)) && Self.near(d, 128, 65, (255, 255, 255)), "\(l.pixel(x: 128, y: 65)) \(d.pixel(x: 128, y: 65))")
        #expect(Self.near(l, 128, 178, (224, 48, 32)) && Self.near(d, 128, 178, (224, 48, 32)))
        // Outside the lamp's circle (its bounding box's corner) the tile shows.
        #expect(Self.near(l, 104, 42, (26, 115, 230)))
        #expect(files.inputs.map(\.lastPathComponent).sorted() == ["Band.png", "Lamp.svg", "icon.json"])
        #expect(files.image(for: .dark, in: .none)?.identity.hasSuffix("icon.json#dark") == true && files.image(for: .light, in: .none)?.extension == "png")
    }

    /// What a real app has after Xcode 26 turns its old icon into a bundle: one 1024 px PNG layer
    /// that fills the canvas, in light and dark alike.
    @Test func onePlainLayerFillsTheCanvas() throws {
        let icon = try Self.icon("Plain")
        var problems: [String] = []
        let files = AppIconComposition.files(icon, problems: &problems)
        #expect(problems.isEmpty, "\(problems)")
        for appearance in [Appearance.light, .dark] {
            let p = try Self.picture(files, appearance)
            #expect(Self.near(p, 2, 2, (40, 160, 90)) && Self.near(p, 253, 253, (40, 160, 90)) && Self.near(p, 128, 128, (255, 255, 255)))
            #expect(Self.near(p, 90, 128, (40, 160, 90)) && Self.near(p, 100, 128, (255, 255, 255)))
        }
    }

    /// Each layer that cannot be drawn is named with its key path and why; the rest is drawn.
    @Test func whatCannotBeDrawnIsSaid() throws {
        let icon = try Self.icon("Broken")
        var problems: [String] = []
        let files = AppIconComposition.files(icon, problems: &problems)
        let says = [
            "groups[0]: blur not drawn",
            "groups[0].layers[0]: layer Ring: glass not drawn",
            "groups[0].layers[1].image-name: layer Photo: a .heic layer is not drawn",
            "groups[0].layers[2].image-name: Assets/Gone.png does not exist; layer Gone not drawn",
            "groups[0].layers[3].image-name: Assets/Cut.png is not a PNG that can be read",
            "groups[0].layers[5].fill.solid: colour cmyk:0,0,0,1 is not",
            "groups[0].layers[5].position.scale: expected a number, got string",
            "groups[0].layers[5].position.translation-in-points: expected [x, y]",
        ]
        for text in says { #expect(problems.contains { $0.hasPrefix(icon.file.path + ": ") && $0.contains(text) }, "\(text) not in \(problems)") }
        #expect(problems.count == says.count && !problems.contains { $0.contains("Hidden") }, "\(problems)")
        let p = try Self.picture(files, .light)
        #expect(Self.near(p, 128, 128, (0, 0, 255)), "the ring is drawn: \(p.pixel(x: 128, y: 128))")
        #expect(p.pixel(x: 128, y: 4).b > p.pixel(x: 128, y: 4).g + 60, "the purple gradient is drawn: \(p.pixel(x: 128, y: 4))")
    }

    /// Bad icon.json files: what is not JSON, or not an icon, is an error naming the file and
    /// position; a value of the wrong type, or too large, is a finding with its key path.
    @Test func malformedIconFiles() throws {
        let bundle = temporaryFolder().appendingPathComponent("AppIcon.icon")
        try FileManager.default.createDirectory(at: bundle.appendingPathComponent("Assets"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("Beacon.icon/Assets/Band.png"), to: bundle.appendingPathComponent("Assets/Band.png"))
        func read(_ json: String) throws -> IconComposerIcon? {
            try Data(json.utf8).write(to: bundle.appendingPathComponent("icon.json"))
            return try IconComposerIcon.read(bundle: try ConfinedFolder(trusted: bundle))
        }
        for (json, says) in [("{\"groups\" : [ {\"layers\" : [", "icon.json:1:"), ("[1, 2]", "icon.json: expected an object, got array"),
                             (#"{"fill": "automatic"}"#, "groups: expected an array of groups, got nothing"),
                             (#"{"groups": {"layers": []}}"#, "groups: expected an array of groups, got object"),
                             (String(repeating: "[", count: 100_000), "icon.json:1:"), ("", "icon.json:1:1")] {
            do {
                _ = try read(json)
                Issue.record("\(json.prefix(40)) was read")
            } catch { #expect("\(error)".contains(says), "\("\(error)".prefix(200))") }
        }
        let findings: [(String, String)] = [
            (#"{"groups": [5]}"#, "groups[0]: expected an object, got number"),
            (#"{"groups": [{"layers": "Band.png"}]}"#, "groups[0].layers: expected an array of layers, got string"),
            (#"{"groups": [{"layers": [true]}]}"#, "groups[0].layers[0]: expected an object, got boolean"),
            (#"{"groups": [{"layers": [{"name": "Band"}]}]}"#, "groups[0].layers[0]: layer Band has no image-name"),
            (#"{"groups": [{"layers": [{"image-name": "../../Band.png"}]}]}"#, "is not a file in Assets/"),
            (#"{"fill-specializations": {"dark": "system-dark"}, "groups": []}"#, "fill-specializations: expected an array of {appearance, value}, got object"),
            (#"{"fill-specializations": [{"appearance": "sepia", "value": "none"}], "groups": []}"#, "fill-specializations[0].appearance: expected dark, tinted or light"),
            (#"{"fill-specializations": [{"appearance": "dark"}], "groups": []}"#, "fill-specializations[0]: expected an object with a value"),
            (#"{"fill": {"linear-gradient": ["srgb:1,0,0,1"]}, "groups": []}"#, "fill.linear-gradient: expected an array of 2 or more colours"),
            (#"{"fill": {"solid": "srgb:1,0,0"}, "groups": []}"#, "fill.solid: colour srgb:1,0,0 is not"),
            (#"{"fill": 12, "groups": []}"#, "fill: expected automatic, system-light, system-dark, none or a colour fill, got 12"),
            (#"{"groups": [{"layers": [{"image-name": "Band.png", "position": {"scale": 1e308}}]}]}"#, "position.scale: 1e+308 is outside 0...100"),
            (#"{"groups": [{"layers": [{"image-name": "Band.png", "opacity": -1}]}]}"#, "layers[0].opacity: -1 is outside 0...1"),
            (#"{"groups": [{"layers": [{"image-name": "Band.png", "position": {"translation-in-points": [1e300, 0]}}]}]}"#, "translation-in-points: expected [x, y] in points"),
            (#"{"groups": [{"layers": [{"image-name": "Band.png", "blend-mode": "plus-darker"}]}]}"#, "blend-mode: blend mode plus-darker is not drawn"),
            (#"{"groups": [{"shadow": "soft", "layers": []}]}"#, "groups[0].shadow: expected {kind, opacity}"),
            (#"{"groups": [{"hidden": "no", "layers": []}]}"#, "groups[0].hidden: expected true or false, got string"),
        ]
        for (json, says) in findings {
            let icon = try #require(try read(json))
            let problems = IconComposerIcon.Appearance.allCases.flatMap { icon.rendition($0).problems }
            #expect(problems.contains { $0.hasPrefix(bundle.appendingPathComponent("icon.json").path + ": ") && $0.contains(says) }, "\(json): \(problems)")
        }
    }

    /// Deep but valid nesting inside a layer's values stays within the parser's depth limit.
    @Test func nestingBeyondTheLimitIsAnError() throws {
        let bundle = temporaryFolder().appendingPathComponent("AppIcon.icon")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let deep = String(repeating: "{\"a\":", count: 200) + "1" + String(repeating: "}", count: 200)
        try Data("{\"groups\": [{\"layers\": [{\"fill\": \(deep)}]}]}".utf8).write(to: bundle.appendingPathComponent("icon.json"))
        do {
            _ = try IconComposerIcon.read(bundle: try ConfinedFolder(trusted: bundle))
            Issue.record("200 levels were read")
        } catch { #expect("\(error)".contains("icon.json:1:") && "\(error)".contains("deep"), "\(error)") }
    }
}
