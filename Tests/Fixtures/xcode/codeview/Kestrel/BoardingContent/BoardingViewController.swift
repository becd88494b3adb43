import SwiftUI
import UIKit
import UserNotifications
import UserNotificationsUI

struct BoardingPass: View {
    var seat: String
    var body: some View { Text(seat).font(.largeTitle) }
}

final class BoardingViewController: UIViewController, UNNotificationContentExtension {
    private var host: UIHostingController<BoardingPass>?

    func didReceive(_ notification: UNNotification) {
        let seat = notification.request.content.userInfo["seat"] as? String ?? "—"
        let host = UIHostingController(rootView: BoardingPass(seat: seat))
        addChild(host)
        view.addSubview(host.view)
        host.view.frame = view.bounds
        host.didMove(toParent: self)
        self.host = host
    }
}
