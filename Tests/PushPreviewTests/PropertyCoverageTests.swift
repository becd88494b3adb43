import Foundation
import Testing
import Styling
import Templating

/// No silent difference, checked against the browser's own list: every CSS property headless
/// Chromium knows, set (inline and in a style sheet) to values Chromium computes differently
/// from each other and from the default (Tests/Support/css-properties.py picks them), must
/// either come out different in our computed style too — the engine reads it, and the fidelity
/// fixtures check how it is drawn — or be warned about.
@Suite struct PropertyCoverageTests {
    struct Property: Decodable { var name: String; var values: [String] }

    func style(_ html: String) throws -> (style: ComputedStyle, warnings: [String]) {
        let document = try HTMLParser.parse(html, file: "probe.html")
        let sheets = document.styleSheets.map { Stylesheet($0.text, file: "probe.html", firstLine: $0.line) }
        let (body, warnings) = StyleResolver(sheets: sheets, appearance: .light).resolve(document.body, file: "probe.html")
        guard case .element(let probe)? = body.children.first(where: { if case .element = $0 { true } else { false } }) else {
            throw CocoaError(.coderInvalidValue)
        }
        return (probe.style, (sheets.flatMap(\.warnings) + warnings).map(\.message))
    }

    @Test func everyPropertyChromiumKnowsIsReadOrWarnedAbout() throws {
        guard FileManager.default.fileExists(atPath: "/usr/bin/chromium") else {
            Issue.record("Chromium is not installed (make deps installs it): its property list was not read")
            return
        }
        let run = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), [repositoryRoot.appendingPathComponent("Tests/Support/css-properties.py").path])
        #expect(run.status == 0, "\(run.stderr)")
        let properties = try JSONDecoder().decode([Property].self, from: Data(run.stdout.utf8))
        #expect(properties.count > 300, "Chromium listed only \(properties.count) properties")

        // Chromium's <div> is `unicode-bidi: isolate` (HTML §15.3.3), ours `normal`: the same
        // for a block, which is a paragraph of its own either way (isolate is read; on inline boxes it is laid out as a bidi isolate).
        let sameForABlock = ["unicode-bidi": ["normal"]]
        let plain = try style("<div id=\"probe\">text</div>").style
        var silent: [String] = [], read = 0, warned = 0
        let probed = properties.filter { !$0.values.isEmpty && sameForABlock[$0.name] != $0.values }
        for p in probed {
            for sheet in [false, true] {
                var styles = [plain], anyWarning = false
                for value in p.values {
                    let html = sheet ? "<style>#probe { \(p.name): \(value) }</style><div id=\"probe\">text</div>"
                        : "<div id=\"probe\" style=\"\(p.name): \(value.replacingOccurrences(of: "\"", with: "&quot;"))\">text</div>"
                    let (s, warnings) = try style(html)
                    anyWarning = anyWarning || warnings.contains { $0.contains("CSS \(p.name):") }
                    styles.append(s)
                }
                // Chromium tells these values apart; we must too, or say that we do not.
                let distinguished = styles.indices.allSatisfy { i in !styles[..<i].contains(styles[i]) }
                if anyWarning { warned += 1 } else if distinguished { read += 1 }
                else { silent.append("\(p.name): \(p.values.joined(separator: " | "))\(sheet ? " (in a style sheet)" : " (inline)")") }
            }
        }
        print("CSS properties from Chromium: \(properties.count); probed with values it tells apart: \(probed.count); "
              + "read by the engine: \(read / 2), warned about: \(warned / 2), silently dropped: \(silent.count)")
        #expect(silent.isEmpty, "accepted without effect and without a warning:\n\(silent.joined(separator: "\n"))")
    }

    @Test func cornerShapeReadsItsValuesAndWarnsAboutOthers() throws {
        let read: [(String, [Double])] = [
            ("squircle", [2, 2, 2, 2]), ("bevel scoop", [0, -1, 0, -1]), ("square notch round", [.infinity, -.infinity, 1, -.infinity]),
            ("superellipse(1.72) superellipse(-infinity) superellipse(infinity) superellipse(-0.5)", [1.72, -.infinity, .infinity, -0.5]),
        ]
        for (value, shapes) in read {
            let (s, warnings) = try style("<div id=\"probe\" style=\"corner-shape: \(value)\">x</div>")
            #expect(s.cornerShape == shapes && warnings.isEmpty, "\(value): \(s.cornerShape) \(warnings)")
        }
        let longhand = try style("<div id=\"probe\" style=\"corner-shape: bevel; corner-bottom-left-shape: squircle\">x</div>")
        #expect(longhand.style.cornerShape == [0, 0, 0, 2])
        for bad in ["superellipse()", "superellipse(nan)", "superellipse(1e999)", "superellipse(2", "round round round round round", "curvy", "superellipse(2px)"] {
            let (s, warnings) = try style("<div id=\"probe\" style=\"corner-shape: \(bad)\">x</div>")
            #expect(s.cornerShape == [1, 1, 1, 1] && warnings.contains { $0.contains("corner-shape") }, "\(bad): \(s.cornerShape) \(warnings)")
        }
    }
}
