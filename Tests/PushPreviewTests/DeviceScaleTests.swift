import Foundation
import Layout
import Testing
import Typography

/// Layout at the device's real scale: Chromium started as a 2x or 3x screen
/// (`--force-device-scale-factor`, Chromium 156 on Debian 12) lays out in device pixels, so a
/// face's ascent and descent, the half-leading and border widths are whole device pixels there,
/// not whole CSS pixels. Every expected number below is what that Chromium gave.
struct DeviceScaleTests {
    let fonts: FontSystem
    init() throws { fonts = try FontSystem(fonts: try FontSet.standard()) }

    @Test func interNormalLineHeightsAtEachScale() throws {
        let bytes = try #require(FileManager.default.contents(atPath: "/usr/share/fonts/opentype/inter/Inter-Regular.otf"))
        let inter = try #require(FaceMetrics(sfnt: [UInt8](bytes)))
        // Device pixels per line at 2 and 3 (Chromium's heights × scale: 19.5 pt is 39 px at 2x).
        let measured: [(size: Double, at2: Double, at3: Double)] = [
            (11, 26, 40), (12, 29, 44), (13, 31, 47), (14, 34, 51), (15, 36, 55), (16, 39, 59), (17, 41, 61), (20, 49, 72), (22, 54, 80),
        ]
        for m in measured {
            #expect(abs(inter.scaled(to: m.size, on: DeviceScale(2)).normalLineHeight * 2 - m.at2) < 1e-9, "Inter \(m.size) px at 2x")
            #expect(abs(inter.scaled(to: m.size, on: DeviceScale(3)).normalLineHeight * 3 - m.at3) < 1e-9, "Inter \(m.size) px at 3x")
        }
    }

    @Test func lineBoxesOfMixedSizesFloorTheHalfLeadingInDevicePixels() throws {
        // 15 px Inter with 21 px lines and an 11 px run: 23 at 1x, 22.5 at 2x, 22.667 at 3x.
        let html = #"<div id="p" style="font: 15px/21px Inter">a<span style="font-size: 11px">b</span></div>"#
        for (scale, height) in [(1.0, 23.0), (2, 22.5), (3, 68.0 / 3)] {
            let box = try #require(try LayoutProbe(html, fonts: fonts, scale: scale).boxes["p"])
            #expect(abs(box.height - height) < 1e-9, "at \(scale)x: \(box.height)")
        }
        let normal = #"<div id="p" style="font: 16px Inter">a<br>b<br>c</div>"#
        for (scale, height) in [(1.0, 60.0), (2, 58.5), (3, 59.0)] {
            #expect(abs(try #require(try LayoutProbe(normal, fonts: fonts, scale: scale).boxes["p"]).height - height) < 1e-9, "3 lines at \(scale)x")
        }
    }

    @Test func baselinesAtEachScale() throws {
        // Where a zero-height inline-block sits (its bottom on the baseline) in a line of Inter at
        // 10…24 px, in device pixels: Chromium at 1x, 2x and 3x. Thirds of a point must floor to
        // whole device pixels exactly (a half-leading of 17 − 40/3 − 11/3 is 0, not a hair below).
        let at: [Double: [Double]] = [
            1: [10, 11, 12, 13, 14, 15, 16, 16, 17, 18, 19, 20, 21, 22, 23],
            2: [19, 20, 23, 24, 27, 28, 31, 32, 35, 36, 39, 40, 43, 44, 47],
            3: [28, 32, 35, 37, 40, 44, 47, 48, 51, 55, 57, 60, 64, 67, 69],
        ]
        for (scale, baselines) in at {
            for (size, expected) in zip(10..., baselines) {
                let html = #"<div style="font: \#(size)px Inter">H<span id="m" style="display: inline-block; width: 1px; height: 0"></span></div>"#
                let marker = try #require(try LayoutProbe(html, fonts: fonts, scale: scale).boxes["m"])
                #expect(abs(marker.y * scale - expected) < 1e-6, "Inter \(size) px at \(scale)x: \(marker.y * scale)")
            }
        }
    }

    @Test func borderWidthsSnapToDevicePixels() throws {
        // Chromium: under one device pixel is one; wider is floored to whole device pixels.
        let expected: [(css: Double, at1: Double, at2: Double, at3: Double)] = [
            (0.5, 1, 0.5, 1.0 / 3), (0.7, 1, 0.5, 2.0 / 3), (1.3, 1, 1, 1), (1.5, 1, 1.5, 4.0 / 3),
        ]
        for e in expected {
            let html = #"<div id="b" style="border: \#(e.css)px solid; height: 10px"></div>"#
            for (scale, width) in [(1.0, e.at1), (2, e.at2), (3, e.at3)] {
                let box = try #require(try LayoutProbe(html, fonts: fonts, scale: scale).boxes["b"])
                #expect(abs(box.height - (10 + 2 * width)) < 1e-9, "border \(e.css) px at \(scale)x: \(box.height)")
            }
        }
        #expect(DeviceScale(3).lineWidth(0) == 0)
    }
}
