import Foundation
import Testing
import Imaging
import Layout
import PushPreview

/// The whole pipeline on the Examples project: payload → service → template → layout → PNG + HTML.
@Suite(.serialized)
struct WalkingSkeletonTests {
    static let payloads = (try? Project(folder: examples))?.payloadFiles ?? []

    @Test func examplesHaveAtLeastTwelvePayloads() {
        #expect(Self.payloads.count >= 12)
    }

    @Test func everyExampleRendersCleanly() throws {
        let renderer = try makeRenderer()
        let project = try Project(folder: examples)
        var options = RenderOptions()
        options.outputFolder = temporaryFolder()
        options.layoutJSON = true
        for file in Self.payloads {
            let results = renderer.render(payloadFile: file, project: project, options: options)
            for r in results {
                #expect(r.errors.isEmpty, "\(file.lastPathComponent): \(r.errors)")
                #expect(!r.warnings.contains { $0.contains("no glyph") }, "\(file.lastPathComponent): \(r.warnings)")
                let png = try #require(r.outputs.first { $0.hasSuffix(".png") })
                let image = try PNGCodec.decode(sha(URL(fileURLWithPath: png)))
                #expect(image.width == 402 * 3) // iPhone 17, the default

                // Text stays inside the card: every box within the notification's frame.
                let layout = try #require(r.outputs.first { $0.hasSuffix(".layout.json") })
                let boxes = try JSONDecoder().decode([LaidOutBox].self, from: Data(contentsOf: URL(fileURLWithPath: layout)))
                let card = try #require(boxes.first { $0.id == "notification" })
                for box in boxes where ["title", "subtitle", "body", "app-name", "time", "attachment"].contains(box.id ?? "") {
                    #expect(box.x >= card.x - 0.01 && box.x + box.width <= card.x + card.width + 0.01, "\(file.lastPathComponent) \(box.id!) leaves the card")
                    #expect(box.y >= card.y && box.y + box.height <= card.y + card.height + 0.01, "\(file.lastPathComponent) \(box.id!)")
                }
            }
        }
    }

    @Test func attachmentsAreShownAndTraced() throws {
        let renderer = try makeRenderer()
        var options = RenderOptions()
        options.outputFolder = temporaryFolder()
        options.layoutJSON = true
        for name in ["image-jpeg", "image-png", "image-gif", "delivery-map"] {
            let r = try #require(renderer.render(payloadFile: examples.appendingPathComponent("payloads/\(name).apns"),
                                                 project: try Project(folder: examples), options: options).first)
            #expect(r.service.level == "full" && r.service.steps.contains { $0.outcome == "attached" }, "\(name): \(r.service)")
            let layout = try #require(r.outputs.first { $0.hasSuffix(".layout.json") })
            let boxes = try JSONDecoder().decode([LaidOutBox].self, from: Data(contentsOf: URL(fileURLWithPath: layout)))
            let attachment = try #require(boxes.first { $0.id == "attachment" }, "\(name) has no attachment box")
            #expect(attachment.height > 100 && attachment.height <= 320)
            let page = try #require(r.outputs.first { $0.hasSuffix(".html") })
            let html = try String(contentsOfFile: page, encoding: .utf8)
            #expect(html.contains("Content-Security-Policy") && html.contains("src=\"../media/"))
            #expect(imageFile(ofPage: page, id: "attachment").map { FileManager.default.fileExists(atPath: $0.path) } == true, "\(name)")
        }
    }

    @Test func sameInputsGiveByteIdenticalOutputs() throws {
        let project = try Project(folder: examples)
        var first = RenderOptions(), second = RenderOptions()
        first.outputFolder = temporaryFolder("a")
        second.outputFolder = temporaryFolder("b")
        first.appearances = [.light, .dark]
        second.appearances = [.light, .dark]
        let picked = Self.payloads.filter { ["emoji", "image-jpeg", "vietnamese"].contains($0.deletingPathExtension().lastPathComponent) }
        let a = try makeRenderer(), b = try makeRenderer()
        for file in picked {
            _ = a.render(payloadFile: file, project: project, options: first)
            _ = b.render(payloadFile: file, project: project, options: second)
            _ = a.render(payloadFile: file, project: project, options: second) // a warm renderer too
        }
        let (ta, tb) = (tree(first.outputFolder), tree(second.outputFolder))
        #expect(ta.keys.filter { $0.hasSuffix("-expanded.png") || $0.hasSuffix("-expanded.html") }.count == picked.count * 2 * 2, "files: \(ta.keys.sorted())")
        #expect(ta == tb)
    }

    @Test func darkAppearanceChangesColoursOnly() throws {
        let renderer = try makeRenderer()
        var options = RenderOptions()
        options.outputFolder = temporaryFolder()
        options.appearances = [.light, .dark]
        let results = renderer.render(payloadFile: examples.appendingPathComponent("payloads/plain-alert.apns"), project: try Project(folder: examples), options: options)
            .filter { $0.view == "expanded" }
        let images = try results.map { try PNGCodec.decode(sha(URL(fileURLWithPath: $0.outputs.first { $0.hasSuffix(".png") }!))) }
        #expect(images.count == 2 && images[0].width == images[1].width && images[0].height == images[1].height)
        let light = images[0].pixel(x: 5, y: 5), dark = images[1].pixel(x: 5, y: 5)
        #expect(Int(light.r) > 150 && Int(dark.r) < 60, "backdrop light \(light) dark \(dark)")
        let html = try String(contentsOfFile: results[1].outputs.first { $0.hasSuffix(".html") }!, encoding: .utf8)
        #expect(html.contains("color-scheme: dark") && !html.contains("prefers-color-scheme"))
    }
}
