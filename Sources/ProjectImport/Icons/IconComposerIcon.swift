import Checked
import ConfinedFiles
import Foundation
import Payload
import Formats

/// An Icon Composer icon (Xcode 26's `NAME.icon` bundle: `icon.json` and the layer images in
/// `Assets/`), read into what one appearance shows: the background fill and the layers, back to
/// front. Every property may carry `KEY-specializations` (`[{"value": …}, {"appearance": "dark",
/// "value": …}, {"idiom": "square", …}]`); the one for the appearance wins, else the plain one.
public struct IconComposerIcon: Sendable, Equatable {
    public enum Appearance: String, Sendable, CaseIterable { case light, dark, tinted }

    /// A colour in sRGB, 0...1 (display-p3 and gray spellings converted).
    public struct Color: Sendable, Equatable {
        public var r, g, b, a: Double
        public init(_ r: Double, _ g: Double, _ b: Double, _ a: Double) { self.r = r; self.g = g; self.b = b; self.a = a }
    }
    public struct Point: Sendable, Equatable {
        public var x, y: Double
        public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    }
    public enum Fill: Sendable, Equatable {
        /// A layer's own colours; no background.
        case none
        case solid(Color)
        /// Colours spread evenly from `start` to `stop`, fractions of the canvas (y down).
        case linear([Color], start: Point, stop: Point)
        /// The system's background tile (`automatic`, `system-light`, `system-dark`).
        case system(dark: Bool)
    }
    public struct Layer: Sendable, Equatable {
        public var name: String
        /// `groups[0].layers[1]`, for findings.
        public var keyPath: String
        public var image: URL
        /// The image's centre, in points from the canvas's centre (y down), and its scale.
        public var offset: Point
        public var scale: Double
        public var opacity: Double
        /// Paints the layer's shape in one colour or gradient (its alpha as the mask); `.none`
        /// keeps the image's colours.
        public var fill: Fill
        public var blendMode: String
    }
    public struct Group: Sendable, Equatable {
        public var opacity: Double
        public var blendMode: String
        /// Back to front.
        public var layers: [Layer]
    }
    /// What one appearance shows, and what of it cannot be drawn.
    public struct Rendition: Sendable, Equatable {
        public var fill: Fill
        /// Back to front.
        public var groups: [Group]
        public var problems: [String]
    }

    /// The canvas of every Icon Composer icon, in points.
    public static let canvas = 1024.0
    public var bundle: URL { folder.url }
    /// The bundle, held open: `icon.json` and every layer are read beneath it.
    public let folder: ConfinedFolder
    public var file: URL { bundle.appendingPathComponent("icon.json") }
    let root: [(key: String, value: JSONValue)]

    /// Layers drawn per appearance: Icon Composer's icons have a handful; ten thousand would
    /// take a gallery minutes.
    public static let maxLayers = 64

    public static func == (a: IconComposerIcon, b: IconComposerIcon) -> Bool { a.bundle == b.bundle && JSONValue.object(a.root) == .object(b.root) }

    /// The bundle's `icon.json`, parsed; nil when the bundle has none. What cannot be read at all
    /// (not JSON, not an object, no `groups` array) is an error naming the file.
    /// `icon.json` is read beneath the bundle: one linked from elsewhere is an error, not read.
    public static func read(bundle: ConfinedFolder) throws(XcodeProject.ReadError) -> IconComposerIcon? {
        let file = bundle.url.appendingPathComponent("icon.json")
        let data: [UInt8]
        do { data = try bundle.read("icon.json", limit: 4 << 20) } catch {
            if error.isMissing { return nil }
            throw XcodeProject.ReadError(description: "\(file.path): \(error.why)")
        }
        let json: JSONValue
        do { json = try JSONParser.parse(data, file: file.path) } catch { throw XcodeProject.ReadError(description: error.description) }
        guard case .object(let root) = json else { throw XcodeProject.ReadError(description: "\(file.path): expected an object, got \(json.typeName)") }
        guard case .array? = json["groups"] else {
            throw XcodeProject.ReadError(description: "\(file.path): groups: expected an array of groups, got \(json["groups"]?.typeName ?? "nothing")")
        }
        return IconComposerIcon(folder: bundle, root: root)
    }

    /// The layer files the icon names (that exist), for noticing when one changes.
    public var inputs: [URL] {
        var seen = Set<String>()
        return [file] + Appearance.allCases.flatMap { rendition($0).groups.flatMap(\.layers).map(\.image) }.filter { seen.insert($0.path).inserted }
    }

    /// What `appearance` shows. The JSON lists groups and layers front to back (Icon Composer's
    /// sidebar order); they are returned back to front, the order they are painted in.
    public func rendition(_ appearance: Appearance) -> Rendition {
        var reader = SpecializedReader(file: file.path, appearance: appearance)
        let fill = reader.fill(in: root, at: "", layer: false)
        var groups: [Group] = []
        var drawn = 0
        for (g, value) in (JSONValue.object(root)["groups"].flatMap(\.arrayItems) ?? []).enumerated() {
            let at = "groups[\(g)]"
            guard case .object(let group) = value else { reader.problem(at, "expected an object, got \(value.typeName)"); continue }
            if reader.bool(in: group, "hidden", at: at) == true { continue }
            let name = reader.string(in: group, "name", at: at).map { " (\($0))" } ?? ""
            let effects = reader.groupEffects(group, at: at)
            if !effects.isEmpty { reader.problem(at + name, "\(effects.joined(separator: ", ")) not drawn (Liquid Glass effects); its layers are drawn flat") }
            let position = reader.position(in: group, at: at)
            guard let items = JSONValue.object(group)["layers"] else { continue }
            guard case .array(let list) = items else { reader.problem(at + ".layers", "expected an array of layers, got \(items.typeName)"); continue }
            var layers: [Layer] = []
            for (l, item) in list.enumerated() {
                guard drawn < Self.maxLayers else {
                    reader.problem("\(at).layers[\(l)]", "more than \(Self.maxLayers) layers in the icon; the rest are not drawn")
                    break
                }
                if let layer = reader.layer(item, at: "\(at).layers[\(l)]", in: folder, group: position) { layers.append(layer); drawn += 1 }
            }
            groups.append(Group(opacity: reader.opacity(in: group, at: at), blendMode: reader.blendMode(in: group, at: at), layers: layers.reversed()))
        }
        return Rendition(fill: fill, groups: groups.reversed(), problems: reader.problems)
    }
}

extension JSONValue {
    var arrayItems: [JSONValue]? { if case .array(let items) = self { return items }; return nil }
}
