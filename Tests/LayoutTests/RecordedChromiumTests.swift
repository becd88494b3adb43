import Foundation
import Layout
import LayoutFixtures
import Testing

/// Every fixture of Tests/Fixtures/layout laid out by our engine and compared, box by box, with
/// what Chromium laid out for the same page, recorded in expected/NAME.json by
/// `make fidelity-record`: a layout regression fails here where no browser is installed
/// (`make fidelity` still checks against the live Chromium).
struct RecordedChromiumTests {
    /// Within this many points of Chromium's box, as `make fidelity` asks.
    static let tolerance = 0.5
    /// Fixtures whose boxes are known not to match Chromium's yet, each with why; they are still
    /// compared, and each must still miss (so a fix is noticed and the entry removed).
    static let knownMisses: [String: String] = [:]

    @Test func everyFixtureBoxMatchesChromium() throws {
        let lab = try FixtureLab(folder: FixtureLab.repositoryFixtures)
        #expect(lab.names.count > 100, "the fixtures are at \(lab.folder.path)")
        for name in lab.names {
            let stem = String(name.dropLast(5))
            guard let expected = try Expectation.load(stem, in: lab.folder) else {
                Issue.record("\(name): no expected/\(stem).json; run make fidelity-record")
                continue
            }
            let misses = Self.differences(in: try lab.page(name), from: expected)
            if let why = Self.knownMisses[stem] {
                #expect(!misses.isEmpty, "\(name) is listed as a known miss (\(why)) but now matches Chromium: take it off the list")
            } else {
                for miss in misses { Issue.record("\(name): \(miss)") }
            }
        }
    }

    @Test func everyExpectationHasItsFixture() throws {
        let folder = FixtureLab.repositoryFixtures
        let recorded = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("expected").path).filter { $0.hasSuffix(".json") }
        for file in recorded where !FileManager.default.fileExists(atPath: folder.appendingPathComponent(String(file.dropLast(5)) + ".html").path) {
            Issue.record("expected/\(file) has no fixture; run make fidelity-record (it removes stale files)")
        }
    }

    /// What differs by more than `tolerance`: each id'd box (ours against Chromium's), a box on
    /// one side only, and the page's height. An inline box of Chromium's has no box of its own
    /// in our scene (its text is laid out in its block's lines): it is not asked for.
    static func differences(in page: FixturePage, from expected: Expectation) -> [String] {
        var misses: [String] = []
        let ours = Dictionary(page.scene.boxes.compactMap { box in box.id.map { ($0, box) } }, uniquingKeysWith: { first, _ in first })
        for (id, chrome) in expected.boxes.sorted(by: { $0.key < $1.key }) {
            let display = expected.styles[id]?.display
            switch (ours[id], chrome) {
            case (nil, nil): continue
            case (nil, _?) where display == "inline": continue
            case (nil, let c?): misses.append("#\(id): no box here, Chromium's is \(format(c))")
            case (let o?, nil): misses.append("#\(id): Chromium makes no box, ours is \(format([o.x, o.y, o.width, o.height]))")
            case (let o?, let c?):
                let mine = [o.x, o.y, o.width, o.height]
                let delta = zip(mine, c).map { abs($0 - $1) }.max() ?? 0
                if delta > tolerance { misses.append("#\(id): ours \(format(mine)), Chromium's \(format(c)), \(String(format: "%.2f", delta)) pt off") }
            }
        }
        for id in ours.keys.sorted() where expected.boxes[id] == nil {
            misses.append("#\(id): laid out here but not recorded (an id added since make fidelity-record?)")
        }
        if abs(page.scene.height - expected.height) > tolerance {
            misses.append("page height: ours \(format([page.scene.height])), Chromium's \(format([expected.height]))")
        }
        return misses
    }

    static func format(_ values: [Double]) -> String {
        "(" + values.map { String(format: "%g", ($0 * 100).rounded() / 100) }.joined(separator: ", ") + ")"
    }
}

/// expected/NAME.json as scripts/fidelity-record.py writes it.
struct Expectation: Decodable {
    struct Style: Decodable { var display: String }
    /// x, y, width, height of each id'd element's border box; nil where Chromium makes none.
    var boxes: [String: [Double]?]
    var height: Double
    var styles: [String: Style]

    static func load(_ stem: String, in fixtures: URL) throws -> Expectation? {
        guard let data = FileManager.default.contents(atPath: fixtures.appendingPathComponent("expected/\(stem).json").path) else { return nil }
        return try JSONDecoder().decode(Expectation.self, from: data)
    }
}
