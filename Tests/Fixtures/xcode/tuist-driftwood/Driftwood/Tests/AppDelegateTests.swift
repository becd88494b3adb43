import XCTest

final class AppDelegateTests: XCTestCase {
    func testNothing() {}
}
