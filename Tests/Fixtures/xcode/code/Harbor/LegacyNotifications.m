#import <UserNotifications/UserNotifications.h>
#import "LegacyNotifications.h"

// The flight categories, from before the app moved to Swift.
#define kHarborTripCategory @"TRIP"
static NSString * const kShareAction = @"SHARE";
NSString *const HarborBoardingCategory = @"BOARDING";

@implementation LegacyNotifications

- (void)registerLegacyCategories
{
    UNNotificationAction *checkIn = [UNNotificationAction actionWithIdentifier:@"CHECK_IN"
                                                                         title:NSLocalizedString(@"Check in", @"Action: check in for a flight")
                                                                       options:UNNotificationActionOptionForeground | UNNotificationActionOptionAuthenticationRequired];
    UNNotificationAction *share = [UNNotificationAction actionWithIdentifier:kShareAction
                                                                       title:NSLocalizedStringFromTable(@"share.title", @"Legacy", nil)
                                                                     options:UNNotificationActionOptionNone
                                                                        icon:[UNNotificationActionIcon iconWithSystemImageName:@"square.and.arrow.up"]];
    UNTextInputNotificationAction *note = [UNTextInputNotificationAction actionWithIdentifier:@"NOTE" title:@"Add a note" options:0 textInputButtonTitle:@"Save" textInputPlaceholder:NSLocalizedString(@"note.placeholder", nil)];
    /* A title from a method: nothing to import. */
    UNNotificationAction *seat = [UNNotificationAction actionWithIdentifier:@"SEAT" title:[HarborStrings seatTitle] options:UNNotificationActionOptionNone];

    UNNotificationCategory *boarding = [UNNotificationCategory categoryWithIdentifier:HarborBoardingCategory
                                                                              actions:@[checkIn, share, note, seat]
                                                                    intentIdentifiers:@[]
                                                                              options:UNNotificationCategoryOptionCustomDismissAction | UNNotificationCategoryOptionAllowInCarPlay];
    NSMutableSet<UNNotificationCategory *> *categories = [NSMutableSet new];
    [categories addObject:boarding];
    // The trip category is made in Swift as well; this one adds the share action to it.
    [categories addObject:[UNNotificationCategory categoryWithIdentifier:kHarborTripCategory actions:@[share] intentIdentifiers:@[] options:UNNotificationCategoryOptionNone]];
    [[UNUserNotificationCenter currentNotificationCenter] setNotificationCategories:categories];
}

@end
