import ContentStage
import Foundation
import Payload
import Testing
import Formats

/// The device profiles: every shipped one with its safe area and the sources it rests on; a
/// project's own profile without a safe area gets its kind's; a value out of range is refused
/// naming the profile and key.
struct DeviceProfileTests {
    static let file = repositoryRoot.appendingPathComponent("Templates/system/devices.json")

    @Test func shippedProfilesHaveSafeAreasAndSources() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.file))
        let profiles = try DeviceProfile.read(bytes, file: "devices.json")
        let json = try JSONParser.parse(bytes, file: "devices.json")
        guard case .object(let sources)? = json["sources"], case .array(let items)? = json["devices"] else { Issue.record("no sources or devices"); return }
        for (profile, item) in zip(profiles, items) {
            #expect(profile.safeAreaTop != nil && profile.safeAreaBottom != nil, "\(profile.id)")
            // Each named source is one the file explains.
            let cited = (item["source"]?.string ?? "").split(separator: ";").map { String($0.trimmingCharacters(in: .whitespaces).prefix { $0.isLetter && $0.isUppercase }) }
            #expect(!cited.isEmpty && cited.allSatisfy { key in sources.contains { $0.key == key } }, "\(profile.id): \(cited)")
            // A Home button (the SE) is the only profile without a bottom inset.
            #expect((profile.safeArea.bottom == 0) == (profile.id == "iphone-se-3"), "\(profile.id)")
            #expect(profile.safeArea.top >= 20 && profile.safeArea.top <= 68, "\(profile.id)")
        }
        let base = try #require(profiles.first { $0.id == DeviceProfile.standardID })
        #expect(base.safeArea.top == 62 && base.safeArea.bottom == 34)
    }

    @Test func aProfileWithoutASafeAreaGetsItsKinds() throws {
        let text = #"{"devices": [{"id": "old", "name": "Old", "width": 320, "height": 568, "scale": 2, "isPad": false, "notificationWidth": 304, "customViewHeightLimit": 320},"#
            + #"{"id": "tall", "name": "Tall", "width": 393, "height": 852, "scale": 3, "isPad": false, "notificationWidth": 377, "customViewHeightLimit": 320},"#
            + #"{"id": "pad", "name": "Pad", "width": 820, "height": 1180, "scale": 2, "isPad": true, "notificationWidth": 540, "customViewHeightLimit": 352}]}"#
        let profiles = try DeviceProfile.read(Array(text.utf8), file: "devices.json")
        #expect(profiles.map { [$0.safeArea.top, $0.safeArea.bottom] } == [[20, 0], [59, 34], [32, 25]])
    }

    @Test(arguments: ["-1", "1e308", "\"62\"", "true", "900"])
    func aSafeAreaOutOfRangeIsRefusedByName(_ value: String) {
        let text = #"{"devices": [{"id": "x", "name": "X", "width": 402, "height": 874, "scale": 3, "isPad": false, "notificationWidth": 386, "customViewHeightLimit": 320, "safeAreaTop": \#(value)}]}"#
        #expect { try DeviceProfile.read(Array(text.utf8), file: "devices.json") } throws: { "\($0)".contains("devices.json: devices[0].safeAreaTop: expected a number") }
    }
}
