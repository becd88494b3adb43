extension Diagnostic {
    /// The kind of a finding: a short stable name for filtering (`validate --json`, `report.json`)
    /// and for tests. Every kind is declared here, once, so code matches kinds by name and never by
    /// a message's words; the CLI prints the name only in JSON.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        // Files and the run
        /// A file or folder that does not exist or cannot be read as named.
        public static let path = Code(rawValue: "path")
        /// An error with no kind of its own (a library's, an unexpected one).
        public static let failure = Code(rawValue: "failure")
        /// A render worker that crashed, ran out of time or memory.
        public static let worker = Code(rawValue: "worker")

        // Formats
        public static let json = Code(rawValue: "json")
        public static let plist = Code(rawValue: "plist")
        public static let yaml = Code(rawValue: "yaml")
        /// A payload's shape: a key of the wrong type, a value iOS refuses.
        public static let payload = Code(rawValue: "payload")
        /// What looks like media in a payload but no media key attaches.
        public static let mediaUnattached = Code(rawValue: "media.unattached")

        // The project
        /// pushpreview.json: an unknown key, a wrong type, a value out of range.
        public static let settings = Code(rawValue: "settings")
        /// View settings for a category no extension claims.
        public static let settingsUnused = Code(rawValue: "settings.unused")
        public static let devices = Code(rawValue: "devices")
        /// The app's Xcode project, XcodeGen spec or Tuist manifest, as read.
        public static let xcode = Code(rawValue: "xcode")
        /// A content extension's Info.plist (NSExtension and its attributes).
        public static let extensionInfo = Code(rawValue: "extension")
        /// categories.json and the categories' view settings.
        public static let categories = Code(rawValue: "categories")
        public static let categoryTitle = Code(rawValue: "category.title")
        /// An extension claims a category categories.json does not define.
        public static let categoryUndefined = Code(rawValue: "category.undefined")
        /// A payload names a category nobody defines.
        public static let categoryUnknown = Code(rawValue: "category.unknown")
        /// An action's SF Symbol that is not drawn as named.
        public static let symbol = Code(rawValue: "symbol")
        public static let icon = Code(rawValue: "icon")
        /// No app icon: the placeholder is drawn.
        public static let iconPlaceholder = Code(rawValue: "icon.placeholder")
        public static let wallpaperOutside = Code(rawValue: "wallpaper.outside")
        public static let fontsOutside = Code(rawValue: "fonts.outside")
        public static let strings = Code(rawValue: "strings")
        public static let stringsForm = Code(rawValue: "strings.form")
        public static let stringsUntranslated = Code(rawValue: "strings.untranslated")
        /// A service extension sets a field in code PushPreview does not follow (pushpreview.json codeChanges).
        public static let codeChange = Code(rawValue: "code.change")
        /// Words iOS itself writes that PushPreview has not for the locale.
        public static let systemStrings = Code(rawValue: "strings.system")

        // Templates
        /// What a template's HTML or CSS holds that is removed or not supported.
        public static let template = Code(rawValue: "template")
        public static let mustache = Code(rawValue: "mustache")
        public static let templateMissing = Code(rawValue: "template.missing")
        public static let templateUnused = Code(rawValue: "template.unused")
        public static let templateCount = Code(rawValue: "template.count")
        /// A key the template reads that this notification's data lacks (drawn empty).
        public static let templateMissingKey = Code(rawValue: "template.key")

        // A mock-up
        /// The service stage fell back (a download failed, the budget ran out, …).
        public static let service = Code(rawValue: "service")
        /// An attachment or an image a template names that cannot be drawn.
        public static let media = Code(rawValue: "media")
        /// A picture behind or beside the notification (wallpaper, backdrop, sender) not drawn.
        public static let picture = Code(rawValue: "picture")
        /// A font the template or app names that no loaded font provides.
        public static let font = Code(rawValue: "font")
        /// Characters no font has a glyph for, or text too long to lay out whole.
        public static let text = Code(rawValue: "text")
        /// A custom view taller than iOS shows.
        public static let clipped = Code(rawValue: "view.clipped")
        /// Action buttons the payload brings that are not usable.
        public static let actions = Code(rawValue: "actions")
    }
}
