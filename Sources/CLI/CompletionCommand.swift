import ConfinedFiles
import ContentStage
import Foundation
import PushPreview

/// `pushpreview completion bash|zsh|fish`: the completion script for that shell.
enum CompletionCommand {
    static let shells = ["bash", "zsh", "fish"]
    static let spec = CommandSpec(
        name: "completion", synopsis: ["completion bash|zsh|fish"], summary: "shell completion script",
        about: """
        Prints the completion script for the shell: commands, options, device names and the other
        values options take, and files or folders where they take those. How to install it is
        written at its top.
        """,
        positionals: [.init(name: "SHELL", completes: .words(shells))],
        exits: [.init(0, "printed"), .init(2, "usage (no shell, or one not named)")])

    static func run(_ argv: [String]) -> Int32 {
        let a: Arguments
        do {
            a = try Arguments(argv, spec)
            guard a.positionals.count == 1, let shell = a.positionals.first, shells.contains(shell) else {
                throw Arguments.UsageError(description: "give one shell: \(shells.joined(separator: ", "))")
            }
        } catch { return usageError(spec, error) }
        // Device names as this installation knows them; without its templates, none are offered.
        let catalog = ShareFolder.locate().flatMap { try? DeviceProfile.catalog(templates: $0.templates) } ?? []
        let scripts = CompletionScripts(specs: specs, deviceIDs: catalog.map(\.id))
        switch a.positionals[0] {
        case "bash": print(scripts.bash)
        case "zsh": print(scripts.zsh)
        default: print(scripts.fish)
        }
        return 0
    }
}
