#import "LHCategoryRegistrar.h"

static NSString *const LHFerryCategory = @"FERRY_DELAY";
#define LHRebookAction @"REBOOK"

@implementation LHCategoryRegistrar

+ (NSSet<UNNotificationCategory *> *)legacyCategories {
    UNNotificationAction *rebook = [UNNotificationAction actionWithIdentifier:LHRebookAction
                                                                        title:NSLocalizedString(@"action.rebook", @"Book a later ferry")
                                                                      options:UNNotificationActionOptionForeground];
    UNNotificationAction *cancel = [UNNotificationAction actionWithIdentifier:@"CANCEL_TRIP"
                                                                        title:@"Cancel trip"
                                                                      options:UNNotificationActionOptionDestructive | UNNotificationActionOptionAuthenticationRequired];
    UNNotificationCategory *ferry = [UNNotificationCategory categoryWithIdentifier:LHFerryCategory
                                                                           actions:@[rebook, cancel]
                                                                 intentIdentifiers:@[]
                                                                           options:UNNotificationCategoryOptionNone];
    return [NSSet setWithObject:ferry];
}

@end
