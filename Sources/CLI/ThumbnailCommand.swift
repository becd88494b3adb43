import ConfinedFiles
import Foundation
import Imaging
import PushPreview

enum ThumbnailCommand {
    static let spec = CommandSpec(
        name: "thumbnail", synopsis: ["thumbnail IMAGE --size WxH --out FILE.png [options]"], summary: "decode + thumbnail one image to PNG",
        positionals: [.init(name: "IMAGE", completes: .file)],
        options: [
            .value("size", "WxH", "target size in pixels (required)"),
            .value("fit", "fill|fit", "fill: cover and crop the centre (default); fit: fit inside, keep aspect", completes: .words(["fill", "fit"])),
            .value("clip", "x,y,w,h", "normalized clipping rect (0…1) applied first, as UNNotificationAttachmentOptionsThumbnailClippingRectKey"),
            .value("frame", "N", "frame of an animated GIF (default 0)"),
            .value("out", "FILE.png", "where to write (required)", completes: .file),
        ],
        exits: [.init(0, "written"), .init(1, "the image could not be read, decoded or written"), .init(2, "usage")])

    static func run(_ argv: [String]) -> Int32 {
        do {
            let a = try Arguments(argv, Self.spec)
            guard a.positionals.count == 1, let input = a.positionals.first else { throw Arguments.UsageError(description: "give exactly one IMAGE") }
            guard let sizeText = a.value("size"), let size = parseSize(sizeText) else { throw Arguments.UsageError(description: "--size WxH is required, e.g. --size 120x120") }
            guard let out = a.value("out") else { throw Arguments.UsageError(description: "--out FILE.png is required") }
            guard let fit = Thumbnailer.Fit(rawValue: a.value("fit") ?? "fill") else { throw Arguments.UsageError(description: "--fit is fill or fit") }
            var clip = Thumbnailer.ClippingRect.full
            if let c = a.value("clip") {
                let v = c.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard v.count == 4 else { throw Arguments.UsageError(description: "--clip takes x,y,w,h in 0…1, e.g. 0,0,0.5,0.5") }
                clip = .init(x: v[0], y: v[1], width: v[2], height: v[3])
            }
            guard let frame = Int(a.value("frame") ?? "0"), frame >= 0 else { throw Arguments.UsageError(description: "--frame takes a whole number ≥ 0") }
            do {
                let data: [UInt8]
                do { data = try ImageFile.read(try TrustedFiles.open(URL(fileURLWithPath: input))) } catch {
                    printError("\(error)")
                    return 1
                }
                let image = try Thumbnailer.thumbnail(data, width: size.0, height: size.1, fit: fit, clip: clip, frame: frame)
                _ = try TrustedFiles.writeOutput(try PNGCodec.encode(image), to: out)
                print("\(out): \(image.width)x\(image.height)")
                return 0
            } catch {
                printError("\(input): \(error)")
                return 1
            }
        } catch { return usageError(Self.spec, error) }
    }

    static func parseSize(_ s: String) -> (Int, Int)? {
        let parts = s.lowercased().split(separator: "x").compactMap { Int($0) }
        return parts.count == 2 && parts[0] > 0 && parts[1] > 0 ? (parts[0], parts[1]) : nil
    }
}
