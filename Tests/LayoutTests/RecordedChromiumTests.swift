import Foundation
import Layout
import LayoutFixtures
import Testing

/// Every fixture of Tests/Fixtures/layout laid out by our engine and compared, box by box, with
/// what Chromium laid out for the same page at each device scale (started at that real scale),
/// recorded in expected/SCALEx/NAME.json by `make fidelity-record`: a layout regression fails
/// here where no browser is installed (`make fidelity` still checks against the live Chromium).
struct RecordedChromiumTests {
    /// Fixtures whose boxes are known not to match Chromium's yet, each with why; they are still
    /// compared, and each must still miss (so a fix is noticed and the entry removed).
    static let knownMisses: [String: String] = [:]

    @Test func everyFixtureBoxMatchesChromium() throws {
        let lab = try FixtureLab(folder: FixtureLab.repositoryFixtures)
        #expect(lab.names.count > 100, "the fixtures are at \(lab.folder.path)")
        for name in lab.names {
            let stem = String(name.dropLast(5))
            for scale in FixtureLab.scales {
                guard let expected = try Expectation.load(lab.expectation(stem, scale: scale)) else {
                    Issue.record("\(name): no expected/\(scale)x/\(stem).json; run make fidelity-record")
                    continue
                }
                let misses = Self.differences(in: try lab.page(name, scale: scale), from: expected)
                if let why = Self.knownMisses[stem] {
                    #expect(!misses.isEmpty, "\(name) is listed as a known miss (\(why)) but now matches Chromium: take it off the list")
                } else {
                    for miss in misses { Issue.record("\(name) @\(scale)x: \(miss)") }
                }
            }
        }
    }

    @Test func everyExpectationHasItsFixture() throws {
        let folder = FixtureLab.repositoryFixtures
        for scale in FixtureLab.scales {
            let recorded = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("expected/\(scale)x").path).filter { $0.hasSuffix(".json") }
            for file in recorded where !FileManager.default.fileExists(atPath: folder.appendingPathComponent(String(file.dropLast(5)) + ".html").path) {
                Issue.record("expected/\(scale)x/\(file) has no fixture; run make fidelity-record (it removes stale files)")
            }
        }
    }

    /// Every box (BoxComparison) and the page's height.
    static func differences(in page: FixturePage, from expected: Expectation) -> [String] {
        var misses = BoxComparison.differences(ours: BoxComparison.byID(page.scene.boxes), chrome: expected.boxes, displays: expected.styles.mapValues(\.display))
        if abs(page.scene.height - expected.height) > BoxComparison.tolerance {
            misses.append("page height: ours \(BoxComparison.format([page.scene.height])), Chromium's \(BoxComparison.format([expected.height]))")
        }
        return misses
    }
}

/// expected/SCALEx/NAME.json as scripts/fidelity-record.py writes it.
struct Expectation: Decodable {
    struct Style: Decodable { var display: String }
    /// x, y, width, height of each id'd element's border box; nil where Chromium makes none.
    var boxes: [String: [Double]?]
    var height: Double
    var styles: [String: Style]

    static func load(_ file: URL) throws -> Expectation? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return try JSONDecoder().decode(Expectation.self, from: data)
    }
}
