import ConfinedFiles
import Foundation
import ServiceStage

/// The cards a reviewer approved in `serve`'s page, kept in the project as
/// `pushpreview-approved.json` (sorted, so a pull request shows one line per change): each card
/// by its id, with the SHA-256 of each of its pictures as approved. A card whose pictures differ
/// from those is "changed since approved".
struct Approvals: Codable, Equatable {
    static let fileName = "pushpreview-approved.json"
    /// Card id → picture path (beneath the output folder) → SHA-256 of its bytes.
    var cards: [String: [String: String]] = [:]

    enum State: String { case approved, changed }

    /// What the card's pictures, as they are now (`hashes`), say against its approval.
    func state(of card: String, hashes: [String: String]) -> State? {
        guard let approved = cards[card] else { return nil }
        return approved == hashes ? .approved : .changed
    }

    struct Unreadable: Error, CustomStringConvertible { var description: String }

    /// Read beneath the project folder (a link is refused); none when it is not there.
    static func read(in project: ConfinedFolder) throws -> Approvals {
        let bytes: [UInt8]
        do { bytes = try project.read(fileName, limit: 8 << 20) } catch { if error.isMissing { return Approvals() }; throw error }
        do { return try JSONDecoder().decode(Approvals.self, from: Data(bytes)) } catch {
            throw Unreadable(description: "\(project.url.appendingPathComponent(fileName).path): not a list of approved cards (\(error.localizedDescription)); fix or remove it")
        }
    }

    func write(in project: ConfinedFolder) throws(FileRefusal) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        try project.write(Array(data) + [0x0a], to: Self.fileName)
    }

    /// The SHA-256 of each picture, read beneath the output folder.
    static func hashes(_ pictures: [String], in out: ConfinedFolder) -> [String: String] {
        var hashes: [String: String] = [:]
        for png in pictures { if let bytes = try? out.read(png) { hashes[png] = SHA256.hex(bytes) } }
        return hashes
    }
}
