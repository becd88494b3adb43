import ConfinedFiles
import ContentStage
import Foundation
import Imaging
import Layout
import Rendering
import Styling
import Typography
import ProjectImport

/// An Icon Composer icon turned into the pictures a page shows: each appearance's layers read
/// (PNG through libpng, SVG through the engine's SVG reader) and composed over the fill.
public enum AppIconComposition {
    /// The side composed, in pixels: the banner draws the icon at 38 pt, 114 px at 3x.
    public static let pixels = 256

    /// The icon's files and its light and dark pictures (PNG); what cannot be drawn is a problem
    /// naming the file and key path, and the rest is drawn. Tinted is read but not composed (no
    /// source says iOS tints the icon on a notification).
    public static func files(_ icon: IconComposerIcon, problems: inout [String]) -> AppIconFiles {
        var composed: [Appearance: [UInt8]] = [:]
        var said = Set(problems)
        func problem(_ text: String) { if said.insert(text).inserted { problems.append(text) } }
        // A layer file both appearances show is decoded once (a 1024 px PNG is most of the time).
        var decoded: [String: LayerStack.Content?] = [:]
        func cached(_ layer: IconComposerIcon.Layer) -> LayerStack.Content? {
            if let known = decoded[layer.image.path] { return known }
            let c = content(of: layer, icon: icon, problem: problem)
            decoded[layer.image.path] = .some(c)
            return c
        }
        for (appearance, kind) in [(Appearance.light, IconComposerIcon.Appearance.light), (.dark, .dark)] {
            let rendition = icon.rendition(kind)
            rendition.problems.forEach(problem)
            let groups = rendition.groups.map { group in
                LayerStack.Group(opacity: group.opacity, blendMode: group.blendMode, layers: group.layers.compactMap { layer -> LayerStack.Layer? in
                    guard let content = cached(layer) else { return nil }
                    return LayerStack.Layer(content: content, offset: (layer.offset.x, layer.offset.y), scale: layer.scale, opacity: layer.opacity,
                                            tint: paint(layer.fill), blendMode: layer.blendMode)
                })
            }
            let stack = LayerStack(side: IconComposerIcon.canvas, background: paint(rendition.fill), groups: groups)
            do { composed[appearance] = try PNGCodec.encode(stack.paint(pixels: pixels)) } catch { problem("\(icon.file.path): the composed icon could not be written: \(error)") }
        }
        return AppIconFiles(light: icon.file, composed: composed, inputs: icon.inputs)
    }

    private static func content(of layer: IconComposerIcon.Layer, icon: IconComposerIcon, problem: (String) -> Void) -> LayerStack.Content? {
        let at = "\(icon.file.path): \(layer.keyPath).image-name: Assets/\(layer.image.lastPathComponent)"
        guard let data = try? icon.folder.read(layer.image, limit: 32 << 20) else { problem("\(at) cannot be read; layer \(layer.name) not drawn"); return nil }
        if layer.image.pathExtension.lowercased() == "png" {
            do { return .raster(try PNGCodec.decode(data)) } catch { problem("\(at) is not a PNG that can be read (\(error)); layer \(layer.name) not drawn"); return nil }
        }
        guard let text = String(validating: data, as: UTF8.self) else { problem("\(at) is not UTF-8 text; layer \(layer.name) not drawn"); return nil }
        do { return .vector(try SceneVector.document(text, file: layer.image.path)) } catch { problem("\(at) is not an SVG that can be read (\(error)); layer \(layer.name) not drawn"); return nil }
    }

    /// The fill as paint; the system's own tiles as the light and dark greys iOS 26 draws behind
    /// an icon that leaves the background to the system.
    private static func paint(_ fill: IconComposerIcon.Fill) -> LayerStack.Paint? {
        func rgba(_ c: IconComposerIcon.Color) -> RGBA { RGBA(c.r, c.g, c.b, c.a) }
        switch fill {
        case .none: return nil
        case .solid(let c): return .solid(rgba(c))
        case .linear(let colours, let start, let stop): return .linear(colours.map(rgba), start: (start.x, start.y), stop: (stop.x, stop.y))
        case .system(let dark):
            return .linear(dark ? [RGBA(0.23, 0.23, 0.24), RGBA(0.07, 0.07, 0.08)] : [RGBA(1, 1, 1), RGBA(0.88, 0.88, 0.9)], start: (0.5, 0), stop: (0.5, 1))
        }
    }
}
