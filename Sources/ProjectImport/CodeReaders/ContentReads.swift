/// What extension code reads from a notification: the userInfo keys (for sample payloads) and
/// which content field each outlet is set from (for a content extension's template).
struct ContentReads {
    let resolver: CodeResolver
    static let contentFields: Set<String> = ["title", "subtitle", "body"]
    static let outletProperties: Set<String> = ["text", "attributedText", "image"]

    /// The key paths of the subscripts that read userInfo: `userInfo["k"]`, `content.userInfo["a"]`
    /// then `["b"]` on what it gave (directly, or through a `let`), `[userInfo objectForKey:@"k"]`.
    func userInfoKeys(_ subscripts: [CodeValue]) -> [String] {
        let paths = Set(subscripts.compactMap { keyPath($0).flatMap { $0.isEmpty ? nil : $0.joined(separator: ".") } })
        return paths.filter { p in !paths.contains { $0.hasPrefix(p + ".") } }.sorted()
    }

    /// `[]` for userInfo itself, the keys down to `value` for a read from it; nil for anything else.
    func keyPath(_ value: CodeValue, depth: Int = 0) -> [String]? {
        guard depth < CodeResolver.maxDepth else { return nil }
        switch value {
        case .subscripted(let base, let key):
            guard let k = resolver.text(key), let p = keyPath(base, depth: depth + 1) else { return nil }
            return p + [k]
        case .member(_, "userInfo"): return []
        case .binary("??", let operands): return operands.first.flatMap { keyPath($0, depth: depth + 1) }
        case .name, .member:
            if let bound = resolver.bound(value) { return keyPath(bound, depth: depth + 1) }
            if case .name("userInfo", _) = value { return [] }
            return nil
        default: return nil
        }
    }

    /// `self.label.text = notification.request.content.body` → `label: body`;
    /// `label.text = content.userInfo["x"] as? String` → `label: userInfo.x`; an image view's
    /// `image` set from anything made from `content.attachments` → `attachment.url`. An outlet set
    /// from two fields keeps the first, and that is a problem.
    func outletBindings(_ assignments: [SourceFacts.Assignment]) -> ([String: String], [String]) {
        var bindings: [String: String] = [:], problems: [String] = []
        for a in assignments {
            guard case .member(let owner, let property) = a.target, Self.outletProperties.contains(property), let outlet = outletName(owner) else { continue }
            let path: String?
            if property == "image" {
                path = mentionsAttachment(a.value) ? "attachment.url" : nil
            } else if let field = contentField(a.value) {
                path = field
            } else {
                path = keyPath(a.value).flatMap { $0.isEmpty ? nil : "userInfo." + $0.joined(separator: ".") }
            }
            guard let path else { continue }
            if let first = bindings[outlet], first != path {
                problems.append("\(a.site): outlet \(outlet) is set from \(path) here and from \(first) before; it is bound to \(first)")
            } else {
                bindings[outlet] = path
            }
        }
        return (bindings, problems)
    }

    /// `label`, `self.label`, `_label` (an Objective-C property's instance variable).
    private func outletName(_ owner: CodeValue) -> String? {
        switch owner {
        case .name(let n, _) where n != "self": return n.hasPrefix("_") ? String(n.dropFirst()) : n
        case .member(.name("self", _), let n): return n
        default: return nil
        }
    }

    /// `title`, `subtitle` or `body` when `value` is that field of a notification's content.
    private func contentField(_ value: CodeValue) -> String? {
        var v = resolver.resolve(value)
        if case .binary("??", let operands) = v, let first = operands.first { v = resolver.resolve(first) }
        guard case .member(let base, let field) = v, Self.contentFields.contains(field) else { return nil }
        switch resolver.resolve(base) {
        case .member(_, "content"), .name("content", _): return field
        default: return nil
        }
    }

    /// Whether `value` is made from an attachment: it uses `.attachments`, or a name bound to
    /// something that does, or a name that says it is one (a parameter `attachment`).
    private func mentionsAttachment(_ value: CodeValue, depth: Int = 0) -> Bool {
        guard depth < 12 else { return false }
        switch value {
        case .member(_, "attachments"): return true
        case .name(let n, _):
            if let bound = resolver.bound(value) { return mentionsAttachment(bound, depth: depth + 1) }
            return n.lowercased().contains("attachment")
        case .member(let base, _):
            if let bound = resolver.bound(value) { return mentionsAttachment(bound, depth: depth + 1) }
            return mentionsAttachment(base, depth: depth + 1)
        case .call(let c): return mentionsAttachment(c.callee, depth: depth + 1) || c.arguments.contains { mentionsAttachment($0, depth: depth + 1) }
        case .subscripted(let base, let key): return mentionsAttachment(base, depth: depth + 1) || mentionsAttachment(key, depth: depth + 1)
        case .array(let items), .binary(_, let items), .closure(let items): return items.contains { mentionsAttachment($0, depth: depth + 1) }
        case .text, .number, .null, .implicitMember, .opaque: return false
        }
    }
}
