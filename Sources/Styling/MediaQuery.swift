/// The screen a mock-up is drawn for, as a page's `@media` rules ask about it: its appearance and
/// the Accessibility › Display settings iOS turns into media features (Media Queries 5 §12:
/// `prefers-color-scheme`, `prefers-contrast`, `prefers-reduced-transparency`).
public struct MediaFeatures: Sendable, Hashable {
    public var appearance: Appearance
    public var accessibility: AccessibilitySetting

    public init(appearance: Appearance, accessibility: AccessibilitySetting = .standard) {
        self.appearance = appearance; self.accessibility = accessibility
    }
}

/// The display settings a mock-up can be drawn with (`--accessibility`): none, Reduce
/// Transparency or Increase Contrast (Settings › Accessibility › Display & Text Size).
public enum AccessibilitySetting: String, Sendable, CaseIterable, Codable {
    case standard = "none"
    case reduceTransparency = "reduce-transparency"
    case increaseContrast = "increase-contrast"
}

/// An `@media` prelude's feature tests, all of which must hold (`and`); nested blocks add theirs.
public struct MediaCondition: Sendable, Hashable {
    public struct Test: Sendable, Hashable { public var feature: String, value: String }
    public var tests: [Test]

    /// The features and values PushPreview answers; any other makes the block unsupported.
    static let known: [String: Set<String>] = [
        "prefers-color-scheme": ["light", "dark"],
        "prefers-contrast": ["more", "less", "custom", "no-preference"],
        "prefers-reduced-transparency": ["reduce", "no-preference"],
    ]
    static let supportedNote = "only @media with (prefers-color-scheme: …), (prefers-contrast: …) and (prefers-reduced-transparency: …) joined by and"

    /// `@media [only] [screen|all] and (feature: value) and …`, lowercased; nil for anything else
    /// (another feature, a media type that is not the screen, `or`, `not`, a list).
    static func parse(_ prelude: String) -> MediaCondition? {
        var rest = Substring(prelude.dropFirst("@media".count))
        var tests: [Test] = [], words: [Substring] = []
        while let open = rest.firstIndex(of: "(") {
            words += rest[..<open].split(whereSeparator: \.isWhitespace)
            guard let close = rest[open...].firstIndex(of: ")") else { return nil }
            let parts = rest[rest.index(after: open)..<close].split(separator: ":", maxSplits: 1).map { $0.trimmed }
            guard parts.count == 2, known[parts[0]]?.contains(parts[1]) == true else { return nil }
            tests.append(Test(feature: parts[0], value: parts[1]))
            rest = rest[rest.index(after: close)...]
        }
        words += rest.split(whereSeparator: \.isWhitespace)
        guard !tests.isEmpty, words.allSatisfy({ ["and", "only", "screen", "all"].contains($0) }) else { return nil }
        return MediaCondition(tests: tests)
    }

    public func matches(_ screen: MediaFeatures) -> Bool {
        tests.allSatisfy { t in
            switch (t.feature, t.value) {
            case ("prefers-color-scheme", let scheme): return scheme == screen.appearance.rawValue
            case ("prefers-contrast", "more"): return screen.accessibility == .increaseContrast
            case ("prefers-contrast", "no-preference"): return screen.accessibility != .increaseContrast
            case ("prefers-reduced-transparency", "reduce"): return screen.accessibility == .reduceTransparency
            case ("prefers-reduced-transparency", "no-preference"): return screen.accessibility != .reduceTransparency
            default: return false // prefers-contrast: less or custom
            }
        }
    }

    func and(_ other: MediaCondition?) -> MediaCondition { MediaCondition(tests: (other?.tests ?? []) + tests) }
}

extension Stylesheet.Rule {
    /// Whether the rule applies on `screen` (a rule outside any @media always does).
    public func applies(on screen: MediaFeatures) -> Bool { media?.matches(screen) ?? true }
}
