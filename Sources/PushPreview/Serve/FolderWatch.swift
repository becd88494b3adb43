import ConfinedFiles
import Foundation

/// Files changed under some folders, by inotify: each folder and every folder below it is
/// watched (new ones as they appear), and `next` returns the paths that changed, gathered until
/// a short quiet so that an editor's save (write, rename, chmod) is one change. Blocks, using no
/// CPU, while nothing changes.
final class FolderWatch: @unchecked Sendable {
    private let fd: Int32
    private var folders: [Int32: String] = [:]
    private let skip: (String) -> Bool
    private let lock = NSLock()
    /// The folders walked for new ones, held open: links are not entered.
    private let roots: [ConfinedFolder]
    /// Folders watched at most: a watch costs the kernel ~1 kB, and a tree of 100,000 folders
    /// is no project (its `node_modules` or build output, more likely).
    static let maxFolders = 8_192
    /// Said once when the cap is reached (read by the caller, for the log).
    private(set) var capped = false

    /// `skip`: folders not to watch (output, caches), by path.
    init(_ roots: [ConfinedFolder], files: [URL] = [], skip: @escaping (String) -> Bool) {
        fd = inotify_init1(Int32(IN_CLOEXEC))
        self.skip = skip
        self.roots = roots
        for root in roots { add(root.url.path) }
        // Single files elsewhere (the Xcode app's): their folders, not below.
        for folder in Set(files.map { $0.deletingLastPathComponent().standardizedFileURL.path }) { watch(folder) }
    }

    deinit { close(fd) }

    static let mask = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF)

    /// IN_DONT_FOLLOW: a folder swapped for a link after it was looked at is not watched through it.
    private func watch(_ path: String) {
        let room = lock.withLock { () -> Bool in
            if folders.count < Self.maxFolders { return true }
            capped = true
            return false
        }
        guard room else { return }
        let wd = inotify_add_watch(fd, path, Self.mask | UInt32(IN_ONLYDIR) | UInt32(IN_DONT_FOLLOW))
        if wd >= 0 { lock.withLock { folders[wd] = path } }
    }

    private func add(_ path: String) {
        guard !skip(path), let (root, relative) = ConfinedRoots(roots).locate(URL(fileURLWithPath: path)) else { return }
        watch(path)
        for name in (try? root.names(relative)) ?? [] where !name.hasPrefix(".") {
            let child = relative.isEmpty ? name : relative + "/" + name
            if root.isFolder(child), !root.isLink(child) { add(path + "/" + name) }
        }
    }

    /// The next batch of changed paths; nil when the watch is closed (`stop` wrote to `wake`).
    func next(wake: Int32, quiet: Int32 = 40) -> Set<String>? {
        var changed: Set<String> = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, changed.isEmpty ? -1 : quiet)
            if ready < 0 { if errno == EINTR { continue }; return nil }
            if fds[1].revents != 0 { return nil }
            if ready == 0 { return changed }
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { return nil }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= n {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw in
                    let e = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (e.wd, e.mask, Int(e.len))
                }
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let name = String(decoding: buffer[nameStart..<min(n, nameStart + length)].prefix { $0 != 0 }, as: UTF8.self)
                offset = nameStart + length
                guard let folder = lock.withLock({ folders[wd] }) else { continue }
                let path = name.isEmpty ? folder : folder + "/" + name
                if name.hasPrefix(".") { continue }
                if mask & UInt32(IN_ISDIR) != 0 && mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { add(path) }
                if mask & UInt32(IN_IGNORED) != 0 { lock.withLock { folders[wd] = nil } }
                if !skip(path) { changed.insert(path) }
            }
        }
    }
}
