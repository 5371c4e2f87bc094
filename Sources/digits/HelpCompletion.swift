/// `digits help <TAB>` offers the subcommands: swift-argument-parser's
/// completion scripts give its built-in help command's argument no values,
/// so the script it generates is completed here, for each shell.
enum HelpCompletion {
    /// `script` for `shell` with the subcommands offered after `help`;
    /// unchanged where the generator's text is not what is expected.
    static func patched(_ script: String, shell: String, subcommands: [String]) -> String {
        let names = subcommands.filter { $0 != "help" }.joined(separator: " ")
        switch shell {
        case "bash":
            let end = "    __digits_offer_flags_options -1\n}\n"
            guard let function = script.range(of: "_digits_help() {\n"),
                  let close = script.range(of: end, range: function.upperBound..<script.endIndex) else { return script }
            return script.replacingCharacters(in: close, with: """
                    __digits_offer_flags_options -1
                    COMPREPLY+=($(compgen -W '\(names)' -- "${cur}"))
                }

                """)
        case "zsh":
            return script.replacingOccurrences(of: "'*:subcommands:'", with: "'*:subcommands:(\(names))'")
        case "fish":
            return script + "complete -c 'digits' -n '__fish_seen_subcommand_from help' -fa '\(names)'\n"
        default:
            return script
        }
    }

    /// The shell `arguments` ask a completion script for, if they do.
    static func requestedShell(in arguments: [String]) -> String? {
        for (index, argument) in arguments.enumerated() {
            if argument.hasPrefix("--generate-completion-script=") {
                return String(argument.dropFirst("--generate-completion-script=".count))
            }
            if argument == "--generate-completion-script", index + 1 < arguments.count { return arguments[index + 1] }
        }
        return nil
    }
}
