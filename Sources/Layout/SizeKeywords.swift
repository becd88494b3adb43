import Styling

/// Sizing keywords in width, height and their min and max (CSS Sizing 3 §3.2, §5; `stretch`
/// from Sizing 4 §6.1), replaced by the lengths they come to in one containing block, so the
/// rest of layout reads only lengths, percentages and auto.
extension LayoutEngine {
    func resolvingSizeKeywords(_ el: StyledElement, cbWidth: Double, cbHeight: Double?) -> StyledElement {
        let s = el.style
        guard s.hasSizeKeywords else { return el }
        let margin = s.marginEdges(cbWidth), frame = s.frame(cbWidth)
        /// A border-box size as this box's box-sizing measures it.
        func measured(_ borderBox: Double, _ frame: Double) -> Length { .points(max(0, s.borderBoxSizing ? borderBox : borderBox - frame)) }
        func width(_ l: Length) -> Length {
            guard case .intrinsic(let keyword) = l else { return l }
            let least = intrinsicWidth(el, minimum: true, ownWidth: false) - margin.horizontal
            let most = intrinsicWidth(el, minimum: false, ownWidth: false) - margin.horizontal
            let available = cbWidth - margin.horizontal
            switch keyword {
            case .minContent: return measured(least, frame.horizontal)
            case .maxContent: return measured(most, frame.horizontal)
            case .fitContent: return measured(min(most, max(least, available)), frame.horizontal)
            case .stretch: return measured(available, frame.horizontal)
            }
        }
        // A block's content-based heights are its auto height (kept as keywords: placing the box
        // compares them with its content); stretch fills a definite containing block.
        func height(_ l: Length) -> Length {
            guard case .intrinsic(let keyword) = l, keyword == .stretch else { return l }
            guard let cbHeight else { return .auto }
            return measured(cbHeight - margin.vertical, frame.vertical)
        }
        var out = el
        out.style.width = width(s.width); out.style.minWidth = width(s.minWidth); out.style.maxWidth = width(s.maxWidth)
        out.style.height = height(s.height); out.style.minHeight = height(s.minHeight); out.style.maxHeight = height(s.maxHeight)
        // flex-basis: content (and the content keywords) sizes the item from its content.
        if case .intrinsic = s.flexBasis { out.style.flexBasis = .auto }
        return out
    }
}
