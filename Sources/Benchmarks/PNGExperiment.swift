import Foundation
import Imaging

/// `pushpreview-bench png-options FILE.png`: encode time and size per zlib level and filter set.
func pngOptionsExperiment(_ path: String) throws {
    let image = try PNGCodec.decode([UInt8](FileManager.default.contents(atPath: path)!))
    for (name, filters) in [("default", Int32(0)), ("none", 0x08), ("sub", 0x10), ("up", 0x20), ("paeth", 0x80), ("sub|up", 0x30)] as [(String, Int32)] {
        for level in [1, 3, 6] {
            var bytes: [UInt8] = []
            let t = try seconds { for _ in 0..<10 { bytes = try PNGCodec.encode(image, scale: 3, compressionLevel: level, filters: filters) } }
            print(String(format: "%-8@ level %d: %6.1f ms  %7d bytes", name, level, t * 100, bytes.count))
        }
    }
}
