import Foundation
import Testing
@testable import ProjectImport
import Formats

/// Every reader we wrote under one nesting and size budget (`InputBudget`): input nested past it
/// is an error or a problem naming the file and position, never a stack overflow or a reader that
/// goes quadratic; and the storyboard converter's numbers go through the checked conversion.
struct ReaderBudgetTests {
    static func xib(_ views: String, name: String = #function) throws -> URL {
        let text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            + #"<document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0"><objects><view id="root"><rect key="frame" x="0" y="0" width="320" height="200"/><subviews>"# + "\n"
            + views + "\n</subviews></view></objects></document>\n"
        return try StoryboardTemplateTests.write(text, name: "Hostile.xib", folder: temporaryFolder(name))
    }

    /// `constant="-1e308"` trapped in the CSS writer (`abs` of `Int.min`); NaN and 1e400 were read
    /// as 0 without a word. Each is now a problem at its line, and the template is written.
    @Test func storyboardNumbersOutOfRange() throws {
        let file = try Self.xib("""
        <view translatesAutoresizingMaskIntoConstraints="NO" id="a"><rect key="frame" x="0" y="0" width="10" height="10"/>
        <constraints>
        <constraint firstAttribute="width" constant="-1e308" id="c1"/>
        <constraint firstAttribute="height" constant="NaN" id="c2"/>
        </constraints></view>
        <label text="1e400" translatesAutoresizingMaskIntoConstraints="NO" id="b"><rect key="frame" x="1e400" y="0" width="1e308" height="20"/>
        <fontDescription key="fontDescription" type="system" pointSize="-1e308"/></label>
        """)
        let t = try StoryboardTemplate.convert(file, bindings: [:], colors: [:])
        let p = file.path
        for expected in ["\(p):5: constraint constant=\"-1e308\" is beyond ±33554431 pt; read as -33554431",
                         "\(p):6: constraint constant=\"NaN\" is not a number; read as if it were not there",
                         "\(p):8: rect width=\"1e308\" is beyond ±33554431 pt; read as 33554431",
                         "\(p):8: rect x=\"1e400\" is beyond any length; read as if it were not there",
                         "\(p):9: fontDescription pointSize=\"-1e308\" is beyond ±33554431 pt; read as -33554431"] {
            #expect(t.problems.contains(expected), "\(expected) not in \(t.problems)")
        }
        // A label's text that looks like a number is text, not a problem.
        #expect(!t.problems.contains { $0.contains("text=") })
        #expect(t.html.contains(">1e400<"))
        let widths = t.html.components(separatedBy: "width: ").dropFirst().map { $0.prefix { $0 != ";" } }
        #expect(widths.allSatisfy { !$0.contains("e") && $0.count < 16 }, "\(widths)")
    }

    @Test func cssNumbersAreChecked() {
        #expect(CSS.number(-1e308) == "-33554431" && CSS.number(.infinity) == "33554431" && CSS.number(.nan) == "0")
        #expect(CSS.ratio(-1e300) == "-33554431" && CSS.ratio(16.0 / 9) == "1.7778")
        #expect(CSS.length(Linear(fraction: 0.5, points: -1e308)) == "calc(50% - 33554431px)")
    }

    /// XML nested past the converter's budget (128 levels, under libxml2's own 256) is one error
    /// with the line where it went too deep.
    @Test func deepStoryboardXML() throws {
        let views = String(repeating: #"<view id="v"><subviews>"# + "\n", count: 100) + String(repeating: "</subviews></view>\n", count: 100)
        let file = try Self.xib(views)
        #expect {
            _ = try StoryboardTemplate.convert(file, bindings: [:], colors: [:])
        } throws: { error in
            "\(error)".hasPrefix(file.path + ":65: nested deeper than 128 levels; not converted")
        }
    }
}

/// YAML under the same budget: depth and values once aliases are expanded, each an error at
/// the file, line and column.
struct YAMLBudgetTests {
    @Test func deepAndWideYAML() {
        let cases = [("a:\n  b: " + String(repeating: "{c: ", count: 50_000), "project.yml:2:"),
                     ((0..<200).map { String(repeating: " ", count: $0) + "- " }.joined() + "x", "project.yml:1:"),
                     ("a: &a [x, x, x, x, x, x, x, x, x, x]\n" + (1..<8).map { "\(Character(UnicodeScalar(97 + $0)!)): &\(Character(UnicodeScalar(97 + $0)!)) [" + String(repeating: "*\(Character(UnicodeScalar(96 + $0)!)), ", count: 10) + "]" }.joined(separator: "\n"), "project.yml:")]
        for (text, at) in cases {
            #expect {
                _ = try YAMLReader.parse(Array(text.utf8), file: "project.yml")
            } throws: { error in
                let e = "\(error)"
                return e.hasPrefix(at) && (e.contains("nested deeper than 64 levels") || e.contains("more than 500000 values once aliases are expanded"))
            }
        }
    }
}

/// The Objective-C reader: nesting past its budget stops the file with a problem at the place
/// (what was read before it is kept), and its work stays linear in the tokens, counted.
struct ObjCReaderBudgetTests {
    static let reply = "static NSString *const ReplyAction = @\"REPLY\";\n"

    static func read(_ source: String) -> ObjCSourceReader { ObjCSourceReader.reader(Array(source.utf8), file: "Deep.m") }

    static func keepsWhatCameBefore(_ reader: ObjCSourceReader) -> Bool {
        reader.facts.bindings.contains { $0.path == ["ReplyAction"] }
    }

    @Test func fiftyThousandArrayLiterals() {
        let reader = Self.read(Self.reply + "NSArray *a = " + String(repeating: "@[", count: 50_000) + "@1" + String(repeating: "]", count: 50_000) + ";\n")
        #expect(reader.facts.problems == ["Deep.m:2:270: nested deeper than 128 levels; the rest of the file is not read"])
        #expect(Self.keepsWhatCameBefore(reader) && reader.budget.deepest == ObjCSourceReader.maxDepth)
    }

    @Test func parenthesesOpenAndClosed() {
        // 100,000 levels: a reader that tried every token again would take minutes here.
        let tokens = 200_004
        for source in [String(repeating: "(", count: 100_000) + "x" + String(repeating: ")", count: 100_000) + ";",
                       "int y = " + String(repeating: "(", count: 100_000)] {
            let reader = Self.read(Self.reply + source)
            #expect(reader.facts.problems.count == 1 && reader.facts.problems[0].hasPrefix("Deep.m:2:") && reader.facts.problems[0].hasSuffix(": nested deeper than 128 levels; the rest of the file is not read"), "\(reader.facts.problems)")
            #expect(Self.keepsWhatCameBefore(reader))
            #expect(reader.budget.size < tokens, "\(reader.budget.size) steps for \(tokens) tokens")
        }
    }

    @Test func otherDeepShapes() {
        let deep = "nested deeper than 128 levels; the rest of the file is not read"
        // Each block's body is found by scanning to its `}`: 50,000 nested blocks meet the step budget first.
        let steps = " steps reading it; the rest of the file is not read"
        for (name, source, said) in [("messages", String(repeating: "[", count: 50_000) + "x" + String(repeating: " a]", count: 50_000) + ";", deep),
                                     ("prefix operators", "int z = " + String(repeating: "- ", count: 50_000) + "1;", deep),
                                     ("casts", "id w = " + String(repeating: "(NSString *)", count: 50_000) + "x;", deep),
                                     ("blocks", "id b = " + String(repeating: "^{ ", count: 50_000) + String(repeating: "}", count: 50_000) + ";", steps)] {
            let reader = Self.read(Self.reply + source)
            #expect(reader.facts.problems.count == 1 && reader.facts.problems[0].hasPrefix("Deep.m:2:") && reader.facts.problems[0].hasSuffix(said), "\(name): \(reader.facts.problems)")
            #expect(Self.keepsWhatCameBefore(reader), "\(name)")
        }
    }

    /// Shapes that are flat but made the reader scan back or forward from every token.
    @Test func flatShapesStayLinear() {
        for (name, source, tokens) in [("function bodies after unmatched parentheses", String(repeating: "){}", count: 30_000), 90_000),
                                       ("unclosed messages", String(repeating: "[a b:", count: 30_000), 90_000),
                                       ("defines of defines", "#define A " + String(repeating: "#define A ", count: 50_000) + "\n", 0)] {
            let reader = Self.read(Self.reply + source)
            #expect(reader.budget.size <= 4 * (tokens + 16), "\(name): \(reader.budget.size) steps for \(tokens) tokens")
            #expect(Self.keepsWhatCameBefore(reader), "\(name)")
        }
    }
}
