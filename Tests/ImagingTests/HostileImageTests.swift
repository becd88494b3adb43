import Foundation
import Testing
import Imaging

/// Small files that cost without bound: a GIF of thousands of tiny frames on a huge canvas, and a
/// PNG whose text chunk inflates to hundreds of megabytes.
struct HostileImageTests {
    /// 8000×8000 canvas, 3,000 one-pixel frames that each restore the previous canvas: composing
    /// the last one used to copy 256 MB twice per frame. Now it stops at a work budget.
    @Test func manyFramesOnAHugeCanvasHitTheBudget() throws {
        let frames = (0..<3_000).map { i in GIFCodec.Frame(indices: [1], left: i % 8000, top: 0, width: 1, height: 1, disposal: 3) }
        let gif = try GIFCodec.encode(width: 8000, height: 8000, palette: [0, 0, 0, 255, 0, 0], frames: frames)
        #expect(gif.count < 200_000)
        #expect(try GIFCodec.header(gif).frames == 3_000)
        do { _ = try GIFCodec.decode(gif, frame: 2_999); Issue.record("composed 3,000 frames of 8000×8000") } catch {
            #expect("\(error)".contains("pixel operations"), "\(error)")
        }
    }

    /// A zTXt chunk of 200 MB of zeros (about 200 KB compressed) is skipped unread.
    @Test func compressedTextChunksAreNotInflated() throws {
        let png = try PNGCodec.encode(RGBAImage(width: 8, height: 8, filledWith: (10, 200, 30, 255)))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushpreview-ztxt-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let input = folder.appendingPathComponent("in.png"), output = folder.appendingPathComponent("bomb.png")
        try Data(png).write(to: input)
        let script = """
        import sys, zlib, struct
        data = open(sys.argv[1], 'rb').read()
        body = b'Comment\\0\\0' + zlib.compress(b'\\0' * (200 << 20), 9)
        chunk = struct.pack('>I', len(body)) + b'zTXt' + body + struct.pack('>I', zlib.crc32(b'zTXt' + body) & 0xffffffff)
        open(sys.argv[2], 'wb').write(data[:33] + chunk * 3 + data[33:])
        """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", script, input.path, output.path]
        try p.run()
        p.waitUntilExit()
        let bomb = try bytes(output)
        #expect(bomb.count > 500_000 && bomb.count < 3_000_000)
        let image = try PNGCodec.decode(bomb)
        #expect(image.width == 8 && image.pixel(x: 3, y: 3).g == 200)
    }
}
