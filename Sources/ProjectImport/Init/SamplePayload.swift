import Imaging
import Payload
import Formats

/// init's sample payload for a category no payload of the repository's shows: the keys the
/// extensions read, each a value of the type the code reads it as (a number for `as? Int`, an
/// object for `as? [String: Any]`, the sample image for a key made into a URL).
enum SamplePayload {
    /// Where the sample image goes, inside the default media root, and what URL keys hold.
    static let imagePath = "media/sample-image.png"

    /// `category` nil: the app's plain notification.
    /// `sdkKeys`: the members a push SDK reads, `{{sampleImage}}` standing for the sample image.
    static func text(category: String?, appName: String, mutable: Bool, userInfoKeys: [String], types: [String: UserInfoType],
                     sdkKeys: [(key: String, value: JSONValue)] = []) -> String {
        var aps: [(key: String, value: JSONValue)] = [("alert", .object([("title", .string(appName)),
                                                                          ("body", .string("A sample \(category.map { "\($0) " } ?? "")notification: edit this payload to show your own."))]))]
        if let category { aps.append(("category", .string(category))) }
        if mutable { aps.append(("mutable-content", .number(1))) }
        aps.append(("sound", .string("default")))
        // a.b.c → {"a": {"b": {"c": …}}}, keys sharing a prefix in one object.
        func members(_ paths: [[String]], prefix: [String]) -> [(key: String, value: JSONValue)] {
            let groups = Dictionary(grouping: paths.filter { !$0.isEmpty }, by: { $0[0] })
            return groups.keys.sorted().map { key in
                let rest = groups[key]!.map { Array($0.dropFirst()) }.filter { !$0.isEmpty }
                let path = (prefix + [key]).joined(separator: ".")
                return (key, rest.isEmpty ? value(key, types[path]) : .object(members(rest, prefix: prefix + [key])))
            }
        }
        var custom = members(userInfoKeys.filter { $0 != "aps" && !$0.hasPrefix("aps.") }.map { $0.split(separator: ".").map(String.init) }, prefix: [])
        func image(_ v: JSONValue) -> JSONValue {
            switch v {
            case .string("{{sampleImage}}"): return .string(imagePath)
            case .array(let items): return .array(items.map(image))
            case .object(let m): return .object(m.map { ($0.key, image($0.value)) })
            default: return v
            }
        }
        // The SDK's members merged into what the code reads (Braze's `ab` holds both): the SDK's value wins where both have one.
        custom = merged(custom, sdkKeys.map { ($0.key, image($0.value)) })
        return JSONValue.object([("aps", .object(aps))] + custom).pretty
    }

    /// `a`'s members with `b`'s added, objects in both merged member by member, else `b`'s value.
    static func merged(_ a: [(key: String, value: JSONValue)], _ b: [(key: String, value: JSONValue)]) -> [(key: String, value: JSONValue)] {
        var out = a
        for (key, value) in b {
            guard let i = out.firstIndex(where: { $0.key == key }) else { out.append((key, value)); continue }
            if case .object(let old) = out[i].value, case .object(let new) = value { out[i].value = .object(merged(old, new)) } else { out[i].value = value }
        }
        return out
    }

    static func value(_ key: String, _ type: UserInfoType?) -> JSONValue {
        switch type ?? .string {
        case .string: return .string("sample \(key)")
        case .number: return .number(1)
        case .bool: return .bool(true)
        case .object: return .object([])
        case .array: return .array([])
        case .url: return .string(imagePath)
        }
    }

    /// The sample image: 160 × 120 pt of a sky-to-sea gradient with a sun, the same bytes every run.
    static func image() throws(ImagingError) -> [UInt8] {
        let w = 320, h = 240
        var pixels = [UInt8](repeating: 255, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 4
                let t = Double(y) / Double(h - 1)
                let sea = y > h * 2 / 3
                var (r, g, b) = sea ? (30.0, 90.0 + 40 * t, 150.0) : (90 + 120 * t, 160 + 60 * t, 230.0)
                let dx = Double(x - w * 2 / 3), dy = Double(y - h / 2)
                if !sea, dx * dx + dy * dy < 900 { (r, g, b) = (250, 200, 80) }
                pixels[i] = UInt8(r); pixels[i + 1] = UInt8(g); pixels[i + 2] = UInt8(b)
            }
        }
        return try PNGCodec.encode(RGBAImage(width: w, height: h, pixels: pixels), scale: 2)
    }
}
