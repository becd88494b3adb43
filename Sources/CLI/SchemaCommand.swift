import PushPreview

/// `pushpreview schema`: the JSON Schema of pushpreview.json, as `init` writes it beside the file.
enum SchemaCommand {
    static let spec = CommandSpec(
        name: "schema", synopsis: ["schema"], summary: "the JSON Schema of pushpreview.json",
        about: """
        Prints the JSON Schema (draft 2020-12) of pushpreview.json: every key the reader knows, its
        type, the values it takes and what it means. init writes it as pushpreview.schema.json beside
        the pushpreview.json it makes, which names it ("$schema"), so editors check the file as you type.
        """,
        exits: [.init(0, "printed"), .init(2, "usage")])

    static func run(_ argv: [String]) -> Int32 {
        do {
            guard try Arguments(argv, spec).positionals.isEmpty else { throw Arguments.UsageError(description: "schema takes no arguments") }
        } catch { return usageError(spec, error) }
        print(SettingsSchema.text, terminator: "")
        return 0
    }
}
