import Foundation
import Testing
@testable import XcodeImport

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
