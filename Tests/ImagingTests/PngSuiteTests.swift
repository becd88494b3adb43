import Foundation
import Testing
import Imaging

/// PngSuite from ../shared/conformance: every valid file decodes to the published RGBA, every
/// x*.png (deliberately broken) is refused with a typed error.
@Suite(.enabled(if: sharedFolder != nil, "skipped: ../shared/conformance/pngsuite is not beside the repository"))
struct PngSuiteTests {
    static let folder = sharedFolder?.appendingPathComponent("conformance/pngsuite")
    static let files: [String] = {
        guard let folder else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("png").path)) ?? []
        return names.filter { $0.hasSuffix(".png") }.sorted()
    }()

    @Test func suiteIsComplete() {
        #expect(Self.files.filter { !$0.hasPrefix("x") }.count == 161)
        #expect(Self.files.filter { $0.hasPrefix("x") }.count == 14)
    }

    @Test(arguments: files.filter { !$0.hasPrefix("x") })
    func decodesToPublishedRGBA(_ name: String) throws {
        let folder = try #require(Self.folder)
        let stem = String(name.dropLast(4))
        let json = folder.appendingPathComponent("json")
        let to8 = json.appendingPathComponent(stem + "_to8.json")
        let expectedURL = FileManager.default.fileExists(atPath: to8.path) ? to8 : json.appendingPathComponent(stem + ".json")
        var expected = try JSONDecoder().decode([Int].self, from: Data(contentsOf: expectedURL))
        let image = try PNGCodec.decode(bytes(folder.appendingPathComponent("png/" + name)))
        if expected.contains(where: { $0 > 255 }) { // 16-bit values and no _to8 file: scale them
            expected = expected.map { ($0 * 255 + 32767) / 65535 }
        }
        try #require(expected.count == image.pixels.count, "\(name): \(image.width)x\(image.height) gives \(image.pixels.count) values, JSON has \(expected.count)")
        let worst = zip(expected, image.pixels).map { abs($0 - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "\(name): largest channel difference \(worst)")
    }

    @Test(arguments: files.filter { $0.hasPrefix("x") })
    func refusesBrokenFiles(_ name: String) throws {
        let folder = try #require(Self.folder)
        let data = try bytes(folder.appendingPathComponent("png/" + name))
        #expect(throws: ImagingError.self) { try PNGCodec.decode(data) }
    }
}
