/// The shell completion scripts, made from the command tables. `words` turns `.devices` and
/// `.commands` into the words the script offers.
struct CompletionScripts {
    var specs: [CommandSpec]
    var deviceIDs: [String]

    func words(_ completion: CommandSpec.Completion) -> [String]? {
        switch completion {
        case .words(let w): return w
        case .devices: return deviceIDs
        case .commands: return specs.map(\.name)
        case .nothing, .file, .folder: return nil
        }
    }

    /// The first clause of an option's help, for the shells that show one beside each candidate.
    static func short(_ help: String) -> String {
        let cut = [" (", "; "].compactMap { help.range(of: $0)?.lowerBound }.min() ?? help.endIndex
        return String(help[..<cut])
    }

    static func options(_ spec: CommandSpec) -> [String] { spec.options.map { "--\($0.name)" } + ["-h", "--help"] }

    // MARK: bash

    var bash: String {
        func offer(_ completion: CommandSpec.Completion) -> String {
            switch completion {
            case .file: return #"COMPREPLY=($(compgen -f -- "$cur"))"#
            case .folder: return #"COMPREPLY=($(compgen -d -- "$cur"))"#
            case .nothing: return "COMPREPLY=()"
            default: return #"COMPREPLY=($(compgen -W "\#(words(completion)!.joined(separator: " "))" -- "$cur"))"#
            }
        }
        var lines = [
            "# pushpreview completion for bash (pushpreview completion bash): source it from ~/.bashrc, or",
            "# save it as /usr/share/bash-completion/completions/pushpreview.",
            "_pushpreview() {",
            #"    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}""#,
            // bash splits --out=DIR at the "=": the option is then the word before it.
            #"    [[ "$cur" == "=" ]] && cur="" && prev="${COMP_WORDS[COMP_CWORD-1]}""#,
            #"    [[ "$prev" == "=" ]] && prev="${COMP_WORDS[COMP_CWORD-2]}""#,
            "    if ((COMP_CWORD == 1)); then",
            "        " + offer(.commands) + "; return 0",
            "    fi",
            #"    case "${COMP_WORDS[1]}" in"#,
        ]
        for spec in specs {
            lines.append("    \(spec.name))")
            let valued = spec.options.filter { $0.kind != .flag }
            if !valued.isEmpty {
                lines.append(#"        case "$prev" in"#)
                var groups: [(CommandSpec.Completion, [String])] = []
                for option in valued {
                    if let i = groups.firstIndex(where: { $0.0 == option.completes }) { groups[i].1.append("--\(option.name)") }
                    else { groups.append((option.completes, ["--\(option.name)"])) }
                }
                for (completion, names) in groups { lines.append("        \(names.joined(separator: "|"))) \(offer(completion)); return 0 ;;") }
                lines.append("        esac")
            }
            lines.append(#"        if [[ "$cur" == -* ]]; then \#(offer(.words(Self.options(spec)))); return 0; fi"#)
            lines.append("        \(offer(spec.positionals.first?.completes ?? .nothing)) ;;")
        }
        lines += ["    esac", "}", "complete -o filenames -F _pushpreview pushpreview"]
        return lines.joined(separator: "\n")
    }

    // MARK: zsh

    var zsh: String {
        func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
        func action(_ completion: CommandSpec.Completion) -> String {
            switch completion {
            case .file: return "_files"
            case .folder: return "_files -/"
            case .nothing: return " "
            default: return "(\(words(completion)!.joined(separator: " ")))"
            }
        }
        func bracket(_ help: String) -> String {
            Self.short(help).replacingOccurrences(of: "[", with: #"\["#).replacingOccurrences(of: "]", with: #"\]"#)
        }
        var lines = [
            "#compdef pushpreview",
            "# pushpreview completion for zsh (pushpreview completion zsh): save it as _pushpreview in a folder",
            "# of $fpath before compinit runs, or source it after compinit.",
            "_pushpreview() {",
            "    local -a commands",
            "    commands=(" + specs.map { quoted("\($0.name):\(Self.short($0.summary))") }.joined(separator: " ") + ")",
            "    if (( CURRENT == 2 )); then",
            "        _describe -t commands 'pushpreview command' commands",
            "        return",
            "    fi",
            "    local command=$words[2]",
            "    shift words; (( CURRENT-- ))",
            "    case $command in",
        ]
        for spec in specs {
            var arguments = [quoted("(- *)") + "{-h,--help}" + quoted("[show this help]")]
            for option in spec.options {
                let repeatable = option.kind == .list ? "*" : ""
                let value = option.kind == .flag ? "" : ":\(option.placeholder.replacingOccurrences(of: ":", with: #"\:"#)):\(action(option.completes))"
                arguments.append(quoted("\(repeatable)--\(option.name)\(option.kind == .flag ? "" : "=")[\(bracket(option.help))]\(value)"))
            }
            for (i, positional) in spec.positionals.enumerated() {
                arguments.append(quoted("\(i == spec.positionals.count - 1 ? "*" : ""):\(positional.name):\(action(positional.completes))"))
            }
            lines.append("    \(spec.name)) _arguments -s " + arguments.joined(separator: " ") + " ;;")
        }
        lines += ["    esac", "}", #"if [[ $zsh_eval_context[-1] == loadautofunc ]]; then _pushpreview "$@"; else compdef _pushpreview pushpreview; fi"#]
        return lines.joined(separator: "\n")
    }

    // MARK: fish

    var fish: String {
        func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: #"\"#, with: #"\\"#).replacingOccurrences(of: "'", with: #"\'"#) + "'" }
        func offer(_ completion: CommandSpec.Completion) -> String {
            switch completion {
            case .file: return "-F"
            case .folder: return "-f -a '(__fish_complete_directories)'"
            case .nothing: return "-f"
            default: return "-f -a " + quoted(words(completion)!.joined(separator: " "))
            }
        }
        var lines = [
            "# pushpreview completion for fish (pushpreview completion fish): save it as",
            "# ~/.config/fish/completions/pushpreview.fish.",
            "complete -c pushpreview -f",
        ]
        for spec in specs {
            lines.append("complete -c pushpreview -n __fish_use_subcommand -a \(spec.name) -d \(quoted(Self.short(spec.summary)))")
        }
        for spec in specs {
            let when = "complete -c pushpreview -n " + quoted("__fish_seen_subcommand_from \(spec.name)")
            lines.append("\(when) -s h -l help -d 'show this help'")
            for option in spec.options {
                let value = option.kind == .flag ? "" : " -r " + offer(option.completes)
                lines.append("\(when) -l \(option.name)\(value) -d \(quoted(Self.short(option.help)))")
            }
            if let positional = spec.positionals.first, positional.completes != .nothing { lines.append("\(when) \(offer(positional.completes))") }
        }
        return lines.joined(separator: "\n")
    }
}
