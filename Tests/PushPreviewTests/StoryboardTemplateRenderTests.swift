import Foundation
import Layout
import Testing
import ProjectImport

/// Issue 15, part 6, end to end: the templates the storyboard converter writes go through the
/// engine with no warning (every CSS property they use is one it supports), and the views land
/// where the storyboard's constraints put them, at the notification's width.
struct StoryboardTemplateRenderTests {
    static let fixtures = repositoryRoot.appendingPathComponent("Tests/Fixtures/xcode")

    static func render(_ template: String, payload: String) throws -> (boxes: [String: LaidOutBox], warnings: [String]) {
        var f = ContentStageTests.Fixture()
        f.template = template
        f.payload = payload
        let expanded = try ContentStageTests.view(try f.render(), "expanded")
        var boxes: [String: LaidOutBox] = [:]
        for b in try ContentStageTests.boxes(expanded) { for c in b.classes where boxes[c] == nil { boxes[c] = b } }
        return (boxes, expanded.warnings)
    }

    @Test func xibPlacedByItsConstraints() throws {
        let xib = Self.fixtures.appendingPathComponent("storyboard/BoardingCard.xib")
        let template = try StoryboardTemplate.convert(xib, bindings: ["gateLabel": "userInfo.gate"], colors: [:]).html
        let (boxes, warnings) = try Self.render(template, payload: #"{"aps": {"alert": {"title": "Boarding", "body": "Gate changed"}, "category": "card"}, "gate": "Gate C7"}"#)
        // The one warning: the XIB's Avenir Next is not among the fonts loaded.
        #expect(warnings.allSatisfy { $0.contains("Avenir Next") }, "\(warnings)")
        let root = try #require(boxes["ib-root"]), qr = try #require(boxes["ib-qr-view"]), gate = try #require(boxes["ib-gate-label"])
        let divider = try #require(boxes["ib-divider"]), stamp = try #require(boxes["ib-stamp"])
        #expect(root.height == 180 && root.width > 320)
        // Leading 16, centred vertically, 96 pt square.
        #expect(qr.x - root.x == 16 && qr.width == 96 && qr.height == 96 && qr.y - root.y == 42)
        // After the code's trailing edge (+12), to the trailing margin (16), at the top (20).
        #expect(gate.x - root.x == 124 && root.x + root.width - (gate.x + gate.width) == 16 && gate.y - root.y == 20)
        #expect(divider.y - root.y == 179 && divider.width == root.width && divider.height == 1)
        // Laid out by its frame: its right margin (12) stays as the view widens.
        #expect(root.x + root.width - (stamp.x + stamp.width) == 12 && stamp.width == 24)
    }

    @Test func storyboardStacksFlow() throws {
        var problems: [String] = []
        let colors = AssetColors.read(catalogs: [Self.fixtures.appendingPathComponent("Assets.xcassets")], problems: &problems)
        let storyboard = Self.fixtures.appendingPathComponent("storyboard/MainInterface.storyboard")
        let template = try StoryboardTemplate.convert(storyboard, bindings: ["titleLabel": "title", "bodyLabel": "body", "photoView": "attachment.url"], colors: colors).html
        let (boxes, warnings) = try Self.render(template, payload: #"{"aps": {"alert": {"title": "Ferry to Vlieland", "body": "Boarding closes ten minutes before departure."}, "category": "card"}}"#)
        #expect(warnings.allSatisfy { $0.contains("pt tall; iOS shows") }, "\(warnings)")
        let root = try #require(boxes["ib-root"]), stack = try #require(boxes["ib-stack"]), logo = try #require(boxes["ib-logo"])
        let titles = try #require(boxes["ib-titles"]), photo = try #require(boxes["ib-photo-view"]), button = try #require(boxes["ib-ticket-button"])
        // Pinned 12/16 inside the view, which takes the stack's height.
        #expect(stack.x - root.x == 16 && stack.y - root.y == 12 && stack.width == root.width - 32 && root.height == stack.height + 24)
        // The header row: the 40 pt logo, then the titles taking the rest after the 12 pt gap.
        #expect(logo.width == 40 && logo.height == 40 && titles.x == logo.x + 52 && titles.x + titles.width == stack.x + stack.width)
        // The photo placeholder at the stack's width and 16:9; the button below it after the 10 pt gap.
        #expect(photo.width == stack.width && abs(photo.height - photo.width * 9 / 16) < 0.01)
        #expect(abs(button.y - (photo.y + photo.height + 10)) < 0.01 && button.width == stack.width)
    }
}
