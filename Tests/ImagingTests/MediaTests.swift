import ConfinedFiles
import Foundation
import Imaging
import Testing

/// Media made by Debian's ffmpeg CLI in a temporary folder, and the frames the CLI itself decodes
/// from them: our posters are checked against FFmpeg's own answer, not against our expectations.
enum GeneratedMedia {
    static let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pushpreview-media-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()
    static let testCard = ["-f", "lavfi", "-i", "testsrc=size=320x240:rate=10:duration=3"]

    /// 320×240 at 10 fps for 3 s with a tone; a key frame every second (0, 1, 2 s) and x264's
    /// B-frames, so 1.5 s is five frames past a key frame. moov first, as exported files are.
    static let clip = Result { try make("clip.mp4", testCard + ["-f", "lavfi", "-i", "sine=duration=3", "-c:v", "libx264", "-g", "10",
                                                                "-pix_fmt", "yuv420p", "-c:a", "aac", "-movflags", "+faststart"]) }
    /// The clip, stored landscape with a display matrix that turns it, as an iPhone's portrait video.
    static let turned = Result { try make("turned.mp4", ["-i", try clip.get().path, "-c", "copy", "-metadata:s:v:0", "rotate=90"]) }
    /// MPEG-4 Part 2 with B-frames in AVI: its index has decode times, so the key frame at 1.0 s
    /// is shown after the two B-frames that follow it.
    static let avi = Result { try make("clip.avi", testCard + ["-c:v", "mpeg4", "-g", "10", "-bf", "2", "-q:v", "4"]) }
    /// MPEG-2 in a program stream: no index, only the timestamps of what has been read.
    static let mpeg = Result { try make("clip.mpg", testCard + ["-c:v", "mpeg2video", "-g", "10", "-q:v", "4"]) }
    static let tone = Result { try make("tone.m4a", ["-f", "lavfi", "-i", "sine=duration=2.5", "-c:a", "aac"]) }
    /// 3840×2160 at 5 fps for 2 s, a key frame every second, B-frames and two reference frames.
    static let uhd = Result { try make("uhd.mp4", ["-f", "lavfi", "-i", "testsrc2=size=3840x2160:rate=5:duration=2", "-c:v", "libx264",
                                                  "-preset", "superfast", "-bf", "2", "-refs", "2", "-g", "5", "-pix_fmt", "yuv420p"]) }

    static func make(_ name: String, _ arguments: [String]) throws -> URL {
        let out = folder.appendingPathComponent(name)
        try run(arguments + ["-y", out.path])
        return out
    }

    /// The frame `ffmpeg -ss SECONDS -i FILE -frames:v 1` gives, as RGBA (turned upright, as the CLI does).
    static func frame(_ file: URL, at seconds: Double, width: Int = 320, height: Int = 240) throws -> RGBAImage {
        try decoded(file, "ss\(seconds)", width, height, ["-ss", "\(seconds)", "-i", file.path])
    }

    /// Frame `number` (from 0) of the file decoded from its start, no seeking at all.
    static func frame(_ file: URL, number: Int) throws -> RGBAImage {
        try decoded(file, "n\(number)", 320, 240, ["-i", file.path, "-vf", "select=eq(n\\,\(number))", "-fps_mode", "passthrough"])
    }

    private static func decoded(_ file: URL, _ tag: String, _ width: Int, _ height: Int, _ input: [String]) throws -> RGBAImage {
        let out = folder.appendingPathComponent("\(file.lastPathComponent)-\(tag).rgba")
        try run(input + ["-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", "-y", out.path])
        return RGBAImage(width: width, height: height, pixels: try bytes(out))
    }

    static func run(_ arguments: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ffmpeg ?? "/usr/bin/ffmpeg")
        p.arguments = ["-hide_banner", "-loglevel", "error", "-nostdin"] + arguments
        let errors = Pipe()
        p.standardError = errors
        try p.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw GenerationFailed(message: "ffmpeg \(arguments.joined(separator: " ")): \(message)") }
    }

    struct GenerationFailed: Error { var message: String }
}

/// The largest and the mean difference of any channel between two same-sized images.
func difference(_ a: RGBAImage, _ b: RGBAImage) -> (max: Int, mean: Double) {
    precondition(a.width == b.width && a.height == b.height, "\(a.width)x\(a.height) against \(b.width)x\(b.height)")
    var largest = 0, sum = 0
    for (x, y) in zip(a.pixels, b.pixels) {
        let d = abs(Int(x) - Int(y))
        largest = max(largest, d); sum += d
    }
    return (largest, Double(sum) / Double(a.pixels.count))
}

let needsFFmpeg = Testing.ConditionTrait.enabled(if: GeneratedMedia.ffmpeg != nil, "needs Debian's ffmpeg CLI to make test media (apt-get install ffmpeg)")

@Suite(needsFFmpeg)
struct MediaTests {
    // Ours and the CLI's frame go through the same decoder and the same swscale YUV→RGB code; they
    // were identical here. 2 levels a channel allow for the CLI's filter graph taking another path.
    static let rounding = 2

    func expectSame(_ poster: RGBAImage, _ expected: RGBAImage, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(poster.width == expected.width && poster.height == expected.height, "\(what): \(poster.width)x\(poster.height)",
                sourceLocation: sourceLocation)
        guard poster.width == expected.width && poster.height == expected.height else { return }
        let d = difference(poster, expected)
        #expect(d.max <= Self.rounding, "\(what): differs from ffmpeg's frame by \(d)", sourceLocation: sourceLocation)
    }

    func poster(_ file: URL, at seconds: Double?) throws -> RGBAImage {
        try MediaFile.poster(try bytes(file), at: seconds, maxWidth: 4000, maxHeight: 4000)
    }

    @Test func posterIsTheFrameFFmpegDecodesAtThatTime() throws {
        let clip = try GeneratedMedia.clip.get()
        let poster = try poster(clip, at: 1.5)
        expectSame(poster, try GeneratedMedia.frame(clip, at: 1.5), "1.5 s")
        // A wrong frame fails: the key frames either side of 1.5 s look clearly different.
        for other in [0.0, 1.0] {
            let d = difference(poster, try GeneratedMedia.frame(clip, at: other))
            #expect(d.max > 100 && d.mean > 1, "the frame at \(other) s is too close to the one at 1.5 s to tell them apart: \(d)")
        }
    }

    /// Between frames, the poster is the frame on screen: the last one shown at or before the time.
    /// At 0.95 s the seek finds the key frame decoded at 0.8 s, shown at 1.0 s; the frame is before it.
    @Test func betweenFramesThePosterIsTheFrameOnScreen() throws {
        let clip = try GeneratedMedia.clip.get()
        expectSame(try poster(clip, at: 1.55), try GeneratedMedia.frame(clip, at: 1.5), "1.55 s")
        expectSame(try poster(clip, at: 0.95), try GeneratedMedia.frame(clip, at: 0.9), "0.95 s")
        expectSame(try poster(clip, at: 2), try GeneratedMedia.frame(clip, at: 2), "2 s")
    }

    @Test func noTimeOrANegativeOneIsTheFirstFrame() throws {
        let clip = try GeneratedMedia.clip.get()
        let first = try GeneratedMedia.frame(clip, number: 0)
        for time in [nil, 0, -1, -Double.infinity] as [Double?] { expectSame(try poster(clip, at: time), first, "\(String(describing: time))") }
    }

    @Test func pastTheEndIsTheLastFrame() throws {
        let clip = try GeneratedMedia.clip.get()
        let last = try GeneratedMedia.frame(clip, number: 29)
        for time in [2.95, 3.0, 99, 1e300, .infinity] { expectSame(try poster(clip, at: time), last, "\(time) s") }
    }

    /// AVI's index has decode times: the key frame found for 1.0 s is shown at 1.3 s, so the seek
    /// must step back a key frame. An MPEG program stream's seek searches timestamps and may land
    /// past the frame too; the reference there is the frame decoded from the start.
    @Test func otherContainersFindTheSameFrame() throws {
        let avi = try GeneratedMedia.avi.get()
        expectSame(try poster(avi, at: 1.0), try GeneratedMedia.frame(avi, at: 1.0), "AVI at 1.0 s")
        expectSame(try poster(avi, at: 1.5), try GeneratedMedia.frame(avi, at: 1.5), "AVI at 1.5 s")
        let mpeg = try GeneratedMedia.mpeg.get()
        expectSame(try poster(mpeg, at: 1.55), try GeneratedMedia.frame(mpeg, number: 15), "MPEG at 1.55 s")
        expectSame(try poster(mpeg, at: 99), try GeneratedMedia.frame(mpeg, number: 29), "MPEG past the end")
    }

    @Test func infoOfAVideoWithSound() throws {
        let info = try MediaFile.info(try bytes(try GeneratedMedia.clip.get()))
        #expect(abs((info.duration ?? 0) - 3.0) < 0.05, "\(info)")
        #expect(info.video == MediaFile.VideoSize(width: 320, height: 240))
        #expect(info.hasAudio)
    }

    @Test func audioHasADurationAndNoPoster() throws {
        let data = try bytes(try GeneratedMedia.tone.get())
        let info = try MediaFile.info(data)
        #expect(abs((info.duration ?? 0) - 2.5) < 0.05, "\(info)")
        #expect(info.video == nil && info.hasAudio)
        #expect(throws: ImagingError.media("no video stream (an audio file has no poster frame)")) {
            try MediaFile.poster(data, maxWidth: 100, maxHeight: 100)
        }
    }

    /// A video stored landscape and turned by its display matrix is measured and drawn upright.
    @Test func aTurnedVideoIsUpright() throws {
        let turned = try GeneratedMedia.turned.get()
        #expect(try MediaFile.info(try bytes(turned)).video == MediaFile.VideoSize(width: 240, height: 320))
        expectSame(try poster(turned, at: 1.5), try GeneratedMedia.frame(turned, at: 1.5, width: 240, height: 320), "turned")
        // The box is for the upright frame: 120 wide, 160 tall.
        let small = try MediaFile.poster(try bytes(turned), at: 1.5, maxWidth: 120, maxHeight: 1000)
        #expect(small.width == 120 && small.height == 160)
    }

    @Test func posterFitsTheBoxAndIsNeverEnlarged() throws {
        let data = try bytes(try GeneratedMedia.clip.get())
        let small = try MediaFile.poster(data, at: 1.5, maxWidth: 160, maxHeight: 160)
        #expect(small.width == 160 && small.height == 120)
        let big = try MediaFile.poster(data, at: 1.5, maxWidth: 3000, maxHeight: 3000)
        #expect(big.width == 320 && big.height == 240)
    }

    /// A 4K frame scaled into 1080×1080, in a process of its own so that the growth of its peak
    /// resident memory is this decode's alone. Measured here: about 70 MB, the decoder's 4K
    /// reference frames (12.4 MB each in YUV 4:2:0). The bound is 100 MB: a 33 MB full-size RGBA
    /// copy, or keeping decoded frames, would pass it.
    @Test func a4KPosterIsScaledAndItsMemoryBounded() async throws {
        let path = try GeneratedMedia.uhd.get().path
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) { [path = path as String] in
            let data = try ImageFile.read(try TrustedFiles.open(URL(fileURLWithPath: path)))
            _ = try MediaFile.info(data) // libraries loaded, their first allocations made
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            let before = usage.ru_maxrss
            let poster = try MediaFile.poster(data, at: 1.3, maxWidth: 1080, maxHeight: 1080)
            getrusage(RUSAGE_SELF.rawValue, &usage)
            print("\(poster.width) \(poster.height) \(usage.ru_maxrss - before)")
        }
        let fields = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self).split(whereSeparator: \.isWhitespace)
        try #require(fields.count == 3, "the child printed \(fields)")
        #expect(fields[0] == "1080" && fields[1] == "608")
        let grownKB = Int(fields[2]) ?? .max
        #expect(grownKB < 100_000, "decoding one 4K poster raised the peak RSS by \(grownKB) KB")
    }

    @Test func durationsAreWrittenAsIOSWritesThem() {
        let cases: [(Double, String)] = [(0, "0:00"), (7, "0:07"), (6.6, "0:07"), (59.4, "0:59"), (65, "1:05"), (599.5, "10:00"),
                                         (3723, "1:02:03"), (36_000, "10:00:00"), (-1, "0:00"), (.nan, "0:00"), (.infinity, "0:00")]
        for (seconds, text) in cases { #expect(MediaFile.durationText(seconds) == text, "\(seconds)") }
    }
}

/// Inputs that must each end in a clear error, never a crash, a hang or a huge allocation.
@Suite(needsFFmpeg)
struct HostileMediaTests {
    func message(_ body: () throws -> Any) -> String? {
        do { _ = try body(); return nil } catch { return "\(error)" }
    }

    func clip() throws -> [UInt8] { try bytes(try GeneratedMedia.clip.get()) }

    @Test func emptyAndRandomBytes() throws {
        #expect(message { try MediaFile.info([]) } == "cannot use the video or audio file: the file is empty")
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let noise = (0..<5000).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        for run in [{ try MediaFile.info(noise) } as () throws -> Any, { try MediaFile.poster(noise, maxWidth: 64, maxHeight: 64) }] {
            #expect(message(run)?.contains("not a video or audio file") == true, "\(String(describing: message(run)))")
        }
    }

    /// The index comes first in the clip, so a cut-off file still lists every sample: it is refused
    /// as truncated. Without strict limits the frames before the cut are still shown.
    @Test func truncatedFilesAreRefused() throws {
        let data = try clip()
        for percent in [10, 50, 90] {
            let cut = Array(data.prefix(data.count * percent / 100))
            for run in [{ try MediaFile.info(cut) } as () throws -> Any, { try MediaFile.poster(cut, at: 1.5, maxWidth: 64, maxHeight: 64) }] {
                #expect(message(run)?.contains("truncated") == true, "\(percent)%: \(String(describing: message(run)))")
            }
        }
        var lenient = ImageLimits()
        lenient.strict = false
        let cut = Array(data.prefix(data.count * 90 / 100))
        let early = try MediaFile.poster(cut, at: 1.5, maxWidth: 320, maxHeight: 240, limits: lenient)
        #expect(early == (try MediaFile.poster(data, at: 1.5, maxWidth: 320, maxHeight: 240)))
    }

    /// Bytes flipped in the moov box or in the middle of the media: an error, or a frame of the right size.
    @Test func flippedBytes() throws {
        let data = try clip()
        let moov = try #require(data.indices.first { data[$0...].starts(with: Array("moov".utf8)) })
        for start in [moov + 200, data.count / 2, data.count * 3 / 4] {
            var bad = data
            for i in start..<min(start + 64, bad.count) { bad[i] ^= 0xFF }
            for seconds in [nil, 1.5, 2.9] as [Double?] {
                do {
                    let poster = try MediaFile.poster(bad, at: seconds, maxWidth: 320, maxHeight: 240)
                    #expect(poster.width == 320 && poster.height == 240)
                } catch {
                    #expect(!"\(error)".hasSuffix(": "), "\(error)")
                }
            }
        }
    }

    /// The sample description claims 65535×65535 (its width and height patched): refused before a
    /// decoder opens. A lower limit refuses the real 320×240 the same way.
    @Test func hugeDeclaredDimensionsAreRefused() throws {
        var data = try clip()
        let stsd = try #require(data.indices.first { data[$0...].starts(with: Array("stsd".utf8)) })
        let avc1 = try #require((stsd..<data.count).first { data[$0...].starts(with: Array("avc1".utf8)) })
        #expect(Array(data[(avc1 + 28)..<(avc1 + 32)]) == [0x01, 0x40, 0x00, 0xF0]) // 320, 240
        data.replaceSubrange((avc1 + 28)..<(avc1 + 32), with: [0xFF, 0xFF, 0xFF, 0xFF])
        let refusal = "cannot use the video or audio file: the video is declared as 65535x65535, over the limit of 16384x16384 and 64000000 pixels"
        #expect(message { try MediaFile.info(data) } == refusal)
        #expect(message { try MediaFile.poster(data, maxWidth: 64, maxHeight: 64) } == refusal)

        var small = ImageLimits()
        small.maxWidth = 200
        #expect(message { try MediaFile.poster(try clip(), maxWidth: 64, maxHeight: 64, limits: small) }?.contains("320x240, over the limit") == true)
    }

    @Test func oddTimesAndSizes() throws {
        let data = try clip()
        #expect(message { try MediaFile.poster(data, at: .nan, maxWidth: 64, maxHeight: 64) } == "cannot use the video or audio file: the poster time is not a number")
        #expect(message { try MediaFile.poster(data, maxWidth: 0, maxHeight: 64) }?.contains("at least 1x1") == true)
        #expect(try MediaFile.poster(data, maxWidth: .max, maxHeight: .max).width == 320) // a box is never filled by enlarging
        for seconds in [-0.0, .leastNonzeroMagnitude, -1e300, 1e300, Double.greatestFiniteMagnitude] {
            #expect(try MediaFile.poster(data, at: seconds, maxWidth: 32, maxHeight: 32).width == 32)
        }
    }

    @Test func formatsAndCodecsOutsideTheListAreNamed() throws {
        let mkv = try bytes(try GeneratedMedia.make("clip.mkv", GeneratedMedia.testCard + ["-t", "0.5", "-c:v", "libx264"]))
        #expect(message { try MediaFile.info(mkv) }?.contains("Matroska / WebM is not a format iOS shows in a notification") == true,
                "\(String(describing: message { try MediaFile.info(mkv) }))")
        let png = try bytes(try GeneratedMedia.make("png.mov", GeneratedMedia.testCard + ["-t", "0.5", "-c:v", "png"]))
        #expect(try MediaFile.info(png).video == MediaFile.VideoSize(width: 320, height: 240))
        #expect(message { try MediaFile.poster(png, maxWidth: 64, maxHeight: 64) }?.contains("the video is png, not a codec PushPreview decodes") == true)
        // An ftyp box and an empty mdat, no moov: what a failed export leaves behind.
        let stub: [UInt8] = [0, 0, 0, 0x1C] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2mp41".utf8) + [0, 0, 0, 8] + Array("mdat".utf8)
        #expect(message { try MediaFile.info(stub) }?.contains("truncated or corrupt") == true)
    }

    /// One key frame in 30 s: the frame at 29 s is 725 frames past it, more than the 600 allowed.
    @Test func keyFramesTooFarApartAreRefused() throws {
        let sparse = try bytes(try GeneratedMedia.make("sparse.mp4", ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=25:duration=30",
                                                                      "-c:v", "libx264", "-preset", "ultrafast", "-g", "1000"]))
        #expect(message { try MediaFile.poster(sparse, at: 29, maxWidth: 64, maxHeight: 64) }?.contains("decoded 600 frames without reaching 29.000 s") == true)
        #expect(try MediaFile.poster(sparse, at: 10, maxWidth: 64, maxHeight: 64).width == 64)
    }
}
