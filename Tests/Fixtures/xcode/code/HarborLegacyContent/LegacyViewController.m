#import "LegacyViewController.h"

@implementation LegacyViewController

- (void)didReceiveNotification:(UNNotification *)notification {
    self.routeLabel.text = notification.request.content.subtitle;
    _detailLabel.text = notification.request.content.userInfo[@"detail"];
}

@end
