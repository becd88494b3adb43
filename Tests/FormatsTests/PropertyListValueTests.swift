import Foundation
import Testing
import Formats

/// The typed value every property-list form reads into.
struct PropertyListValueTests {
    static let xml = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict>
      <key>Zebra</key><string>z</string>
      <key>Apple</key><array><string>a</string><integer>2</integer><real>0.5</real><true/></array>
      <key>NSExtension</key><dict><key>NSExtensionAttributes</key><dict><key>Flag</key><string>YES</string></dict></dict>
      <key>When</key><date>2026-01-31T12:00:00Z</date>
      <key>Blob</key><data>AQID</data>
      <key>Zebra</key><string>again</string>
    </dict></plist>
    """

    /// Keys keep the file's order (a repeated key keeps its first place and its last value); nested lookups need no casts.
    @Test func readsTypedValuesInFileOrder() throws {
        let value = try PropertyList.read(Array(Self.xml.utf8), file: "Info.plist")
        let root = try #require(value.dictionary)
        #expect(root.keys == ["Zebra", "Apple", "NSExtension", "When", "Blob"])
        #expect(value["Zebra"]?.string == "again")
        #expect(value["Apple"] == .array([.string("a"), .integer(2), .real(0.5), .bool(true)]))
        #expect(value["Apple"]?.strings == ["a"])
        #expect(value["NSExtension"]?["NSExtensionAttributes"]?["Flag"]?.isTrue == true)
        #expect(value["NSExtension"]?["Missing"]?["Deeper"] == nil)
        #expect(value["When"] == .date(Date(timeIntervalSince1970: 1_769_860_800)))
        #expect(value["Blob"] == .data(Data([1, 2, 3])))
        #expect(value["Apple"]?.array?[1].number == 2 && value["Zebra"]?.number == nil)
    }

    /// A date that is not ISO 8601 is an error at its line, as any other malformed element is.
    @Test func badDateIsAnErrorAtItsLine() {
        let text = "<plist>\n<dict><key>d</key>\n<date>yesterday</date></dict></plist>"
        do {
            _ = try PropertyList.read(Array(text.utf8), file: "Info.plist")
            Issue.record("accepted a bad date")
        } catch {
            #expect(error.position == "line 3" && error.message.contains("yesterday"))
        }
    }

    /// Encoded as plain JSON and decoded back with each scalar's type: a boolean stays a
    /// boolean, a whole number an integer, a fraction a real.
    @Test func codableRoundTripKeepsScalarTypes() throws {
        let value = PropertyListValue.dictionary(PropertyListDictionary([
            ("flag", .bool(true)), ("count", .integer(1)), ("ratio", .real(0.25)), ("name", .string("1")),
            ("list", .array([.bool(false), .integer(-3), .dictionary(.init())])),
        ]))
        let json = try JSONEncoder().encode(value)
        let back = try JSONDecoder().decode(PropertyListValue.self, from: json)
        #expect(back["flag"] == .bool(true) && back["count"] == .integer(1) && back["ratio"] == .real(0.25) && back["name"] == .string("1"))
        #expect(back["list"] == .array([.bool(false), .integer(-3), .dictionary(.init())]))
    }

    /// Every string is rewritten with the key path it sits at (how `$(VAR)`s in an Info.plist are expanded and said).
    @Test func mapStringsGivesEachStringsPath() throws {
        let value = try PropertyList.read(Array(Self.xml.utf8), file: "Info.plist")
        var seen: [String] = []
        let mapped = value.mapStrings { text, path in seen.append(path); return text.uppercased() }
        #expect(seen == ["Zebra", "Apple[0]", "NSExtension.NSExtensionAttributes.Flag"])
        #expect(mapped["Apple"]?.array?.first == .string("A") && mapped["Apple"]?.array?[1] == .integer(2))
    }

    /// A JSON value (an XcodeGen spec's `info:`) as the property list it stands for.
    @Test func fromJSON() throws {
        let json = try JSONParser.parse(Array(#"{"a": null, "b": 2, "c": 2.5, "d": [true, "x"]}"#.utf8), file: "spec")
        let value = PropertyListValue(json)
        #expect(value["a"] == .string("") && value["b"] == .integer(2) && value["c"] == .real(2.5))
        #expect(value["d"] == .array([.bool(true), .string("x")]) && value.dictionary?.keys == ["a", "b", "c", "d"])
    }
}
