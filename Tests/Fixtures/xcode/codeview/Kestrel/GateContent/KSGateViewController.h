#import <UIKit/UIKit.h>
#import <UserNotificationsUI/UserNotificationsUI.h>

@interface KSGateViewController : UIViewController <UNNotificationContentExtension>
@end
