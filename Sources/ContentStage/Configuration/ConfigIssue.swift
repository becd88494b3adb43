/// A problem found in a content extension's configuration (Info.plist, categories.json, the
/// project's category settings): the file, where in it, and what to do.
public struct ConfigIssue: Sendable, Equatable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable { case error, warning }
    public var severity: Severity
    public var file: String
    /// A key path in the file ("NSExtension.NSExtensionAttributes.UNNotificationExtensionCategory",
    /// "categories[2].actions[0].options"), or empty for the whole file.
    public var location: String
    public var message: String
    /// The category the issue is about, when it is about one: render shows it on that category's mock-ups.
    public var category: String?

    public init(_ severity: Severity, file: String, location: String = "", _ message: String) {
        self.severity = severity; self.file = file; self.location = location; self.message = message
    }

    public var description: String { [file.isEmpty ? nil : file, location.isEmpty ? nil : location, message].compactMap { $0 }.joined(separator: ": ") }
}
