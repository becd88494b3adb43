import Checked
import ConfinedFiles
import Foundation

/// The git repository a project lives in, asked through the `git` command: which commit a ref
/// names, whether a path exists at it, and a temporary worktree of it that is removed afterwards
/// (on Ctrl-C too: the worktree's folder is one of `ChildProcesses`' folders, and its record in
/// `.git/worktrees` is pruned once the folder is gone).
public struct GitRepository: Sendable {
    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// The top of the working tree.
    public let root: URL

    public init(containing folder: URL) throws {
        let top = try Self.git(["rev-parse", "--show-toplevel"], in: folder, failure: "\(folder.path): not inside a git repository (diff --base compares with one of its commits)")
        root = URL(fileURLWithPath: top).resolvingSymlinksInPath()
    }

    /// The full id of the commit `ref` names (a branch, a tag, HEAD~1, an id).
    public func commit(_ ref: String) throws -> String {
        try Self.git(["rev-parse", "--verify", "--quiet", "--end-of-options", ref + "^{commit}"], in: root, failure: "\(ref): not a commit of \(root.path)")
    }

    /// Whether `path` (relative to the root) is a folder or file at `commit`.
    public func exists(_ path: String, at commit: String) -> Bool {
        (try? Self.git(["cat-file", "-e", "\(commit):\(path.isEmpty ? "." : path)"], in: root, failure: "")) != nil
    }

    /// `folder`'s path from the root ("" for the root itself), or nil when it is outside.
    public func relativePath(of folder: URL) -> String? {
        let path = folder.resolvingSymlinksInPath().path, top = root.path
        if path == top { return "" }
        return path.hasPrefix(top + "/") ? String(path.dropFirst(top.count + 1)) : nil
    }

    /// The files under `folder` that the repository tracks (in its index), by path from the root.
    public func tracked(under folder: URL) -> [String] {
        guard let path = relativePath(of: folder) else { return [] }
        let listed = (try? Self.git(["ls-files", "-z", "--", path.isEmpty ? "." : path], in: root, failure: "")) ?? ""
        return listed.split(separator: "\0").map(String.init)
    }

    /// Runs `body` with a detached worktree of `commit` in a temporary folder, then removes it.
    public func withWorktree<T>(at commit: String, _ body: (URL) throws -> T) throws -> T {
        _ = try? Self.git(["worktree", "prune"], in: root, failure: "")
        let root = root
        let parent = try ChildProcesses.temporaryFolder("pushpreview-base") { _ = try? Self.git(["worktree", "prune"], in: root, failure: "") }
        defer { ChildProcesses.remove(folder: parent) }
        let tree = parent.appendingPathComponent(String(commit.prefix(12)))
        _ = try Self.git(["worktree", "add", "--detach", "--quiet", tree.path, commit], in: root, failure: "could not check out \(commit.prefix(12)) in a temporary worktree")
        return try body(tree)
    }

    /// git's standard output, trimmed; `failure` and git's own message when it exits non-zero.
    @discardableResult
    static func git(_ arguments: [String], in folder: URL, failure: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", folder.path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["LC_ALL"] = "C"
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw Failure(description: "\(failure): git could not be started (\(error))") }
        ChildProcesses.started(process.processIdentifier)
        // The commands asked are quiet on standard error (a line on failure), so reading it after
        // standard output cannot stall git on a full pipe.
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let said = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        ChildProcesses.ended(process.processIdentifier)
        guard process.terminationStatus == 0 else {
            let message = String(decoding: said, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw Failure(description: message.isEmpty ? failure : "\(failure) (git: \(message))")
        }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
