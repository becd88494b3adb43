import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {}
