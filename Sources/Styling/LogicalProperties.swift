/// Flow-relative properties (CSS Logical Properties 1) mapped onto the physical ones the
/// engine lays out, for horizontal writing: inline-start is the left side, or the right under
/// `direction: rtl` (the element's own direction, §4); block-start is the top. The cascade
/// maps each declaration before applying it, so `margin-left` and `margin-inline-start` share
/// one value and the later declaration wins, as in a browser.
enum LogicalProperties {
    /// The physical declarations for `property: value`, or nil when it is not flow-relative.
    static func physical(_ property: String, _ value: String, rightToLeft: Bool) -> [(property: String, value: String)]? {
        guard names.contains(property) else { return nil }
        let start = rightToLeft ? "right" : "left", end = rightToLeft ? "left" : "right"
        func side(_ word: Substring) -> String? {
            switch word {
            case "inline-start": start
            case "inline-end": end
            case "block-start": "top"
            case "block-end": "bottom"
            default: nil
            }
        }
        // Sizes: inline-size is the width, block-size the height.
        let sizes = ["inline-size": "width", "block-size": "height", "min-inline-size": "min-width", "min-block-size": "min-height",
                     "max-inline-size": "max-width", "max-block-size": "max-height"]
        if let physical = sizes[property] { return [(physical, value)] }

        // `margin-inline-start`, `inset-block-end`, `border-inline-start-width`, …
        for prefix in ["margin-", "padding-", "inset-", "border-"] where property.hasPrefix(prefix) {
            let rest = property.dropFirst(prefix.count)
            let name = prefix == "inset-" ? "" : prefix
            for suffix in ["", "-width", "-color", "-style"] where prefix == "border-" || suffix.isEmpty {
                guard rest.hasSuffix(suffix) else { continue }
                let axis = rest.dropLast(suffix.count)
                if let physical = side(axis) { return [(name + physical + suffix, value)] }
                // Shorthands for both sides of an axis: `margin-inline: 4px 8px` is start then end.
                guard axis == "inline" || axis == "block" else { continue }
                let sides = axis == "inline" ? [start, end] : ["top", "bottom"]
                // `border-inline` takes one border for both sides; the others one or two values.
                let values = prefix == "border-" && suffix.isEmpty ? [value, value] : twoValues(value)
                guard let values else { return [(property, value)] }
                return zip(sides, values).map { (name + $0 + suffix, $1) }
            }
        }
        return nil
    }

    /// Every flow-relative property `physical` maps, for reporting unsupported ones.
    static let names: Set<String> = {
        var out: Set<String> = ["inline-size", "block-size", "min-inline-size", "min-block-size", "max-inline-size", "max-block-size"]
        for axis in ["inline", "block"] {
            for prefix in ["margin-", "padding-", "inset-"] {
                out.insert(prefix + axis)
                for edge in ["start", "end"] { out.insert("\(prefix)\(axis)-\(edge)") }
            }
            for suffix in ["", "-width", "-color", "-style"] {
                out.insert("border-\(axis)\(suffix)")
                for edge in ["start", "end"] { out.insert("border-\(axis)-\(edge)\(suffix)") }
            }
        }
        return out
    }()

    /// One or two space-separated values (the second defaults to the first); nil otherwise.
    private static func twoValues(_ value: String) -> [String]? {
        let parts = value.split(whereSeparator: \.isWhitespace).map(String.init)
        switch parts.count {
        case 1: return [parts[0], parts[0]]
        case 2: return parts
        default: return nil
        }
    }
}
