/// A tiny argument parser: `--flag`, `--option value`, `--option=value`, and positionals.
struct Arguments {
    var positionals: [String] = []
    var options: [String: [String]] = [:]
    var flags: Set<String> = []

    struct UsageError: Error, CustomStringConvertible { var description: String }

    /// `valued` lists the options that take a value; everything else starting with -- is a flag.
    init(_ args: [String], valued: Set<String>, flags allowedFlags: Set<String>) throws {
        var i = 0
        while i < args.count {
            let arg = args[i]
            i += 1
            guard arg.hasPrefix("--"), arg.count > 2 else { positionals.append(arg); continue }
            var name = String(arg.dropFirst(2)), value: String?
            if let eq = name.firstIndex(of: "=") { value = String(name[name.index(after: eq)...]); name = String(name[..<eq]) }
            if valued.contains(name) {
                if value == nil {
                    guard i < args.count else { throw UsageError(description: "--\(name) needs a value") }
                    value = args[i]
                    i += 1
                }
                options[name, default: []].append(value!)
            } else if allowedFlags.contains(name), value == nil {
                flags.insert(name)
            } else {
                throw UsageError(description: "unknown option --\(name)")
            }
        }
    }

    func value(_ name: String) -> String? { options[name]?.last }
    /// Comma-separated lists, possibly given several times.
    func list(_ name: String) -> [String] {
        (options[name] ?? []).flatMap { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
    }
}

import Foundation
