import ConfinedFiles
import Diagnostics
import Foundation
import Payload
import Formats

/// What the content extension's view controller would decide in code, per category, set in
/// `pushpreview.json` → `"categories": {"ID": {...}}`.
public struct CategoryViewSettings: Sendable, Equatable {
    public enum MediaButton: String, Sendable, CaseIterable { case none, `default`, overlay }
    public var mediaPlayPauseButtonType = MediaButton.none
    /// x, y, width, height in the custom view's points; x or y may be "center" (the extension
    /// computes its frame from the view's bounds, which differ per device).
    public var mediaPlayPauseButtonFrame: [FrameValue]?
    public enum FrameValue: Sendable, Equatable { case points(Double), center }
    /// A CSS colour; the system's when absent.
    public var mediaPlayPauseButtonTintColor: String?
    /// The view controller's `title`, a Mustache template over the template data; shown in the
    /// header when the extension sets UNNotificationExtensionOverridesDefaultTitle.
    public var title: String?
    /// Actions the payload brings, as an extension setting `extensionContext.notificationActions`
    /// from it: the key path of an array of actions, and the payload's names for their fields.
    public var actionsFrom: String?
    public var actionFields: [String: String] = [:]
    public init() {}
    /// The keys read from `categories.ID` (any other is warned of).
    public static let settingKeys = ["mediaPlayPauseButtonType", "mediaPlayPauseButtonFrame", "mediaPlayPauseButtonTintColor", "title", "actionsFrom", "actionFields"]
}

/// A project's content extensions (`Info.plist`, `Extensions/*/Info.plist`), its categories
/// (`categories.json`) and the per-category view settings, with every problem found.
public struct ContentConfiguration: Sendable {
    public var extensions: [ContentExtension] = []
    public var categories: [NotificationCategory] = []
    public var viewSettings: [String: CategoryViewSettings] = [:]
    public var issues: [Diagnostic] = []

    public init() {}

    /// An extension's Info.plist already read (an Xcode target's, as its build makes it).
    public struct InfoPlist {
        public var file: String
        public var root: PropertyListValue
        public init(file: String, root: PropertyListValue) { self.file = file; self.root = root }
    }

    /// `extensionPlists`: content extensions read elsewhere (an Xcode app's), after the folder's own.
    public init(project: ConfinedFolder, settings: JSONValue?, settingsFile: String, extensionPlists: [InfoPlist] = []) {
        let projectFolder = project.url
        var plists = [projectFolder.appendingPathComponent("Info.plist")].filter { project.kind($0) != nil || project.isLink("Info.plist") }
        let extensionsDir = projectFolder.appendingPathComponent("Extensions")
        for name in (try? project.names("Extensions")) ?? [] {
            let plist = extensionsDir.appendingPathComponent(name).appendingPathComponent("Info.plist")
            if project.kind(plist) != nil || project.isLink("Extensions/\(name)/Info.plist") { plists.append(plist) }
        }
        // Extensions/NAME/ holds any of the app's extensions, a service extension's too.
        let read = plists.map { ContentExtension.read($0, in: project, servicesAllowed: $0.deletingLastPathComponent().deletingLastPathComponent() == extensionsDir) }
            + extensionPlists.map { ContentExtension.read(root: $0.root, file: $0.file, servicesAllowed: true) }
        var owner: [String: String] = [:]
        for (found, foundIssues) in read {
            issues += foundIssues
            guard var ext = found else { continue }
            ext.categories = ext.categories.filter { category in
                if let first = owner[category] {
                    issues.append(Diagnostic(.error, code: .extensionInfo, file: ext.file, keyPath: "NSExtension.NSExtensionAttributes.UNNotificationExtensionCategory",
                                              "\"\(category)\" is already claimed by \(first); each category belongs to one extension"))
                    return false
                }
                owner[category] = ext.file
                return true
            }
            extensions.append(ext)
        }
        let categoriesFile = projectFolder.appendingPathComponent("categories.json")
        if project.kind(categoriesFile) != nil || project.isLink("categories.json") {
            let (list, found) = NotificationCategory.read(categoriesFile, in: project)
            categories = list
            issues += found
        }
        if let settings { readViewSettings(settings, file: settingsFile) }
        // The title such a view controller sets is code we cannot run: said on its mock-ups.
        for ext in extensions where ext.overridesDefaultTitle {
            for id in ext.categories where viewSettings[id]?.title == nil {
                issues.append(Diagnostic(.warning, code: .categoryTitle, file: ext.file, keyPath: "NSExtension.NSExtensionAttributes.UNNotificationExtensionOverridesDefaultTitle",
                                         "YES but pushpreview.json sets no categories.\(id).title; the header shows the app name", category: id))
            }
        }
    }

    /// The extension that draws `category`, if one claims it (case-sensitive, as iOS matches).
    public func contentExtension(for category: String?) -> ContentExtension? {
        guard let category else { return nil }
        return extensions.first { $0.categories.contains(category) }
    }

    public func category(_ id: String?) -> NotificationCategory? {
        guard let id else { return nil }
        return categories.first { $0.identifier == id }
    }

    private mutating func readViewSettings(_ json: JSONValue, file: String) {
        guard let value = json["categories"] else { return }
        guard case .object(let members) = value else {
            issues.append(Diagnostic(.error, code: .categories, file: file, keyPath: "categories", "expected an object: category id → view settings"))
            return
        }
        for (id, entry) in members {
            let at = "categories.\(id)"
            let first = issues.count
            defer { for j in first..<issues.count { issues[j].category = id } }
            func issue(_ key: String, _ m: String) { issues.append(Diagnostic(.error, code: .categories, file: file, keyPath: "\(at).\(key)", m)) }
            guard case .object(let keys) = entry else { issues.append(Diagnostic(.error, code: .categories, file: file, keyPath: at, "expected an object")); continue }
            var s = CategoryViewSettings()
            for (key, v) in keys {
                switch key {
                case "mediaPlayPauseButtonType":
                    if let t = v.string.flatMap(CategoryViewSettings.MediaButton.init(rawValue:)) { s.mediaPlayPauseButtonType = t }
                    else { issue(key, "\(v.compact) is not one of none, default, overlay") }
                case "mediaPlayPauseButtonFrame":
                    let values: [CategoryViewSettings.FrameValue]? = {
                        guard case .array(let n) = v, n.count == 4 else { return nil }
                        let out = n.enumerated().compactMap { i, item -> CategoryViewSettings.FrameValue? in
                            if let d = item.number, i < 2 || d > 0 { return .points(d) }
                            return i < 2 && item.string == "center" ? .center : nil
                        }
                        return out.count == 4 ? out : nil
                    }()
                    if let values { s.mediaPlayPauseButtonFrame = values }
                    else { issue(key, "expected [x, y, width, height] in points (x and y may be \"center\"), with a non-empty size") }
                case "mediaPlayPauseButtonTintColor":
                    if let c = v.string { s.mediaPlayPauseButtonTintColor = c } else { issue(key, "expected a CSS colour string") }
                case "title":
                    if let t = v.string { s.title = t } else { issue(key, "expected a string (Mustache over the template data)") }
                case "actionsFrom":
                    if let t = v.string, !t.isEmpty { s.actionsFrom = t } else { issue(key, "expected the key path of the payload's array of actions") }
                case "actionFields":
                    for (field, name) in v.objectMembers {
                        guard NotificationAction.fieldNames.contains(field) else { issue("\(key).\(field)", "not an action field; one of \(NotificationAction.fieldNames.joined(separator: ", "))"); continue }
                        if let n = name.string, !n.isEmpty { s.actionFields[field] = n } else { issue("\(key).\(field)", "expected the payload's name for the field") }
                    }
                    if case .object = v {} else { issue(key, "expected an object: field → the payload's name for it") }
                default:
                    issues.append(Diagnostic(.warning, code: .categories, file: file, keyPath: "\(at).\(key)", "unknown key, ignored"))
                }
            }
            if s.mediaPlayPauseButtonType != .none && s.mediaPlayPauseButtonFrame == nil {
                issues.append(Diagnostic(.warning, code: .categories, file: file, keyPath: at, "mediaPlayPauseButtonType without mediaPlayPauseButtonFrame: iOS draws no button"))
            }
            viewSettings[id] = s
        }
    }
}
