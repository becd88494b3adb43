/// A command's arguments read by its `CommandSpec`: `--flag`, `--option value`, `--option=value`,
/// positionals, and `--` before positionals that start with a dash (`-` alone is stdin).
struct Arguments {
    var positionals: [String] = []
    var options: [String: [String]] = [:]
    var flags: Set<String> = []

    struct UsageError: Error, CustomStringConvertible { var description: String }

    init(_ args: [String], _ spec: CommandSpec) throws {
        var i = 0
        while i < args.count {
            let arg = args[i]
            i += 1
            if arg == "--" { positionals += args[i...]; break }
            guard arg.hasPrefix("-"), arg != "-" else { positionals.append(arg); continue }
            guard arg.hasPrefix("--") else { throw UsageError(description: "unknown option \(arg)") }
            var name = String(arg.dropFirst(2)), value: String?
            if let eq = name.firstIndex(of: "=") { value = String(name[name.index(after: eq)...]); name = String(name[..<eq]) }
            guard let option = spec.option(name) else { throw UsageError(description: "unknown option --\(name)") }
            switch option.kind {
            case .flag:
                guard value == nil else { throw UsageError(description: "--\(name) takes no value") }
                flags.insert(name)
            case .value, .list:
                if value == nil {
                    guard i < args.count else { throw UsageError(description: "--\(name) needs a value (\(option.placeholder))") }
                    value = args[i]
                    i += 1
                }
                options[name, default: []].append(value!)
            }
        }
    }

    func value(_ name: String) -> String? { options[name]?.last }

    /// `--shard I/N`, checked: 1 ≤ I ≤ N; nil when not given.
    func shard() throws -> (index: Int, count: Int)? {
        guard let s = value("shard") else { return nil }
        let parts = s.split(separator: "/").compactMap { Int($0) }
        guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else { throw UsageError(description: "--shard takes I/N with 1 ≤ I ≤ N, e.g. 2/4") }
        return (parts[0], parts[1])
    }
    /// Comma-separated lists, possibly given several times.
    func list(_ name: String) -> [String] {
        (options[name] ?? []).flatMap { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
    }
}

import Foundation
