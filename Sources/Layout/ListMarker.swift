import Styling
import Typography

/// A list item's marker (CSS Lists 3 §3, `list-style-position: outside`): the counter style's
/// symbol and suffix — "• ", "◦ ", "▪ ", "1. " (CSS Counter Styles 3 §6) — in the item's font,
/// outside its content box on the start side, its end against the content's start edge, on the
/// baseline of the item's first line. It takes no room, as an outside marker takes none.
extension LayoutEngine {
    func listMarker(_ el: StyledElement, in box: SceneBox, contentLeft: Double, contentWidth: Double) -> SceneText? {
        let s = el.style
        guard s.listItem, s.listStyleType != .none, let baseline = baseline(box) else { return nil }
        let symbol: String
        switch s.listStyleType {
        case .none: return nil
        case .disc: symbol = "\u{2022} "
        case .circle: symbol = "\u{25E6} "
        case .square: symbol = "\u{25AA} "
        case .decimal: symbol = "\(s.listOrdinal). "
        }
        var marker = Paragraph(runs: [.init(symbol, style: runStyle(s))])
        marker.lineHeight = s.lineHeight
        marker.strut = runStyle(s)
        marker.wraps = false
        marker.rightToLeft = s.rightToLeft
        marker.language = language
        let measured = fonts.measure(marker)
        let x = s.rightToLeft ? contentLeft + contentWidth : contentLeft - measured.width
        return SceneText(frame: Rect(x: x, y: baseline - fonts.baselines(marker).first, width: measured.width, height: measured.height),
                         paragraph: marker, shadows: s.textShadows)
    }
}
