import Checked
import Foundation

/// Build settings as Xcode combines them: a target's over its project's, `$(inherited)` the
/// value beneath, `$(VAR)` and `${VAR}` replaced (with `:lower`, `:upper`, `:rfc1034identifier`
/// and `:c99extidentifier`), defaults for `PRODUCT_NAME`, `PRODUCT_MODULE_NAME` and the
/// built-in names. All expansion goes through `BuildSettingExpansion`, which has the budgets.
public enum BuildSettings {
    /// `own` over `base`, every value expanded. `origins`: where each setting is defined
    /// ("file:line"), for the problems a cycle or an overlong value gives.
    public static func merge(_ base: [String: String], _ own: [String: String], builtIn: [String: String],
                             origins: [String: String] = [:], problems: inout [String]) -> [String: String] {
        var raw = overlay(base, own, origins: origins, problems: &problems)
        if raw["PRODUCT_NAME"] == nil { raw["PRODUCT_NAME"] = "$(TARGET_NAME)" }
        // Xcode's own default, which extensions' Info.plists name (`$(PRODUCT_MODULE_NAME).NotificationService`).
        if raw["PRODUCT_MODULE_NAME"] == nil { raw["PRODUCT_MODULE_NAME"] = "$(PRODUCT_NAME:c99extidentifier)" }
        var expansion = BuildSettingExpansion(raw, builtIn: builtIn, origins: origins)
        var out: [String: String] = [:]
        out.reserveCapacity(raw.count)
        for key in raw.keys.sorted() { out[key] = expansion.value(of: key) }
        problems += expansion.problems
        return out
    }

    /// `own` over `base`, each `$(inherited)` (or `${inherited}`) in `own` the value beneath.
    public static func overlay(_ base: [String: String], _ own: [String: String], origins: [String: String] = [:], problems: inout [String]) -> [String: String] {
        var out = base
        out.reserveCapacity(base.count + own.count)
        for (key, value) in own.sorted(by: { $0.key < $1.key }) {
            var text = inheriting(value, beneath: base[key], key: key, at: origins[key], problems: &problems)
            if text.first?.isWhitespace == true || text.last?.isWhitespace == true { text = text.trimmingCharacters(in: .whitespaces) }
            out[key] = text
        }
        return out
    }

    /// `value` with each `$(inherited)` the value beneath; so is the setting's own name, as Xcode
    /// reads it (`OTHER_SWIFT_FLAGS = -DBETA $(OTHER_SWIFT_FLAGS)`). Sixty-four lines of `K =
    /// $(inherited)$(inherited)` double K sixty-four times: past `BuildSettingExpansion.maxValueBytes`
    /// the value beneath is dropped and said.
    static func inheriting(_ value: String, beneath: String?, key: String, at origin: String?, problems: inout [String]) -> String {
        guard value.utf8.contains(UInt8(ascii: "$")) else { return value }
        let text = value.replacingOccurrences(of: "${inherited}", with: "$(inherited)")
            .replacingOccurrences(of: "$(\(key))", with: "$(inherited)").replacingOccurrences(of: "${\(key)}", with: "$(inherited)")
        let uses = text.components(separatedBy: "$(inherited)").count - 1
        guard uses > 0 else { return text }
        let beneath = beneath ?? ""
        let length = beneath.utf8.count.multipliedReportingOverflow(by: uses)
        guard !length.overflow, length.partialValue <= BuildSettingExpansion.maxValueBytes else {
            problems.append("\(origin ?? key): the build setting \(key) would be longer than \(BuildSettingExpansion.maxValueBytes >> 10) KB with $(inherited) the value beneath (\(uses) times); read without it")
            return text.replacingOccurrences(of: "$(inherited)", with: "")
        }
        return text.replacingOccurrences(of: "$(inherited)", with: beneath)
    }
}

/// `$(NAME)` and `${NAME}` expanded against one set of settings, each setting once (memoized),
/// with a cycle check and budgets: a reference back to a setting being expanded (`A = $(B)`,
/// `B = $(A)`, or `A = $(A:lower)`) is a problem naming it, the chain and where it is defined, and
/// reads as empty; a setting that expands past `maxValueBytes` (`K = $(J)$(J)`, `J = $(I)$(I)`, …
/// doubles each line) or nests past `maxDepth` reads as empty; past `maxTotalBytes` for the whole
/// set, the rest read as empty. Settings are expanded in name order, so the outcome is the same
/// every time.
public struct BuildSettingExpansion {
    /// Real values run to a few KB (a CocoaPods OTHER_LDFLAGS); one configuration's to tens of KB.
    public static let maxValueBytes = 64 << 10
    public static let maxTotalBytes = 1 << 20
    public static let maxDepth = 64

    let settings: [String: String]
    let builtIn: [String: String]
    let origins: [String: String]
    var expanded: [String: String] = [:]
    /// The settings being expanded, outermost first.
    var chain: [String] = []
    /// Depth (the chain) and size (bytes made): the work counter.
    public private(set) var budget = InputBudget(maxDepth: maxDepth, maxSize: maxTotalBytes, unit: "bytes")
    var saidSpent = false
    public private(set) var problems: [String] = []
    var said: Set<String> = []

    public init(_ settings: [String: String], builtIn: [String: String] = [:], origins: [String: String] = [:]) {
        self.settings = settings
        self.builtIn = builtIn
        self.origins = origins
    }

    func origin(_ key: String) -> String { origins[key] ?? "build setting \(key)" }

    /// Each problem once (a cycle is met again at every reference into it).
    mutating func say(_ problem: String) { if said.insert(problem).inserted { problems.append(problem) } }

    /// The setting `key` expanded; nil when it is neither set nor built in.
    public mutating func value(of key: String) -> String? {
        if let done = expanded[key] { return done }
        guard let raw = settings[key] ?? builtIn[key] else { return nil }
        if let at = chain.firstIndex(of: key) {
            let loop = (chain[at...] + [key]).joined(separator: " → ")
            say("\(origin(key)): the build setting \(key) refers to itself (\(loop)); that reference reads as empty")
            return ""
        }
        do { try budget.enter() } catch {
            say("\(origin(key)): the build setting \(key) is reached through more than \(Self.maxDepth) settings naming one another (\(chain.prefix(3).joined(separator: " → ")) → …); read as empty")
            return ""
        }
        chain.append(key)
        let text = expand(raw, for: key)
        chain.removeLast()
        budget.leave()
        // One that went over a budget was settled as empty there.
        if expanded[key] == nil { expanded[key] = text }
        return expanded[key]
    }

    /// A value from elsewhere (an Info.plist's string) expanded; `place` names it in problems.
    public mutating func expand(_ value: String, at place: String) -> String { expand(value, for: nil, at: place) }

    /// `value` with each `$(NAME)` replaced; `key` the setting it is the value of.
    mutating func expand(_ value: String, for key: String?, at place: String? = nil) -> String {
        guard value.utf8.contains(UInt8(ascii: "$")) else { return value }
        var out = "", rest = Substring(value)
        // A bracket no `$(` found closing is searched for once: a value of a thousand unclosed
        // `$(` searched to its end at each was quadratic (the fuzzer's find).
        var unclosed: Set<UInt8> = []
        while let dollar = rest.utf8.firstIndex(of: UInt8(ascii: "$")) {
            out += rest[..<dollar]
            let after = rest[rest.utf8.index(after: dollar)...]
            guard let open = after.utf8.first, open == UInt8(ascii: "(") || open == UInt8(ascii: "{") else { out.append("$"); rest = after; continue }
            let closing = open == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            guard !unclosed.contains(closing), let close = after.utf8.firstIndex(of: closing) else {
                unclosed.insert(closing)
                out.append("$")
                rest = after
                continue
            }
            let inner = after[after.utf8.index(after: after.startIndex)..<close]
            let parts = inner.split(separator: ":", maxSplits: 1).map(String.init)
            var text = parts.first.flatMap { self.value(of: $0) } ?? ""
            if parts.count > 1 { text = Self.apply(parts[1], to: text) }
            guard out.utf8.count + text.utf8.count <= Self.maxValueBytes else {
                if let key, expanded[key] == nil {
                    say("\(origin(key)): the build setting \(key) expands to more than \(Self.maxValueBytes >> 10) KB (settings that name others twice over, doubling at each step?); read as empty")
                    expanded[key] = ""
                } else if let place {
                    say("\(place): expands to more than \(Self.maxValueBytes >> 10) KB of build settings; read as empty")
                }
                return ""
            }
            guard budget.take(text.utf8.count) else {
                if !saidSpent {
                    say("\(key.map(origin) ?? place ?? ""): the build settings expand to more than \(Self.maxTotalBytes >> 20) MB in all; \(key.map { "\($0) and the settings after it read" } ?? "the rest read") as empty")
                    saidSpent = true
                }
                if let key { expanded[key] = "" }
                return ""
            }
            out += text
            rest = after[after.index(after: close)...]
        }
        return out + rest
    }

    /// `:lower`, `:upper`, `:rfc1034identifier`, `:c99extidentifier` (comma-separated, in order).
    static func apply(_ operations: String, to value: String) -> String {
        var text = value
        for op in operations.split(separator: ",") {
            switch op {
            case "lower": text = text.lowercased()
            case "upper": text = text.uppercased()
            case "rfc1034identifier": text = String(text.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "-" })
            case "c99extidentifier": text = String(text.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
            default: break
            }
        }
        return text
    }
}
