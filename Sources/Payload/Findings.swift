import Diagnostics
import Formats

// This module's errors as findings, with the position each knows.

extension JSONError: DiagnosticConvertible {
    public var diagnostic: Diagnostic { Diagnostic(.error, code: .json, file: file, line: line, column: column, message) }
}

extension PropertyList.ParseError: DiagnosticConvertible {
    /// `position` is "line N" for text forms and "byte N" for binary ones.
    public var diagnostic: Diagnostic {
        let words = position.split(separator: " ")
        if words.first == "line", let line = Int(words.last ?? "") { return Diagnostic(.error, code: .plist, file: file, line: line, message) }
        return Diagnostic(.error, code: .plist, file: file, keyPath: position, message)
    }
}

extension PayloadError: DiagnosticConvertible {
    /// The first error; `diagnostics` holds them all.
    public var diagnostic: Diagnostic { diagnostics.first { $0.severity == .error } ?? Diagnostic(.error, code: .payload, description) }
}
