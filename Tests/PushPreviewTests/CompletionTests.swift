import Foundation
import Testing

/// A shell's path, or nil when it is not installed (scripts/install-deps installs bash, zsh and fish).
func shell(_ name: String) -> URL? {
    ["/usr/bin/\(name)", "/bin/\(name)"].map(URL.init(fileURLWithPath:)).first { FileManager.default.isExecutableFile(atPath: $0.path) }
}

/// `pushpreview completion SHELL`, loaded into that shell as a user loads it, completing a command,
/// an option, and an option's value.
struct CompletionTests {
    func script(_ name: String) throws -> URL {
        let r = try runProcess(pushpreviewBinary, ["completion", name])
        #expect(r.status == 0, "\(r.stderr)")
        let file = temporaryFolder("completion-\(name)").appendingPathComponent("pushpreview.\(name)")
        try Data(r.stdout.utf8).write(to: file)
        return file
    }

    @Test(.enabled(if: shell("bash") != nil, "skipped: bash is not installed"))
    func bash() throws {
        let file = try script("bash")
        // complete -p says what is bound; then the bound function is driven as bash drives it.
        let drive = """
        source \(file.path) || exit 3
        complete -p pushpreview
        function=$(complete -p pushpreview | sed -n 's/.*-F \\([^ ]*\\).*/\\1/p')
        offer() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); "$function" pushpreview "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"; echo "$*: ${COMPREPLY[*]}"; }
        offer pushpreview ren
        offer pushpreview render --dev
        offer pushpreview gallery --appearance ''
        offer pushpreview completion ''
        offer pushpreview render --out=x --media-state =
        """
        let r = try runProcess(shell("bash")!, ["--norc", "--noprofile", "-c", drive])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("complete ") == true && lines.first?.hasSuffix(" pushpreview") == true, "\(r.stdout)")
        #expect(lines.contains("pushpreview ren: render"), "\(r.stdout)")
        #expect(lines.contains("pushpreview render --dev: --device"), "\(r.stdout)")
        #expect(lines.contains("pushpreview gallery --appearance : light dark"), "\(r.stdout)")
        #expect(lines.contains("pushpreview completion : bash zsh fish"), "\(r.stdout)")
        #expect(lines.contains("pushpreview render --out=x --media-state =: paused playing"), "--media-state=, as bash splits it: \(r.stdout)")
    }

    /// A real interactive zsh (in a pseudo-terminal) with compinit: a Tab at the end of a line, and
    /// what zsh's own completion system offers there (Tests/Support/zsh-complete.zsh).
    @Test(.enabled(if: shell("zsh") != nil, "skipped: zsh is not installed (scripts/install-deps installs it)"))
    func zsh() throws {
        let file = try script("zsh")
        func offered(_ line: String) throws -> Set<String> {
            let r = try runProcess(shell("zsh")!, ["-f", repositoryRoot.appendingPathComponent("Tests/Support/zsh-complete.zsh").path, file.path, line])
            #expect(r.status == 0, "\(line): \(r.status) \(r.stderr)")
            let lines = r.stdout.split(separator: "\n").map(String.init).drop { !$0.hasPrefix("registered: ") }
            #expect(lines.first == "registered: 1 _pushpreview", "compinit did not bind the function: \(r.stdout)")
            return Set(lines.dropFirst().compactMap { $0.hasPrefix("offered: ") ? String($0.dropFirst(9)) : nil })
        }
        #expect(try offered("pushpreview ren") == ["render"])
        #expect(try offered("pushpreview render --dev") == ["--device"])
        #expect(try offered("pushpreview gallery --appearance ") == ["light", "dark"])
        let devices = try offered("pushpreview render --device ")
        #expect(devices.contains("iphone-17") && devices.contains("ipad-10"), "\(devices)")
    }

    @Test(.enabled(if: shell("fish") != nil, "skipped: fish is not installed (scripts/install-deps installs it)"))
    func fish() throws {
        let file = try script("fish")
        func offered(_ line: String) throws -> [String] {
            let r = try runProcess(shell("fish")!, ["--no-config", "-c", "source \(file.path); complete -C '\(line)'"])
            #expect(r.status == 0, "\(r.stderr)")
            return r.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try offered("pushpreview ren") == ["render"])
        #expect(try offered("pushpreview render --dev") == ["--device"])
        #expect(Set(try offered("pushpreview gallery --appearance ")) == ["light", "dark"])
        #expect(Set(try offered("pushpreview completion ")) == ["bash", "zsh", "fish"])
    }
}
