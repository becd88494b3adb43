import Checked
import ConfinedFiles
import Foundation
import Imaging

/// One change at a size a reviewer can read in a pull-request comment: the before, after and
/// difference images of a mock-up, each cropped to what is drawn on the wallpaper (the card, its
/// action menu, the reply row; not the empty screen around it) and halved, side by side. Halving
/// keeps the card at half its device pixels — on a @2x device, one pixel per point, its real
/// size — whatever the screen's width: an iPad's card is as readable as an iPhone's.
enum ComparisonImage {
    /// Device pixels kept around what is drawn, so the card's corners show.
    static let margin = 24
    /// Output pixels between the panels, white.
    static let gap = 12

    /// The panels side by side as opaque B, G, R, A rows, or nil when there is nothing to show.
    static func make(_ panels: [RGBAImage]) -> (bgra: [UInt8], width: Int, height: Int)? {
        guard !panels.isEmpty else { return nil }
        // One crop for all panels, so a thing that moved shows where it moved.
        var box: (x0: Int, y0: Int, x1: Int, y1: Int)?
        for image in panels {
            guard let b = drawn(image) else { continue }
            box = box.map { (min($0.x0, b.x0), min($0.y0, b.y0), max($0.x1, b.x1), max($0.y1, b.y1)) } ?? b
        }
        let widest = panels.map(\.width).max()!, tallest = panels.map(\.height).max()!
        // Half-open: [x0, x1) × [y0, y1).
        let crop = box.map { (x0: max(0, $0.x0 - margin), y0: max(0, $0.y0 - margin), x1: min(widest, $0.x1 + 1 + margin), y1: min(tallest, $0.y1 + 1 + margin)) }
            ?? (x0: 0, y0: 0, x1: widest, y1: tallest)
        let panelWidth = (crop.x1 - crop.x0 + 1) / 2, height = (crop.y1 - crop.y0 + 1) / 2
        guard panelWidth > 0, height > 0 else { return nil }
        let width = panels.count * panelWidth + (panels.count - 1) * gap
        var out = [UInt8](repeating: 255, count: width * height * 4)
        out.withUnsafeMutableBufferPointer { target in
            guard let o = target.baseAddress else { return }
            for (n, image) in panels.enumerated() {
                let left = n * (panelWidth + gap)
                image.pixels.withUnsafeBufferPointer { source in
                    guard let s = source.baseAddress else { return }
                    let wallpaper = (s[0], s[1], s[2], s[3])
                    for y in 0..<height {
                        for x in 0..<panelWidth {
                            // The average of a 2 × 2 block, each pixel on white; outside the image, its wallpaper.
                            var r = 0, g = 0, b = 0
                            for k in 0..<4 {
                                let sx = crop.x0 + 2 * x + (k & 1), sy = crop.y0 + 2 * y + (k >> 1)
                                let p = sx < image.width && sy < image.height ? s + (sy * image.width + sx) * 4 : nil
                                let (pr, pg, pb, pa) = p.map { ($0[0], $0[1], $0[2], $0[3]) } ?? wallpaper
                                if pa == 255 {
                                    r += Int(pr); g += Int(pg); b += Int(pb)
                                } else {
                                    let (wr, wg, wb) = PixelDifference.onWhite(pr, pg, pb, pa)
                                    r += Int(saturating: wr, rounded: .toNearestOrAwayFromZero); g += Int(saturating: wg, rounded: .toNearestOrAwayFromZero); b += Int(saturating: wb, rounded: .toNearestOrAwayFromZero)
                                }
                            }
                            let t = o + (y * width + left + x) * 4
                            t[0] = UInt8(clamping: (b + 2) / 4); t[1] = UInt8(clamping: (g + 2) / 4); t[2] = UInt8(clamping: (r + 2) / 4)
                        }
                    }
                }
            }
        }
        return (out, width, height)
    }

    /// The box of what differs from the wallpaper (the top-left pixel's colour), inclusive.
    static func drawn(_ image: RGBAImage) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        guard image.width > 0, image.height > 0 else { return nil }
        var box: (x0: Int, y0: Int, x1: Int, y1: Int)?
        image.pixels.withUnsafeBufferPointer { p in
            let w = image.width
            let wallpaper = (p[0], p[1], p[2], p[3])
            for y in 0..<image.height {
                var first = -1, last = -1
                for x in 0..<w {
                    let i = (y * w + x) * 4
                    if p[i] != wallpaper.0 || p[i + 1] != wallpaper.1 || p[i + 2] != wallpaper.2 || p[i + 3] != wallpaper.3 {
                        if first < 0 { first = x }
                        last = x
                    }
                }
                guard first >= 0 else { continue }
                box = box.map { (min($0.x0, first), $0.y0, max($0.x1, last), y) } ?? (first, y, last, y)
            }
        }
        return box
    }

    /// The panels of `entry` read from the diff folder (before, after, difference; those it has),
    /// composed and written beside them as `PAYLOAD/STEM-compare.png`; its name and size.
    static func write(for entry: OutputDiff.Entry, in folder: ConfinedFolder) throws -> (name: String, width: Int, height: Int)? {
        let panels = try entry.images.map { try PNGCodec.decode(try folder.read($0, limit: 256 << 20)) }
        guard let (bgra, width, height) = make(panels) else { return nil }
        let bytes = try bgra.withUnsafeBufferPointer { try PNGCodec.encodeOpaqueBGRA($0.baseAddress!, width: width, height: height, stride: width * 4) }
        let name = entry.mockup + "-compare.png"
        try folder.write(bytes, to: name)
        return (name, width, height)
    }
}
