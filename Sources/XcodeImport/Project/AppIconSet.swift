import Checked
import Foundation
import Payload

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

    /// The set named `name` in `catalog` (an `.xcassets` folder); nil when the catalog has none.
    /// Its Contents.json and images are the repository's files: a symlink that leads out is said, not read.
    public static func read(catalog: URL, name: String, in repository: Repository, problems: inout [String]) throws(XcodeProject.ReadError) -> AppIconSet? {
        guard let set = repository.file("\(name).appiconset", relativeTo: catalog, namedIn: catalog.path, problems: &problems),
              let file = repository.file("Contents.json", relativeTo: set, namedIn: set.path, problems: &problems) else { return nil }
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        let json: JSONValue
        do { json = try JSONParser.parse([UInt8](data), file: file.path) } catch { throw XcodeProject.ReadError(description: error.description) }
        guard case .array(let images)? = json["images"] else { throw XcodeProject.ReadError(description: "\(file.path): images: expected an array of images") }
        var best: [String: (score: Double, url: URL)] = [:]
        for (i, image) in images.enumerated() {
            guard let filename = image["filename"]?.string else { continue } // a slot with no image
            guard !filename.contains("/"), !filename.hasPrefix(".") else {
                throw XcodeProject.ReadError(description: "\(file.path): images[\(i)].filename \"\(filename)\" is not a file in the set")
            }
            let idiom = image["idiom"]?.string ?? "universal"
            guard ["universal", "iphone", "ipad", "ios-marketing"].contains(idiom) else { continue } // watch, mac, car
            var appearance = "light"
            if case .array(let list)? = image["appearances"] {
                for a in list where a["appearance"]?.string == "luminosity" { appearance = a["value"]?.string ?? "light" }
            }
            guard ["light", "dark", "tinted"].contains(appearance) else { continue }
            // Points × scale: "60x60" at "3x" is 180 px; the single-size set's 1024 has no scale.
            let side = Double(image["size"]?.string?.split(separator: "x").first ?? "") ?? 0
            let scale = Double(image["scale"]?.string?.dropLast() ?? "1") ?? 1
            let score = side * scale + (idiom == "ipad" ? -0.5 : 0)
            guard score > (best[appearance]?.score ?? -1), let image = repository.file(filename, relativeTo: set, namedIn: "\(file.path): images[\(i)]", problems: &problems) else { continue }
            best[appearance] = (score, image)
        }
        return AppIconSet(light: best["light"]?.url, dark: best["dark"]?.url, tinted: best["tinted"]?.url)
    }
}
