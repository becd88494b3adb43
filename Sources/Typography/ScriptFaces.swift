/// Which face draws which script: Inter draws Latin, Greek and Cyrillic; every other script's
/// Unicode blocks fall back to a Noto face, loaded by path (FontSet.standard) and named the same
/// way in the pages we write (HTMLWriter.fallbackFaces).
extension FontSystem {
    /// Scripts that come from a fallback font rather than the run's own: emoji, or the Noto
    /// family that draws the script.
    enum Fallback: Hashable {
        case emoji, script(String)
        var family: String? { if case .script(let family) = self { family } else { nil } }
    }

    /// Inter draws Latin, Greek and Cyrillic; each other script's Unicode blocks, and its face.
    public static let cjkFamily = "Noto Sans CJK SC"
    public static let scriptFaces: [(range: ClosedRange<UInt32>, family: String)] = [
        (0x0530...0x058F, "Noto Sans Armenian"), (0x0590...0x05FF, "Noto Sans Hebrew"), (0xFB1D...0xFB4F, "Noto Sans Hebrew"),
        (0x0600...0x06FF, "Noto Sans Arabic"), (0x0750...0x077F, "Noto Sans Arabic"), (0x08A0...0x08FF, "Noto Sans Arabic"),
        (0xFB50...0xFDFF, "Noto Sans Arabic"), (0xFE70...0xFEFF, "Noto Sans Arabic"),
        (0x0900...0x097F, "Noto Sans Devanagari"), (0x0980...0x09FF, "Noto Sans Bengali"), (0x0A00...0x0A7F, "Noto Sans Gurmukhi"),
        (0x0A80...0x0AFF, "Noto Sans Gujarati"), (0x0B80...0x0BFF, "Noto Sans Tamil"), (0x0C00...0x0C7F, "Noto Sans Telugu"),
        (0x0C80...0x0CFF, "Noto Sans Kannada"), (0x0D00...0x0D7F, "Noto Sans Malayalam"), (0x0D80...0x0DFF, "Noto Sans Sinhala"),
        (0x0E00...0x0E7F, "Noto Sans Thai"), (0x0E80...0x0EFF, "Noto Sans Lao"), (0x1000...0x109F, "Noto Sans Myanmar"),
        (0x10A0...0x10FF, "Noto Sans Georgian"), (0x1200...0x139F, "Noto Sans Ethiopic"), (0x1780...0x17FF, "Noto Sans Khmer"),
        (0x1100...0x11FF, cjkFamily), (0x2E80...0x9FFF, cjkFamily), (0xA960...0xA97F, cjkFamily), (0xAC00...0xD7AF, cjkFamily),
        (0xF900...0xFAFF, cjkFamily), (0xFE30...0xFE4F, cjkFamily), (0xFF00...0xFFEF, cjkFamily), (0x20000...0x3FFFF, cjkFamily),
    ]
}

extension Unicode.Scalar {
    /// The fallback face that draws this scalar, if the text font (Inter) cannot.
    var fallback: FontSystem.Fallback? {
        if properties.isEmojiPresentation || properties.isEmojiModifier || value == 0xFE0F || value == 0x200D
            || (0x1F1E6...0x1F1FF).contains(value) { return .emoji }
        guard value >= 0x0530 else { return nil }
        return FontSystem.scriptFaces.first { $0.range.contains(value) }.map { .script($0.family) }
    }
}
