#import "KSGateViewController.h"

static NSString *const KSGateKey = @"gate";

@interface KSGateViewController ()
@property (nonatomic, strong) UILabel *gateLabel;
@property (nonatomic, strong) UILabel *boardingLabel;
@end

@implementation KSGateViewController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.preferredContentSize = CGSizeMake(self.view.bounds.size.width, 180.0f);
    self.gateLabel = [[UILabel alloc] initWithFrame:CGRectZero];
    self.gateLabel.translatesAutoresizingMaskIntoConstraints = NO;
    [self.view addSubview:self.gateLabel];
    self.boardingLabel = [[UILabel alloc] initWithFrame:CGRectZero];
    [self.view addSubview:self.boardingLabel];
    [NSLayoutConstraint activateConstraints:@[
        [self.gateLabel.topAnchor constraintEqualToAnchor:self.view.topAnchor constant:12],
    ]];
}

- (void)didReceiveNotification:(UNNotification *)notification {
    NSDictionary *userInfo = notification.request.content.userInfo;
    NSInteger gate = [userInfo[KSGateKey] integerValue];
    self.gateLabel.text = [NSString stringWithFormat:@"Gate %ld", (long)gate];
    BOOL closing = [[userInfo objectForKey:@"closing"] boolValue];
    self.boardingLabel.text = closing ? @"Gate closing" : [userInfo objectForKey:@"terminal"];
}

@end
