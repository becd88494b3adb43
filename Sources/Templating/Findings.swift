import Diagnostics

// This module's errors and warnings as findings, with the position each knows.

extension TemplateError: DiagnosticConvertible {
    public var diagnostic: Diagnostic { Diagnostic(.error, code: .template, file: file, line: line, message) }
}

extension MustacheError: DiagnosticConvertible {
    public var diagnostic: Diagnostic { Diagnostic(.error, code: .mustache, file: file, line: line, column: column, message) }
}

extension TemplateWarning {
    public var diagnostic: Diagnostic { Diagnostic(.warning, code: code, file: file, line: line, message) }
}
