#import <Foundation/Foundation.h>
#import <UserNotifications/UserNotifications.h>

NS_ASSUME_NONNULL_BEGIN

@interface LHCategoryRegistrar : NSObject
+ (NSSet<UNNotificationCategory *> *)legacyCategories;
@end

NS_ASSUME_NONNULL_END
