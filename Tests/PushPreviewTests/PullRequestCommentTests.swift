import ContentStage
import Foundation
import Imaging
@testable import PushPreview
import Testing

/// The comment a pull request gets when it changes every view of Examples (a new app icon): it
/// stays under GitHub's limit, says what changed first, folds each view's variants into a row
/// with a readable picture, and links the full diff; with less room it counts what it left out.
struct PullRequestCommentTests {
    struct DiffFile: Decodable { var summary: OutputDiff.Summary; var groups: [ChangeGroup] }

    @Test func everyViewChangedStillFitsAndShowsEachGroup() throws {
        let project = try examplesCopy()
        let root = project.deletingLastPathComponent()
        let git = try PullRequestTests.gitRepository(root)
        // A new app icon: the old one's colours inverted. Every view shows the icon.
        let iconFile = project.appendingPathComponent("media/AppIcon.png")
        var icon = try PNGCodec.decode(sha(iconFile))
        for i in stride(from: 0, to: icon.pixels.count, by: 4) { for c in 0..<3 { icon.pixels[i + c] = 255 - icon.pixels[i + c] } }
        try Data(try PNGCodec.encode(icon)).write(to: iconFile)
        try git("commit", "-qam", "a new app icon")

        let out = root.appendingPathComponent("Diff"), md = root.appendingPathComponent("comment.md")
        let published = "https://previews.example.com/pr-9/"
        let r = try runProcess(pushpreviewBinary, ["diff", "--base", "HEAD~1", project.path, "--out", out.path, "--markdown", md.path,
                                                   "--image-base-url", published, "--format", "png"])
        #expect(r.status == 0, "\(r.stderr)")
        let file = try JSONDecoder().decode(DiffFile.self, from: Data(contentsOf: out.appendingPathComponent("diff.json")))
        #expect(file.summary.changed >= 550, "every view shows the icon: \(file.summary)")
        let comment = try String(contentsOf: md, encoding: .utf8)
        #expect(comment.utf16.count <= PullRequestComment.defaultBudget && comment.utf16.count < 65_536, "\(comment.utf16.count) characters")

        // The summary first: the counts by kind and the input behind them.
        #expect(comment.hasPrefix("### PushPreview: \(file.summary.changed) changed, 0 added, 0 removed, \(file.summary.unchanged) unchanged\n"))
        #expect(comment.contains("| changed | \(file.summary.changed) | \(file.groups.count) |"))
        #expect(comment.contains("Changed inputs: `media/AppIcon.png`."))
        // Groups: each payload's view one row, its variants folded (36 for a localized payload).
        #expect(file.groups.count < file.summary.changed / 5, "\(file.groups.count) rows for \(file.summary.changed) mock-ups")
        let boarding = try #require(file.groups.first { $0.payload == "payloads/localized-boarding.apns" && $0.view == "expanded" })
        #expect(boarding.mockups.count == 36 && boarding.locales.count == 6 && boarding.devices.count == 3, "\(boarding)")
        #expect(comment.contains("| expanded | changed, ") && comment.contains("| 36 of 36: iphone-se-3, iphone-15, ipad-10 × light, dark × 6 locales |"))

        // A picture per group, at no less than half the card's device pixels.
        let profiles = try DeviceProfile.read(sha(repositoryRoot.appendingPathComponent("Templates/system/devices.json")), file: "devices.json")
        for group in file.groups {
            let name = try #require(group.image, "\(group.payload) \(group.view) has no picture")
            let size = try #require(group.imageSize)
            #expect(comment.contains("<img src=\"\(published)\(name)\" width=\"\(size[0])\" height=\"\(size[1])\""), "\(name) is not shown at its size")
            let picture = try PNGCodec.decode(sha(out.appendingPathComponent(name)))
            #expect([picture.width, picture.height] == size)
            let device = try #require(profiles.first { group.shown?.hasPrefix($0.id + ",") == true }, "\(group.shown ?? "?")")
            // The card is the view's platter: the long look is narrower than the banner on an iPhone (ios18/metrics.json).
            let chrome = try ChromeMetrics.load(templates: ChromeMetricsTests.templates)
            let longLook = !device.isPad && (group.view.hasPrefix("expanded") || group.view == "reply")
            let card = (device.notificationWidth - (longLook ? 2 * (chrome["longLook.inset"] - chrome["banner.inset"]) : 0)) * Double(device.scale)
            let panel = Double(picture.width - 2 * ComparisonImage.gap) / 3
            #expect(panel >= 0.5 * card, "\(name) (\(group.view)): a panel of \(panel) px for a card of \(card) px")
        }
        // An iPad's card as readable as an iPhone's (the whole 820 pt screen at 260 px was 0.16×).
        let ipad = try ["before", "after", "diff"].map { try PNGCodec.decode(sha(out.appendingPathComponent("localized-boarding/ipad-10-light-en-expanded-\($0).png"))) }
        let made = try #require(ComparisonImage.make(ipad))
        #expect(Double(made.width - 2 * ComparisonImage.gap) / 3 >= 0.5 * 540 * 2, "\(made.width) px for three iPad cards")
        #expect(comment.components(separatedBy: "<img ").count - 1 == file.groups.count, "every row fits in the budget")
        #expect(comment.hasSuffix("The full diff: [the full diff](\(published)index.html).\n"))

        // With less room: as many rows as fit, then how many more, with the full diff linked.
        var small = PullRequestComment(summary: file.summary, groups: file.groups, failures: [], folderName: "Diff")
        small.imageBaseURL = published
        small.budget = 8000
        let short = small.markdown()
        let shown = short.components(separatedBy: "<img ").count - 1
        #expect(short.utf16.count <= 8000 && shown > 3 && shown < file.groups.count, "\(short.utf16.count) characters, \(shown) rows")
        #expect(short.contains("**… and \(file.groups.count - shown) more rows**") && short.contains("see [the full diff](\(published)index.html)"), "\(short.suffix(400))")
        // The same without an image URL: no <img>, the pictures named in the artefact.
        small.imageBaseURL = nil
        small.artifactURL = "https://github.com/harbor/app/actions/runs/42"
        let bare = small.markdown()
        #expect(!bare.contains("<img") && bare.contains("-compare.png`") && bare.contains("the `Diff` artefact of [this run](https://github.com/harbor/app/actions/runs/42)"))
    }

    /// Failures come first, each with its error, and take at most a third of the budget.
    @Test func failuresFirstWithinTheirShare() {
        let failures = (1...400).map { ComparisonFailure(side: .new, subject: "payloads/p\($0).apns", message: "line 1, column 1: not valid JSON | `x` @team") }
        var comment = PullRequestComment(summary: OutputDiff.Summary(), groups: [], failures: failures, folderName: "pushpreview-diff")
        comment.budget = 6000
        let text = comment.markdown()
        #expect(text.hasPrefix("### PushPreview: 400 failed · 0 changed"))
        #expect(text.contains("- this branch: `payloads/p1.apns`: ``line 1, column 1: not valid JSON \\| `x` @team``"), "a message is code, never markup or a mention")
        #expect(text.utf16.count <= 6000 && text.contains("more, listed in `index.html` in the diff folder (`pushpreview-diff`)"), "\(text.suffix(300))")
    }
}
