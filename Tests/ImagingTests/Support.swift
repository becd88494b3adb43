import Foundation
import Imaging

/// `../shared` beside the repository, where the conformance suites live (never copied into the repo).
let sharedFolder: URL? = {
    if let env = ProcessInfo.processInfo.environment["PUSHPREVIEW_SHARED"] { return URL(fileURLWithPath: env) }
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared").standardized
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
}()

func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

/// A test photo: four coloured quadrants (red, green / blue, white) so orientation and crops show.
func quadrants(width: Int, height: Int) -> RGBAImage {
    var px = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let i = (y * width + x) * 4
            let (r, g, b): (UInt8, UInt8, UInt8) = switch (x < width / 2, y < height / 2) {
            case (true, true): (255, 0, 0)
            case (false, true): (0, 255, 0)
            case (true, false): (0, 0, 255)
            case (false, false): (255, 255, 255)
            }
            px[i] = r; px[i + 1] = g; px[i + 2] = b
        }
    }
    return RGBAImage(width: width, height: height, pixels: px)
}

enum Named: String { case red, green, blue, white }

/// The named colour a pixel is close to (JPEG is lossy), or nil.
func named(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Named? {
    func near(_ v: UInt8, _ t: UInt8) -> Bool { abs(Int(v) - Int(t)) < 40 }
    for (name, c) in [(Named.red, (255, 0, 0)), (.green, (0, 255, 0)), (.blue, (0, 0, 255)), (.white, (255, 255, 255))] as [(Named, (UInt8, UInt8, UInt8))] {
        if near(p.r, c.0) && near(p.g, c.1) && near(p.b, c.2) { return name }
    }
    return nil
}

func corners(_ image: RGBAImage) -> [Named?] {
    let m = 3
    return [named(image.pixel(x: m, y: m)), named(image.pixel(x: image.width - 1 - m, y: m)),
            named(image.pixel(x: m, y: image.height - 1 - m)), named(image.pixel(x: image.width - 1 - m, y: image.height - 1 - m))]
}
