#import "NotificationService.h"

@implementation NotificationService

- (void)didReceiveNotificationRequest:(UNNotificationRequest *)request withContentHandler:(void (^)(UNNotificationContent * _Nonnull))contentHandler {
    self.contentHandler = contentHandler;
    self.bestAttemptContent = [request.content mutableCopy];
    NSDictionary *userInfo = request.content.userInfo;
    NSString *imageURL = userInfo[@"image_url"];
    NSDictionary *flight = [userInfo objectForKey:@"flight"];
    NSString *number = flight[@"number"];
    self.bestAttemptContent.title = [NSString stringWithFormat:@"%@ %@", number, self.bestAttemptContent.title];
    [self download:imageURL completion:^(NSURL *file) {
        self.contentHandler(self.bestAttemptContent);
    }];
}

@end
