/// `pushpreview help [COMMAND]`: the same as `COMMAND --help`; `--markdown`, the README's tables.
enum HelpCommand {
    static let spec = CommandSpec(
        name: "help", synopsis: ["help [COMMAND]", "help --markdown"], summary: "the same as COMMAND --help",
        about: """
        Without COMMAND, the list of commands. With --markdown, the README's option and exit-status
        tables, each between the markers README.md holds it in (a test checks README.md against them).
        """,
        positionals: [.init(name: "COMMAND", completes: .commands)],
        options: [.flag("markdown", "print the README's tables instead")],
        exits: [.init(0, "printed"), .init(2, "usage (an unknown command)")])

    static func run(_ argv: [String]) -> Int32 {
        let a: Arguments
        do {
            a = try Arguments(argv, spec)
            guard a.positionals.count <= 1 else { throw Arguments.UsageError(description: "give one COMMAND") }
        } catch { return usageError(spec, error) }
        if a.flags.contains("markdown") { print(specs.markdown); return 0 }
        guard let name = a.positionals.first else { print(specs.usage); return 0 }
        guard let command = specs.first(where: { $0.name == name }) else { return usageError(spec, Arguments.UsageError(description: "unknown command '\(name)'")) }
        print(command.help)
        return 0
    }
}
