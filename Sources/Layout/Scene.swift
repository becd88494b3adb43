import Styling
import Typography

/// A rectangle in points.
public struct Rect: Sendable, Equatable, Codable {
    public var x, y, width, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) { self.x = x; self.y = y; self.width = width; self.height = height }
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
}

/// The laid-out page: one tree that both backends paint. Every frame is relative to the
/// border box of the box that contains it, so a subtree can move without being rebuilt.
public struct Scene: Sendable {
    public var width: Double
    public var height: Double
    public var root: SceneBox
    /// Characters no font could draw, summed over the page.
    public var missingGlyphs: Int
    /// Paragraphs cut at `Paragraph.maxCharacters`.
    public var truncatedParagraphs = 0
    /// `font-family` lists the loaded fonts provide no family of.
    public var unknownFamilies: [String] = []
}

public struct SceneBox: Sendable {
    public var frame: Rect
    public var background = RGBA.clear
    public var gradient: Gradient?
    /// Where the gradient's tile is drawn (background-size, -position, -repeat); nil: once over
    /// the whole border box.
    public var gradientTile: (rect: Rect, repeats: Bool)?
    public var backgroundImage: BackgroundImage?
    public var shadows: [BoxShadow] = []
    /// top, right, bottom, left
    public var borderWidths: [Double] = [0, 0, 0, 0]
    public var borderColors: [RGBA] = [.clear, .clear, .clear, .clear]
    /// top-left, top-right, bottom-right, bottom-left, in points
    public var radii: [Double] = [0, 0, 0, 0]
    /// Each corner's `corner-shape` superellipse parameter, in the same order; nil where every
    /// corner is round.
    public var cornerShapes: [Double]?
    public var clipsContent = false
    public var opacity = 1.0
    /// Positioned, transformed, filtered or translucent: painted after the in-flow content, as
    /// a layer of its own (CSS 2.1 Appendix E, Transforms 1 §2, Color 4 §15).
    public var isPositioned = false
    /// The box's 2D transform, about its border box's top-left corner (origin included);
    /// `filter: blur()` over the box and its content; `backdrop-filter: blur()` of what is
    /// behind it. Held by reference (few boxes have them; boxes are copied often).
    public struct Layering: Sendable, Equatable {
        public var transform: Affine?
        public var filterBlur: Double?
        public var backdropBlur: Double?
        public var backdropTone: BackdropTone?
    }
    public var layering: Boxed<Layering>?
    public var transform: Affine? { layering?.value.transform }
    public var filterBlur: Double? { layering?.value.filterBlur }
    public var backdropBlur: Double? { layering?.value.backdropBlur }
    public var backdropTone: BackdropTone? { layering?.value.backdropTone }
    public var items: [SceneItem] = []
    /// Where the box came from, for `--layout-json` and messages.
    public var source: SourceInfo
    /// For placing absolutely positioned boxes in their containing block: the element's number
    /// (StyledElement.serial, 0 for anonymous boxes), whether it is one, its border plus
    /// padding, and where each absolutely positioned child would have started in block flow.
    public internal(set) var serial = 0
    var isAbsolute = false
    /// A float: painted after the in-flow boxes beside it, before positioned ones (Appendix E).
    public internal(set) var isFloat = false
    var containsAbsolutes = false
    /// The border-box height before min- and max-height: a flex column's base size for the item.
    var unclampedHeight = 0.0
    var insets = Edges()
    var staticTops: [Int: Double] = [:]

    public init(frame: Rect, source: SourceInfo) { self.frame = frame; self.source = source }
}

public struct SourceInfo: Sendable, Equatable, Codable {
    public var tag: String
    public var id: String?
    public var classes: [String]
    public var line: Int
}

public enum SceneItem: Sendable {
    case box(SceneBox)
    case text(SceneText)
    case image(SceneImage)
    case vector(SceneVector)
}

public struct SceneText: Sendable {
    public var frame: Rect
    public var paragraph: Paragraph
    /// `text-shadow`s, the first on top.
    public var shadows: [BoxShadow] = []
}

/// A 2D affine map, CSS's and cairo's matrix: x' = a·x + c·y + tx, y' = b·x + d·y + ty.
public struct Affine: Sendable, Equatable {
    public var a = 1.0, b = 0.0, c = 0.0, d = 1.0, tx = 0.0, ty = 0.0
    public init(a: Double = 1, b: Double = 0, c: Double = 0, d: Double = 1, tx: Double = 0, ty: Double = 0) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    public static func translation(_ x: Double, _ y: Double) -> Affine { Affine(tx: x, ty: y) }
    /// `other` first, then this.
    public func concatenating(_ o: Affine) -> Affine {
        Affine(a: a * o.a + c * o.b, b: b * o.a + d * o.b, c: a * o.c + c * o.d, d: b * o.c + d * o.d,
               tx: a * o.tx + c * o.ty + tx, ty: b * o.tx + d * o.ty + ty)
    }
    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) { (a * x + c * y + tx, b * x + d * y + ty) }
}

public enum ObjectFit: String, Sendable { case fill, contain, cover, none, scaleDown = "scale-down" }

/// A `background-image: url()` resolved for painting (Backgrounds 3 §3): one tile's size and
/// position in the box, from the padding box, and whether it repeats.
public struct BackgroundImage: Sendable {
    public var source: String
    public var tile: Rect
    public var repeats: Bool
}

public struct SceneImage: Sendable {
    /// The element's content box.
    public var frame: Rect
    /// The `src` the template gave, resolved by the painter's image store.
    public var source: String
    public var fit: ObjectFit
    public var intrinsicWidth: Double, intrinsicHeight: Double
    public var radii: [Double]
    /// object-position, resolved against the free space (fractions) or in points.
    public var position: [Length] = [.percent(50), .percent(50)]
}

/// One laid-out box with its absolute position, for `--layout-json` and fidelity checks.
public struct LaidOutBox: Sendable, Codable, Equatable {
    public var id: String?
    public var tag: String
    public var classes: [String]
    public var x, y, width, height: Double
}

extension Scene {
    /// The box whose element has `id`, and how far down its content reaches (in its own
    /// coordinates, before any clipping).
    public func find(id: String) -> (box: SceneBox, contentBottom: Double)? {
        func search(_ box: SceneBox) -> SceneBox? {
            if box.source.id == id { return box }
            for case .box(let child) in box.items { if let hit = search(child) { return hit } }
            return nil
        }
        guard let box = search(root) else { return nil }
        let bottom = box.items.map { item -> Double in
            switch item {
            case .box(let b): return b.frame.y + b.frame.height
            case .text(let t): return t.frame.y + t.frame.height
            case .image(let i): return i.frame.y + i.frame.height
            case .vector(let v): return v.frame.y + v.frame.height
            }
        }.max() ?? 0
        return (box, bottom)
    }

    /// Every box in document order with page coordinates; a transformed box by the rectangle
    /// around it, as a browser's getBoundingClientRect gives it.
    public var boxes: [LaidOutBox] {
        var out: [LaidOutBox] = []
        func walk(_ box: SceneBox, _ page: Affine) {
            var local = page.concatenating(.translation(box.frame.x, box.frame.y))
            if let t = box.transform { local = local.concatenating(t) }
            let corners = [(0.0, 0.0), (box.frame.width, 0), (0, box.frame.height), (box.frame.width, box.frame.height)].map { local.apply($0.0, $0.1) }
            let x = corners.map(\.x).min()!, y = corners.map(\.y).min()!
            out.append(LaidOutBox(id: box.source.id, tag: box.source.tag, classes: box.source.classes,
                                  x: x, y: y, width: corners.map(\.x).max()! - x, height: corners.map(\.y).max()! - y))
            for case .box(let child) in box.items { walk(child, local) }
        }
        walk(root, Affine())
        return out
    }
}
