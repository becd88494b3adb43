internal import CPango
import ConfinedFiles
import Foundation

/// Where the fonts come from: Inter stands in for SF Pro, Noto Color Emoji for Apple's emoji.
/// Fonts are loaded by path into a private fontconfig configuration, so the system's and the
/// user's font settings can never change a mock-up.
public struct FontSet: Sendable, Equatable, Codable {
    public var files: [String]

    public init(files: [String]) { self.files = files }

    /// Inter (static OTFs) and Noto Color Emoji from their Debian/Ubuntu locations, plus every
    /// font file in `extraDirectories` (`--font-dir`).
    public static func standard(extraDirectories: [String] = []) throws(TypographyError) -> FontSet {
        let interDirs = ["/usr/share/fonts/opentype/inter", "/usr/share/fonts/truetype/inter"]
        let inter = interDirs.flatMap { fontFiles(in: $0) }.filter { name in
            let base = name.split(separator: "/").last.map(String.init) ?? name
            return base.hasPrefix("Inter-") || base.hasPrefix("Inter[") || base.hasPrefix("InterVariable")
        }
        guard !inter.isEmpty else { throw .missingFont("Inter (install the fonts-inter package: make deps)") }
        let emoji = ["/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"].filter(fileExists)
        guard !emoji.isEmpty else { throw .missingFont("Noto Color Emoji (install fonts-noto-color-emoji: make deps)") }
        // Every other script, from fonts-noto-core and fonts-noto-cjk, by path: what Inter cannot
        // draw falls back to these (and only these, so output is the same on every machine).
        let scripts = Set(FontSystem.scriptFaces.map(\.family)).sorted().filter { $0 != FontSystem.cjkFamily }.flatMap { family in
            ["Regular", "Bold"].map { "/usr/share/fonts/truetype/noto/\(family.replacingOccurrences(of: " ", with: ""))-\($0).ttf" }
        } + ["Regular", "Bold"].map { "/usr/share/fonts/opentype/noto/NotoSansCJK-\($0).ttc" }
        let missing = scripts.filter { !fileExists($0) }
        guard missing.isEmpty else { throw .missingFont("\(missing.count) Noto faces, e.g. \(missing[0]) (install fonts-noto-core and fonts-noto-cjk: make deps)") }
        return FontSet(files: inter + emoji + scripts + genericFiles.filter(fileExists) + extraDirectories.flatMap { fontFiles(in: $0) })
    }

    /// The faces Debian's fontconfig gives Chromium for `sans-serif` and `system-ui` (Noto Sans,
    /// `fc-match sans-serif`), `serif` and `monospace`, when installed (without them those
    /// families stay unknown, and the mock-up says so). Inter, SF Pro's stand-in, is named by
    /// the templates (and `-apple-system`), never by a generic family.
    static let genericFiles = ["NotoSans-Regular", "NotoSans-Bold", "NotoSans-Italic", "NotoSans-BoldItalic",
                               "NotoSerif-Regular", "NotoSerif-Bold", "NotoSerif-Italic", "NotoSerif-BoldItalic"].map { "/usr/share/fonts/truetype/noto/\($0).ttf" }
        + ["DejaVuSansMono", "DejaVuSansMono-Bold"].map { "/usr/share/fonts/truetype/dejavu/\($0).ttf" }
}

public enum TypographyError: Error, CustomStringConvertible, Equatable {
    case missingFont(String)
    case fontSetup(String)
    public var description: String {
        switch self {
        case .missingFont(let what): return "font not found: \(what)"
        case .fontSetup(let what): return "could not set up fonts: \(what)"
        }
    }
}

/// A private fontconfig and its Pango contexts. Pango objects are not thread-safe: make one per thread
/// (a render worker) and keep it for the worker's lifetime.
public final class FontSystem {
    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    public let fonts: FontSet
    /// Blink's metrics per font description and size (FaceMetrics).
    var metricsCache: [FaceKey: FaceMetrics.Scaled] = [:]
    /// Line boxes per paragraph (measuring, placing objects and drawing each ask).
    var lineBoxCache: [Paragraph: [LineBox]] = [:]
    /// Pango's own ascent and descent per font description (for emoji, measured).
    var pangoMetricsCache: [String: (ascent: Double, descent: Double)] = [:]
    var fontFallbacks: [Int: FontSystem.Fallback?] = [:]
    /// Fonts that caches know by address (fontFallbacks, faceMetrics), each with a reference held
    /// until deinit.
    var heldFonts: Set<UnsafeMutablePointer<PangoFont>> = []
    let glyphMasks = GlyphMasks()
    /// Pango contexts by language and direction (see `context(language:rightToLeft:)`).
    private var contexts: [String: OpaquePointer] = [:]
    /// Laid-out paragraphs (each holding a reference), so that measuring and drawing one
    /// paragraph shapes its text once. Cleared when full.
    var layouts: [Paragraph: OpaquePointer] = [:]

    public init(fonts: FontSet) throws(TypographyError) {
        self.fonts = fonts
        guard let config = FcConfigCreate() else { throw .fontSetup("FcConfigCreate failed") }
        // Rules a private config lacks: generic families, and scaling of the emoji bitmap strike.
        let rules = """
        <?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>
        <alias binding="same"><family>sans-serif</family><prefer><family>Noto Sans</family><family>Noto Color Emoji</family></prefer></alias>
        <alias binding="same"><family>system-ui</family><prefer><family>Noto Sans</family></prefer></alias>
        <alias binding="same"><family>-apple-system</family><prefer><family>SF Pro Text</family><family>SF Pro</family><family>Inter</family></prefer></alias>
        <alias binding="same"><family>emoji</family><prefer><family>Noto Color Emoji</family></prefer></alias>
        <alias binding="same"><family>serif</family><prefer><family>Noto Serif</family></prefer></alias>
        <alias binding="same"><family>monospace</family><prefer><family>DejaVu Sans Mono</family></prefer></alias>
        <match target="font"><test name="outline" compare="eq"><bool>false</bool></test>
          <edit name="pixelsizefixupfactor" mode="assign"><divide><name target="pattern">pixelsize</name><name target="font">pixelsize</name></divide></edit></match>
        <match target="font"><test name="outline" compare="eq"><bool>false</bool></test>
          <edit name="matrix" mode="assign"><times><name>matrix</name><matrix><name>pixelsizefixupfactor</name><double>0</double><double>0</double><name>pixelsizefixupfactor</name></matrix></times></edit></match>
        </fontconfig>
        """
        let parsed = rules.withCString { FcConfigParseAndLoadFromMemory(config, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self), 1) }
        guard parsed != 0 else { FcConfigDestroy(config); throw .fontSetup("fontconfig rules did not parse") }
        for file in fonts.files {
            let added = file.withCString { FcConfigAppFontAddFile(config, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
            guard added != 0 else { FcConfigDestroy(config); throw .missingFont(file) }
        }
        guard let map = pango_cairo_font_map_new() else { FcConfigDestroy(config); throw .fontSetup("no Pango font map") }
        pango_fc_font_map_set_config(cpango_fc_font_map(map), config)
        FcConfigDestroy(config) // the font map holds its own reference
        fontMap = map
    }

    /// Font files a template brought with @font-face (by name), and the CSS family each is known by.
    private var addedFaces: [String: String] = [:]
    private var refusedFaces: Set<String> = []
    /// The files fontconfig knows by their descriptors' paths, held open while the fonts live.
    private var heldFiles: [String: OpenFile] = [:]

    /// Loads `file` for `@font-face { font-family: family }`: added to the private fontconfig
    /// set under its own family names, with `family` an alias for the first. False when the file
    /// is not a font fontconfig reads. Text shaped before keeps its layout caches (cleared here).
    /// With no `family` (an app's own font, from `UIAppFonts`) it is known by its own names only.
    /// The file comes open (from a confined folder): fontconfig reads it by its descriptor.
    public func addFace(_ file: OpenFile, family: String?) -> Bool {
        let name = file.name
        if let known = addedFaces[name], let held = heldFiles[name] {
            return family == nil || known == family || addAlias(family!, for: held.path)
        }
        // A file that was no font stays none: it is not read again for every page.
        guard !refusedFaces.contains(name) else { return false }
        guard let config = pango_fc_font_map_get_config(cpango_fc_font_map(fontMap)) else { return false }
        let before = applicationFonts(config).count
        let added = file.path.withCString { FcConfigAppFontAddFile(config, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
        guard added != 0, applicationFonts(config).count > before else { refusedFaces.insert(name); return false }
        heldFiles[name] = file
        let own = applicationFonts(config).first { $0.file == file.path }?.family ?? ""
        addedFaces[name] = family ?? own
        return addAlias(family ?? own, for: file.path)
    }

    private func addAlias(_ family: String, for file: String) -> Bool {
        guard let config = pango_fc_font_map_get_config(cpango_fc_font_map(fontMap)),
              let own = applicationFonts(config).first(where: { $0.file == file })?.family else { return false }
        let escape = { (t: String) in t.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;") }
        let rule = """
        <?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>
        <alias binding="same"><family>\(escape(family))</family><prefer><family>\(escape(own))</family></prefer></alias></fontconfig>
        """
        _ = rule.withCString { FcConfigParseAndLoadFromMemory(config, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self), 0) }
        pango_fc_font_map_config_changed(cpango_fc_font_map(fontMap))
        for (_, context) in contexts { cpango_unref(UnsafeMutableRawPointer(context)) }
        contexts = [:]
        for (_, layout) in layouts { cpango_unref(UnsafeMutableRawPointer(layout)) }
        layouts = [:]
        lineBoxCache = [:]
        metricsCache = [:]
        pangoMetricsCache = [:]
        families.insert(family.lowercased())
        return true
    }

    /// The file and first family of every font added to `config` by path.
    private func applicationFonts(_ config: OpaquePointer) -> [(file: String, family: String)] {
        guard let set = FcConfigGetFonts(config, FcSetApplication) else { return [] }
        var out: [(String, String)] = []
        for i in 0..<Int(set.pointee.nfont) {
            guard let pattern = set.pointee.fonts[i] else { continue }
            var file: UnsafeMutablePointer<FcChar8>?, family: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(pattern, FC_FILE, 0, &file) == FcResultMatch, FcPatternGetString(pattern, FC_FAMILY, 0, &family) == FcResultMatch,
                  let file, let family else { continue }
            out.append((String(cString: file), String(cString: family)))
        }
        return out
    }

    /// The families the loaded fonts provide (and the generic names our config maps), lowercased.
    private lazy var families: Set<String> = {
        var list: UnsafeMutablePointer<UnsafeMutablePointer<PangoFontFamily>?>?
        var count: Int32 = 0
        pango_font_map_list_families(fontMap, &list, &count)
        defer { g_free(list) }
        var names: Set<String> = ["sans-serif", "system-ui", "-apple-system", "emoji"]
        for i in 0..<Int(count) { if let f = list?[i], let name = pango_font_family_get_name(f) { names.insert(String(cString: name).lowercased()) } }
        if !names.contains("noto sans") { names.subtract(["sans-serif", "system-ui"]) }
        if names.contains("noto serif") { names.insert("serif") }
        if names.contains("dejavu sans mono") { names.insert("monospace") }
        return names
    }()

    /// What the system's text (the chrome, the text styles, `-apple-system`) is drawn in.
    public lazy var systemFace = SystemFace(families: families)

    /// Whether any family of a CSS `font-family` list (comma-separated) is one the fonts provide;
    /// if none is, text is drawn in the default face, and the mock-up says so.
    public func provides(familyList: String) -> Bool {
        familyList.split(separator: ",").contains { families.contains($0.trimmingCharacters(in: .whitespaces).lowercased()) }
    }

    /// Same bytes on every machine: no hinting, no subpixel positions rounding, 1 pt = 1 unit.
    private static func makeContext(_ map: UnsafeMutablePointer<PangoFontMap>, language: String, rightToLeft: Bool) -> OpaquePointer {
        let context = pango_font_map_create_context(map)!
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_cairo_context_set_resolution(context, 72)
        pango_context_set_round_glyph_positions(context, 0)
        pango_context_set_language(context, pango_language_from_string(language))
        pango_context_set_base_dir(context, rightToLeft ? PANGO_DIRECTION_RTL : PANGO_DIRECTION_LTR)
        return context
    }

    /// A context per language and direction, never changed once made: a Pango layout lays
    /// itself out again whenever its context changes, so cached layouts need contexts that don't.
    func context(language: String, rightToLeft: Bool) -> OpaquePointer {
        let key = "\(language)|\(rightToLeft)"
        if let known = contexts[key] { return known }
        let made = FontSystem.makeContext(fontMap, language: language, rightToLeft: rightToLeft)
        contexts[key] = made
        return made
    }

    deinit {
        glyphMasks.clear()
        for font in heldFonts { cpango_unref(UnsafeMutableRawPointer(font)) }
        for layout in layouts.values { cpango_unref(UnsafeMutableRawPointer(layout)) }
        for made in contexts.values { cpango_unref(UnsafeMutableRawPointer(made)) }
        cpango_unref(UnsafeMutableRawPointer(fontMap))
    }
}

private func fileExists(_ path: String) -> Bool { TrustedFiles.exists(URL(fileURLWithPath: path)) }

/// The font files in a folder of the system's or one `--font-dir` names.
private func fontFiles(in directory: String) -> [String] {
    TrustedFiles.names(in: URL(fileURLWithPath: directory)).filter { [".otf", ".ttf", ".ttc"].contains(where: $0.lowercased().hasSuffix) }
        .sorted().map { directory + "/" + $0 }
}
