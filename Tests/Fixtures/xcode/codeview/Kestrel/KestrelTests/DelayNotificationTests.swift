import XCTest
@testable import Kestrel

final class DelayNotificationTests: XCTestCase {
    func testDelayIsShown() {
        let userInfo: [AnyHashable: Any] = [
            "aps": [
                "alert": ["title": "KS 204 is delayed", "body": "New departure 18:40"],
                "category": "DELAY",
                "mutable-content": 1,
            ],
            "route": "AMS → LIS", // the card's first line
            "gate": 12,
            "delayed": true,
        ]
        XCTAssertEqual(userInfo["gate"] as? Int, 12)
    }

    func testAStatusWithoutPayload() {
        let status = ["state": "on time"]
        XCTAssertNotNil(status["state"])
    }
}
