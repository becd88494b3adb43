import Checked
import ConfinedFiles
import Foundation
import Payload
import Testing
import ProjectImport
import Formats

/// Issue 23: an asset catalog's app icon set (`Contents.json`) read strictly, on fixtures in the
/// shapes Xcode writes (Tests/Fixtures/xcode/icon/Sets.xcassets): every mutation of a value is an
/// error or a finding with its key path, never silently nothing.
struct AppIconSetTests {
    static let catalog = IconComposerTests.fixtures.appendingPathComponent("Sets.xcassets")

    /// Both kinds of set: the single 1024 pt image with dark and tinted appearances, and the
    /// legacy set of sizes (its largest iPhone image; watch, Mac and CarPlay slots skipped quietly).
    @Test func realShapesAreRead() throws {
        var problems: [String] = []
        let modern = try #require(try AppIconSet.read(catalog: Self.catalog, name: "AppIcon", in: Repository(around: Self.catalog), problems: &problems))
        #expect(modern.light?.lastPathComponent == "Icon.png" && modern.dark?.lastPathComponent == "IconDark.png" && modern.tinted?.lastPathComponent == "IconTinted.png")
        let legacy = try #require(try AppIconSet.read(catalog: Self.catalog, name: "Legacy", in: Repository(around: Self.catalog), problems: &problems))
        #expect(legacy.light?.lastPathComponent == "Icon-180.png" && legacy.dark == nil && legacy.tinted == nil)
        #expect(try AppIconSet.read(catalog: Self.catalog, name: "Missing", in: Repository(around: Self.catalog), problems: &problems) == nil)
        #expect(problems.isEmpty, "\(problems)")
    }

    /// A copy of a fixture set with `Contents.json` replaced.
    static func read(_ json: String, from name: String = "Legacy") throws(XcodeProject.ReadError) -> [String] {
        let catalog = temporaryFolder("set").appendingPathComponent("Assets.xcassets")
        try? FileManager.default.createDirectory(at: catalog, withIntermediateDirectories: true)
        try? FileManager.default.copyItem(at: Self.catalog.appendingPathComponent("\(name).appiconset"), to: catalog.appendingPathComponent("Bad.appiconset"))
        try? Data(json.utf8).write(to: catalog.appendingPathComponent("Bad.appiconset/Contents.json"))
        var problems: [String] = []
        _ = try AppIconSet.read(catalog: catalog, name: "Bad", in: Repository(around: catalog), problems: &problems)
        return problems
    }

    @Test func brokenFilesAreErrors() throws {
        for (json, says) in [(#"{"images": [{"filename": "../../secret.png", "size": "1024x1024"}]}"#, "is not a file in the set"),
                             (#"{"images": {"filename": "a.png"}}"#, "images: expected an array of images, got object"),
                             (#"{"images": [ {"filename": "#, "Contents.json:1:"), (#"["images"]"#, "Contents.json: expected an object, got array"),
                             (#"{"info": {}}"#, "images: expected an array of images, got nothing"),
                             (String(repeating: "[", count: 50_000), "Contents.json:1:")] {
            do {
                let problems = try Self.read(json)
                Issue.record("\(json.prefix(40)) was read: \(problems)")
            } catch { #expect(error.description.contains(says) && error.description.contains("Bad.appiconset"), "\(error.description.prefix(200))") }
        }
    }

    @Test func wrongTypesAndUnknownIdiomsAreFindings() throws {
        for (json, says) in [(#"{"images": [{"idiom": "iphone", "size": "60x60", "scale": "3x", "filename": "Icon-180.png"}, 7]}"#, "Contents.json: images[1]: expected an object, got number"),
                             (#"{"images": [{"idiom": "phone", "size": "60x60", "scale": "3x", "filename": "Icon-180.png"}]}"#, "images[0].idiom: unknown idiom phone"),
                             (#"{"images": [{"idiom": 1, "size": "60x60"}]}"#, "images[0].idiom: expected a string, got number"),
                             (#"{"images": [{"idiom": "iphone", "size": "60", "scale": "3x"}]}"#, "images[0].size: expected \"WxH\" in points, got 60"),
                             (#"{"images": [{"idiom": "iphone", "size": "1e400x1e400", "scale": "3x"}]}"#, "images[0].size: expected"),
                             (#"{"images": [{"idiom": "iphone", "size": "60x60", "scale": "30x"}]}"#, "images[0].scale: expected 1x, 2x or 3x, got 30x"),
                             (#"{"images": [{"idiom": "iphone", "size": "60x60", "scale": "3x", "filename": "Gone.png"}]}"#, "images[0].filename: Gone.png is not in Bad.appiconset"),
                             (#"{"images": [{"idiom": "universal", "platform": "android", "size": "1024x1024"}]}"#, "images[0].platform: unknown platform android"),
                             (#"{"images": [{"idiom": "universal", "size": "1024x1024", "appearances": {"appearance": "luminosity"}}]}"#, "images[0].appearances: expected an array, got object"),
                             (#"{"images": [{"idiom": "universal", "size": "1024x1024", "appearances": [{"appearance": "luminosity", "value": "sepia"}]}]}"#, "images[0].appearances[0]: expected {appearance: luminosity"),
                             (#"{"images": [], "info": "xcode"}"#, "Contents.json: info: expected an object, got string")] {
            let problems = try Self.read(json)
            #expect(problems.contains { $0.contains("Bad.appiconset/Contents.json: ") && $0.contains(says) }, "\(json): \(problems)")
        }
    }

    /// Every string in every image entry of both real shapes with its first letter changed, and
    /// every value replaced by one of the wrong type: each gives a finding (or an error).
    @Test func everyMutationIsSaid() throws {
        var cases = 0
        for name in ["AppIcon", "Legacy"] {
            let text = try String(contentsOf: Self.catalog.appendingPathComponent("\(name).appiconset/Contents.json"), encoding: .utf8)
            let json = try JSONParser.parse(Array(text.utf8), file: "Contents.json")
            guard case .array(let images)? = json["images"] else { Issue.record("no images"); continue }
            for (i, image) in images.enumerated() {
                for (key, value) in image.objectMembers {
                    var mutations: [JSONValue] = [.number(5), .array([]), .object([]), .bool(true)]
                    if let s = value.string { mutations.append(.string("q" + s.dropFirst())) }
                    if case .array(let list) = value, case .object(let members) = list.first {
                        // The appearance's own strings and types.
                        for (k, v) in members {
                            for m in [JSONValue.number(5), .string("q" + (v.string ?? "").dropFirst())] {
                                mutations.append(.array([.object(members.map { $0.key == k ? (key: k, value: m) : $0 })]))
                            }
                        }
                    }
                    for m in mutations {
                        var entries = images
                        entries[i] = .object(image.objectMembers.map { $0.key == key ? (key: key, value: m) : $0 })
                        let mutated = JSONValue.object(json.objectMembers.map { $0.key == "images" ? (key: "images", value: .array(entries)) : $0 })
                        cases += 1
                        do {
                            let problems = try Self.read(mutated.pretty, from: name)
                            #expect(problems.contains { $0.contains("Contents.json: images[\(i)]") }, "\(name) images[\(i)].\(key) = \(m.compact): \(problems)")
                        } catch { #expect(error.description.contains("Contents.json")) }
                    }
                }
            }
        }
        #expect(cases > 150)
    }
}
