/// The face iOS draws its own text in, as the loaded fonts can: SF Pro — SF Pro Text below 20 pt and
/// SF Pro Display from 20 pt, Apple's optical sizes — when a team gives it (`--font-dir`; Apple's
/// licence allows mock-ups of Apple-platform interfaces), else Inter, its stand-in.
public struct SystemFace: Sendable, Hashable, Codable {
    /// CSS `font-family` lists for text below 20 pt and from 20 pt.
    public var text: String
    public var display: String
    /// What drew the chrome, as the report and gallery say it.
    public var name: String

    /// Where a face missing from the fonts falls back to, in the engine and in a browser.
    static let standIn = "Inter, \"PushPreview Fallback\", sans-serif"

    public static let inter = SystemFace(text: standIn, display: standIn, name: "Inter")

    /// The face for a set of loaded families (lowercased): SF Pro's static Text and Display faces,
    /// or its variable font ("SF Pro") for either; Inter for a size neither gives.
    public init(families: Set<String>) {
        let text = ["SF Pro Text", "SF Pro"].first { families.contains($0.lowercased()) }
        let display = ["SF Pro Display", "SF Pro"].first { families.contains($0.lowercased()) }
        guard text != nil || display != nil else { self = .inter; return }
        func list(_ family: String?) -> String { family.map { "\"\($0)\", " + Self.standIn } ?? Self.standIn }
        self.init(text: list(text), display: list(display),
                  name: text == display ? text! : [text ?? "Inter", display ?? "Inter"].joined(separator: " and "))
    }

    public init(text: String, display: String, name: String) {
        self.text = text; self.display = display; self.name = name
    }

    /// The list for text at `size` pt: iOS switches from Text to Display at 20 pt.
    public func family(size: Double) -> String { size >= Self.displaySize ? display : text }

    public static let displaySize = 20.0

    /// Whether the face at `size` tracks itself: SF Pro's `trak` table holds Apple's tracking,
    /// which HarfBuzz applies as Core Text does, so the chrome adds none; Inter has no such table,
    /// and the chrome sets the HIG's values as `letter-spacing`.
    public func tracksItself(size: Double) -> Bool { family(size: size) != Self.standIn }

    public var isStandIn: Bool { self == .inter }
}
