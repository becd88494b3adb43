import Testing
import Imaging

struct GIFTests {
    static let palette: [UInt8] = [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255]

    /// Three frames: red full screen; green top-left quarter (disposal 2); blue bottom-right
    /// quarter with index 0 transparent. Frame 2 should show red, cleared TL, red, blue.
    static func animated() throws -> [UInt8] {
        let full = GIFCodec.Frame(indices: [UInt8](repeating: 1, count: 64), width: 8, height: 8)
        let green = GIFCodec.Frame(indices: [UInt8](repeating: 2, count: 16), width: 4, height: 4, disposal: 2)
        var blue = [UInt8](repeating: 3, count: 16)
        blue[0] = 0 // transparent: the red below shows through
        let third = GIFCodec.Frame(indices: blue, left: 4, top: 4, width: 4, height: 4, transparentIndex: 0)
        return try GIFCodec.encode(width: 8, height: 8, palette: palette, frames: [full, green, third])
    }

    @Test func decodesTheThirdFrameWithDisposalAndTransparency() throws {
        let data = try Self.animated()
        #expect(try GIFCodec.header(data).frames == 3)
        let second = try GIFCodec.decode(data, frame: 1)
        #expect(second.pixel(x: 1, y: 1) == (0, 255, 0, 255))
        let third = try GIFCodec.decode(data, frame: 2)
        #expect(third.pixel(x: 1, y: 1) == (0, 0, 0, 0), "disposal 2 clears the green square")
        #expect(third.pixel(x: 6, y: 1) == (255, 0, 0, 255))
        #expect(third.pixel(x: 4, y: 4) == (255, 0, 0, 255), "transparent index shows the frame below")
        #expect(third.pixel(x: 6, y: 6) == (0, 0, 255, 255))
        #expect(try GIFCodec.decode(data).pixel(x: 1, y: 1) == (255, 0, 0, 255))
    }

    @Test func refusesMissingFramesAndBrokenData() throws {
        let data = try Self.animated()
        #expect(throws: ImagingError.noSuchFrame(requested: 3, available: 3)) { try GIFCodec.decode(data, frame: 3) }
        #expect(throws: ImagingError.self) { try GIFCodec.decode(Array(data.prefix(data.count / 2)), frame: 2) }
        #expect(throws: ImagingError.self) { try GIFCodec.decode(Array("GIF89a".utf8)) }
        #expect(throws: ImagingError.empty) { try GIFCodec.decode([]) }
    }

    @Test func thumbnailTakesTheRequestedFrame() throws {
        let thumb = try Thumbnailer.thumbnail(Self.animated(), width: 4, height: 4, frame: 1)
        #expect(thumb.pixel(x: 0, y: 0).g > 200)
    }
}
