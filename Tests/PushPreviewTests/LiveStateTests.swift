@testable import PushPreview
import ContentStage
import Styling
import Testing

/// `serve`'s live state as a value: events in, actions out, no threads or files.
@Suite struct LiveStateTests {
    typealias Card = LiveState.CardKey

    @Test func editsComeBeforePushesAndAreTakenOnce() {
        var state = LiveState()
        #expect(state.next() == nil)
        state.pushTaken()
        state.edited(["/p/Templates/a.html"])
        state.edited(["/p/Templates/b.html"])
        #expect(state.pushesShouldYield)
        #expect(state.next() == .edits(["/p/Templates/a.html", "/p/Templates/b.html"]))
        #expect(!state.pushesShouldYield)
        #expect(state.next() == .pushes)
        #expect(state.next() == nil)
        state.edited(["/p/x"])
        state.stop()
        #expect(state.next() == .stop)
        #expect(state.next() == .stop)
    }

    @Test func theCardsInViewGoFirstNewestTold() {
        var state = LiveState()
        let a = Card(payload: "payloads/a.apns", device: "iphone-15", appearance: .dark, locale: "nl")
        let b = Card(payload: "payloads/b.apns", device: "iphone-15", appearance: .light)
        let c = Card(payload: "payloads/a.apns", device: "ipad", appearance: .light, locale: "en")
        state.viewed([a, b, a])
        #expect(state.viewing == [a, b])
        state.viewed([c])
        #expect(state.viewing == [c, a, b])
        // Only the cards of payloads the edit touches, at most one per lane.
        #expect(state.first(among: ["payloads/a.apns"], limit: 4) == [c, a])
        #expect(state.first(among: ["payloads/a.apns"], limit: 1) == [c])
        #expect(state.first(among: ["payloads/z.apns"], limit: 4).isEmpty)
        #expect(state.first(among: nil, limit: 2) == [c, a])
        // A page tells a screenful at most.
        state.viewed((0..<100).map { Card(payload: "payloads/\($0).apns", device: "d", appearance: .light) })
        #expect(state.viewing.count == LiveState.maxViewing)
        #expect(state.viewing.first?.payload == "payloads/0.apns")
    }

    @Test func cardIdsAreWhatThePageSays() {
        let card = Card(id: "payloads/a.apns|iphone-15|dark|nl|large|26|clear")
        #expect(card == Card(payload: "payloads/a.apns", device: "iphone-15", appearance: .dark, locale: "nl"))
        #expect(card?.id == "payloads/a.apns|iphone-15|dark|nl|large|26|clear")
        // A payload's name may hold '|': the variant is the last six parts.
        #expect(Card(id: "payloads/a|b.apns|ipad|light||large|18|clear")?.payload == "payloads/a|b.apns")
        #expect(Card(id: "payloads/a.apns|iphone-15") == nil)
        #expect(Card(id: "|iphone-15|dark||large|26|clear") == nil)
        #expect(Card(id: "a|b|dim|d|large|26|clear") == nil)
        #expect(Card(id: "a|b|dark|d|huge|26|clear") == nil)
    }

    @Test func aPictureChangesWhenItsStampDoes() {
        var state = LiveState()
        #expect(state.drawn(["a/y.png": "1.0-20", "a/x.png": "1.0-10"]) == ["a/x.png", "a/y.png"])
        let before = state.versions["a/x.png"]
        #expect(before != nil && before != state.versions["a/y.png"])
        // Drawn again to the same bytes: the writer left the file, so its stamp is the same.
        #expect(state.drawn(["a/x.png": "1.0-10"]).isEmpty)
        // Changed: a new version; the one before is remembered only where its file was kept.
        #expect(state.drawn(["a/y.png": "2.0-20", "a/x.png": "2.0-11"], kept: ["a/x.png"]) == ["a/x.png", "a/y.png"])
        #expect(state.versions["a/x.png"] != before)
        #expect(state.versions["a/x.png"] == LiveState.version(of: "2.0-11"))
        #expect(state.previous == ["a/x.png": before!])
        state.keepOnly(["a/y.png"])
        #expect(state.pictures.keys.sorted() == ["a/y.png"] && state.previous.isEmpty)
    }

    @Test func anApprovalHoldsWhileThePicturesAreTheSame() {
        var approvals = Approvals()
        let id = "payloads/a.apns|iphone-15|light|en|"
        #expect(approvals.state(of: id, hashes: ["a/x.png": "1"]) == nil)
        approvals.cards[id] = ["a/x.png": "1", "a/y.png": "2"]
        #expect(approvals.state(of: id, hashes: ["a/y.png": "2", "a/x.png": "1"]) == .approved)
        #expect(approvals.state(of: id, hashes: ["a/x.png": "1", "a/y.png": "3"]) == .changed)
        #expect(approvals.state(of: id, hashes: ["a/x.png": "1"]) == .changed)
    }
}

extension LiveState.CardKey {
    init(payload: String, device: String, appearance: Appearance, locale: String? = nil, ios: IOSVersion = .ios26) {
        self.init(payload: payload, variant: Variant(device: device, appearance: appearance, locale: locale, textSize: .standard, ios: ios))
    }
}
