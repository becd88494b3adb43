@testable import ConfinedFiles
import Foundation
import Testing

/// The gate itself, on a small tree with every kind of link a repository can commit, with the
/// kernel resolving (openat2) and with the component-by-component walk a kernel without openat2
/// gets: both must refuse and allow the same paths.
@Suite(.serialized) struct ConfinedFolderTests {
    /// top/{inside/{a/file, a/b/inner, Folder/x, DUP/x, dup/x, links…}, outside/secret}
    static func tree() throws -> (top: URL, inside: URL) {
        let top = FileManager.default.temporaryDirectory.appendingPathComponent("confined-\(UUID().uuidString)")
        let inside = top.appendingPathComponent("inside")
        for dir in ["a/b", "Folder", "DUP", "dup"] { try FileManager.default.createDirectory(at: inside.appendingPathComponent(dir), withIntermediateDirectories: true) }
        try FileManager.default.createDirectory(at: top.appendingPathComponent("outside"), withIntermediateDirectories: true)
        for file in ["a/file", "a/b/inner", "Folder/x", "DUP/x", "dup/x"] { try Data("x".utf8).write(to: inside.appendingPathComponent(file)) }
        try Data("secret".utf8).write(to: top.appendingPathComponent("outside/secret"))
        let links = ["in": "a/b", "up": "../outside", "abs": top.appendingPathComponent("outside").path, "absin": inside.appendingPathComponent("a").path,
                     "loop1": "loop2", "loop2": "loop1", "filelink": "a/file", "outfile": "../outside/secret", "magic": "/proc/self/root/etc"]
        for (name, target) in links { try FileManager.default.createSymbolicLink(atPath: inside.appendingPathComponent(name).path, withDestinationPath: target) }
        return (top, inside)
    }

    static func bothWays(_ body: () throws -> Void) rethrows {
        defer { Beneath.kernelResolves = true }
        for kernel in [true, false] {
            Beneath.kernelResolves = kernel
            try body()
        }
    }

    @Test func readsInsideAndRefusesEveryWayOut() throws {
        let (top, inside) = try Self.tree()
        defer { try? FileManager.default.removeItem(at: top) }
        try Self.bothWays {
            let folder = try ConfinedFolder(trusted: inside)
            #expect(try folder.read("a/file") == Array("x".utf8))
            #expect(try folder.read("in/inner") == Array("x".utf8), "a link that stays inside is followed")
            #expect(try folder.read("in/../file") == Array("x".utf8), "`..` after a link is the target's parent, as the kernel has it")
            #expect(try folder.read("filelink") == Array("x".utf8))
            for escape in ["../outside/secret", "up/secret", "a/../../outside/secret", "outfile", "in/../../../outside/secret"] {
                #expect(throws: FileRefusal(folder: inside.path, path: escape, .outside)) { try folder.read(escape) }
            }
            #expect(throws: FileRefusal(folder: inside.path, path: "abs/secret", .absoluteLink("abs"))) { try folder.read("abs/secret") }
            #expect(throws: FileRefusal(folder: inside.path, path: "absin/file", .absoluteLink("absin")), "an absolute link is refused even when it points inside") { try folder.read("absin/file") }
            #expect(throws: FileRefusal(folder: inside.path, path: "magic/passwd", .absoluteLink("magic"))) { try folder.read("magic/passwd") }
            #expect(throws: FileRefusal(folder: inside.path, path: "loop1/x", .loop)) { try folder.read("loop1/x") }
            #expect(throws: FileRefusal(folder: inside.path, path: "nothing", .missing)) { try folder.read("nothing") }
            #expect(throws: FileRefusal(folder: inside.path, path: "/etc/passwd", .badName)) { try folder.read("/etc/passwd") }
            #expect(throws: FileRefusal(folder: inside.path, path: "a", .notAFile)) { try folder.read("a") }
            #expect(throws: FileRefusal(folder: inside.path, path: "a/file/x", .notAFolder("a/file"))) { try folder.read("a/file/x") }
            #expect(throws: FileRefusal(folder: inside.path, path: "a/file", .tooLarge(size: 1, limit: 0))) { try folder.read("a/file", limit: 0) }
            // URLs beneath the folder map to paths; others are refused before anything is opened.
            #expect(try folder.read(inside.appendingPathComponent("a/file")) == Array("x".utf8))
            #expect(throws: FileRefusal.self) { try folder.read(top.appendingPathComponent("outside/secret")) }
            #expect(folder.kind("in") == .folder && folder.kind("filelink") == .file(size: 1) && folder.kind("up") == nil && folder.kind("abs") == nil)
        }
    }

    @Test func linksRefusedNameTheComponent() throws {
        let (top, inside) = try Self.tree()
        defer { try? FileManager.default.removeItem(at: top) }
        try Self.bothWays {
            let folder = try ConfinedFolder(trusted: inside, links: .refused)
            #expect(try folder.read("a/b/inner") == Array("x".utf8))
            #expect(throws: FileRefusal(folder: inside.path, path: "in/inner", .link("in"))) { try folder.read("in/inner") }
            #expect(throws: FileRefusal(folder: inside.path, path: "filelink", .link("filelink"))) { try folder.read("filelink") }
            #expect(throws: FileRefusal(folder: inside.path, path: "up/x.png", .link("up"))) { try folder.write([1], to: "up/x.png") }
            #expect(throws: FileRefusal(folder: inside.path, path: "up/new", .link("up"))) { try folder.makeFolders("up/new") }
            #expect(throws: FileRefusal(folder: inside.path, path: "in", .link("in"))) { _ = try folder.folder("in") }
            #expect(!FileManager.default.fileExists(atPath: top.appendingPathComponent("outside/x.png").path))
            #expect(!FileManager.default.fileExists(atPath: top.appendingPathComponent("outside/new").path))
        }
    }

    @Test func writesReplaceLinksAndRemovalNeverFollows() throws {
        let (top, inside) = try Self.tree()
        defer { try? FileManager.default.removeItem(at: top) }
        let folder = try ConfinedFolder(trusted: inside, links: .refused)
        // A link where a file is written is replaced, not written through.
        try folder.write(Array("mine".utf8), to: "outfile")
        #expect(try String(contentsOf: top.appendingPathComponent("outside/secret"), encoding: .utf8) == "secret")
        #expect(try folder.read("outfile") == Array("mine".utf8))
        try folder.write(Array("deep".utf8), to: "new/deeper/file.txt")
        #expect(try folder.read("new/deeper/file.txt") == Array("deep".utf8))
        // Removing a link to a folder removes the link; removing a folder does not follow links in it.
        try FileManager.default.createSymbolicLink(atPath: inside.appendingPathComponent("new/escape").path, withDestinationPath: "../../outside")
        try folder.remove("new")
        try folder.remove("up")
        #expect(folder.kind("new") == nil)
        #expect(try String(contentsOf: top.appendingPathComponent("outside/secret"), encoding: .utf8) == "secret")
        try folder.remove("not-there")
        #expect(throws: FileRefusal.self) { try folder.remove("../outside/secret") }
        #expect(FileManager.default.fileExists(atPath: top.appendingPathComponent("outside/secret").path))
    }

    @Test func aFIFOIsNotAFileAndDoesNotHang() throws {
        let (top, inside) = try Self.tree()
        defer { try? FileManager.default.removeItem(at: top) }
        #expect(mkfifo(inside.appendingPathComponent("pipe").path, 0o644) == 0)
        let folder = try ConfinedFolder(trusted: inside)
        #expect(throws: FileRefusal(folder: inside.path, path: "pipe", .notAFile)) { try folder.read("pipe") }
        #expect(folder.kind("pipe") == .other)
    }

    @Test func namesAndFilesListWithoutFollowingOut() throws {
        let (top, inside) = try Self.tree()
        defer { try? FileManager.default.removeItem(at: top) }
        let folder = try ConfinedFolder(trusted: inside)
        #expect(try folder.names() == ["DUP", "Folder", "a", "abs", "absin", "dup", "filelink", "in", "loop1", "loop2", "magic", "outfile", "up"])
        let all = folder.files()
        #expect(all.files == ["DUP/x", "Folder/x", "a/b/inner", "a/file", "dup/x", "filelink"], "links to folders are not entered; links out are not listed")
        #expect(all.refused == ["abs", "absin", "loop1", "loop2", "magic", "outfile", "up"], "links out (and loops) are named, for the caller to say")
        let two = folder.files(limit: 2)
        #expect(two.files == ["DUP/x", "Folder/x"] && two.truncated)
    }

    @Test func ignoringCaseFindsTheOneSpellingAndRefusesTwo() throws {
        let (top, inside) = try Self.tree()
        defer { try? FileManager.default.removeItem(at: top) }
        try Self.bothWays {
            let folder = try ConfinedFolder(trusted: inside, ignoringCase: true)
            #expect(try folder.read("folder/X") == Array("x".utf8))
            #expect(folder.respelling("folder/X")?.spelled == "folder" && folder.respelling("folder/X")?.onDisk == "Folder")
            #expect(folder.respelling("dup/x") == nil, "an exact spelling is taken as it is")
            #expect(throws: FileRefusal(folder: inside.path, path: "Dup/x", .ambiguous(["DUP", "dup"]))) { try folder.read("Dup/x") }
            let exact = try ConfinedFolder(trusted: inside)
            #expect(throws: FileRefusal(folder: inside.path, path: "folder/X", .missing)) { try exact.read("folder/X") }
        }
    }
}
