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

    /// `skip`: folders not to watch (output, caches), by path.
    init(_ roots: [URL], files: [URL] = [], skip: @escaping (String) -> Bool) {
        fd = inotify_init1(Int32(IN_CLOEXEC))
        self.skip = skip
        for root in roots { add(root.standardizedFileURL.path) }
        // Single files elsewhere (the Xcode app's): their folders, not below.
        for folder in Set(files.map { $0.deletingLastPathComponent().standardizedFileURL.path }) { watch(folder) }
    }

    deinit { close(fd) }

    static let mask = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF)

    private func watch(_ path: String) {
        let wd = inotify_add_watch(fd, path, Self.mask | UInt32(IN_ONLYDIR))
        if wd >= 0 { lock.withLock { folders[wd] = path } }
    }

    private func add(_ path: String) {
        guard !skip(path) else { return }
        watch(path)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names where !name.hasPrefix(".") {
            var isFolder: ObjCBool = false
            let child = path + "/" + name
            if FileManager.default.fileExists(atPath: child, isDirectory: &isFolder), isFolder.boolValue,
               (try? FileManager.default.destinationOfSymbolicLink(atPath: child)) == nil { add(child) }
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
