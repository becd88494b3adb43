import Foundation

/// Build settings as Xcode combines them: a target's over its project's, `$(inherited)` the
/// value beneath, `$(VAR)` and `${VAR}` replaced (with `:lower`, `:upper`, `:rfc1034identifier`
/// and `:c99extidentifier`), defaults for `PRODUCT_NAME`, `PRODUCT_MODULE_NAME` and the
/// built-in names.
public enum BuildSettings {
    public static func merge(_ base: [String: String], _ own: [String: String], builtIn: [String: String]) -> [String: String] {
        var raw = overlay(base, own)
        if raw["PRODUCT_NAME"] == nil { raw["PRODUCT_NAME"] = "$(TARGET_NAME)" }
        // Xcode's own default, which extensions' Info.plists name (`$(PRODUCT_MODULE_NAME).NotificationService`).
        if raw["PRODUCT_MODULE_NAME"] == nil { raw["PRODUCT_MODULE_NAME"] = "$(PRODUCT_NAME:c99extidentifier)" }
        var out: [String: String] = [:]
        for (key, value) in raw { out[key] = expand(value, raw, builtIn) }
        return out
    }

    /// `own` over `base`, each `$(inherited)` (or `${inherited}`) in `own` the value beneath.
    public static func overlay(_ base: [String: String], _ own: [String: String]) -> [String: String] {
        var out = base
        out.reserveCapacity(base.count + own.count)
        for (key, value) in own {
            var text = value
            if text.utf8.contains(UInt8(ascii: "$")) {
                text = text.replacingOccurrences(of: "${inherited}", with: "$(inherited)").replacingOccurrences(of: "$(inherited)", with: base[key] ?? "")
            }
            if text.first?.isWhitespace == true || text.last?.isWhitespace == true { text = text.trimmingCharacters(in: .whitespaces) }
            out[key] = text
        }
        return out
    }

    /// `$(NAME)` and `${NAME}` replaced, nested up to 16 deep (a setting that names itself stops there).
    public static func expand(_ value: String, _ settings: [String: String], _ builtIn: [String: String], depth: Int = 0) -> String {
        guard depth < 16, value.utf8.contains(UInt8(ascii: "$")) else { return value }
        var out = "", rest = Substring(value)
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            guard let open = after.first, open == "(" || open == "{",
                  let close = after.firstIndex(of: open == "(" ? ")" : "}") else { out.append("$"); rest = after; continue }
            let inner = after[after.index(after: after.startIndex)..<close]
            let parts = inner.split(separator: ":", maxSplits: 1).map(String.init)
            var text = parts.first.flatMap { settings[$0] ?? builtIn[$0] }.map { expand($0, settings, builtIn, depth: depth + 1) } ?? ""
            if parts.count > 1 {
                for op in parts[1].split(separator: ",") {
                    switch op {
                    case "lower": text = text.lowercased()
                    case "upper": text = text.uppercased()
                    case "rfc1034identifier": text = String(text.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "-" })
                    case "c99extidentifier": text = String(text.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
                    default: break
                    }
                }
            }
            out += text
            rest = after[after.index(after: close)...]
        }
        return out + rest
    }
}
