import Checked
import ConfinedFiles
import Foundation

/// The build settings of an `.xcconfig` file as Xcode reads them: `KEY = VALUE` lines (a
/// conditional `KEY[sdk=iphoneos*]` kept as its own key, as a pbxproj keeps it), `//` comments,
/// `#include "file"` and `#include? "file"` (optional) read in place, and `$(inherited)` the
/// value set earlier in the same chain of files, else left for the level beneath.
/// A line that cannot be read or a missing include is a problem naming the file and line.
struct XCConfig {
    static let maxIncludeDepth = 16
    static let maxFiles = 128
    static let maxBytes = 1 << 20

    var settings: [String: String] = [:]
    /// Where each setting is last defined, "file:line", for expansion's problems.
    var origins: [String: String] = [:]
    /// Every file read, the first one given and each it includes.
    var files: [URL] = []
    var problems: [String] = []
    let projectFolder: URL
    /// Where an include must lead (an absolute or `../` one outside it is not read).
    let repository: Repository
    /// Bytes `$(inherited)` copied in this chain of files: a 64 KB value copied again on every
    /// line of a 1 MB file would be gigabytes.
    var inherited = InputBudget(maxDepth: 1, maxSize: 8 << 20, unit: "bytes")
    var saidInheritedSpent = false

    /// Reads `file`; an include is found beside the file that names it, else in `projectFolder`
    /// (Xcode's search, which lets `Riot/Common.xcconfig` include `Config/Ids.xcconfig`).
    init(file: URL, projectFolder: URL, repository: Repository, from: String) {
        self.projectFolder = projectFolder
        self.repository = repository
        read(file.standardizedFileURL, trail: [], from: from)
    }

    mutating func read(_ file: URL, trail: [String], from: String) {
        guard !trail.contains(file.path) else {
            problems.append("\(from): \(file.lastPathComponent) includes itself (\((trail + [file.path]).map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: " → "))); not read again")
            return
        }
        guard trail.count < Self.maxIncludeDepth, files.count < Self.maxFiles else {
            problems.append("\(from): includes nested deeper than \(Self.maxIncludeDepth) or more than \(Self.maxFiles) files; \(file.lastPathComponent) not read")
            return
        }
        let data: [UInt8]
        do { data = try repository.read(file, limit: Self.maxBytes) } catch {
            switch error.reason {
            case .tooLarge(let size, _): problems.append("\(file.path): \(size) bytes, more than an xcconfig file may have; not read")
            case .missing: problems.append("\(from): the xcconfig file \(file.path) does not exist; its settings are not read")
            default: problems.append("\(from): the xcconfig file \(error.description); its settings are not read")
            }
            return
        }
        files.append(file)
        let text = String(decoding: data, as: UTF8.self)
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let at = "\(file.path):\(index + 1)"
            // `//` starts a comment anywhere, even inside a value (Xcode's own rule).
            var line = raw.range(of: "//").map { raw[..<$0.lowerBound] } ?? raw[...]
            line = line.drop { $0.isWhitespace }
            while let last = line.last, last.isWhitespace || last == ";" { line = line.dropLast() }
            if line.isEmpty { continue }
            if line.hasPrefix("#include") {
                include(line, at: at, file: file, trail: trail + [file.path])
                continue
            }
            // The `=` after the key's conditions (`KEY[sdk=iphoneos*] = …`).
            let conditionsEnd = line.prefix { $0 != "=" }.contains("[") ? line.firstIndex(of: "]") ?? line.startIndex : line.startIndex
            guard let equals = line[conditionsEnd...].firstIndex(of: "="), Self.isKey(line[..<equals].trimmingCharacters(in: .whitespaces)) else {
                problems.append("\(at): not a KEY = VALUE line (\(line.prefix(60))); skipped")
                continue
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if let earlier = settings[key], value.contains("$") {
                let copied = inherited.take(earlier.utf8.count)
                if !copied, !saidInheritedSpent {
                    problems.append("\(at): $(inherited) has copied more than \(inherited.maxSize >> 20) MB of settings in this chain of files; from here on it reads as empty")
                    saidInheritedSpent = true
                }
                value = BuildSettings.inheriting(value, beneath: copied ? earlier : "", key: key, at: at, problems: &problems)
            }
            settings[key] = value
            origins[key] = at
        }
    }

    mutating func include(_ line: Substring, at: String, file: URL, trail: [String]) {
        let optional = line.hasPrefix("#include?")
        let rest = line.dropFirst(optional ? 9 : 8).trimmingCharacters(in: .whitespaces)
        guard rest.count >= 2, rest.hasPrefix("\""), rest.hasSuffix("\"") else {
            problems.append("\(at): #include needs a quoted path (#include \"Other.xcconfig\"); skipped")
            return
        }
        let path = String(rest.dropFirst().dropLast())
        if path.hasPrefix("<") {
            problems.append("\(at): #include \"\(path)\" names a folder of Xcode's own; not read")
            return
        }
        var refused: [String] = []
        let candidates = (path.hasPrefix("/") ? [file.deletingLastPathComponent()] : [file.deletingLastPathComponent(), projectFolder])
            .compactMap { repository.file(path, relativeTo: $0, namedIn: at, problems: &refused) }
        guard let found = candidates.first(where: { repository.exists($0) }) else {
            if candidates.isEmpty { problems += refused.prefix(1); return }
            let pods = path.hasPrefix("Pods/") ? " (CocoaPods' settings: `pod install` writes them)"
                : path.hasSuffix("Generated.xcconfig") ? " (Flutter's settings: `flutter pub get` writes it, with the SDK's paths and the version from pubspec.yaml)" : ""
            if !optional { problems.append("\(at): #include \"\(path)\" is found neither beside it nor in the project's folder\(pods); skipped") }
            return
        }
        problems += refused.filter { !$0.contains("lies outside") }.prefix(1) // a spelling that differs in case
        read(found, trail: trail, from: at)
    }

    /// `NAME` or `NAME[condition=value]…`.
    static func isKey(_ text: String) -> Bool {
        let name = text.prefix { $0 != "[" }
        guard let first = name.first, first.isLetter || first == "_", name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return false }
        let conditions = text.dropFirst(name.count)
        return conditions.isEmpty || (conditions.hasPrefix("[") && conditions.hasSuffix("]"))
    }
}
