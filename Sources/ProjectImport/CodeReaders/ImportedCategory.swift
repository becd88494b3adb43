/// A text as an app's code gives it: a literal, or a key the app localizes (looked up in `table`
/// for each locale; `default` is the `value:` / `defaultValue:` the code gives, if any).
public enum ImportedText: Sendable, Equatable {
    case literal(String)
    case localized(key: String, table: String, default: String?)

    /// The text shown where no strings table has the key.
    public var fallback: String {
        switch self {
        case .literal(let s): return s
        case .localized(let key, _, let d): return d ?? key
        }
    }
}

/// A `UNNotificationCategory` found in an app's code (reference §6.3), in categories.json's terms.
public struct ImportedCategory: Sendable, Equatable {
    public var identifier: String
    public var actions: [ImportedAction] = []
    /// categories.json's names: `customDismissAction`, `allowInCarPlay`, `hiddenPreviewsShowTitle`,
    /// `hiddenPreviewsShowSubtitle`, `allowAnnouncement`.
    public var options: [String] = []
    public var hiddenPreviewsBodyPlaceholder: ImportedText?
    public var categorySummaryFormat: ImportedText?
    /// Where it is made, `FILE:LINE`, each place once (a category made in several places is one).
    public var sites: [String] = []

    public init(identifier: String) { self.identifier = identifier }
}

/// A `UNNotificationAction` or `UNTextInputNotificationAction` (reference §6.1–6.2).
public struct ImportedAction: Sendable, Equatable {
    public enum Icon: Sendable, Equatable {
        /// `UNNotificationActionIcon(systemImageName:)`
        case system(String)
        /// `UNNotificationActionIcon(templateImageName:)`
        case template(String)
    }
    /// A text-input action's button title and placeholder (nil where the code gives none).
    public struct TextInput: Sendable, Equatable {
        public var buttonTitle: ImportedText?
        public var placeholder: ImportedText?
    }
    public var identifier: String
    public var title: ImportedText
    /// categories.json's names: `authenticationRequired`, `destructive`, `foreground`.
    public var options: [String] = []
    public var icon: Icon?
    public var textInput: TextInput?

    public init(identifier: String, title: ImportedText) {
        self.identifier = identifier
        self.title = title
    }
}
