import UIKit
import UserNotifications
import UserNotificationsUI

/// The flight card, laid out in code: no storyboard.
final class FlightViewController: UIViewController, UNNotificationContentExtension {
    private let routeLabel = UILabel()
    private let gateLabel = UILabel()
    private let mapView = UIImageView()
    private let stack = UIStackView()

    override func viewDidLoad() {
        super.viewDidLoad()
        preferredContentSize = CGSize(width: view.bounds.width, height: 240)
        stack.axis = .vertical
        stack.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(stack)
        stack.addArrangedSubview(mapView)
        stack.addArrangedSubview(routeLabel)
        stack.addArrangedSubview(gateLabel)
        NSLayoutConstraint.activate([
            stack.leadingAnchor.constraint(equalTo: view.leadingAnchor, constant: 16),
            stack.trailingAnchor.constraint(equalTo: view.trailingAnchor, constant: -16),
        ])
    }

    func didReceive(_ notification: UNNotification) {
        let content = notification.request.content
        routeLabel.text = content.userInfo["route"] as? String
        if let gate = content.userInfo["gate"] as? Int {
            gateLabel.text = "Gate \(gate)"
        }
        let delayed = content.userInfo["delayed"] as? Bool ?? false
        gateLabel.textColor = delayed ? .systemRed : .label
        if let crew = content.userInfo["crew"] as? [String: Any], let captain = crew["captain"] as? String {
            title = captain
        }
        if let map = content.attachments.first, map.url.startAccessingSecurityScopedResource() {
            mapView.image = UIImage(contentsOfFile: map.url.path)
            map.url.stopAccessingSecurityScopedResource()
        }
    }
}
