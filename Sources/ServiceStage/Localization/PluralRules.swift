import CShim
import Foundation

/// CLDR plural categories (zero, one, two, few, many, other) for every locale, from ICU's rules
/// (https://cldr.unicode.org/index/cldr-spec/plural-rules), as iOS picks a plural variation.
public enum PluralRules {
    public static func category(for n: Int, language: String) -> String {
        guard let rules = Cache.shared.rules(for: language) else { return "other" }
        var out = [CChar](repeating: 0, count: 16)
        let length = shim_plural_rules_select(rules, Double(n), &out, Int32(out.count))
        return length > 0 ? String(decoding: out.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self) : "other"
    }

    /// Opened rules by locale, for the process's life (a few kilobytes each).
    final class Cache: @unchecked Sendable {
        static let shared = Cache()
        private let lock = NSLock()
        private var opened: [String: UnsafeMutableRawPointer?] = [:]

        func rules(for language: String) -> UnsafeMutableRawPointer? {
            let locale = language.replacingOccurrences(of: "-", with: "_")
            return lock.withLock {
                if let known = opened[locale] { return known }
                let made = locale.withCString { shim_plural_rules_open($0) }
                opened[locale] = made
                return made
            }
        }
    }
}

/// How a notification's time reads in a locale: iOS shows "now" for one just delivered.
public enum RelativeTime {
    public static func now(locale: String) -> String {
        var out = [CChar](repeating: 0, count: 128)
        let length = locale.replacingOccurrences(of: "-", with: "_").withCString { shim_relative_now($0, &out, Int32(out.count)) }
        return length > 0 ? String(decoding: out.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self) : "now"
    }
}
