import Checked
import ConfinedFiles
import Foundation

/// Resolves keys (`title-loc-key`, `loc-key`, an action's title) with their args for one locale
/// and device, as iOS does with the app bundle's strings: the locale, then its parents, then the
/// development language, then Base; in each, the table's String Catalog (`TABLE.xcstrings`), its
/// `.stringsdict` and its `.strings`. A missing key shows the key itself (with a warning).
public struct Localizer: Sendable {
    public var locale: String
    public var developmentLanguage: String
    /// `iphone` or `ipad`: which device variation of a catalog entry applies.
    public var device: String
    /// The folders holding the strings, in the order they win: a project's own folder, or the
    /// folders of an Xcode app's localized resources (the app's before its extensions').
    let folders: [ConfinedFolder]
    /// table → language → key → entry, for every table of every language in the chain.
    var tables: [String: [String: [String: LocalizedEntry]]] = [:]
    var catalogs: [String: StringCatalog] = [:]
    var folderNames: [String: String] = [:]
    public private(set) var problems: [String] = []

    public init(projectFolder: URL, locale: String, developmentLanguage: String = "en", device: String = "iphone") {
        self.init(folders: [try? ConfinedFolder(trusted: projectFolder)].compactMap { $0 }, locale: locale, developmentLanguage: developmentLanguage, device: device)
    }

    /// Reads every folder's `TABLE.xcstrings` and `LANG.lproj/TABLE.strings(dict)`; where two
    /// folders have the same key in the same table and language, the first folder's wins.
    public init(folders: [ConfinedFolder], locale: String, developmentLanguage: String = "en", device: String = "iphone") {
        self.locale = locale
        self.device = device
        self.folders = folders
        for folder in folders {
            for name in ((try? folder.names()) ?? []) where name.hasSuffix(".xcstrings") {
                let file = folder.url.appendingPathComponent(name)
                guard let data = Self.read(name, in: folder, &problems) else { continue }
                do {
                    let catalog = try StringCatalog(data, file: file.path)
                    let table = String(name.dropLast(10))
                    if let known = catalogs[table] { catalogs[table] = known.merging(catalog) } else { catalogs[table] = catalog }
                    problems += catalog.problems.map(\.description)
                } catch { problems.append("\(error)") }
            }
        }
        self.developmentLanguage = catalogs["Localizable"]?.sourceLanguage ?? developmentLanguage
        let perFolder = folders.map { ($0, Self.lprojFolders($0)) }
        for (_, names) in perFolder { folderNames.merge(names) { first, _ in first } }
        for language in fallbackChain {
            for (folder, names) in perFolder {
                guard let lproj = names[Self.canonical(language)] else { continue }
                let dir = folder.url.appendingPathComponent(lproj)
                var own: [String: [String: LocalizedEntry]] = [:]
                for name in ((try? folder.names(lproj)) ?? []) {
                    let file = dir.appendingPathComponent(name)
                    guard name.hasSuffix(".strings") || name.hasSuffix(".stringsdict"), let data = Self.read(lproj + "/" + name, in: folder, &problems) else { continue }
                    if name.hasSuffix(".strings") {
                        do {
                            for (key, text) in try StringsFile.parse(data, file: file.path) where own[String(name.dropLast(8))]?[key] == nil {
                                own[String(name.dropLast(8)), default: [:]][key] = LocalizedEntry(value: .text(text))
                            }
                        } catch { problems.append("\(error)") }
                    } else {
                        do {
                            let (entries, found) = try StringsDict.parse(data, file: file.path)
                            problems += found.map(\.description)
                            // A stringsdict entry wins over the same key in the .strings file.
                            for (key, entry) in entries { own[String(name.dropLast(12)), default: [:]][key] = entry }
                        } catch { problems.append("\(error)") }
                    }
                }
                for (table, entries) in own {
                    tables[table, default: [:]][language, default: [:]].merge(entries) { first, _ in first }
                }
            }
        }
        // A locale asked for that the app has no strings for at all reads as the development language.
        let own = localeChain
        let catalogLanguages = Set(catalogs.values.flatMap { $0.strings.values.flatMap(\.keys) }.map(Self.canonical))
        let hasTable = { (language: String) in
            perFolder.contains { folder, names in
                guard let lproj = names[Self.canonical(language)] else { return false }
                return ["strings", "stringsdict"].contains { folder.isFile("\(lproj)/Localizable.\($0)") }
            }
        }
        if !own.isEmpty, !own.contains(where: { hasTable($0) || catalogLanguages.contains(Self.canonical($0)) }) {
            let name = folders.count == 1 ? folders[0].url.lastPathComponent : "the app's strings"
            problems.append("no strings for \(locale) in \(name) (no Localizable table in \(own.map { "\($0).lproj" }.joined(separator: " or ")), nothing in a catalog); showing \(self.developmentLanguage)")
        }
    }

    /// The strings of a project for a locale and device, read once per process: the service stage
    /// and the content stage of every payload share them (a run does not change its inputs).
    public static func shared(folders: [ConfinedFolder], locale: String, device: String = "iphone") -> Localizer {
        let key = "\(folders.map(\.url.path).joined(separator: "|"))|\(locale)|\(device)"
        if let known = Cache.shared.lock.withLock({ Cache.shared.made[key] }) { return known }
        let made = Localizer(folders: folders, locale: locale, device: device)
        Cache.shared.lock.withLock { Cache.shared.made[key] = made }
        return made
    }

    private final class Cache: @unchecked Sendable {
        static let shared = Cache()
        let lock = NSLock()
        var made: [String: Localizer] = [:]
    }

    /// zh-Hans-CN → zh-Hans-CN, zh-Hans, zh, then the development language, then Base. Chinese
    /// with a region but no script gets the script the region writes (zh-CN → zh-Hans).
    public var fallbackChain: [String] {
        var seen = Set<String>()
        return (localeChain + [developmentLanguage, "Base"]).filter { seen.insert(Self.canonical($0)).inserted }
    }

    /// The locale and its parents: the languages that are the locale's own.
    var localeChain: [String] {
        var chain: [String] = []
        var parts = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        while !parts.isEmpty { chain.append(parts.joined(separator: "-")); parts.removeLast() }
        let lower = locale.lowercased().replacingOccurrences(of: "_", with: "-")
        if lower.hasPrefix("zh-"), !lower.contains("hans"), !lower.contains("hant") {
            let traditional = ["tw", "hk", "mo"].contains { lower.hasSuffix("-" + $0) }
            chain.insert(traditional ? "zh-Hant" : "zh-Hans", at: max(0, chain.count - 1))
        }
        return chain
    }

    /// A language as iOS matches `.lproj` names: `pt_BR` is `pt-BR`, case aside, and the old
    /// English names are their codes.
    static func canonical(_ name: String) -> String {
        let legacy = ["english": "en", "french": "fr", "german": "de", "japanese": "ja", "spanish": "es", "italian": "it", "dutch": "nl"]
        let lower = name.replacingOccurrences(of: "_", with: "-").lowercased()
        return legacy[lower] ?? lower
    }

    /// A strings file inside its strings folder: one linked from elsewhere (outside the
    /// repository, perhaps) is said, not read.
    static func read(_ path: String, in folder: ConfinedFolder, _ problems: inout [String]) -> [UInt8]? {
        do { return try folder.read(path) } catch {
            switch error.reason {
            case .outside, .absoluteLink: problems.append("\(error.fullPath): a symbolic link that leads outside \(folder.url.path); not read")
            case .missing: break
            default: problems.append(error.description)
            }
            return nil
        }
    }

    /// The project's `.lproj` folders by canonical language.
    static func lprojFolders(_ folder: ConfinedFolder) -> [String: String] {
        var out: [String: String] = [:]
        for name in ((try? folder.names()) ?? []) where name.hasSuffix(".lproj") {
            out[canonical(String(name.dropLast(6)))] = out[canonical(String(name.dropLast(6)))] ?? name
        }
        return out
    }

    public struct Resolved: Equatable, Sendable {
        public var text: String
        /// Where it came from ("nl.lproj/Localizable", "Localizable.xcstrings (pl)"), or nil when the key was missing.
        public var source: String?
        public var warnings: [String]
        /// Found only in the development language (or Base), not in the locale's own strings.
        public var fellBack = false
    }

    /// Whether `key` has a translation in `table` for this locale (its own, not a fallback's).
    public func isLocalized(_ key: String, table: String = "Localizable") -> Bool {
        fallbackChain.prefix { Self.canonical($0) != Self.canonical(developmentLanguage) }.contains { entry(key, table: table, language: $0) != nil }
    }

    func entry(_ key: String, table: String, language: String) -> (LocalizedEntry, String)? {
        if let entries = catalogs[table]?.strings[key],
           let entry = entries[language] ?? entries.first(where: { Self.canonical($0.key) == Self.canonical(language) })?.value {
            return (entry, "\(table).xcstrings (\(language))")
        }
        if let entry = tables[table]?[language]?[key] { return (entry, "\(folderNames[Self.canonical(language)] ?? language + ".lproj")/\(table)") }
        return nil
    }

    public func resolve(key: String, args: [String], table: String = "Localizable") -> Resolved {
        if let found = find(key: key, args: args, table: table) { return found }
        var missing = Self.format(key, args, source: nil)
        missing.warnings.insert("no translation for \"\(key)\" in \(table) for \(fallbackChain.joined(separator: ", ")); showing the key", at: 0)
        return missing
    }

    /// `key` from the first language of the chain that has it; nil when none has.
    public func find(key: String, args: [String] = [], table: String = "Localizable") -> Resolved? {
        let own = Set(localeChain.map(Self.canonical))
        for language in fallbackChain {
            guard let (entry, source) = entry(key, table: table, language: language) else { continue }
            var r = expand(entry, args: args, language: language, source: source)
            if !own.contains(Self.canonical(language)) {
                r.fellBack = true
                r.warnings.insert("\"\(key)\" has no \(locale) translation in \(table); showing \(language)", at: 0)
            }
            return r
        }
        return nil
    }

    /// The variation for this device and the arguments, its substitutions filled in, formatted.
    func expand(_ entry: LocalizedEntry, args: [String], language: String, source: String) -> Resolved {
        var value = entry.value, chosen: [String] = []
        while true {
            switch value {
            case .text(let text):
                let (format, subWarnings) = substitute(text, entry.substitutions, args: args, language: language)
                // "Localizable.xcstrings (pl, few)": the variations chosen, inside the parentheses.
                let named = chosen.isEmpty || !source.hasSuffix(")") ? source : source.dropLast() + ", " + chosen.joined(separator: ", ") + ")"
                var r = Self.format(format, args, source: named)
                r.warnings = subWarnings + r.warnings
                return r
            case .device(let cases):
                let pick = cases[device] ?? cases["other"] ?? cases.sorted { $0.key < $1.key }.first?.value
                guard let pick else { return Self.format("", args, source: source) }
                chosen.append(cases[device] != nil ? device : "other device")
                value = pick
            case .plural(let forms):
                // A plural variation of the whole string varies on its first numeric argument.
                let n = args.lazy.compactMap { Int($0) }.first ?? 0
                let category = PluralRules.category(for: n, language: language)
                guard let pick = forms[category] ?? forms["other"] ?? forms.sorted(by: { $0.key < $1.key }).first?.value else { return Self.format("", args, source: source) }
                chosen.append(category)
                value = pick
            }
        }
    }

    /// Replaces each `%#@name@` (or `%N$#@name@`) with the plural form its argument calls for; the
    /// form's own specifier (or a catalog's `%arg`) becomes that argument, by position.
    func substitute(_ format: String, _ subs: [String: LocalizedEntry.Substitution], args: [String], language: String) -> (String, [String]) {
        guard format.contains("#@") else { return (format, []) }
        var out = "", warnings: [String] = [], next = 0
        var rest = Substring(format)
        while let percent = rest.firstIndex(of: "%") {
            out += rest[..<percent]
            var after = rest[rest.index(after: percent)...]
            let digits = after.prefix { $0.isASCII && $0.isNumber }
            var position: Int?
            if !digits.isEmpty, after.dropFirst(digits.count).first == "$" { position = Int(digits); after = after.dropFirst(digits.count + 1) }
            guard after.hasPrefix("#@"), let end = after.dropFirst(2).firstIndex(of: "@") else {
                // An ordinary specifier: it takes an argument too, in order.
                if after.first != "%" && position == nil { next += 1 }
                out.append("%")
                rest = rest[rest.index(after: percent)...]
                if after.first == "%" { out.append("%"); rest = rest.dropFirst() }
                continue
            }
            let name = String(after.dropFirst(2)[..<end])
            rest = after[after.index(after: end)...]
            guard let sub = subs[name] else { warnings.append("%#@\(name)@ has no variable \(name); left empty"); continue }
            let index = position ?? sub.argNum ?? (next + 1)
            if position == nil && sub.argNum == nil { next += 1 }
            let n = index >= 1 && index <= args.count ? Int(args[index - 1]) ?? 0 : 0
            let category = PluralRules.category(for: n, language: language)
            guard var form = sub.forms[category] ?? sub.forms["other"] ?? sub.forms.sorted(by: { $0.key < $1.key }).first?.value else { warnings.append("\(name) has no \(category) or other form; left empty"); continue }
            let specifier = "%\(index)$\(sub.formatSpecifier.hasPrefix("%") ? String(sub.formatSpecifier.dropFirst()) : sub.formatSpecifier)"
            if form.contains("%arg") { form = form.replacingOccurrences(of: "%arg", with: specifier) }
            else if let range = form.range(of: "%(?!%)[-+ 0#]*[0-9]*(\\.[0-9]+)?(hh|h|ll|l|q|z|t|j)?[@diouxXfeEgGs]", options: .regularExpression) {
                form.replaceSubrange(range, with: specifier)
            }
            out += form
        }
        return (out + rest, warnings)
    }

    /// Apple's specifiers: `%@`, `%d` `%i` `%u` `%x` `%f` `%e` `%g` `%s` with flags, width,
    /// precision and length (`%lld`, `%.1f`, `%tu`), positional `%2$@`, and `%%`.
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
            let flags = spec.prefix { "-+ 0#".contains($0) }
            spec = spec.dropFirst(flags.count)
            let width = spec.prefix { $0.isASCII && $0.isNumber }
            spec = spec.dropFirst(width.count)
            var precision: Int?
            if spec.first == ".", case let p = spec.dropFirst().prefix(while: { $0.isASCII && $0.isNumber }) {
                precision = Int(p.prefix(3)) ?? 0
                spec = spec.dropFirst(1 + p.count)
            }
            let length = spec.prefix { "hlqLztj".contains($0) }
            spec = spec.dropFirst(length.count)
            guard let conversion = spec.first, "@diouxXfFeEgGsSc".contains(conversion) else { out.append("%"); continue }
            chars = spec.dropFirst()
            let i = index ?? next
            next = i == Int.max ? i : i + 1
            if i >= 0 && i < args.count {
                if let precision, "fFeEgG".contains(conversion), let v = Double(args[i]), v.isFinite {
                    out += String(format: "%.\(precision)\(conversion)", v)
                } else { out += args[i] }
            }
            else if i < 0 { warnings.append("\"\(format)\": %0$ names no argument (positions start at 1); left empty") }
            else { warnings.append("\"\(format)\" needs argument \(i == Int.max ? String(digits) : String(i + 1)), only \(args.count) given; left empty") }
        }
        return Resolved(text: out, source: source, warnings: warnings)
    }
}
