import Foundation

/// Why a path beneath a confined folder gives no file: said with the folder and the path as the
/// input named them, and the component where it stopped.
public struct FileRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Error, Equatable, Sendable {
        /// `..` or a symbolic link that leads out of the folder.
        case outside
        /// A symbolic link where the folder follows none (outputs, caches): the component named.
        case link(String)
        /// A symbolic link to an absolute path: it would not resolve the same on another machine.
        case absoluteLink(String)
        case loop
        case missing
        case notAFile
        case notAFolder(String)
        case tooLarge(size: Int, limit: Int)
        /// Several entries differ from the spelling only in case (a folder read as macOS reads it).
        case ambiguous([String])
        case tooLong
        case badName
        case system(Int32)
    }

    /// The folder the path was looked up in, as named.
    public var folder: String
    /// The path as the input gave it, relative to `folder`.
    public var path: String
    public var reason: Reason

    public init(folder: String, path: String, _ reason: Reason) {
        self.folder = folder
        self.path = path
        self.reason = reason
    }

    /// The path as a user finds it: the folder joined with the relative path.
    public var fullPath: String { path.isEmpty ? folder : folder == "/" ? "/" + path : folder + "/" + path }

    /// Just why, without the path (for messages that name the file themselves).
    public var why: String {
        switch reason {
        case .outside: return "leads out of \(folder); not read or written"
        case .link(let component): return "\(component) is a symbolic link, and pushpreview follows none here (a link could lead its writes or reads out of \(folder)); remove the link, or give a real folder"
        case .absoluteLink(let component): return "\(component) is a symbolic link to an absolute path, which is not followed (it leads out of \(folder), and would not resolve the same on another machine)"
        case .loop: return "more than \(ConfinedFolder.maxLinks) symbolic links (a loop?)"
        case .missing: return "no such file"
        case .notAFile: return "not a regular file"
        case .notAFolder(let component): return "\(component) is not a folder"
        case .tooLarge(let size, let limit): return "\(size) bytes, over the \(ByteCountFormatter.string(fromByteCount: Int64(limit), countStyle: .binary)) this file may have"
        case .ambiguous(let names): return "matches \(names.joined(separator: " and ")), which differ only in case"
        case .tooLong: return "a path longer than the system allows"
        case .badName: return "not a plain relative path (empty, absolute or with a NUL byte)"
        case .system(let code): return String(cString: strerror(code))
        }
    }

    public var description: String { "\(fullPath): \(why)" }

    /// Whether the file is simply not there (as opposed to refused or unreadable).
    public var isMissing: Bool { reason == .missing }
}
