import Checked
import ConfinedFiles
import Foundation
import Payload
import Formats

/// The app's icon as Xcode builds it: an Icon Composer bundle (`NAME.icon`, Xcode 26) or an
/// asset catalog's icon set (`NAME.appiconset`).
public enum AppIcon: Sendable, Equatable {
    case set(AppIconSet)
    case composer(IconComposerIcon)

    public var set: AppIconSet? { if case .set(let s) = self { return s }; return nil }
    public var composer: IconComposerIcon? { if case .composer(let c) = self { return c }; return nil }
}

/// An app icon in an asset catalog (`Assets.xcassets/NAME.appiconset/Contents.json`): the image
/// for each appearance, of either kind of set — Xcode 14's single 1024 pt image (with `dark` and
/// `tinted` appearances), or the legacy one with an image per size, of which the largest iPhone
/// or universal one is taken.
public struct AppIconSet: Sendable, Equatable {
    public var light: URL?
    /// `appearances: [{"appearance": "luminosity", "value": "dark"}]`
    public var dark: URL?
    /// `appearances: [{"appearance": "luminosity", "value": "tinted"}]` (iOS 18)
    public var tinted: URL?

    /// The idioms Xcode writes in an app icon set; the last ones are other devices', skipped.
    static let drawnIdioms: Set = ["universal", "iphone", "ipad", "ios-marketing"]
    static let otherIdioms: Set = ["mac", "watch", "watch-marketing", "car", "tv", "tv-marketing", "vision"]
    static let platforms: Set = ["ios", "macos", "watchos", "tvos", "visionos"]
    /// A watch icon's roles, and its subtypes `38mm` … `49mm` (the case sizes).
    static let roles: Set = ["notificationCenter", "companionSettings", "appLauncher", "quickLook"]

    /// The set named `name` in `catalog` (an `.xcassets` folder); nil when the catalog has none.
    /// The file is read strictly: an entry of the wrong shape, an unknown idiom or a named image
    /// that is not there is a problem with its key path (`Contents.json: images[3].idiom: …`) and
    /// the entry is skipped; a file that is not an object with an `images` array is an error.
    /// Its Contents.json and images are the repository's files: a symlink that leads out is said, not read.
    public static func read(catalog: URL, name: String, in repository: Repository, problems: inout [String]) throws(XcodeProject.ReadError) -> AppIconSet? {
        guard let set = repository.file("\(name).appiconset", relativeTo: catalog, namedIn: catalog.path, problems: &problems),
              let file = repository.file("Contents.json", relativeTo: set, namedIn: set.path, problems: &problems) else { return nil }
        guard let data = repository.contents(file, limit: 1 << 20) else { return nil }
        let json: JSONValue
        do { json = try JSONParser.parse(data, file: file.path) } catch { throw XcodeProject.ReadError(description: error.description) }
        guard case .object = json else { throw XcodeProject.ReadError(description: "\(file.path): expected an object, got \(json.typeName)") }
        guard case .array(let images)? = json["images"] else { throw XcodeProject.ReadError(description: "\(file.path): images: expected an array of images, got \(json["images"]?.typeName ?? "nothing")") }
        if let info = json["info"], info.typeName != "object" { problems.append("\(file.path): info: expected an object, got \(info.typeName)") }
        var best: [String: (score: Double, url: URL)] = [:]
        var slots: [String: Int] = [:]
        for (i, image) in images.enumerated() {
            func problem(_ key: String, _ message: String) { problems.append("\(file.path): images[\(i)]\(key.isEmpty ? "" : "." + key): \(message)") }
            guard case .object = image else { problem("", "expected an object, got \(image.typeName)"); continue }
            func text(_ key: String) -> String?? {
                guard let v = image[key] else { return .some(nil) }
                guard let s = v.string else { problem(key, "expected a string, got \(v.typeName)"); return nil }
                return .some(s)
            }
            guard let filename = text("filename"), let idiomText = text("idiom"), let size = text("size"), let scaleText = text("scale"),
                  let platform = text("platform"), let role = text("role"), let subtype = text("subtype") else { continue }
            let idiom = idiomText ?? "universal"
            guard drawnIdioms.contains(idiom) || otherIdioms.contains(idiom) else {
                problem("idiom", "unknown idiom \(idiom.prefix(40)) (Xcode writes \((drawnIdioms.sorted() + otherIdioms.sorted()).joined(separator: ", ")))"); continue
            }
            if let platform, !platforms.contains(platform) { problem("platform", "unknown platform \(platform.prefix(40))"); continue }
            if let role, !roles.contains(role) { problem("role", "unknown role \(role.prefix(40)) (Xcode writes \(roles.sorted().joined(separator: ", ")))"); continue }
            if let subtype, !(subtype.hasSuffix("mm") && Int(subtype.dropLast(2)).map { (38...49).contains($0) } == true) { problem("subtype", "unknown watch size \(subtype.prefix(40))"); continue }
            // Points × scale: "60x60" at "3x" is 180 px; the single-size set's 1024 has no scale.
            let sides = size.map { $0.split(separator: "x", omittingEmptySubsequences: false).compactMap { Double(String($0)) }.filter { $0 > 0 && $0 <= 4096 } }
            if let size, sides?.count != 2 { problem("size", "expected \"WxH\" in points, got \(size.prefix(40))"); continue }
            let scale = scaleText.map { $0.hasSuffix("x") ? Double($0.dropLast()) : nil } ?? 1
            guard let scale, (1...3).contains(scale) else { problem("scale", "expected 1x, 2x or 3x, got \(scaleText ?? "")"); continue }
            guard let appearance = appearance(of: image, problem: problem) else { continue }
            // Xcode's "ambiguous content": two entries for one slot (an `appearances: []` is light).
            let slot = [idiom, size ?? "", "\(scale)", appearance, platform ?? "", role ?? "", subtype ?? ""].joined(separator: "|")
            if let first = slots[slot] { problem("", "fills the same slot as images[\(first)]; not used"); continue }
            slots[slot] = i
            guard let filename else { continue } // a slot with no image
            guard !filename.isEmpty, !filename.contains("/"), !filename.hasPrefix(".") else {
                throw XcodeProject.ReadError(description: "\(file.path): images[\(i)].filename \"\(filename)\" is not a file in the set")
            }
            guard let image = repository.file(filename, relativeTo: set, namedIn: "\(file.path): images[\(i)]", problems: &problems) else { continue }
            guard repository.exists(image) else { problem("filename", "\(filename) is not in \(name).appiconset"); continue }
            guard drawnIdioms.contains(idiom), platform ?? "ios" == "ios", appearance != "high-contrast" else { continue }
            let score = (sides?.first ?? 0) * scale + (idiom == "ipad" ? -0.5 : 0)
            if score > (best[appearance]?.score ?? -1) { best[appearance] = (score, image) }
        }
        return AppIconSet(light: best["light"]?.url, dark: best["dark"]?.url, tinted: best["tinted"]?.url)
    }

    /// Where in `catalog` the set `name` lies, as `FOLDER/…/NAME` without the extension: at the
    /// top, else in its folders (breadth first, sorted, at most 8 deep and 10,000 entries, as a
    /// catalog's groups are), the first found; nil when there is none.
    static func locate(_ name: String, in catalog: URL, of repository: Repository) -> String? {
        let wanted = "\(name).appiconset"
        var level = [""], seen = 0
        for _ in 0..<8 {
            var next: [String] = []
            for folder in level {
                let names = repository.names(folder.isEmpty ? catalog : catalog.appendingPathComponent(folder))
                seen += names.count
                if names.contains(wanted) { return folder.isEmpty ? name : folder + "/" + name }
                // Only plain folders hold sets; `.imageset` and the like are assets, not groups.
                next += names.filter { !$0.contains(".") }.map { folder.isEmpty ? $0 : folder + "/" + $0 }
                    .filter { repository.isFolder(catalog.appendingPathComponent($0)) }
            }
            guard !next.isEmpty, seen < 10_000 else { return nil }
            level = next
        }
        return nil
    }

    /// `appearances: [{"appearance": "luminosity", "value": "dark" | "tinted"}]` (and the
    /// `contrast: high` variant, read and skipped); nil after a problem.
    private static func appearance(of image: JSONValue, problem: (String, String) -> Void) -> String? {
        guard let list = image["appearances"] else { return "light" }
        guard case .array(let items) = list else { problem("appearances", "expected an array, got \(list.typeName)"); return nil }
        var appearance = "light"
        for (k, a) in items.enumerated() {
            switch (a["appearance"]?.string, a["value"]?.string) {
            case ("luminosity", let v?) where ["light", "dark", "tinted"].contains(v): appearance = v
            case ("contrast", "high"): appearance = "high-contrast"
            default: problem("appearances[\(k)]", "expected {appearance: luminosity, value: light|dark|tinted}, got \(a.compact.prefix(80))"); return nil
            }
        }
        return appearance
    }
}
