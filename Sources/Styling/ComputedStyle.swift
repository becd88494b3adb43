import Typography

/// A value held by reference, for what few styles and boxes have: copying the holder then costs
/// one retain, or nothing when it is nil. Never changed once made.
public final class Boxed<Value: Sendable & Equatable>: Sendable, Equatable {
    public let value: Value
    public init(_ value: Value) { self.value = value }
    public static func == (a: Boxed, b: Boxed) -> Bool { a === b || a.value == b.value }
}

/// Every CSS property the engine supports, with its computed value for one element.
/// Lengths in em/rem are already points; percentages wait for layout.
public struct ComputedStyle: Sendable, Equatable {
    /// `contents`: the element makes no box; its children take its place (the cascade splices them in).
    public enum Display: String, Sendable { case block, inline, inlineBlock = "inline-block", flex, grid, none, contents }
    public enum Position: String, Sendable { case `static`, relative, absolute }
    public enum FlexDirection: String, Sendable { case row, rowReverse = "row-reverse", column, columnReverse = "column-reverse" }
    public enum Align: String, Sendable {
        case auto, start, end, center, stretch, baseline, flexStart = "flex-start", flexEnd = "flex-end"
        case spaceBetween = "space-between", spaceAround = "space-around", spaceEvenly = "space-evenly", normal
        /// Physical edges, which only justify-content takes (Box Alignment 3 §4.3).
        case left, right
    }
    public enum ObjectFit: String, Sendable { case fill, contain, cover, none, scaleDown = "scale-down" }
    public enum TextAlign: String, Sendable { case start, end, left, right, center, justify }
    public enum TextTransform: String, Sendable { case none, uppercase, lowercase, capitalize }
    public enum BackgroundSize: Sendable, Equatable { case auto, cover, contain, explicit(Length, Length) }
    public enum WhiteSpace: String, Sendable {
        case normal, nowrap, pre, preWrap = "pre-wrap", preLine = "pre-line", breakSpaces = "break-spaces"
    }
    /// The side a float goes to (CSS 2.1 §9.5.1): `inline-start`/`inline-end` are already one of them.
    public enum FloatSide: String, Sendable { case left, right }
    public enum Clear: String, Sendable { case none, left, right, both }

    // Box
    public var display = Display.inline
    /// A flex or grid container that is itself inline-level (`inline-flex`, `inline-grid`): laid out
    /// in its parent's line as an atomic inline, as an inline-block is.
    public var inlineLevel = false
    /// `display: -webkit-box` or `-webkit-inline-box`, and whether `-webkit-box-orient` is vertical:
    /// with `-webkit-line-clamp` a block (inline-block) container, else a flex container (the cascade decides).
    public var legacyBox = false, legacyBoxVertical = false
    public var position = Position.static
    public var top = Length.auto, right = Length.auto, bottom = Length.auto, left = Length.auto
    public var width = Length.auto, height = Length.auto
    public var minWidth = Length.auto, minHeight = Length.auto, maxWidth = Length.auto, maxHeight = Length.auto
    /// top, right, bottom, left
    public var margin: [Length] = [.zero, .zero, .zero, .zero]
    public var padding: [Length] = [.zero, .zero, .zero, .zero]
    public var borderWidth: [Double] = [0, 0, 0, 0]
    public var borderColor: [RGBA] = [.black, .black, .black, .black]
    /// top-left, top-right, bottom-right, bottom-left
    public var borderRadius: [Length] = [.zero, .zero, .zero, .zero]
    /// `corner-shape`, each corner's superellipse parameter (1: round; Borders 4 §3.7), in the
    /// same order.
    public var cornerShape: [Double] = [1, 1, 1, 1]
    public var borderBoxSizing = false
    public var aspectRatio: Double?
    public var overflowHidden = false
    /// `float` (nil: none); a floated box is blockified and starts a block formatting context.
    public var float: FloatSide?
    /// `clear` (CSS 2.1 §9.5.2): the sides whose earlier floats the box goes below.
    public var clear = Clear.none
    /// `display: flow-root` (Display 3 §2), or `-webkit-box`: a block box that starts a block
    /// formatting context.
    public var flowRoot = false
    public var opacity = 1.0
    public var backgroundColor = RGBA.clear
    public var backgroundGradient: Gradient?
    public var boxShadows: [BoxShadow] = []
    /// Transforms and filters, which few boxes have: held by reference, as the grid is.
    public struct Layering: Sendable, Equatable {
        /// 2D transforms about `transformOrigin` (fractions or points of the border box).
        public var transforms: [TransformFunction] = []
        public var transformOrigin: [Length] = [.percent(50), .percent(50)]
        /// `filter: blur()` and `backdrop-filter: blur()`, as standard deviations in points.
        public var filterBlur: Double?
        public var backdropBlur: Double?
        /// `backdrop-filter`'s `brightness()` and `saturate()`, applied after its blur.
        public var backdropTone: BackdropTone?
    }
    public private(set) var layeringStorage: Boxed<Layering>?
    public var layering: Layering {
        get { layeringStorage?.value ?? Layering() }
        set { layeringStorage = Boxed(newValue) }
    }
    public var transforms: [TransformFunction] { get { layering.transforms } set { layering.transforms = newValue } }
    public var transformOrigin: [Length] { get { layering.transformOrigin } set { layering.transformOrigin = newValue } }
    public var filterBlur: Double? { get { layering.filterBlur } set { layering.filterBlur = newValue } }
    public var backdropBlur: Double? { get { layering.backdropBlur } set { layering.backdropBlur = newValue } }
    public var backdropTone: BackdropTone? { get { layering.backdropTone } set { layering.backdropTone = newValue } }
    public var objectFit = ObjectFit.fill
    /// object-position, as fractions or points from the left/top (default 50% 50%).
    public var objectPosition: [Length] = [.percent(50), .percent(50)]
    /// The `url()` of background-image.
    public var backgroundImage: String?
    /// background-size: nil = auto, else cover/contain or width and height (auto = nil).
    public var backgroundSize = BackgroundSize.auto
    public var backgroundPosition: [Length] = [.percent(0), .percent(0)]
    public var backgroundRepeat = true

    // Flex
    public var flexDirection = FlexDirection.row
    public var flexWrap = false
    /// `flex-wrap: wrap-reverse`: lines stack from the cross-end (flexWrap is true too).
    public var flexWrapReverse = false
    /// `normal`: flex-start in flexbox, stretch in grid.
    public var justifyContent = Align.normal
    public var alignContent = Align.normal
    public var alignItems = Align.stretch
    public var alignSelf = Align.auto
    public var flexGrow = 0.0, flexShrink = 1.0
    public var flexBasis = Length.auto
    /// Percentages resolve against the content box (row gaps: its height; indefinite is 0).
    public var rowGap = Length.zero, columnGap = Length.zero
    public var order = 0

    // Grid (and the justify-* alignment grid items use)
    /// Only grids and their items have one, held by reference: the cascade copies styles often.
    private var gridStorage: Boxed<GridStyle>?
    public var grid: GridStyle {
        get { gridStorage?.value ?? GridStyle() }
        set { gridStorage = Boxed(newValue) }
    }
    public var justifyItems = Align.normal
    public var justifySelf = Align.auto

    // Text (inherited)
    public var color = RGBA.black
    public var fontFamily = "Inter"
    public var fontSize = 16.0
    public var fontWeight = 400
    public var italic = false
    /// nil = normal
    public var lineHeight: Double?
    /// A unitless line-height, which descendants inherit as the number, each multiplying its own
    /// font size (CSS 2.1 §10.8.1); nil for a length or `normal`.
    public var lineHeightNumber: Double?
    public var letterSpacing = 0.0
    public var textAlign = TextAlign.start
    public var textTransform = TextTransform.none
    public var whiteSpace = WhiteSpace.normal
    public var rightToLeft = false
    public var breaksWords = false
    /// `overflow-wrap: anywhere`: a word's break opportunities count towards min-content too.
    public var breaksAnywhere = false
    /// `word-break: break-all` (inherited): a line may break between any two letters, so lines are
    /// filled, not only broken inside a word that does not fit a line of its own.
    public var breaksAll = false
    public var customProperties: [String: String] = [:]
    // Text (not inherited)
    public var underline = false, lineThrough = false
    public var lineClamp: Int?
    /// `text-overflow: ellipsis` (not inherited): with `overflow: hidden` and `nowrap`, one line ending in "…".
    public var textOverflowEllipsis = false
    /// `unicode-bidi: plaintext` (not inherited): each paragraph's direction is its first strong
    /// character's, as a UILabel's natural direction is.
    public var bidiPlaintext = false
    /// `unicode-bidi: isolate` (not inherited; what the `dir` attribute and `<bdi>` give): a block is its
    /// own paragraph already; an inline box's text is put between bidi isolate controls.
    public var bidiIsolate = false
    /// `text-shadow` (inherited), drawn under each paragraph's text.
    public var textShadows: [BoxShadow] = []
    /// The screen laid out for (the cascade's, on every element): text metrics and border widths
    /// are snapped to its device pixels, as a browser on that screen snaps them.
    public var deviceScale = DeviceScale.one
    /// `display: list-item` (laid out as a block, with a marker outside its first line), the
    /// marker's style (`list-style-type`, inherited) and the item's number among its siblings.
    public var listItem = false
    public var listStyleType = ListStyleType.disc
    public var listOrdinal = 0
    public enum ListStyleType: String, Sendable { case none, disc, circle, square, decimal }

    public init() {}

    /// A child's starting point: inherited properties copied, the rest at their initial values.
    public func inherited() -> ComputedStyle {
        var s = ComputedStyle()
        s.color = color; s.fontFamily = fontFamily; s.fontSize = fontSize; s.fontWeight = fontWeight; s.italic = italic
        s.lineHeight = lineHeight; s.lineHeightNumber = lineHeightNumber; s.letterSpacing = letterSpacing; s.textAlign = textAlign; s.textTransform = textTransform
        s.whiteSpace = whiteSpace; s.rightToLeft = rightToLeft; s.breaksWords = breaksWords; s.breaksAnywhere = breaksAnywhere; s.breaksAll = breaksAll; s.customProperties = customProperties
        s.textShadows = textShadows; s.deviceScale = deviceScale; s.listStyleType = listStyleType
        return s
    }

    /// The properties `inherited()` copies, by name (CSS 2.1's "Inherited: yes").
    static let inheritedProperties: Set<String> = [
        "color", "font", "font-family", "font-size", "font-weight", "font-style", "line-height", "letter-spacing",
        "text-align", "text-transform", "white-space", "direction", "overflow-wrap", "word-wrap", "word-break", "text-shadow",
        "list-style-type", "list-style",
    ]

    /// The initial values of inherited properties, as declarations (`initial` on one of them).
    static let initialValues: [String: String] = [
        "color": "black", "font-size": "16px", "font-weight": "normal", "font-style": "normal", "line-height": "normal",
        "letter-spacing": "normal", "text-align": "start", "text-transform": "none", "white-space": "normal", "direction": "ltr",
        "overflow-wrap": "normal", "word-wrap": "normal", "word-break": "normal", "text-shadow": "none",
        "list-style-type": "disc", "list-style": "disc",
    ]

    public var textStyle: TextStyle {
        var t = TextStyle()
        t.family = fontFamily; t.size = fontSize; t.weight = fontWeight; t.italic = italic; t.color = color
        t.letterSpacing = letterSpacing; t.underline = underline; t.lineThrough = lineThrough
        t.deviceScale = deviceScale
        return t
    }

    public var isFlexRow: Bool { flexDirection == .row || flexDirection == .rowReverse }

    /// Whether a width, height or limit is a sizing keyword layout must first turn into a length
    /// (heights keep their content keywords: placing the box reads them).
    public var hasSizeKeywords: Bool {
        func keyword(_ l: Length) -> Bool { if case .intrinsic = l { true } else { false } }
        func stretch(_ l: Length) -> Bool { l == .intrinsic(.stretch) }
        return keyword(width) || keyword(minWidth) || keyword(maxWidth) || keyword(flexBasis)
            || stretch(height) || stretch(minHeight) || stretch(maxHeight)
    }

    /// Whether the box is the containing block of absolutely positioned descendants: positioned,
    /// transformed or filtered (CSS Transforms 1 §2, Filter Effects 1 §5).
    public var containsAbsolutes: Bool { position != .static || layeringStorage != nil && (!transforms.isEmpty || filterBlur != nil || backdropBlur != nil) }
}
