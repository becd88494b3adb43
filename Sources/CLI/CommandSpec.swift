/// One command's interface as data. Its parser (`Arguments`), its `--help`, the README's option
/// tables (`help --markdown`) and the shell completions (`completion`) are all made from it, so
/// they cannot disagree.
struct CommandSpec: Sendable {
    var name: String
    /// Usage lines after `pushpreview `; the first is also the top-level usage's.
    var synopsis: [String]
    /// One line for the top-level usage.
    var summary: String
    /// What `--help` says between the usage and the options.
    var about = ""
    var positionals: [Positional] = []
    var options: [Option] = []
    /// What `--help` says after the options.
    var notes = ""
    /// Each exit status and what it means: in `--help` and the README's table.
    var exits: [Exit]

    struct Positional: Sendable {
        var name: String
        var completes: Completion
    }

    struct Exit: Sendable {
        var status: Int32
        var meaning: String
        init(_ status: Int32, _ meaning: String) { self.status = status; self.meaning = meaning }
    }

    struct Option: Sendable {
        enum Kind: Sendable { case flag, value, list }
        var name: String
        var kind: Kind
        /// What the value is, as `--help` shows it ("DIR", "LIST"); empty for a flag.
        var placeholder: String
        var help: String
        var completes: Completion

        static func flag(_ name: String, _ help: String) -> Option {
            Option(name: name, kind: .flag, placeholder: "", help: help, completes: .nothing)
        }
        /// An option with one value; given twice, the last counts.
        static func value(_ name: String, _ placeholder: String, _ help: String, completes: Completion = .nothing) -> Option {
            Option(name: name, kind: .value, placeholder: placeholder, help: help, completes: completes)
        }
        /// A comma-separated list that may also be given several times.
        static func list(_ name: String, _ placeholder: String, _ help: String, completes: Completion = .nothing) -> Option {
            Option(name: name, kind: .list, placeholder: placeholder, help: help, completes: completes)
        }

        /// `--name PLACEHOLDER`, as --help and the README show it.
        var usage: String { placeholder.isEmpty ? "--\(name)" : "--\(name) \(placeholder)" }
    }

    /// What a shell offers for a value or a positional.
    enum Completion: Sendable, Equatable {
        case nothing, file, folder
        case words([String])
        /// The device profiles' ids (Templates/system/devices.json), read when the script is made.
        case devices
        /// The names of pushpreview's commands.
        case commands
    }

    /// Whether `argv` asks for this help: `-h` or `--help` anywhere before `--`.
    static func asksForHelp(_ argv: [String]) -> Bool {
        argv.prefix { $0 != "--" }.contains { $0 == "-h" || $0 == "--help" }
    }

    func option(_ name: String) -> Option? { options.first { $0.name == name } }
}
