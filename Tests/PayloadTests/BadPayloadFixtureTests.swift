import Foundation
import Testing
import Payload

/// Tests/Fixtures/payloads/bad: each malformed payload gives its documented error (expected.json),
/// naming the file and the position or JSON path; none crashes.
struct BadPayloadFixtureTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Fixtures/payloads/bad").standardized
    static let expected: [String: String] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("expected.json")) else { return [:] }
        return (try? JSONDecoder().decode([String: String].self, from: data)) ?? [:]
    }()

    @Test func atLeastFortyFixturesEachWithAnExpectation() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".apns") }
        #expect(files.count >= 40)
        #expect(Set(files) == Set(Self.expected.keys))
    }

    @Test(arguments: expected.keys.sorted())
    func givesTheDocumentedError(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name)))
        do {
            _ = try PayloadParser.parse(bytes, file: name)
            Issue.record("\(name) was accepted")
        } catch {
            let text = error.description
            #expect(text.hasPrefix(name), "\(text)")
            #expect(text.contains(Self.expected[name]!), "\(name): \(text)")
        }
    }
}
