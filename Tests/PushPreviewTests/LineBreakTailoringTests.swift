import Testing
import Typography

/// Chromium 156's line breaks and CJK punctuation spacing where Pango's differ (the
/// line-break-text fixture pair records the same lines).
struct LineBreakTailoringTests {
    let fonts: FontSystem
    init() throws { fonts = try FontSystem(fonts: try FontSet.standard()) }

    func paragraph(_ text: String, width: Double) -> Paragraph {
        var style = TextStyle()
        style.size = 15
        style.deviceScale = DeviceScale(3)
        return Paragraph(runs: [.init(text, style: style)], width: width)
    }

    /// The text each line starts with.
    func lineStarts(_ p: Paragraph) -> [String] {
        let bytes = Array(p.text.utf8)
        return fonts.lines(p).map { String(decoding: bytes[$0.start...].prefix(4), as: UTF8.self) }
    }

    @Test func aURLIsNotBrokenAfterItsSlashes() {
        let starts = lineStarts(paragraph("See https://example.com/some/very/long/path/index.html now", width: 200))
        #expect(starts == ["See ", "http", "now"], "\(starts)")
    }

    @Test func aLineMayStartWithASmallKana() {
        let text = LineBreakTailoring.breakingBeforeSmallKana("ちょっとまってください。キャッシュ")
        #expect(lineStarts(paragraph(text, width: 112)).last?.hasPrefix("ッ") == true)
    }

    @Test func adjacentClosingPunctuationIsHalfWidth() {
        // 「こんにちは。」: eight fullwidth characters, 。 set half-width before 」 (7.5 em, not 8).
        let width = fonts.measure(paragraph("「こんにちは。」", width: 400)).width
        #expect(abs(width - 7.5 * 15) < 0.5, "\(width)")
    }
}
