import Checked
import Foundation
import Imaging
import PushPreview
import Rendering
import Testing
import Typography

/// The one cache every long-lived store keeps its work in: least recently used out first, the
/// budget never exceeded, and what does not fit at all not kept.
struct BoundedCacheTests {
    @Test func evictsTheLeastRecentlyUsed() {
        var cache = BoundedCache<String, Int>(budget: 30)
        cache.insert(1, for: "a", cost: 10)
        cache.insert(2, for: "b", cost: 10)
        cache.insert(3, for: "c", cost: 10)
        #expect(cache.value("a") == 1)  // a is now the most recent: b goes first
        cache.insert(4, for: "d", cost: 10)
        #expect(cache.keys == ["c", "a", "d"] && cache.value("b") == nil && cache.cost == 30)
        cache.insert(5, for: "e", cost: 15)  // takes two of the oldest
        #expect(cache.keys == ["d", "e"] && cache.cost == 25)
    }

    @Test func keepsWithinTheBudgetOverManyInserts() {
        var cache = BoundedCache<Int, [UInt8]>(budget: 1000)
        for i in 0..<5000 {
            cache.insert([UInt8](repeating: 0, count: 1 + i % 97), for: i, cost: 1 + i % 97)
            #expect(cache.cost <= 1000)
        }
        // The newest are kept, back to where the budget ran out; their costs add up to the total.
        let kept = cache.keys
        #expect(kept.last == 4999 && kept == Array((5000 - kept.count)..<5000))
        #expect(kept.reduce(0) { $0 + 1 + $1 % 97 } == cache.cost && cache.count == kept.count)
    }

    @Test func anEntryLargerThanTheBudgetIsNotKept() {
        var cache = BoundedCache<String, Int>(budget: 100)
        cache.insert(1, for: "small", cost: 40)
        cache.insert(2, for: "huge", cost: 101)
        #expect(cache.value("huge") == nil && cache.keys == ["small"] && cache.cost == 40)
        // Replacing a kept entry with one that does not fit drops the old value too.
        cache.insert(3, for: "small", cost: 500)
        #expect(cache.value("small") == nil && cache.count == 0 && cache.cost == 0)
    }

    @Test func replacingAnEntryCountsOnlyItsNewCost() {
        var cache = BoundedCache<String, Int>(budget: 50)
        cache.insert(1, for: "a", cost: 20)
        cache.insert(2, for: "b", cost: 20)
        cache.insert(3, for: "a", cost: 25)
        #expect(cache.value("a") == 3 && cache.cost == 45 && cache.keys == ["b", "a"])
        cache.remove("b")
        cache.insert(4, for: "c", cost: 25)
        #expect(cache.keys == ["a", "c"] && cache.cost == 50)
    }

    /// The pixel cache keeps the most recent images within its budget, instead of starting over:
    /// an image used on every page stays while others come and go.
    @Test func pixelCacheKeepsWhatIsUsedOften() throws {
        let cache = PixelCache(budget: 3 * 400)  // three 10x10 images
        var made: [String] = []
        func image(_ key: String) throws {
            _ = try cache.value(key) { () throws(ImagingError) in
                made.append(key)
                return RGBAImage(width: 10, height: 10, pixels: [UInt8](repeating: 0, count: 400))
            }
        }
        for page in 0..<20 {
            try image("d|icon")
            try image("d|photo\(page)")
        }
        #expect(made.filter { $0 == "d|icon" }.count == 1 && made.count == 21 && cache.counts.decoded == 21)
        // Larger than the whole budget: made every time, never kept.
        let huge = PixelCache(budget: 100)
        for _ in 0..<3 { try _ = huge.value("d|big") { () throws(ImagingError) in RGBAImage(width: 10, height: 10, pixels: [UInt8](repeating: 0, count: 400)) } }
        #expect(huge.counts.decoded == 3)
    }

    /// What the caches keep never changes what is drawn: a renderer whose pixel cache keeps
    /// nothing, a cold one and the same one warm write the same bytes for photos, a GIF, a
    /// video's poster, an avatar and the banners' thumbnails on two devices.
    @Test func mockupsDoNotDependOnWhatIsCached() throws {
        let folder = try examplesCopy(payloads: ["image-jpeg.apns", "image-gif.apns", "photo-tall.apns", "video-clip.apns", "crew-message.apns", "sunset-clipped.apns"])
        let project = try Project(folder: folder)
        func render(_ renderer: MockupRenderer, _ name: String) -> [String: [UInt8]] {
            var options = RenderOptions()
            options.devices = ["iphone-17", "ipad-10"]
            options.appearances = [.light, .dark]
            options.outputFolder = folder.deletingLastPathComponent().appendingPathComponent(name)
            for file in project.payloadFiles {
                let results = renderer.render(payloadFile: file, project: project, options: options)
                #expect(results.allSatisfy { $0.errors.isEmpty }, "\(results.flatMap(\.errors))")
            }
            return tree(options.outputFolder)
        }
        let renderer = try makeRenderer()
        let cold = render(renderer, "cold"), warm = render(renderer, "warm")
        let uncached = render(try MockupRenderer(fonts: try FontSet.standard(), templates: repositoryRoot.appendingPathComponent("Templates"),
                                                 pixelCache: PixelCache(budget: 0)), "uncached")
        #expect(cold.count > 40 && cold.keys.contains { $0.contains("thumbnail") || $0.hasPrefix("/media/") })
        #expect(warm == cold && uncached == cold, "differ: \(Set(cold.keys).union(warm.keys).union(uncached.keys).filter { cold[$0] != warm[$0] || cold[$0] != uncached[$0] }.sorted())")
    }
}
