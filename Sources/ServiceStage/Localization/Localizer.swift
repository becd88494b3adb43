import Foundation

/// Resolves `title-loc-key`, `subtitle-loc-key` and `loc-key` with their args for one locale,
/// as iOS does with the app bundle's strings: the locale, then its language, then the
/// development language; a missing key shows the key itself (with a warning).
public struct Localizer: Sendable {
    public var locale: String
    public var developmentLanguage: String
    var tables: [(language: String, table: [String: String])] = []
    var catalog: StringCatalog?
    public private(set) var problems: [String] = []

    public init(projectFolder: URL, locale: String, developmentLanguage: String = "en") {
        self.locale = locale
        self.developmentLanguage = catalogLanguage(projectFolder) ?? developmentLanguage
        let fm = FileManager.default
        let folders = Self.lprojFolders(projectFolder)
        for language in fallbackChain {
            guard let folder = folders[Self.canonical(language)] else { continue }
            let file = projectFolder.appendingPathComponent("\(folder)/Localizable.strings")
            guard let data = fm.contents(atPath: file.path) else { continue }
            do { tables.append((language, try StringsFile.parse([UInt8](data), file: file.path))) }
            catch { problems.append("\(error)") }
        }
        let catalogFile = projectFolder.appendingPathComponent("Localizable.xcstrings")
        if let data = fm.contents(atPath: catalogFile.path) {
            do {
                catalog = try StringCatalog([UInt8](data), file: catalogFile.path)
                problems += catalog!.problems
            } catch { problems.append("\(error)") }
        }
        // A locale asked for that the app has no strings for at all reads as the development language.
        let own = fallbackChain.prefix { Self.canonical($0) != Self.canonical(self.developmentLanguage) && $0 != "Base" }
        let catalogLanguages = Set((catalog?.strings.values.flatMap(\.keys) ?? []).map(Self.canonical))
        if !own.isEmpty, !own.contains(where: { l in tables.contains { $0.language == l } || catalogLanguages.contains(Self.canonical(l)) }) {
            problems.append("no strings for \(locale) in \(projectFolder.lastPathComponent) (no \(own.map { "\($0).lproj" }.joined(separator: " or ")), nothing in a catalog); showing \(self.developmentLanguage)")
        }
    }

    /// zh-Hans-CN → zh-Hans-CN, zh-Hans, zh, then the development language, then Base.
    public var fallbackChain: [String] {
        var chain: [String] = []
        var parts = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        while !parts.isEmpty { chain.append(parts.joined(separator: "-")); parts.removeLast() }
        chain += [developmentLanguage, "Base"]
        var seen = Set<String>()
        return chain.filter { seen.insert(Self.canonical($0)).inserted }
    }

    /// A language as iOS matches `.lproj` names: `pt_BR` is `pt-BR`, case aside, and the old
    /// English names are their codes.
    static func canonical(_ name: String) -> String {
        let legacy = ["english": "en", "french": "fr", "german": "de", "japanese": "ja", "spanish": "es", "italian": "it", "dutch": "nl"]
        let lower = name.replacingOccurrences(of: "_", with: "-").lowercased()
        return legacy[lower] ?? lower
    }

    /// The project's `.lproj` folders by canonical language.
    static func lprojFolders(_ folder: URL) -> [String: String] {
        var out: [String: String] = [:]
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() where name.hasSuffix(".lproj") {
            out[canonical(String(name.dropLast(6)))] = out[canonical(String(name.dropLast(6)))] ?? name
        }
        return out
    }

    public struct Resolved: Equatable, Sendable {
        public var text: String
        /// Where it came from ("nl.lproj", "Localizable.xcstrings (pl)"), or nil when the key was missing.
        public var source: String?
        public var warnings: [String]
    }

    public func resolve(key: String, args: [String]) -> Resolved {
        for language in fallbackChain {
            if let entry = catalog?.strings[key].flatMap({ entries in entries[language] ?? entries.first { Self.canonical($0.key) == Self.canonical(language) }?.value }) {
                switch entry {
                case .text(let text): return Self.format(text, args, source: "Localizable.xcstrings (\(language))")
                case .plural(let forms):
                    let n = args.lazy.compactMap { Int($0) }.first ?? 0
                    let category = PluralRules.category(for: n, language: language)
                    if let form = forms[category] ?? forms["other"] {
                        return Self.format(form, args, source: "Localizable.xcstrings (\(language), \(category))")
                    }
                }
            }
            if let text = tables.first(where: { $0.language == language })?.table[key] {
                return Self.format(text, args, source: "\(language).lproj")
            }
        }
        var missing = Self.format(key, args, source: nil)
        missing.warnings.insert("no translation for \"\(key)\" in \(fallbackChain.joined(separator: ", ")); showing the key", at: 0)
        return missing
    }

    /// Apple's specifiers: `%@`, `%d`/`%i`/`%u` with l/ll, positional `%2$@`, and `%%`.
    public static func format(_ format: String, _ args: [String], source: String? = nil) -> Resolved {
        var out = "", warnings: [String] = []
        var next = 0
        var chars = Substring(format)
        while let c = chars.first {
            chars = chars.dropFirst()
            guard c == "%" else { out.append(c); continue }
            if chars.first == "%" { out.append("%"); chars = chars.dropFirst(); continue }
            var spec = chars
            var index: Int?
            let digits = spec.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, spec.dropFirst(digits.count).first == "$" {
                // %1$@ is the first argument; %0$@ and positions past any argument list are no argument.
                index = Int(digits).map { $0 - 1 } ?? Int.max
                spec = spec.dropFirst(digits.count + 1)
            }
            let length = spec.prefix { $0 == "l" || $0 == "h" || $0 == "q" }
            spec = spec.dropFirst(length.count)
            guard let conversion = spec.first, "@diuxXfs".contains(conversion) else { out.append("%"); continue }
            chars = spec.dropFirst()
            let i = index ?? next
            next = i == Int.max ? i : i + 1
            if i >= 0 && i < args.count { out += args[i] }
            else if i < 0 { warnings.append("\"\(format)\": %0$ names no argument (positions start at 1); left empty") }
            else { warnings.append("\"\(format)\" needs argument \(i == Int.max ? String(digits) : String(i + 1)), only \(args.count) given; left empty") }
        }
        return Resolved(text: out, source: source, warnings: warnings)
    }
}

private func catalogLanguage(_ folder: URL) -> String? {
    guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent("Localizable.xcstrings").path) else { return nil }
    return (try? StringCatalog([UInt8](data), file: ""))?.sourceLanguage
}
