import CFiles
import Foundation

/// How a path beneath an open folder is opened, so that what is checked is what is opened: the
/// kernel resolves it (`openat2` with `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS`, and
/// `RESOLVE_NO_SYMLINKS` where links are refused); where it cannot (a kernel before 5.6, a seccomp
/// filter), or where a name is to be matched ignoring case, or to say which component refused,
/// the same rule is walked a component at a time, each opened relative to the one before with
/// `O_NOFOLLOW`, links read with `readlinkat` and followed by hand.
/// O_PATH: a descriptor that names a place without opening what is there for reading.
let oPath = cfiles_o_path

struct Beneath {
    let folder: Int32
    let links: ConfinedFolder.Links
    let ignoringCase: Bool

    /// Set by tests to check the walk on a kernel that has openat2.
    nonisolated(unsafe) static var kernelResolves = true

    struct Opened {
        var fd: Int32
        /// A component spelled in another case than on disk: the first such, as spelled and as found.
        var respelled: (spelled: String, onDisk: String)?
    }

    /// Opens `path` (relative, `/`-separated) with `flags` (`O_CLOEXEC` added; `O_CREAT` creates the
    /// last component only).
    func open(_ path: String, flags: Int32, mode: mode_t = 0o644) -> Result<Opened, FileRefusal.Reason> {
        guard !path.contains("\0"), !path.hasPrefix("/") else { return .failure(.badName) }
        guard path.utf8.count < Int(PATH_MAX) else { return .failure(.tooLong) }
        if Self.kernelResolves {
            var resolve = cfiles_resolve_beneath | cfiles_resolve_no_magiclinks
            if links == .refused { resolve |= cfiles_resolve_no_symlinks }
            let fd = cfiles_openat2(folder, path.isEmpty ? "." : path, flags | O_CLOEXEC, mode, resolve)
            if fd >= 0 { return .success(Opened(fd: fd)) }
            switch errno {
            case ENOENT where !ignoringCase: return .failure(.missing)
            case EISDIR, EACCES, EMFILE, ENFILE, ENOSPC, EROFS, ENAMETOOLONG, EEXIST:
                return .failure(errno == ENAMETOOLONG ? .tooLong : .system(errno))
            default: break  // refused or not supported: the walk says which component, or does the work
            }
        }
        return walk(path, flags: flags, mode: mode)
    }

    /// The rule of `RESOLVE_BENEATH`, a component at a time.
    func walk(_ path: String, flags: Int32, mode: mode_t) -> Result<Opened, FileRefusal.Reason> {
        var stack = [dup(folder)]
        var shown: [String] = []  // the components walked, for messages
        defer { for fd in stack { close(fd) } }
        var pending = ArraySlice(path.split(separator: "/").map(String.init))
        var followed = 0
        var respelled: (spelled: String, onDisk: String)?
        func here(_ name: String) -> String { (shown + [name]).joined(separator: "/") }
        while let name = pending.popFirst() {
            if name == "." { continue }
            if name == ".." {
                guard stack.count > 1 else { return .failure(.outside) }
                close(stack.removeLast())
                shown.removeLast()
                continue
            }
            guard name.utf8.count <= Int(NAME_MAX) else { return .failure(.tooLong) }
            let top = stack[stack.count - 1]
            let last = pending.isEmpty
            let probe = openat(top, name, oPath | O_NOFOLLOW | O_CLOEXEC)
            if probe < 0 {
                guard errno == ENOENT else { return .failure(.system(errno)) }
                if ignoringCase {
                    let matches = Self.matchesIgnoringCase(name, in: top)
                    if matches.count > 1 { return .failure(.ambiguous(matches.map(here))) }
                    if let match = matches.first {
                        if respelled == nil { respelled = (here(name), here(match)) }
                        pending.insert(match, at: pending.startIndex)
                        continue
                    }
                }
                guard last, flags & O_CREAT != 0 else { return .failure(.missing) }
                return final(top, name, flags, mode, shown: here(name)).map { Opened(fd: $0, respelled: respelled) }
            }
            var info = stat()
            fstat(probe, &info)
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                close(probe)
                guard links == .followedInside else { return .failure(.link(here(name))) }
                followed += 1
                guard followed <= ConfinedFolder.maxLinks else { return .failure(.loop) }
                guard let target = Self.readLink(top, name) else { return .failure(.system(errno)) }
                guard !target.hasPrefix("/") else { return .failure(.absoluteLink(here(name))) }
                pending = ArraySlice(target.split(separator: "/").map(String.init)) + pending
            case S_IFDIR where !last:
                stack.append(probe)
                shown.append(name)
            default:
                close(probe)
                guard last else { return .failure(.notAFolder(here(name))) }
                return final(top, name, flags, mode, shown: here(name)).map { Opened(fd: $0, respelled: respelled) }
            }
        }
        // The path ended in a folder (`a/b`, `a/..`, or nothing): open the folder reached.
        return final(stack[stack.count - 1], ".", flags & ~O_CREAT, mode, shown: shown.joined(separator: "/")).map { Opened(fd: $0, respelled: respelled) }
    }

    /// The last component, opened without following a link (one put there since it was looked at
    /// is refused, not followed).
    private func final(_ parent: Int32, _ name: String, _ flags: Int32, _ mode: mode_t, shown: String) -> Result<Int32, FileRefusal.Reason> {
        let fd = openat(parent, name, flags | O_NOFOLLOW | O_CLOEXEC, mode)
        if fd >= 0 { return .success(fd) }
        switch errno {
        case ELOOP: return .failure(.link(shown))
        case ENOENT: return .failure(.missing)
        case ENAMETOOLONG: return .failure(.tooLong)
        default: return .failure(.system(errno))
        }
    }

    /// The entries of `folder` that are `name` ignoring case, sorted.
    static func matchesIgnoringCase(_ name: String, in folder: Int32) -> [String] {
        let lower = name.lowercased()
        return ((try? ConfinedFolder.names(in: folder)) ?? []).filter { $0.lowercased() == lower }
    }

    static func readLink(_ parent: Int32, _ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlinkat(parent, name, &buffer, Int(PATH_MAX))
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
