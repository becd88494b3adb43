/// Follows names through every file's bindings: `ActionID.reply.rawValue` to `"REPLY"`, `reply`
/// (a local) to its `UNTextInputNotificationAction(…)`, `kCategory` (a `#define`) to its string,
/// and reads what a value means as a text, a localized key or a list.
struct CodeResolver {
    /// The first binding of each path, in the order the files were read.
    private var bindings: [[String]: CodeValue] = [:]
    /// Paths by their last name, for `Type.member` where the type is nested or extended elsewhere.
    private var pathsByLastName: [String: [[String]]] = [:]
    private var appends: [[String]: [SourceFacts.Append]] = [:]
    static let maxDepth = 24

    /// The SDK's own action identifiers, which an app may give an action.
    static let sdkStrings = [
        "UNNotificationDefaultActionIdentifier": "com.apple.UNNotificationDefaultActionIdentifier",
        "UNNotificationDismissActionIdentifier": "com.apple.UNNotificationDismissActionIdentifier",
    ]

    init(_ facts: [SourceFacts]) {
        for f in facts {
            for b in f.bindings where bindings[b.path] == nil {
                bindings[b.path] = b.value
                pathsByLastName[b.path.last ?? "", default: []].append(b.path)
            }
        }
        for f in facts {
            for a in f.appends { if let path = bindingPath(of: a.list) { appends[path, default: []].append(a) } }
        }
    }

    /// Whether some file binds `name` (as a variable, constant, case or member).
    func binds(_ name: String) -> Bool { pathsByLastName[name] != nil }

    /// Where a name or `a.b.c` is bound: looked up from the innermost enclosing scope outwards,
    /// then, for `Type.member`, in whatever type of that name declares it.
    func bindingPath(of value: CodeValue, depth: Int = 0) -> [String]? {
        var target = value
        if case .call(let c) = value, c.arguments.isEmpty, let p = c.callee.namePath, let last = p.path.last {
            // `makeCategory()` / `Foo.make()`: a function without arguments that returns one value.
            target = p.path.dropLast().reduce(nil as CodeValue?) { base, n in base.map { .member($0, n) } ?? .name(n, scope: p.scope) }
                .map { .member($0, last + "()") } ?? .name(last + "()", scope: p.scope)
        }
        guard let (fullPath, scope) = target.namePath else { return nil }
        var path = fullPath
        if ["self", "Self", "super"].contains(path.first) { path.removeFirst() }
        guard !path.isEmpty else { return nil }
        for k in stride(from: scope.count, through: 0, by: -1) {
            let key = Array(scope.prefix(k)) + path
            if bindings[key] != nil { return key }
        }
        guard path.count >= 2 else { return nil }
        if let typed = pathsByLastName[path.last!]?.first(where: { $0.count > path.count && Array($0.suffix(path.count)) == path }) { return typed }
        return instanceProperty(value, depth: depth)
    }

    /// `payload.iconURL` where `payload` is `PushPayload(…)`: what the type binds `iconURL` to —
    /// a property with a value, a getter, or what its `init` assigns (a helper type of the app's
    /// that reads userInfo for the extension).
    private func instanceProperty(_ value: CodeValue, depth: Int) -> [String]? {
        guard depth < Self.maxDepth, case .member(let base, let property) = value, case .call(let made) = resolve(base, depth: depth + 1),
              let type = made.name, type.first?.isUppercase == true else { return nil }
        return pathsByLastName[property]?.first { p in
            let owner = p.dropLast()
            return owner.last == type || (owner.last?.hasPrefix("init") == true && owner.dropLast().last == type)
        }
    }

    /// `value` with its names followed to what they are bound to, as far as they go.
    func resolve(_ value: CodeValue, depth: Int = 0) -> CodeValue {
        guard depth < Self.maxDepth else { return value }
        switch value {
        case .member(let base, "rawValue"):
            return resolve(base, depth: depth + 1)
        case .name, .member, .call:
            if let path = bindingPath(of: value, depth: depth), let bound = bindings[path] { return resolve(bound, depth: depth + 1) }
            if case .member(let base, let m) = value {
                let resolvedBase = resolve(base, depth: depth + 1)
                if case .text = resolvedBase { return .member(resolvedBase, m) }
            }
            return value
        default:
            return value
        }
    }

    /// The string `value` is: a literal, a constant holding one, `+` of such, an SDK identifier.
    func text(_ value: CodeValue?) -> String? {
        guard let value else { return nil }
        switch resolve(value) {
        case .text(let s): return s
        case .binary("+", let parts):
            let texts = parts.compactMap(text)
            return texts.count == parts.count ? texts.joined() : nil
        case .name(let n, _): return Self.sdkStrings[n]
        case .call(let c) where c.name == "AnyHashable" && c.arguments.count == 1: return text(c.arguments[0])
        default: return nil
        }
    }

    /// A text the code gives: a literal, or a key looked up in a strings table (`NSLocalizedString`,
    /// `String(localized:)`, `localizedUserNotificationString(forKey:)`, `Bundle.localizedString`,
    /// SwiftGen's `L10n.tr(table, key)`, the common `"key".localized`); nil for anything else.
    func importedText(_ value: CodeValue?) -> ImportedText? {
        guard let value else { return nil }
        if let s = text(value) { return .literal(s) }
        func key(_ k: CodeValue?, table: CodeValue? = nil, fallback: CodeValue? = nil) -> ImportedText? {
            guard let k = text(k) else { return nil }
            let t = text(table).flatMap { $0.isEmpty ? nil : $0 } ?? "Localizable"
            return .localized(key: k, table: t, default: text(fallback).flatMap { $0.isEmpty ? nil : $0 })
        }
        switch resolve(value) {
        case .member(let base, "localized"), .member(let base, "localizedString"):
            return key(base)
        case .call(let c):
            let a = c.arguments
            switch c.name {
            case "NSLocalizedString": return key(a.first, table: c["tableName"], fallback: c["value"])
            case "NSLocalizedStringFromTable", "NSLocalizedStringFromTableInBundle": return a.count >= 2 ? key(a[0], table: a[1]) : nil
            case "NSLocalizedStringWithDefaultValue": return a.count >= 4 ? key(a[0], table: a[1], fallback: a[3]) : nil
            case "String" where c.labels.first == "localized": return key(a.first, table: c["table"], fallback: c["defaultValue"])
            case "localizedUserNotificationString", "localizedString": return key(c["forKey"], table: c["table"], fallback: c["value"])
            case "localizedUserNotificationStringForKey", "localizedStringForKey": return key(a.first, table: c["table"], fallback: c["value"])
            case "tr" where a.count >= 2: return key(a[1], table: a[0], fallback: c["fallback"])
            case "localized" where a.isEmpty:
                if case .member(let base, _) = c.callee { return key(base) }
                return nil
            default: return nil
            }
        default: return nil
        }
    }

    /// The elements of an array or set: `[a, b]`, `Set([a])`, `[NSSet setWithObjects:a, b, nil]`,
    /// a variable holding one, with what is appended to that variable; nil when it is not one.
    func list(_ value: CodeValue?, depth: Int = 0) -> [CodeValue]? {
        guard let value, depth < Self.maxDepth else { return nil }
        var items: [CodeValue]
        switch resolve(value) {
        case .array(let elements): items = elements
        case .call(let c) where ["Set", "Array", "NSSet", "NSMutableSet", "NSArray", "NSMutableArray"].contains(c.name):
            if c.arguments.isEmpty || c.labels.first == "capacity" { items = [] } else if ["objects", "object", "arrayLiteral"].contains(c.labels.first) { items = c.arguments } else {
                guard let inner = list(c.arguments[0], depth: depth + 1) else { return nil }
                items = inner
            }
        case .binary("+", let parts):
            let lists = parts.compactMap { list($0, depth: depth + 1) }
            guard lists.count == parts.count else { return nil }
            items = lists.flatMap { $0 }
        default: return nil
        }
        if let path = bindingPath(of: value) {
            for a in appends[path] ?? [] {
                if a.isList { items += list(a.element, depth: depth + 1) ?? [] } else { items.append(a.element) }
            }
        }
        return items
    }

    /// The value a name is bound to, one step (a `let aps = userInfo["aps"]` to its subscript).
    func bound(_ value: CodeValue) -> CodeValue? { bindingPath(of: value).flatMap { bindings[$0] } }
}
