import Testing
import Typography

/// Where a `-webkit-line-clamp` ellipsis goes, as Blink puts it (the line-clamp-word-end fixtures
/// check it against Chromium's pixels): after the last shown line's last whole word.
struct ClampEllipsisTests {
    let fonts: FontSystem
    init() throws { fonts = try FontSystem(fonts: try FontSet.standard()) }

    func paragraph(_ text: String, width: Double, lines: Int, rightToLeft: Bool = false) -> Paragraph {
        var style = TextStyle()
        style.size = 15
        style.lineHeight = 20
        style.lineHeightIsFixed = true
        var p = Paragraph(runs: [.init(text, style: style)], width: width)
        p.maxLines = lines
        p.rightToLeft = rightToLeft
        return p
    }

    @Test func theEllipsisFollowsTheLastWholeWordOfTheLastLine() throws {
        // Unclamped, line 2 is "tonight and reopen once the" and "harbourmaster" starts line 3;
        // Pango's own ellipsizing would fill line 2 with "the harbo…".
        let p = paragraph("The fuel dock will close at 20:00 tonight and reopen once the harbourmaster lifts the advisory.", width: 240, lines: 2)
        let clamped = try #require(fonts.clampedAtLineEnd(p))
        #expect(clamped.text == "The fuel dock will close at 20:00 tonight and reopen once the\u{2026}")
        #expect(fonts.measure(clamped).lineCount == 2)
    }

    @Test func inRightToLeftTextToo() throws {
        let p = paragraph("צוותים שנשארים על הסיפון צריכים להשאיר את ערוץ 16 פתוח עד שמנהל הנמל יבטל את האזהרה מחר בבוקר.", width: 232, lines: 2, rightToLeft: true)
        let clamped = try #require(fonts.clampedAtLineEnd(p))
        #expect(clamped.text.hasSuffix(" עד\u{2026}"), "\(clamped.text)")
    }

    @Test func aParagraphThatFitsIsLeftAlone() {
        #expect(fonts.clampedAtLineEnd(paragraph("Short enough.", width: 240, lines: 2)) == nil)
    }
}
