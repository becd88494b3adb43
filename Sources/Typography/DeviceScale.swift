/// How many device pixels a CSS pixel is on the device's screen (2 for iPhone SE and iPads, 3 for
/// the other iPhones), and what a browser on that screen snaps to them. Chromium applies the
/// screen's scale as zoom, so it lays out in device pixels: what it rounds (a face's ascent and
/// descent, the half-leading, border widths) it rounds to whole device pixels, not CSS pixels.
/// The one place layout and typography snap a length to the screen.
public struct DeviceScale: Sendable, Hashable, Codable {
    /// Device pixels per CSS pixel.
    public var factor: Double

    public init(_ factor: Double) { self.factor = factor > 0 && factor.isFinite ? factor : 1 }

    /// A CSS pixel per device pixel: laid out as DevTools' emulation and unit tests lay out.
    public static let one = DeviceScale(1)

    /// To the nearest device pixel, halves up (Skia's SkScalarRoundToScalar).
    public func rounded(_ v: Double) -> Double { (v * factor + 0.5 + Self.slack).rounded(.down) / factor }

    /// Down to a whole device pixel.
    public func floored(_ v: Double) -> Double { (v * factor + Self.slack).rounded(.down) / factor }

    /// Blink snaps fixed-point layout units (1/64 px), which hold whole device pixels exactly;
    /// thirds of a point do not, so 17 − 40/3 − 11/3 is a hair below 0 here: what is within
    /// 1/1024 of a device pixel below a whole one counts as that one.
    static let slack = 1.0 / 1024

    /// A border's used width (CSS Values 4 §6.1.1, as Blink computes it): a width under one
    /// device pixel but above 0 is one device pixel, a wider one is floored to whole device pixels.
    public func lineWidth(_ width: Double) -> Double {
        guard width > 0, width.isFinite else { return max(0, width) }
        let device = width * factor
        return (device < 1 ? 1 : (device + Self.slack).rounded(.down)) / factor
    }
}
