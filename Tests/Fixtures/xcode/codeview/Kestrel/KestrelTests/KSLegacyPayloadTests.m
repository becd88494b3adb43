#import <XCTest/XCTest.h>

@interface KSLegacyPayloadTests : XCTestCase
@end

@implementation KSLegacyPayloadTests

- (void)testGateChange {
    NSString *terminal = [self currentTerminal];
    NSDictionary *userInfo = @{
        @"aps": @{@"alert": @{@"title": @"Gate change", @"body": @"KS 311 now boards at D7"}, @"category": @"GATE_CHANGE"},
        @"gate": @7,
        @"closing": @NO,
        @"terminal": terminal,
    };
    XCTAssertNotNil(userInfo);
}

- (NSString *)currentTerminal { return @"2"; }

@end
