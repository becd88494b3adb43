import Foundation
import Testing
import ProjectImport

/// Issue 15, part 6: a content extension's storyboard or XIB turned into a starter template, on
/// fixtures written here in the shapes Xcode writes (Tests/Fixtures/xcode/storyboard).
struct StoryboardTemplateTests {
    static let folder = xcodeFixtures.appendingPathComponent("storyboard")
    static let storyboard = folder.appendingPathComponent("MainInterface.storyboard")
    static let xib = folder.appendingPathComponent("BoardingCard.xib")
    static let catalog = xcodeFixtures.appendingPathComponent("Assets.xcassets")

    /// The template's CSS rules by selector, each a set of declarations.
    static func rules(_ html: String) -> [String: Set<String>] {
        var out: [String: Set<String>] = [:]
        for line in html.split(separator: "\n") {
            let t = line.trimmingCharacters(in: .whitespaces)
            guard t.hasPrefix("."), let open = t.range(of: " { "), t.hasSuffix("; }") else { continue }
            let body = t[open.upperBound..<t.index(t.endIndex, offsetBy: -3)]
            out[String(t[..<open.lowerBound])] = Set(body.components(separatedBy: "; "))
        }
        return out
    }

    /// The line of the fixture's first line containing `text`.
    static func line(of text: String, in file: URL) throws -> Int {
        let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        return try #require(lines.firstIndex { $0.contains(text) }) + 1
    }

    static func write(_ text: String, name: String = "MainInterface.storyboard", folder: URL = temporaryFolder()) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func storyboardWithStackViews() throws {
        var colorProblems: [String] = []
        let colors = AssetColors.read(catalogs: [Self.catalog], problems: &colorProblems)
        let bindings = ["titleLabel": "title", "bodyLabel": "body", "photoView": "attachment.url"]
        let t = try StoryboardTemplate.convert(Self.storyboard, bindings: bindings, colors: colors)
        #expect(t.outlets == ["bodyLabel", "photoView", "subtitleLabel", "ticketButton", "titleLabel"])
        let css = Self.rules(t.html)
        // The stack pinned 12/16 inside the safe area: the view pads it, and takes its height.
        let root = try #require(css[".ib-root"])
        #expect(root.isSuperset(of: ["position: relative", "padding: 12px 16px 12px 16px", "background-color: var(--system-background)"]))
        #expect(!root.contains { $0.hasPrefix("height:") })
        // Stack views as flex boxes, nested, with their spacing and alignment.
        #expect(css[".ib-stack"]?.isSuperset(of: ["display: flex", "flex-direction: column", "gap: 10px"]) == true)
        #expect(css[".ib-header"]?.isSuperset(of: ["display: flex", "flex-direction: row", "gap: 12px", "align-items: center"]) == true)
        #expect(css[".ib-titles"]?.isSuperset(of: ["flex-direction: column", "gap: 2px", "flex-grow: 1"]) == true)
        // Text styles as Dynamic Type, system colours as the chrome's.
        #expect(css[".ib-title-label"]?.isSuperset(of: ["font: var(--font-headline)", "letter-spacing: var(--font-headline-tracking)", "color: var(--label)",
                                                        "white-space: nowrap"]) == true)
        #expect(css[".ib-subtitle-label"]?.isSuperset(of: ["font: var(--font-subheadline)", "color: var(--secondary-label)"]) == true)
        #expect(css[".ib-body-label"]?.contains("font: var(--font-body)") == true)
        #expect(css[".ib-body-label"]?.contains("white-space: nowrap") == false)
        // The logo: 40 pt with a 1:1 aspect, a 20 pt radius, the catalog's colour.
        #expect(css[".ib-logo"]?.isSuperset(of: ["width: 40px", "height: 40px", "border-radius: 20px", "background-color: var(--color-brand-blue)",
                                                 "overflow: hidden", "object-fit: cover"]) == true)
        // The photo: 16:9 at the stack's width, and the bound attachment.
        #expect(css[".ib-photo-view"]?.isSuperset(of: ["aspect-ratio: 1.7778", "border-radius: 12px", "object-fit: cover"]) == true)
        #expect(t.html.contains(#"{{#attachment.url}}<img class="ib-photo-view" src="{{attachment.url}}" alt="">{{/attachment.url}}{{^attachment.url}}<div class="ib-photo-view ib-placeholder"></div>{{/attachment.url}}"#))
        #expect(css[".ib-ticket-button"]?.isSuperset(of: ["background-color: var(--color-brand-blue)", "border-radius: 999px", "color: #ffffff"]) == true)
        #expect(t.html.contains(#"<div class="ib-ticket-button">Show Ticket</div>"#))
        // The named colour with its dark variant.
        #expect(t.html.contains("  body { --color-brand-blue: #005ca8; }"))
        #expect(t.html.contains("  @media (prefers-color-scheme: dark) { body { --color-brand-blue: #4da6ff; } }"))
        // Bound outlets are placeholders; an unbound one keeps its text and says what to bind.
        #expect(t.html.contains("{{! outlet titleLabel (UILabel): the extension's code sets it from title }}"))
        #expect(t.html.contains(#"<div class="ib-title-label">{{title}}</div>"#))
        #expect(t.html.contains(#"<div class="ib-body-label">{{body}}</div>"#))
        #expect(t.html.contains("{{! outlet subtitleLabel (UILabel): bind it:"))
        #expect(t.html.contains(#"<div class="ib-subtitle-label">Departs 14:05 · Pier 3</div>"#))
        // What was not drawn is said, with the file and line.
        let logoLine = try Self.line(of: #"id="Hb1-im-logo""#, in: Self.storyboard)
        #expect(t.problems == ["\(Self.storyboard.path):\(logoLine): the asset catalog's image \"harbor-logo\" of Logo (UIImageView) is not drawn; a placeholder is"])
        // Markup nests as the views do, and the same input gives the same bytes.
        let order = ["ib-root", "ib-stack", "ib-header", "ib-logo", "ib-titles", "ib-title-label", "ib-subtitle-label", "ib-body-label", "ib-photo-view", "ib-ticket-button"]
        let positions = order.map { t.html.range(of: "<div class=\"\($0)")?.lowerBound ?? t.html.range(of: "class=\"\($0)")!.lowerBound }
        #expect(positions == positions.sorted())
        #expect(try StoryboardTemplate.convert(Self.storyboard, bindings: bindings, colors: colors).html == t.html)
    }

    @Test func xibWithConstraints() throws {
        let t = try StoryboardTemplate.convert(Self.xib, bindings: ["gateLabel": "userInfo.gate"], colors: [:])
        #expect(t.outlets == ["gateLabel", "heightConstraint", "qrView"])
        let css = Self.rules(t.html)
        // Absolutely placed in the design-time height; the leading, centre, width and aspect constraints.
        #expect(css[".ib-root"]?.isSuperset(of: ["position: relative", "height: 180px", "background-color: var(--secondary-system-background)"]) == true)
        #expect(css[".ib-qr-view"]?.isSuperset(of: ["position: absolute", "left: 16px", "width: 96px", "top: calc(50% - 48px)", "height: 96px",
                                                    "object-fit: contain", "background-color: #ffffff"]) == true)
        // A chain of siblings: leading to the code's trailing edge, trailing to the margin.
        #expect(css[".ib-gate-label"]?.isSuperset(of: ["left: 124px", "right: 16px", "top: 20px", "font-size: 28px", "font-weight: 700",
                                                       "color: #f36917", "text-align: right"]) == true)
        #expect(t.html.contains(#"<div class="ib-gate-label">{{userInfo.gate}}</div>"#))
        // Below a label of unknown height: the design-time top, said.
        #expect(css[".ib-seat"]?.isSuperset(of: ["left: 124px", "top: 57.33px", "font-family: \"Avenir Next\"", "font-weight: 600",
                                                 "color: var(--system-indigo)"]) == true)
        #expect(t.html.contains("body { --system-indigo: #5856d6; }") && t.html.contains("--system-indigo: #5e5ce6;"))
        let seatLine = try Self.line(of: #"id="Bc2-lb-seat""#, in: Self.xib), belowLine = try Self.line(of: #"id="Bc2-cn-stt""#, in: Self.xib)
        #expect(t.problems.contains("\(Self.xib.path):\(seatLine): the constraints of Seat (UILabel) do not fix its vertical position; drawn at its design-time 57.33 pt"))
        #expect(t.problems.contains { $0.hasPrefix("\(Self.xib.path):\(belowLine): the constraint seat.top = gate-label.bottom + 4 is not converted") })
        #expect(t.problems.count == 2, "\(t.problems)")
        // Pinned to the bottom with a height; a frame-laid view keeps its right margin (flexibleMinX).
        #expect(css[".ib-divider"]?.isSuperset(of: ["left: 0", "right: 0", "bottom: 0", "height: 1px", "background-color: var(--separator)"]) == true)
        #expect(css[".ib-stamp"]?.isSuperset(of: ["right: 12px", "width: 24px", "top: 12px", "height: 24px", "border-radius: 12px"]) == true)
        // An unbound image outlet: a placeholder and what to bind; a constraint outlet is listed.
        #expect(t.html.contains("{{! outlet qrView (UIImageView): bind it:"))
        #expect(t.html.contains("Outlets that are not views drawn here: heightConstraint."))
    }

    /// The old shape (Xcode 8): no frames on subviews, the top and bottom layout guides, margins.
    @Test func layoutGuidesAndMargins() throws {
        let text = """
        <?xml version="1.0" encoding="UTF-8" standalone="no"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" initialViewController="vc">
            <scenes><scene sceneID="s"><objects>
                <viewController id="vc" customClass="NotificationViewController" sceneMemberID="viewController">
                    <layoutGuides>
                        <viewControllerLayoutGuide type="top" id="top"/>
                        <viewControllerLayoutGuide type="bottom" id="bottom"/>
                    </layoutGuides>
                    <view key="view" contentMode="scaleToFill" id="root">
                        <rect key="frame" x="0.0" y="0.0" width="320" height="220"/>
                        <subviews>
                            <imageView contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="img">
                                <constraints>
                                    <constraint firstAttribute="width" constant="160" id="c1"/>
                                    <constraint firstAttribute="width" secondItem="img" secondAttribute="height" multiplier="1:1" id="c2"/>
                                </constraints>
                            </imageView>
                            <label text="Label" textAlignment="center" numberOfLines="0" translatesAutoresizingMaskIntoConstraints="NO" id="lbl">
                                <fontDescription key="fontDescription" type="system" pointSize="18"/>
                                <nil key="textColor"/>
                            </label>
                        </subviews>
                        <color key="backgroundColor" white="0.0" alpha="0.0" colorSpace="calibratedWhite"/>
                        <constraints>
                            <constraint firstAttribute="trailingMargin" secondItem="lbl" secondAttribute="trailing" id="c3"/>
                            <constraint firstItem="img" firstAttribute="top" secondItem="top" secondAttribute="bottom" id="c4"/>
                            <constraint firstItem="img" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="c5"/>
                            <constraint firstItem="bottom" firstAttribute="top" secondItem="lbl" secondAttribute="bottom" constant="20" id="c6"/>
                            <constraint firstItem="lbl" firstAttribute="leading" secondItem="root" secondAttribute="leadingMargin" id="c7"/>
                        </constraints>
                    </view>
                    <connections>
                        <outlet property="imageView" destination="img" id="o1"/>
                        <outlet property="label" destination="lbl" id="o2"/>
                    </connections>
                </viewController>
            </objects></scene></scenes>
        </document>
        """
        let t = try StoryboardTemplate.convert(try Self.write(text), bindings: [:], colors: [:])
        let css = Self.rules(t.html)
        #expect(css[".ib-image-view"]?.isSuperset(of: ["left: 0", "top: 0", "width: 160px", "height: 160px"]) == true)
        #expect(css[".ib-label"]?.isSuperset(of: ["left: 16px", "right: 16px", "bottom: 20px", "font-size: 18px", "text-align: center"]) == true)
        #expect(css[".ib-label"]?.contains { $0.hasPrefix("top:") } == false)
        #expect(t.html.contains(#"<div class="ib-label">Label</div>"#) && t.html.contains(#"<div class="ib-image-view ib-placeholder"></div>"#))
        #expect(t.problems.isEmpty, "\(t.problems)")
    }

    /// An element the converter does not know is said with its line, and drawn as a box of its
    /// frame; a constraint with an unknown attribute likewise; the rest is converted.
    @Test func unknownElements() throws {
        var text = try String(contentsOf: Self.storyboard, encoding: .utf8)
        let gauge = #"<tideGaugeView contentMode="scaleToFill" id="Tg1-gg-0001"><rect key="frame" x="0.0" y="0.0" width="288" height="24"/></tideGaugeView>"#
        let bodyLabel = #"<label opaque="NO" userInteractionEnabled="NO" contentMode="left" horizontalHuggingPriority="251" verticalHuggingPriority="251" text="Boarding"#
        text = text.replacingOccurrences(of: bodyLabel, with: gauge + "\n" + bodyLabel)
        text = text.replacingOccurrences(of: #"<constraint firstAttribute="width" constant="40" id="Hb1-cn-lgw"/>"#,
                                          with: #"<constraint firstAttribute="width" constant="40" id="Hb1-cn-lgw"/><constraint firstAttribute="depth" constant="3" id="Tg1-cn-dpth"/>"#)
        let file = try Self.write(text)
        let t = try StoryboardTemplate.convert(file, bindings: ["titleLabel": "title"], colors: [:])
        let gaugeLine = try Self.line(of: "tideGaugeView", in: file), depthLine = try Self.line(of: "Tg1-cn-dpth", in: file)
        #expect(t.problems.contains("\(file.path):\(gaugeLine): <tideGaugeView> (UITideGaugeView) is not converted; an empty box of its design-time size is drawn"))
        #expect(t.problems.contains("\(file.path):\(depthLine): a constraint is not converted: the attribute depth is not converted"))
        // No catalog: the storyboard's own design-time value of the named colour, said.
        #expect(t.problems.contains { $0.contains("the colour \"BrandBlue\" is in no asset catalog read; drawn as the storyboard's design-time value #005ca8") })
        let css = Self.rules(t.html)
        #expect(css[".ib-tide-gauge-view"]?.isSuperset(of: ["position: relative", "height: 24px", "background-color: var(--quaternary-fill)"]) == true)
        #expect(t.html.contains(#"<div class="ib-title-label">{{title}}</div>"#) && css[".ib-stack"]?.contains("display: flex") == true)
    }

    /// A storyboard cut short anywhere is an error with the file and the line where it ends.
    @Test func truncatedStoryboards() throws {
        let bytes = try Data(contentsOf: Self.storyboard)
        let folder = temporaryFolder()
        for fraction in [0.01, 0.1, 0.33, 0.5, 0.77, 0.9, 0.99] {
            let cut = bytes.prefix(Int(Double(bytes.count) * fraction))
            let file = folder.appendingPathComponent("cut-\(Int(fraction * 100)).storyboard")
            try cut.write(to: file)
            let lines = cut.filter { $0 == 0x0A }.count + 1
            do {
                _ = try StoryboardTemplate.convert(file, bindings: [:], colors: [:])
                Issue.record("a storyboard cut at \(fraction) was converted")
            } catch {
                let parts = error.description.split(separator: ":", maxSplits: 2)
                #expect(error.description.hasPrefix(file.path + ":"), "\(error)")
                #expect(parts.count == 3 && Int(parts[1]).map { $0 >= 1 && $0 <= lines } == true, "\(error)")
                #expect(error.description.contains("not well-formed XML"), "\(error)")
            }
        }
    }

    /// 50 MB is refused before it is read, with the file and its size; a large file within the
    /// budget is converted up to the view budget, the rest said.
    @Test func hugeStoryboards() throws {
        let folder = temporaryFolder()
        let label = #"<label text="Row" translatesAutoresizingMaskIntoConstraints="NO" id="r-ID"><rect key="frame" x="0.0" y="0.0" width="100" height="20"/><fontDescription key="fontDescription" type="system" pointSize="17"/></label>"# + "\n"
        func storyboard(labels: Int) -> Data {
            var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            text += #"<document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0"><scenes><scene sceneID="s"><objects><viewController id="vc" sceneMemberID="viewController"><view key="view" id="root"><rect key="frame" x="0.0" y="0.0" width="320" height="200"/><subviews><stackView axis="vertical" translatesAutoresizingMaskIntoConstraints="NO" id="st"><subviews>"# + "\n"
            text += (0..<labels).map { label.replacingOccurrences(of: "ID", with: String($0, radix: 36)) }.joined()
            text += "</subviews></stackView></subviews></view></viewController></objects></scene></scenes></document>\n"
            return Data(text.utf8)
        }
        let huge = folder.appendingPathComponent("Huge.storyboard")
        try storyboard(labels: 50 * (1 << 20) / (label.utf8.count + 2)).write(to: huge)
        let started = Date()
        #expect {
            _ = try StoryboardTemplate.convert(huge, bindings: [:], colors: [:])
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix(huge.path + ":0: ") && text.contains("50 MB is more than the 8 MB")
        }
        #expect(Date().timeIntervalSince(started) < 5)
        let large = folder.appendingPathComponent("Large.storyboard")
        try storyboard(labels: 3000).write(to: large)
        let t = try StoryboardTemplate.convert(large, bindings: [:], colors: [:])
        #expect(t.problems.contains { $0.hasPrefix(large.path + ":2: more than 500 views; the first 500 are drawn") })
        #expect(t.html.components(separatedBy: "<div class=\"ib-label").count - 1 == 498)
    }

    /// Thousands of constraints, a chain listed backwards: the budget stops reading them, the
    /// solver stops after its passes, and what is left keeps its frames.
    @Test func manyConstraints() throws {
        var views = "", constraints = ""
        for i in 0..<450 {
            views += #"<view translatesAutoresizingMaskIntoConstraints="NO" id="v\#(i)"><rect key="frame" x="0" y="\#(i * 10 + 5)" width="10" height="10"/><constraints><constraint firstAttribute="height" constant="10" id="h\#(i)"/></constraints></view>"# + "\n"
        }
        for i in (1..<450).reversed() {
            constraints += #"<constraint firstItem="v\#(i)" firstAttribute="top" secondItem="v\#(i - 1)" secondAttribute="bottom" id="t\#(i)"/>"# + "\n"
        }
        constraints += String(repeating: #"<constraint firstItem="v0" firstAttribute="top" secondItem="root" secondAttribute="top" id="z"/>"# + "\n", count: 5_000)
        let text = #"<document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB"><objects><view id="root"><rect key="frame" x="0" y="0" width="320" height="300"/><subviews>"# + "\n"
            + views + "</subviews><constraints>\n" + constraints + "</constraints></view></objects></document>\n"
        let file = try Self.write(text, name: "Many.xib")
        let started = Date()
        let t = try StoryboardTemplate.convert(file, bindings: [:], colors: [:])
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(t.problems.contains { $0.contains("more than 5000 constraints; the rest are not read") })
        let css = Self.rules(t.html)
        // The chain resolves one link a pass (tops at 10 pt steps) up to the pass budget; the
        // rest are drawn at their frames (5 pt lower).
        let tops = (0..<450).map { i in css[i == 0 ? ".ib-view" : ".ib-view-\(i + 1)"]?.first { $0.hasPrefix("top: ") } }
        let resolved = tops.enumerated().prefix { $0.element == "top: \($0.offset * 10 == 0 ? "0" : "\($0.offset * 10)px")" }.count
        #expect(resolved > 64 && resolved < 450, "\(resolved)")
        #expect(tops[resolved...].enumerated().allSatisfy { $0.element == "top: \(($0.offset + resolved) * 10 + 5)px" })
    }

    /// Views nested deeper than the template may nest are cut off, said; deeper than libxml2
    /// reads (256 levels) is an error with the line; neither hangs nor crashes.
    @Test func deepNesting() throws {
        func nested(_ depth: Int) -> String {
            var text = #"<?xml version="1.0" encoding="UTF-8"?><document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0"><objects>"# + "\n"
            for i in 0..<depth { text += #"<view id="v\#(i)"><rect key="frame" x="1" y="1" width="300" height="200"/><subviews>"# + "\n" }
            text += #"<label text="Deep" id="deep"/>"# + "\n"
            for _ in 0..<depth { text += "</subviews></view>\n" }
            return text + "</objects></document>\n"
        }
        let t = try StoryboardTemplate.convert(try Self.write(nested(40), name: "Deep.xib"), bindings: [:], colors: [:])
        #expect(t.problems.count == 1 && t.problems[0].contains(":26: views nest deeper than 24 levels here"), "\(t.problems)")
        var depth = 0, deepest = 0
        for tag in t.html.components(separatedBy: "<div").dropFirst() {
            depth += 1
            deepest = max(deepest, depth)
            depth -= tag.components(separatedBy: "</div>").count - 1
        }
        #expect(deepest == 25 && !t.html.contains(">Deep<"))
        let file = try Self.write(nested(300), name: "Deeper.xib")
        #expect {
            _ = try StoryboardTemplate.convert(file, bindings: [:], colors: [:])
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix(file.path + ":") && text.contains("not well-formed XML") && text.contains("depth")
        }
    }

    /// Entities are never declared, let alone expanded: the billion laughs and an external entity.
    @Test func entities() throws {
        let laughs = """
        <?xml version="1.0"?>
        <!DOCTYPE document [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB"><objects><view id="v"><subviews><label text="&c;" id="l"/></subviews></view></objects></document>
        """
        let external = laughs.replacingOccurrences(of: #"<!ENTITY a "ha">"#, with: #"<!ENTITY a SYSTEM "file:///etc/passwd">"#)
        for text in [laughs, external] {
            let file = try Self.write(text, name: "Laughs.xib")
            #expect {
                _ = try StoryboardTemplate.convert(file, bindings: [:], colors: [:])
            } throws: { error in "\(error)" == "\(file.path):2: entity declarations are not allowed in an Interface Builder file; not converted" }
        }
    }

    /// Two views with one id: the second is drawn, said, and never gets the first's constraints.
    @Test func duplicateIDs() throws {
        let text = """
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB"><objects><view id="root"><rect key="frame" x="0" y="0" width="320" height="100"/>
        <subviews>
        <label text="One" translatesAutoresizingMaskIntoConstraints="NO" id="same"><rect key="frame" x="10" y="10" width="50" height="20"/></label>
        <label text="Two" translatesAutoresizingMaskIntoConstraints="NO" id="same"><rect key="frame" x="10" y="50" width="50" height="20"/></label>
        </subviews>
        <constraints><constraint firstItem="same" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="20" id="c"/></constraints>
        </view></objects></document>
        """
        let file = try Self.write(text, name: "Same.xib")
        let t = try StoryboardTemplate.convert(file, bindings: [:], colors: [:])
        #expect(t.problems.contains("\(file.path):4: the id \"same\" is used by an earlier view too; constraints and outlets naming it go to the first"))
        let css = Self.rules(t.html)
        #expect(css[".ib-label"]?.contains("left: 20px") == true && css[".ib-label-2"]?.contains("left: 10px") == true)
        #expect(t.html.contains(">One<") && t.html.contains(">Two<"))
    }

    /// Design-time text is text: markup and Mustache tags in it are escaped, line breaks kept.
    @Test func designTextIsEscaped() throws {
        let text = """
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB"><objects><view id="root"><rect key="frame" x="0" y="0" width="320" height="100"/>
        <subviews><label text="&lt;b&gt;{{title}}&lt;/b&gt; &amp; &quot;more&quot;&#10;line two" numberOfLines="0" id="l"><rect key="frame" x="0" y="0" width="320" height="40"/></label></subviews>
        </view></objects></document>
        """
        let t = try StoryboardTemplate.convert(try Self.write(text, name: "Text.xib"), bindings: [:], colors: [:])
        #expect(t.html.contains(#">&lt;b&gt;&#123;&#123;title&#125;&#125;&lt;/b&gt; &amp; &quot;more&quot;<br>line two</div>"#), "\(t.html)")
    }

    /// Files that are not iOS Interface Builder documents.
    @Test func otherDocuments() throws {
        let cases = [
            (#"<?xml version="1.0"?><plist version="1.0"><dict/></plist>"#, "not an Interface Builder document"),
            (#"<document type="com.apple.InterfaceBuilder3.Cocoa.Storyboard.XIB"><scenes/></document>"#, "is not an iOS one"),
            (#"<document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB"><scenes/></document>"#, "has no view controller"),
            ("", "not well-formed XML"),
        ]
        for (text, message) in cases {
            let file = try Self.write(text)
            #expect {
                _ = try StoryboardTemplate.convert(file, bindings: [:], colors: [:])
            } throws: { error in "\(error)".hasPrefix(file.path + ":") && "\(error)".contains(message) }
        }
        let missing = temporaryFolder().appendingPathComponent("None.storyboard")
        #expect { _ = try StoryboardTemplate.convert(missing, bindings: [:], colors: [:]) } throws: { "\($0)" == "\(missing.path):0: no such file" }
    }

    @Test func assetCatalogColors() throws {
        var problems: [String] = []
        let colors = AssetColors.read(catalogs: [Self.catalog], problems: &problems)
        #expect(colors["BrandBlue"] == NamedColor(light: "#005ca8", dark: "#4da6ff"))
        // A namespace folder prefixes the name; 0–255 components; high contrast and Mac entries skipped.
        #expect(colors["Brand/Accent"] == NamedColor(light: "rgba(255, 149, 0, 0.8)", dark: nil))
        #expect(colors.count == 2)
        let broken = Self.catalog.appendingPathComponent("Broken.colorset/Contents.json").path
        #expect(problems.count == 1 && problems[0].hasPrefix(broken + ":"), "\(problems)")
        // Hand-written sets: JSON numbers (0–1 or 0–255), out-of-range values clamped, no colour said.
        let folder = temporaryFolder()
        let sets = [
            "Numbers": #"{"colors": [{"idiom": "universal", "color": {"components": {"red": 255, "green": 0.5, "blue": 1e308, "alpha": 1}}}]}"#,
            "Huge": #"{"colors": [{"idiom": "universal", "color": {"components": {"red": "0xFFFFFFFFFFFFFFFFFFFFFF", "green": "1", "blue": "0", "alpha": "1"}}}]}"#,
            "Reference": #"{"colors": [{"idiom": "universal", "color": {"platform": "ios", "reference": "systemIndigoColor"}}]}"#,
        ]
        for (name, json) in sets {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("\(name).colorset"), withIntermediateDirectories: true)
            try Data(json.utf8).write(to: folder.appendingPathComponent("\(name).colorset/Contents.json"))
        }
        var more: [String] = []
        let read = AssetColors.read(catalogs: [folder], problems: &more)
        #expect(read["Numbers"] == NamedColor(light: "#ff80ff") && read["Reference"] == NamedColor(light: "#5856d6", dark: "#5e5ce6"))
        #expect(read["Huge"] == nil && more.count == 2 && more.allSatisfy { $0.contains("Huge.colorset") }, "\(more)")
    }
}
