import Foundation
import Testing
import Typography

/// Blink's font metrics read from a face's own tables, with no browser: the expected line
/// heights are what Chromium 120 on Debian 12 gives a `line-height: normal` block of each face.
struct FaceMetricsTests {
    func face(_ path: String) throws -> FaceMetrics {
        let bytes = try #require(FileManager.default.contents(atPath: path), "\(path) is installed (make deps)")
        return try #require(FaceMetrics(sfnt: [UInt8](bytes)))
    }

    @Test func interTablesAndNormalLineHeights() throws {
        // Debian's Inter 4.0~beta7: 2816 units per em, USE_TYPO_METRICS set, typo = hhea.
        let inter = try face("/usr/share/fonts/opentype/inter/Inter-Regular.otf")
        #expect(inter == FaceMetrics(unitsPerEm: 2816, ascender: 2728, descender: 680, lineGap: 0, xHeight: 1536))
        // 16 px: ascent 15.5 → 16, descent 3.86 → 4.
        #expect(inter.scaled(to: 16) == .init(ascent: 16, descent: 4, lineGap: 0, xHeight: 1536.0 * 16 / 2816))
        for (size, height) in [(12.0, 15.0), (15, 19), (16, 20), (17, 20), (22, 26), (26, 31)] {
            #expect(inter.scaled(to: size).normalLineHeight == height, "Inter \(size) px")
        }
    }

    @Test func otherFacesAsChromiumSizesThem() throws {
        let cases: [(String, [(Double, Double)])] = [
            ("/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf", [(12, 17), (16, 22), (22, 30), (26, 36)]),
            // hhea (no USE_TYPO_METRICS bit): its typo values would make 26 px 31 tall.
            ("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", [(12, 14), (16, 19), (22, 25), (26, 30)]),
            ("/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf", [(12, 25), (16, 34), (22, 46), (26, 55)]),
        ]
        for (path, sizes) in cases {
            let metrics = try face(path)
            for (size, height) in sizes { #expect(metrics.scaled(to: size).normalLineHeight == height, "\(path) \(size) px") }
        }
    }

    /// head, hhea and OS/2 with the given values: OS/2 typo metrics only with fsSelection bit 7.
    func tables(hhea: (Int16, Int16, Int16), typo: (Int16, Int16, Int16), useTypo: Bool, os2Version: UInt16 = 4) -> (String) -> [UInt8]? {
        func put(_ value: Int, at offset: Int, in bytes: inout [UInt8]) {
            bytes[offset] = UInt8(truncatingIfNeeded: value >> 8); bytes[offset + 1] = UInt8(truncatingIfNeeded: value)
        }
        var head = [UInt8](repeating: 0, count: 54), hheaBytes = [UInt8](repeating: 0, count: 36), os2 = [UInt8](repeating: 0, count: 96)
        put(1000, at: 18, in: &head)
        for (i, v) in [hhea.0, hhea.1, hhea.2].enumerated() { put(Int(v), at: 4 + 2 * i, in: &hheaBytes) }
        put(Int(os2Version), at: 0, in: &os2)
        put(useTypo ? 0x80 : 0x40, at: 62, in: &os2)
        for (i, v) in [typo.0, typo.1, typo.2].enumerated() { put(Int(v), at: 68 + 2 * i, in: &os2) }
        put(500, at: 86, in: &os2)
        let all = ["head": head, "hhea": hheaBytes, "OS/2": os2]
        return { all[$0] }
    }

    @Test func typoMetricsOnlyWithTheirBit() throws {
        let hhea: (Int16, Int16, Int16) = (1000, -300, 0), typo: (Int16, Int16, Int16) = (750, -250, 200)
        let plain = try #require(FaceMetrics(table: tables(hhea: hhea, typo: typo, useTypo: false)))
        #expect(plain == FaceMetrics(unitsPerEm: 1000, ascender: 1000, descender: 300, lineGap: 0, xHeight: 500))
        let typoFace = try #require(FaceMetrics(table: tables(hhea: hhea, typo: typo, useTypo: true)))
        #expect(typoFace == FaceMetrics(unitsPerEm: 1000, ascender: 750, descender: 250, lineGap: 200, xHeight: 500))
        // 20 px: 15 + 5 + 4 against hhea's 20 + 6.
        #expect(typoFace.scaled(to: 20).normalLineHeight == 24)
        #expect(plain.scaled(to: 20).normalLineHeight == 26)
        #expect(typoFace.scaled(to: 14).lineGap == 3 && plain.scaled(to: 14).lineGap == 0)
        // Version 0 and 1 OS/2 tables have no sxHeight.
        #expect(try #require(FaceMetrics(table: tables(hhea: hhea, typo: typo, useTypo: false, os2Version: 1))).xHeight == nil)
        // No head or hhea: no metrics.
        #expect(FaceMetrics(table: { $0 == "hhea" ? nil : tables(hhea: hhea, typo: typo, useTypo: false)($0) }) == nil)
    }

    /// A descent rounded down gives a device pixel from the ascent (Blink on Linux, where text
    /// is positioned in subpixels on screens above 1x); at 1x it keeps it.
    @Test func roundedDownDescentBorrowsFromAscent() {
        let face = FaceMetrics(unitsPerEm: 1000, ascender: 800, descender: 220, lineGap: 0, xHeight: nil)
        let two = DeviceScale(2)
        #expect(face.scaled(to: 10, on: two) == .init(ascent: 7.5, descent: 2.5, lineGap: 0, xHeight: nil, device: two))
        #expect(face.scaled(to: 10, on: two).inlineBox(lineHeight: 20) == (above: 12.5, below: 7.5))
        #expect(face.scaled(to: 10) == .init(ascent: 8, descent: 2, lineGap: 0, xHeight: nil))
        #expect(face.scaled(to: 10).inlineBox(lineHeight: 20) == (above: 13, below: 7))
    }

    /// The font system reads the same tables from the face Pango picks for a style.
    @Test func fontSystemUsesTheChosenFacesTables() throws {
        let fonts = try FontSystem(fonts: try FontSet.standard())
        var style = TextStyle()
        style.family = "Inter"
        style.size = 16
        #expect(fonts.normalLineHeight(style) == 20)
        style.family = "monospace"
        style.size = 26
        #expect(fonts.normalLineHeight(style) == 30)
        style.family = "serif"
        style.size = 16
        #expect(fonts.normalLineHeight(style) == 22)
    }

    /// `sans-serif` and `system-ui` are Noto Sans, as Debian's fontconfig gives them to Chromium
    /// (`fc-match sans-serif`): at 16 px on a 3x screen, 21.667 pt lines and "Hamburgefonstiv"
    /// 131.60 pt wide in Chromium 156 (Inter: 19.667 and 129.96).
    @Test func genericSansSerifIsNotoSansAsInChromium() throws {
        let fonts = try FontSystem(fonts: try FontSet.standard())
        for family in ["sans-serif", "system-ui"] {
            var style = TextStyle()
            style.family = family
            style.size = 16
            style.deviceScale = DeviceScale(3)
            #expect(abs(fonts.normalLineHeight(style) - 65.0 / 3) < 1e-9, "\(family)")
            #expect(abs(fonts.measure(Paragraph(runs: [.init("Hamburgefonstiv", style: style)])).width - 131.604) < 0.05, "\(family)")
            #expect(fonts.provides(familyList: family))
        }
    }
}
