import Styling

/// A block-level box inside an inline box (CSS 2.1 §9.2.1.1): the inline box is broken around
/// it, the pieces before and after go into anonymous block boxes of their own (the runs of inline
/// content on either side), and the block is laid out in the flow between them. Laid out as
/// those siblings: the inline's copies around each block, its start edge (margin, border,
/// padding) on the first piece only and its end edge on the last only.
extension LayoutEngine {
    /// `nodes` with every inline element that holds an in-flow block-level box split around it.
    func splittingInlines(_ nodes: [StyledNode]) -> [StyledNode] {
        guard nodes.contains(where: holdsBlock) else { return nodes }
        return nodes.flatMap { node -> [StyledNode] in
            guard case .element(let e) = node, e.style.display == .inline, holdsBlock(node) else { return [node] }
            return split(e)
        }
    }

    /// An in-flow block-level box, or an inline box (not atomic) with one inside.
    private func holdsBlock(_ node: StyledNode) -> Bool {
        guard case .element(let e) = node, e.style.display != .none, e.style.float == nil, e.style.position != .absolute else { return false }
        if e.style.display == .inline && e.element.tag != "img" && e.element.tag != "svg" { return e.children.contains(where: holdsBlock) }
        return isBlockLevel(e)
    }

    private func split(_ e: StyledElement) -> [StyledNode] {
        var pieces: [(inline: Bool, node: StyledNode)] = [], run: [StyledNode] = []
        func endRun() {
            var piece = e
            piece.children = run
            pieces.append((true, .element(piece)))
            run = []
        }
        for child in splittingInlines(e.children) {
            if holdsBlock(child), case .element(let c) = child, c.style.display != .inline { endRun(); pieces.append((false, child)) } else { run.append(child) }
        }
        endRun()
        let inlines = pieces.indices.filter { pieces[$0].inline }
        let start = e.style.rightToLeft ? 1 : 3, end = e.style.rightToLeft ? 3 : 1
        return pieces.indices.compactMap { i in
            guard pieces[i].inline, case .element(var piece) = pieces[i].node else { return pieces[i].node }
            for side in [i == inlines.first ? nil : start, i == inlines.last ? nil : end].compactMap({ $0 }) {
                piece.style.margin[side] = .zero; piece.style.padding[side] = .zero; piece.style.borderWidth[side] = 0
            }
            // A piece with nothing in it and no edge left adds nothing to its line.
            let edges = [start, end].contains { piece.style.margin[$0] != .zero || piece.style.padding[$0] != .zero || piece.style.borderWidth[$0] > 0 }
            return piece.children.isEmpty && !edges ? nil : .element(piece)
        }
    }
}
