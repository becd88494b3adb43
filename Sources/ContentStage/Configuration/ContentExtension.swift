import ConfinedFiles
import Diagnostics
import Foundation
import Payload
import Formats

/// One Notification Content Extension, from its Info.plist (reference §5.2): the categories it
/// draws and how the system frames its view.
public struct ContentExtension: Sendable, Equatable {
    public static let pointIdentifier = "com.apple.usernotifications.content-extension"

    public var file: String
    /// Case-sensitive category identifiers this extension owns.
    public var categories: [String]
    /// Height ÷ width of the view before it sizes itself.
    public var initialContentSizeRatio = 1.0
    public var defaultContentHidden = false
    public var overridesDefaultTitle = false
    public var userInteractionEnabled = false

    public static let servicePointIdentifier = "com.apple.usernotifications.service"

    /// Reads an Info.plist (XML or binary). Returns nil when the file is not a content extension's;
    /// every problem is an issue naming the key. A service extension's is recognised: in a slot
    /// that also takes them (`servicesAllowed`) it is no content extension and no problem; in the
    /// content extension's own slot it is an error saying so.
    public static func read(_ url: URL, in folder: ConfinedFolder, servicesAllowed: Bool = false) -> (ContentExtension?, [Diagnostic]) {
        let file = url.path
        let data: [UInt8]
        do { data = try folder.read(url, limit: 1 << 20) } catch {
            if case .tooLarge(let size, _) = error.reason { return (nil, [Diagnostic(.error, code: .path, file: file, "\(size) bytes; an Info.plist over 1 MB is not read")]) }
            return (nil, [Diagnostic(.error, code: .path, file: file, error.isMissing ? "no such file" : error.why)])
        }
        let plist: PropertyListValue
        do { plist = try PropertyList.read(data, file: file) } catch {
            var d = error.diagnostic
            d.message = "not a property list (XML or binary): \(error.message)"
            return (nil, [d])
        }
        return read(root: plist, file: file, servicesAllowed: servicesAllowed)
    }

    /// The same, for an Info.plist already read (`file` names it in the issues).
    public static func read(root plist: PropertyListValue, file: String, servicesAllowed: Bool) -> (ContentExtension?, [Diagnostic]) {
        var issues: [Diagnostic] = []
        func issue(_ s: Diagnostic.Severity, _ key: String, _ m: String) { issues.append(Diagnostic(s, code: .extensionInfo, file: file, keyPath: key, m)) }
        guard let ext = plist["NSExtension"]?.dictionary else {
            return (nil, [Diagnostic(.error, code: .extensionInfo, file: file, keyPath: "NSExtension", "missing: a content extension's Info.plist has an NSExtension dictionary")])
        }
        let point = ext["NSExtensionPointIdentifier"]?.string
        switch point {
        case Self.pointIdentifier: break
        case Self.servicePointIdentifier:
            if servicesAllowed { return (nil, []) }
            return (nil, [Diagnostic(.error, code: .extensionInfo, file: file, keyPath: "NSExtension.NSExtensionPointIdentifier",
                                      "this is a Notification Service Extension's Info.plist (\(Self.servicePointIdentifier)) where the content extension's belongs; put the content extension's here (the service stage needs no Info.plist) or move this one to Extensions/NAME/Info.plist")])
        case "com.apple.usernotifications.content":
            issue(.warning, "NSExtension.NSExtensionPointIdentifier",
                  "\"com.apple.usernotifications.content\" is not an extension point, so iOS never loads this extension (drawn here as if it were right). Use \"\(Self.pointIdentifier)\"")
        default:
            issue(.error, "NSExtension.NSExtensionPointIdentifier", point.map { "\"\($0)\" is not \"\(Self.pointIdentifier)\"" } ?? "missing; set it to \"\(Self.pointIdentifier)\"")
            return (nil, issues)
        }
        let attributesKey = "NSExtension.NSExtensionAttributes"
        guard let attributes = ext["NSExtensionAttributes"]?.dictionary else {
            issue(.error, attributesKey, "missing: it holds UNNotificationExtensionCategory and the view's settings")
            return (nil, issues)
        }
        var result = ContentExtension(file: file, categories: [])
        let categoryKey = "\(attributesKey).UNNotificationExtensionCategory"
        switch attributes["UNNotificationExtensionCategory"] {
        case .string(let s): result.categories = [s]
        case .array(let list):
            for (i, item) in list.enumerated() {
                if let s = item.string { result.categories.append(s) } else { issue(.error, "\(categoryKey)[\(i)]", "expected a string") }
            }
        case nil: issue(.error, categoryKey, "missing (required): the category identifier(s) this extension draws")
        default: issue(.error, categoryKey, "expected a string or an array of strings")
        }
        for c in result.categories where c.trimmed.isEmpty { issue(.error, categoryKey, "an empty category identifier never matches a payload") }
        result.categories = result.categories.filter { !$0.trimmed.isEmpty }
        for (c, n) in Dictionary(result.categories.map { ($0, 1) }, uniquingKeysWith: +) where n > 1 {
            issue(.warning, categoryKey, "\"\(c)\" is listed \(n) times")
        }

        let ratioKey = "\(attributesKey).UNNotificationExtensionInitialContentSizeRatio"
        switch attributes["UNNotificationExtensionInitialContentSizeRatio"] {
        case nil: issue(.error, ratioKey, "missing (required): height ÷ width of the view while it loads, e.g. 0.5; using 1")
        case .bool: issue(.error, ratioKey, "expected a number, got a boolean; using 1")
        case .string(let s):
            if let v = Double(s.trimmed), v >= 0, v <= 10 {
                result.initialContentSizeRatio = v
                issue(.warning, ratioKey, "is a string; make it a Number (real)")
            } else { issue(.error, ratioKey, "\"\(s)\" is not a positive number; using 1") }
        // 0 ships in apps whose views size themselves: no initial box, then the content's height.
        case let number? where number.number != nil:
            let v = number.number!
            if v >= 0, v <= 10 { result.initialContentSizeRatio = v } else { issue(.error, ratioKey, "\(number.integer.map(String.init) ?? "\(v)") is outside 0 ≤ ratio ≤ 10; using 1") }
        default: issue(.error, ratioKey, "expected a number; using 1")
        }
        func flag(_ name: String) -> Bool {
            switch attributes[name] {
            case nil: return false
            case .bool(let b): return b
            case .string(let s) where ["YES", "NO", "true", "false"].contains(s):
                issue(.warning, "\(attributesKey).\(name)", "is a string; make it a Boolean")
                return s == "YES" || s == "true"
            default:
                issue(.error, "\(attributesKey).\(name)", "expected a Boolean; using NO")
                return false
            }
        }
        result.defaultContentHidden = flag("UNNotificationExtensionDefaultContentHidden")
        result.overridesDefaultTitle = flag("UNNotificationExtensionOverridesDefaultTitle")
        result.userInteractionEnabled = flag("UNNotificationExtensionUserInteractionEnabled")
        let known: Set<String> = ["UNNotificationExtensionCategory", "UNNotificationExtensionInitialContentSizeRatio", "UNNotificationExtensionDefaultContentHidden",
                                  "UNNotificationExtensionOverridesDefaultTitle", "UNNotificationExtensionUserInteractionEnabled"]
        for key in attributes.keys.sorted() where !known.contains(key) && key.hasPrefix("UNNotification") {
            issue(.warning, "\(attributesKey).\(key)", "not a content extension attribute iOS knows; check the spelling")
        }
        return (result, issues)
    }
}
