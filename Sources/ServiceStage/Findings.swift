import Diagnostics

// This module's errors as findings, with the position each knows.

extension StringsFile.ParseError: DiagnosticConvertible {
    public var diagnostic: Diagnostic { Diagnostic(.error, code: .strings, file: file, line: line, message) }
}

extension StringCatalog.ParseError: DiagnosticConvertible {
    public var diagnostic: Diagnostic { Diagnostic(.error, code: .strings, file: file, message) }
}
