/// One finding about an input: what every stage produces and every command prints, from one list
/// (`validate`, `gallery`'s `report.json` and page, `init`). Where is in fields, not in the text,
/// so `--json` readers and editors can point at it.
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable { case error, warning }
    public var severity: Severity
    /// The kind of finding ("icon.placeholder", "strings.untranslated"), declared in `Code`.
    public var code: Code
    /// The file it is about (as the run names it), or empty for the run as a whole.
    public var file: String
    public var line: Int?
    public var column: Int?
    /// A key path in the file ("NSExtension.NSExtensionAttributes", "categories[2].actions[0]"), or nil.
    public var keyPath: String?
    public var message: String
    /// The category it is about, when it is about one: only that category's mock-ups carry it.
    public var category: String?
    /// The locale it is about, when it is about one (a missing translation).
    public var locale: String?

    public init(_ severity: Severity, code: Code, file: String = "", line: Int? = nil, column: Int? = nil, keyPath: String? = nil,
                _ message: String, category: String? = nil, locale: String? = nil) {
        self.severity = severity; self.code = code; self.file = file; self.line = line; self.column = column
        self.keyPath = keyPath.flatMap { $0.isEmpty ? nil : $0 }; self.message = message; self.category = category; self.locale = locale
    }

    /// `file:line:column: key.path: message`, each part only when known (the compiler's form).
    public var location: String {
        var place = file
        if let line, line > 0, !file.isEmpty { place += ":\(line)"; if let column, column > 0 { place += ":\(column)" } }
        return [place.isEmpty ? nil : place, keyPath].compactMap { $0 }.joined(separator: ": ")
    }

    public var description: String { location.isEmpty ? message : "\(location): \(message)" }

    /// `error: …` / `warning: …`, as a terminal line.
    public var printed: String { "\(severity.rawValue): \(description)" }
}

/// An error that knows where it is: thrown by a reader, listed as a finding.
public protocol DiagnosticConvertible: Error {
    var diagnostic: Diagnostic { get }
}

extension Diagnostic: DiagnosticConvertible {
    public var diagnostic: Diagnostic { self }
}

extension Diagnostic: Error {}

extension Error {
    /// This error as a finding: its own position when it knows it, else its text as an error.
    public var asDiagnostic: Diagnostic {
        (self as? DiagnosticConvertible)?.diagnostic ?? Diagnostic(.error, code: .failure, "\(self)")
    }
}
