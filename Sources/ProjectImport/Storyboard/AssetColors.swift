import Checked
import ConfinedFiles
import Foundation
import Payload
import Formats

/// The named colours of asset catalogs: every `NAME.colorset/Contents.json` in them (in groups
/// too; a group that "provides namespace" prefixes its name, `Brand/Blue`), with its light (or
/// "any") and dark (`luminosity` `dark`) appearance as CSS colours.
public enum AssetColors {
    /// A colour set's Contents.json is a few hundred bytes.
    static let maxFileBytes = 1 << 20
    static let maxEntries = 20_000

    /// Catalogs in order; a name found again later is said and the first kept. What cannot be
    /// read is said in `problems` (file and what is wrong) and the rest is still read.
    /// Each catalog is read beneath `repository` (by default the one around the first catalog).
    public static func read(catalogs: [URL], in repository: Repository? = nil, problems: inout [String]) -> [String: NamedColor] {
        guard let repository = repository ?? catalogs.first.map({ Repository(around: $0.deletingLastPathComponent()) }) else { return [:] }
        var out: [String: NamedColor] = [:]
        var entries = 0
        // Each catalog held open: its folders are walked beneath it, links not entered.
        func walk(_ catalog: ConfinedFolder, _ folder: String, prefix: String, depth: Int) {
            guard depth < 12, let names = try? catalog.names(folder) else { return }
            for name in names where !name.hasPrefix(".") {
                entries += 1
                guard entries <= maxEntries else { return }
                let path = folder.isEmpty ? name : folder + "/" + name
                guard catalog.isFolder(path), !catalog.isLink(path) else { continue }
                let url = catalog.url.appendingPathComponent(path)
                if name.hasSuffix(".colorset") {
                    let colorName = prefix + String(name.dropLast(".colorset".count))
                    guard let color = colorSet(path + "/Contents.json", in: catalog, problems: &problems) else { continue }
                    if out[colorName] != nil { problems.append("\(url.path): a second colour named \"\(colorName)\"; the first is kept"); continue }
                    out[colorName] = color
                } else if !name.contains(".") {
                    let namespaced = contents(path + "/Contents.json", in: catalog, problems: &problems)?["properties"]?["provides-namespace"] == .bool(true)
                    walk(catalog, path, prefix: namespaced ? prefix + name + "/" : prefix, depth: depth + 1)
                }
            }
        }
        for catalog in catalogs {
            do { walk(try repository.folder(catalog), "", prefix: "", depth: 0) } catch {
                if !error.isMissing { problems.append("\(catalog.path): \(error.why)") }
            }
        }
        if entries > maxEntries { problems.append("\(catalogs.map(\.path).joined(separator: ", ")): more than \(maxEntries) files; the colour sets after them are not read") }
        return out
    }

    /// A file's JSON; nil when there is no file, or (said) when it is too big or not JSON.
    static func contents(_ path: String, in catalog: ConfinedFolder, problems: inout [String]) -> JSONValue? {
        let file = catalog.url.appendingPathComponent(path)
        // The folders walked are no symlinks; a Contents.json linked from elsewhere is not read either.
        let data: [UInt8]
        do { data = try catalog.read(path, limit: maxFileBytes) } catch {
            switch error.reason {
            case .missing: break
            case .tooLarge: problems.append("\(file.path): more than \(maxFileBytes / 1024) KB; not read")
            case .outside, .absoluteLink: problems.append("\(file.path): a symbolic link that leads outside its folder; not read")
            default: problems.append("\(file.path): \(error.why); not read")
            }
            return nil
        }
        do { return try JSONParser.parse(data, file: file.path) } catch { problems.append(error.description); return nil }
    }

    static func colorSet(_ path: String, in catalog: ConfinedFolder, problems: inout [String]) -> NamedColor? {
        let file = catalog.url.appendingPathComponent(path)
        guard let json = contents(path, in: catalog, problems: &problems) else {
            if catalog.kind(path) == nil && !catalog.isLink(path) { problems.append("\(file.path): no such file; the colour set is not read") }
            return nil
        }
        guard case .array(let colors)? = json["colors"] else { problems.append("\(file.path): colors: expected an array of colours"); return nil }
        var light: NamedColor?, any: NamedColor?, dark: NamedColor?
        for (i, entry) in colors.enumerated() {
            guard ["universal", "iphone", nil].contains(entry["idiom"]?.string) else { continue }
            var appearance = "any"
            if case .array(let list)? = entry["appearances"] {
                for a in list { appearance = a["appearance"]?.string == "luminosity" ? a["value"]?.string ?? "any" : "other" }
            }
            guard appearance != "other", let color = entry["color"] else { continue }
            guard let parsed = self.color(color) else {
                problems.append("\(file.path): colors[\(i)].color: not components (0–1, 0–255 or 0xFF) or a system colour; skipped")
                continue
            }
            switch appearance {
            case "light": light = light ?? parsed
            case "dark": dark = dark ?? parsed
            default: any = any ?? parsed
            }
        }
        guard let base = light ?? any else {
            // Xcode's new AccentColor: an entry with no colour, which means the system tint.
            if !colors.contains(where: { $0["color"] != nil }) { return nil }
            problems.append("\(file.path): no universal or iPhone colour; the colour set is not read"); return nil
        }
        // A system colour named for every appearance keeps its own dark variant.
        return NamedColor(light: base.light, dark: dark.map { $0.dark ?? $0.light } ?? base.dark)
    }

    /// `{"color-space": …, "components": {red, green, blue, alpha}}` (or `white`), or
    /// `{"reference": "systemBlueColor"}` (a chrome property, which follows the appearance, or a
    /// system colour with its dark variant).
    static func color(_ color: JSONValue) -> NamedColor? {
        if let reference = color["reference"]?.string {
            if let property = SystemColors.chrome[reference] { return NamedColor(light: "var(--\(property))") }
            return SystemColors.others[reference]
        }
        guard let c = color["components"] else { return nil }
        let alpha = c["alpha"].map { component($0, isAlpha: true) } ?? 1
        if let r = c["red"].flatMap({ component($0) }), let g = c["green"].flatMap({ component($0) }), let b = c["blue"].flatMap({ component($0) }), let alpha {
            return NamedColor(light: CSS.color(red: r, green: g, blue: b, alpha: alpha))
        }
        if let w = c["white"].flatMap({ component($0) }), let alpha { return NamedColor(light: CSS.color(red: w, green: w, blue: w, alpha: alpha)) }
        return nil
    }

    /// Xcode writes a component as "0.478" (0–1), "122" (0–255) or "0x7A"; alpha always as 0–1.
    /// A JSON number is 0–1 when it has a fraction or is at most 1.
    static func component(_ v: JSONValue, isAlpha: Bool = false) -> Double? {
        switch v {
        case .number(let n): return isAlpha || n <= 1 || n != n.rounded() ? n : n / 255
        case .string(let s):
            let text = s.trimmingCharacters(in: .whitespaces)
            if text.lowercased().hasPrefix("0x") { return Int(text.dropFirst(2), radix: 16).map { Double($0) / 255 } }
            guard let n = Double(decimal: text) else { return nil }
            return isAlpha || text.contains(".") || text.lowercased().contains("e") ? n : n / 255
        default: return nil
        }
    }
}
