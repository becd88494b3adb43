import Styling

/// The floats of one block formatting context (CSS 2.1 §9.5): their margin boxes, in the
/// coordinates of the context root's border box. Floats are placed by it, and lines, boxes that
/// start formatting contexts of their own, and cleared boxes ask it where the room is.
struct Exclusions: Equatable {
    struct Area: Equatable {
        var side: ComputedStyle.FloatSide
        var left, top, right, bottom: Double
    }
    private(set) var areas: [Area] = []
    /// No float's top is above an earlier float's (§9.5.1 rule 5).
    private var lowestTop = -Double.infinity

    var isEmpty: Bool { areas.isEmpty }

    /// The free inline range `left...right` between the floats beside the band of `height` from
    /// `top` (a band of no height: the floats at `top`), within a containing block's content
    /// edges; `narrowed`: some float takes part of them.
    struct Room: Equatable {
        var left, right: Double
        var narrowed: Bool
        var width: Double { right - left }
    }

    func room(top: Double, height: Double, left: Double, right: Double) -> Room {
        var room = Room(left: left, right: right, narrowed: false)
        for a in areas where beside(a, top: top, height: height) {
            switch a.side {
            case .left where a.right > room.left: room.left = a.right; room.narrowed = true
            case .right where a.left < room.right: room.right = a.left; room.narrowed = true
            default: break
            }
        }
        return room
    }

    private func beside(_ a: Area, top: Double, height: Double) -> Bool {
        a.bottom > top && (a.top < top + height || a.top <= top)
    }

    /// Whether any float reaches into the content edges `left...right` at or below `top`.
    func intrudes(below top: Double, left: Double, right: Double) -> Bool {
        areas.contains { $0.bottom > top && ($0.side == .left ? $0.right > left : $0.left < right) }
    }

    /// The next height below `top` where a float ends, so the room may widen there.
    func nextBottom(after top: Double) -> Double? {
        areas.lazy.map(\.bottom).filter { $0 > top }.min()
    }

    /// The lowest margin-box bottom of the floats on the sides `clear` names (nil: none).
    func bottom(clearing clear: ComputedStyle.Clear) -> Double? {
        areas.filter { area in
            switch clear {
            case .none: false
            case .both: true
            case .left: area.side == .left
            case .right: area.side == .right
            }
        }.map(\.bottom).max()
    }

    /// The lowest margin-box bottom of all floats, which a formatting context root's auto height
    /// reaches (§10.6.7).
    var bottom: Double? { areas.map(\.bottom).max() }

    /// Places a float's margin box of `width` × `height` no higher than `top` and adds it
    /// (§9.5.1): as high as it fits, then as far to its side, beside earlier floats when there is
    /// room and below them when not; one wider than its containing block goes where no float is.
    /// Returns its margin box's top-left corner.
    mutating func place(_ side: ComputedStyle.FloatSide, width: Double, height: Double, top: Double,
                        left: Double, right: Double) -> (x: Double, y: Double) {
        var y = max(top, lowestTop)
        var room = self.room(top: y, height: height, left: left, right: right)
        while room.narrowed, room.width < width - 1e-9, let next = nextBottom(after: y) {
            y = next
            room = self.room(top: y, height: height, left: left, right: right)
        }
        let x = side == .left ? room.left : room.right - width
        areas.append(Area(side: side, left: x, top: y, right: x + width, bottom: y + height))
        lowestTop = y
        return (x, y)
    }
}
