import Diagnostics
import Formats

// This module's errors as findings, with the position each knows.

extension YAMLError: DiagnosticConvertible {
    public var diagnostic: Diagnostic { Diagnostic(.error, code: .yaml, file: file, line: line, column: column, message) }
}

extension XcodeProject.ReadError: DiagnosticConvertible {
    public var diagnostic: Diagnostic { Diagnostic(located: description, severity: .error, code: .xcode) }
}

extension Diagnostic {
    /// A finding the Xcode reader wrote as text, `FILE[:LINE[:COLUMN]]: message` (the compiler's
    /// form, which its readers of five formats share), with the position taken apart again.
    public init(located text: String, severity: Severity = .warning, code: Code = .xcode) {
        let parts = text.split(separator: ": ", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].hasPrefix("/") || parts[0].contains("."), !parts[0].contains(" ") else {
            self.init(severity, code: code, text); return
        }
        var place = parts[0].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        var numbers: [Int] = []
        while place.count > 1, let n = Int(place.last!) { numbers.insert(n, at: 0); place.removeLast() }
        self.init(severity, code: code, file: place.joined(separator: ":"), line: numbers.first, column: numbers.dropFirst().first, String(parts[1]))
    }
}
