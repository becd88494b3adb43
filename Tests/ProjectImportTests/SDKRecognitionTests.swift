import ConfinedFiles
import Foundation
import Payload
import Testing
@testable import ProjectImport
import Formats

/// Service extensions in the shapes push SDKs' samples have: an empty subclass, a call with the
/// app's content handler, an Objective-C object held by the app's extension, an import only.
struct SDKRecognitionTests {
    static let catalog = PushSDK.Catalog.read(repositoryRoot.appendingPathComponent("Templates/sdks")).sdks

    /// SDK → a service extension file in its sample's shape (written here, not copied).
    static let extensions: [(String, String, String)] = [
        ("batch", "NotificationService.swift", "import BatchExtension\n\nclass NotificationService: BAENotificationServiceExtension {}\n"),
        ("iterable", "NotificationService.m", "@import IterableAppExtensions;\n\n@interface NotificationService ()\n@property (nonatomic) ITBNotificationServiceExtension *iterable;\n@end\n"),
        ("clevertap", "NotificationService.h", "#import <CTNotificationService/CTNotificationService.h>\n\n@interface NotificationService : CTNotificationServiceExtension\n@end\n"),
        ("klaviyo", "NotificationService.swift", "import UserNotifications\nimport KlaviyoSwiftExtension\n\nfinal class NotificationService: UNNotificationServiceExtension {\n  override func didReceive(_ r: UNNotificationRequest, withContentHandler h: @escaping (UNNotificationContent) -> Void) {\n    KlaviyoExtensionSDK.handleNotificationServiceDidReceivedRequest(request: r, bestAttemptContent: r.content.mutableCopy() as! UNMutableNotificationContent, contentHandler: h)\n  }\n}\n"),
        ("firebase-messaging", "NotificationService.swift", "import FirebaseMessaging\n\nclass NotificationService: UNNotificationServiceExtension {\n  func go(_ c: UNMutableNotificationContent, _ h: @escaping (UNNotificationContent) -> Void) {\n    Messaging.serviceExtension().populateNotificationContent(c, withContentHandler: h)\n  }\n}\n"),
        ("onesignal", "NotificationService.m", "#import <OneSignal/OneSignal.h>\n\n- (void)go { [OneSignal didReceiveNotificationExtensionRequest:self.request withMutableNotificationContent:self.content]; }\n"),
        ("braze", "NotificationService.swift", "import BrazeNotificationService\n\nclass NotificationService: BrazeNotificationService.NotificationService {}\n"),
        ("pushwoosh", "NotificationService.swift", "import PushwooshFramework\n\nclass NotificationService: PushwooshNotificationServiceExtension {}\n"),
    ]

    @Test(arguments: extensions)
    func recognisesTheSDKInItsSamplesShape(_ id: String, _ name: String, _ source: String) throws {
        let found = SDKRecognition.inSources([(name, Array(source.utf8))], catalog: Self.catalog)
        #expect(found.evidence.map(\.sdk.id) == [id], "\(found.evidence.map { ($0.sdk.id, $0.found) })")
        #expect(found.evidence.first?.found.allSatisfy { $0.contains("(\(name):") } == true)
    }

    @Test(arguments: [("clevertap", "import CTNotificationContent\n\nclass NotificationViewController: CTNotificationViewController {}\n"),
                      ("braze", "import BrazePushStory\n\nclass NotificationViewController: BrazePushStory.NotificationViewController {}\n"),
                      ("moengage", "func didReceive(_ n: UNNotification) {\n  MoEngageSDKRichNotification.addPushTemplate(toController: self, withNotification: n)\n}\n")])
    func aContentViewTheSDKDrawsIsKnown(_ id: String, _ source: String) {
        let found = SDKRecognition.inSources([("NotificationViewController.swift", Array(source.utf8))], catalog: Self.catalog)
        #expect(found.contentView?.sdk.id == id && found.contentView?.at.contains("NotificationViewController.swift:") == true, "\(String(describing: found.contentView))")
    }

    @Test func aSamplesButtonsAreLeftOutWhereItsCategoryKeepsThemAway() {
        let members: [(key: String, value: JSONValue)] = [("pe", .object([("tag", .string("t")), ("ab", .array([]))]))]
        let kept = ProjectInit.removing(["pe", "ab"], from: members)
        #expect(kept.count == 1 && kept[0].value["tag"] == .string("t") && kept[0].value["ab"] == nil)
    }

    @Test func aCommentedImportIsNoEvidence() {
        let found = SDKRecognition.inSources([("A.swift", Array("// import KlaviyoSwiftExtension\nimport Foundation\n".utf8))], catalog: Self.catalog)
        #expect(found.isEmpty)
    }

    @Test func theExtensionsOwnPodfileTargetIsToldFromTheAppsPods() throws {
        let root = temporaryFolder()
        let ios = root.appendingPathComponent("ios")
        try FileManager.default.createDirectory(at: ios.appendingPathComponent("App.xcodeproj"), withIntermediateDirectories: true)
        try Data("""
        target 'App' do
          pod 'FirebaseMessaging'
        end
        target 'NotificationService' do
          pod "CTNotificationService"
        end
        """.utf8).write(to: ios.appendingPathComponent("Podfile"))
        try Data("PODS:\n  - CTNotificationService (0.1.7)\n  - FirebaseMessaging (10.0.0)\n".utf8).write(to: ios.appendingPathComponent("Podfile.lock"))
        let resolved = ios.appendingPathComponent("App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm")
        try FileManager.default.createDirectory(at: resolved, withIntermediateDirectories: true)
        try Data(#"{"pins": [{"identity": "klaviyo-swift-sdk", "location": "https://github.com/klaviyo/klaviyo-swift-sdk.git"}, {"location": "https://github.com/braze-inc/braze-swift-sdk-prebuilt-static"}]}"#.utf8)
            .write(to: resolved.appendingPathComponent("Package.resolved"))
        let (own, elsewhere) = SDKRecognition.inManifests(bundle: ios.appendingPathComponent("App.xcodeproj"), extensionTarget: "NotificationService", repository: Repository(root: root), catalog: Self.catalog)
        #expect(own.evidence.map(\.sdk.id) == ["clevertap"])
        #expect(Set(elsewhere.evidence.map(\.sdk.id)) == ["clevertap", "firebase-messaging", "klaviyo"], "the prebuilt Braze package is another package: \(elsewhere.evidence.map { ($0.sdk.id, $0.found) })")
    }

    /// An app whose content extension subclasses CleverTap's view (the shape of CleverTap's own
    /// example): init points the category's template at PushPreview's copy of that view, lists the
    /// SDK so its images are read, and puts the view's keys in the sample; no stand-in is said.
    @Test func initDrawsTheSDKsOwnContentView() throws {
        let root = try appWithExtension("Shop", "NotificationContent", plistDict: """
            <key>NSExtensionAttributes</key><dict><key>UNNotificationExtensionCategory</key><string>CTNotification</string>
            <key>UNNotificationExtensionDefaultContentHidden</key><true/><key>UNNotificationExtensionInitialContentSizeRatio</key><real>0.1</real></dict>
            <key>NSExtensionPointIdentifier</key><string>com.apple.usernotifications.content-extension</string>
            <key>NSExtensionPrincipalClass</key><string>$(PRODUCT_MODULE_NAME).NotificationViewController</string>
            """, files: ["NotificationContent/NotificationViewController.swift": "import CTNotificationContent\n\nclass NotificationViewController: CTNotificationViewController {}\n"])
        let plan = try ProjectInit(path: root)
        func text(_ path: String) throws -> String { try #require(plan.files.first { $0.path == path }?.text, "\(plan.files.map(\.path))") }
        #expect(try text("Templates/CTNotification.html").contains("{{> stock/clevertap}}"))
        #expect(!plan.problems.contains { $0.contains("stand-in") }, "\(plan.problems)")
        #expect(plan.found.contains { $0.hasPrefix("content view of CleverTap in NotificationContent: CTNotificationViewController (NotificationContent/NotificationViewController.swift:3)") && $0.contains("Templates/stock/clevertap.html") }, "\(plan.found)")
        let settings = try JSONParser.parse(Array(try text("pushpreview.json").utf8), file: "pushpreview.json")
        #expect(settings["sdks"] == .array([.string("clevertap")]), "\(settings)")
        let sample = try JSONParser.parse(Array(try text("payloads/CTNotification.apns").utf8), file: "sample")
        #expect(sample["pt_id"] == .string("pt_carousel") && sample["pt_img1"]?.string?.hasPrefix("media/") == true, "\(sample)")
    }

    /// Braze's extension code reads ab.att.url and its Push Story reads ab.c_items: the sample holds
    /// both in one `ab`, the SDK's values where both give one.
    @Test func theSDKsSampleMergesWithWhatTheCodeReads() throws {
        let braze = try #require(Self.catalog.first { $0.id == "braze" })
        let text = SamplePayload.text(category: "ab_cat_push_story_v2", appName: "Trips", mutable: true, userInfoKeys: ["ab.att.type", "ab.att.url", "trip"],
                                      types: ["ab.att.url": .url], sdkKeys: braze.sample)
        let json = try JSONParser.parse(Array(text.utf8), file: "sample")
        #expect(json["ab"]?["att"]?["type"] == .string("png") && json["ab"]?["att"]?["url"] == .string(SamplePayload.imagePath), "\(text)")
        #expect(json["ab"]?["c_items"].flatMap { if case .array(let pages) = $0 { return pages.first?["i"] }; return nil } == .string(SamplePayload.imagePath) && json["trip"] != nil, "\(text)")
    }
}
