import Foundation
import Testing
import Payload
import Formats

/// JSON and property lists as a mutation campaign wrote them: each is read or refused with a
/// position, never a trap and never an expansion without bound.
struct HostileFormatTests {
    @Test func loneHighSurrogateIsReplacementCharacter() throws {
        let value = try JSONParser.parse(Array(#"{"t": "\ud800\u0041", "u": "\udbff\udfff", "v": "\ud83d\ude00", "w": "\ud800"}"#.utf8), file: "s.json")
        #expect(value["t"]?.string == "\u{FFFD}A")
        #expect(value["u"]?.string == "\u{10FFFF}")
        #expect(value["v"]?.string == "😀")
        #expect(value["w"]?.string == "\u{FFFD}")
        #expect(throws: JSONError.self) { try JSONParser.parse(Array(#""\u+123""#.utf8), file: "s.json") }
    }

    @Test func hugeBadgeIsClampedWithAWarning() throws {
        let (payload, diagnostics) = try PayloadParser.parse(Array(#"{"aps": {"alert": "a", "badge": 1e300}}"#.utf8), file: "b.apns")
        #expect(payload.badge == Int(Int32.max))
        #expect(diagnostics.contains { $0.description.contains("badge") })
    }

    /// A binary plist whose arrays each hold the next one twice: 40 objects, 2^40 values expanded.
    @Test func binaryPlistSharedReferencesHaveABudget() throws {
        let count = 40
        var objects: [[UInt8]] = []
        for i in 0..<count - 1 { objects.append([0xA2, UInt8(i + 1), UInt8(i + 1)]) }
        objects.append([0x09]) // true
        let plist = binaryPlist(objects)
        #expect(throws: PropertyList.ParseError.self) { try PropertyList.read(plist, file: "Info.plist") }
        do { _ = try PropertyList.read(plist, file: "Info.plist") } catch {
            #expect(error.description.hasPrefix("Info.plist: byte ") && error.message.contains("100000 values"), "\(error)")
        }
        // An array that contains itself.
        #expect(throws: PropertyList.ParseError.self) { try PropertyList.read(binaryPlist([[0xA1, 0]]), file: "loop.plist") }
        // Truncated, and garbage after the magic.
        #expect(throws: PropertyList.ParseError.self) { try PropertyList.read(Array(plist.prefix(20)), file: "cut.plist") }
        #expect(throws: PropertyList.ParseError.self) { try PropertyList.read(Array("bplist00".utf8) + [UInt8](repeating: 0xFF, count: 40), file: "junk.plist") }
    }

    /// The same values as Foundation writes them, read back by our reader.
    @Test func readsWhatFoundationWrites() throws {
        let value: [String: Any] = ["NSExtension": ["NSExtensionAttributes": ["UNNotificationExtensionCategory": ["a", "b"],
                                                                             "UNNotificationExtensionInitialContentSizeRatio": 0.5,
                                                                             "UNNotificationExtensionDefaultContentHidden": true],
                                                    "NSExtensionPointIdentifier": "com.apple.usernotifications.content-extension"],
                                    "CFBundleVersion": 42, "Name": "Café ☕"]
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let data = try PropertyListSerialization.data(fromPropertyList: value, format: format, options: 0)
            let read = try PropertyList.read([UInt8](data), file: "Info.plist")
            #expect(read["CFBundleVersion"] == .integer(42) && read["Name"] == .string("Café ☕"), "\(format)")
            let attributes = read["NSExtension"]?["NSExtensionAttributes"]
            #expect(attributes?["UNNotificationExtensionCategory"] == .array([.string("a"), .string("b")]))
            #expect(attributes?["UNNotificationExtensionInitialContentSizeRatio"] == .real(0.5))
            #expect(attributes?["UNNotificationExtensionDefaultContentHidden"] == .bool(true))
        }
    }

    @Test func xmlPlistErrorsHaveALine() throws {
        let broken = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>A</key>\n\t<string>x</strin>\n</dict>\n</plist>\n"
        do { _ = try PropertyList.read(Array(broken.utf8), file: "Info.plist"); Issue.record("accepted broken XML") } catch {
            #expect(error.position == "line 5", "\(error)")
        }
        let typed = "<plist><dict><key>A</key>\n<integer>twelve</integer></dict></plist>"
        do { _ = try PropertyList.read(Array(typed.utf8), file: "Info.plist"); Issue.record("accepted a bad integer") } catch {
            #expect(error.position == "line 2" && error.message.contains("twelve"), "\(error)")
        }
        let entities = "<!DOCTYPE plist [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;\">]><plist><string>&b;</string></plist>"
        #expect(throws: PropertyList.ParseError.self) { try PropertyList.read(Array(entities.utf8), file: "bomb.plist") }
    }

    /// `bplist00`, one-byte offsets and references, the objects in order, the first at the top.
    func binaryPlist(_ objects: [[UInt8]]) -> [UInt8] {
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for o in objects { offsets.append(out.count); out += o }
        let table = out.count
        let offsetSize = table > 255 ? 2 : 1
        for o in offsets { out += offsetSize == 2 ? [UInt8(o >> 8), UInt8(o & 0xFF)] : [UInt8(o)] }
        func be64(_ v: Int) -> [UInt8] { (0..<8).reversed().map { UInt8((v >> ($0 * 8)) & 0xFF) } }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), 1] + be64(objects.count) + be64(0) + be64(table)
        return out
    }
}
