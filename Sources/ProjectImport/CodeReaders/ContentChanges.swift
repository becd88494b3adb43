/// What a service extension's code sets on the content it delivers (`bestAttemptContent.title =
/// "\(bestAttemptContent.title) [modified]"`, as Xcode's template does), each with where: as a
/// `set` template of pushpreview.json when the value is made of what the set step has (text,
/// the content's own fields, userInfo values, `??` defaults), else said as not followed.
public struct ContentChange: Sendable, Equatable {
    /// The `set` field it changes: title, subtitle, body, badge, sound, thread-id, category; or
    /// `communication` for a messaging intent donated (`content.updating(from:)`).
    public var field: String
    /// `FILE:LINE` relative to the import's root, and the code as the source spells it (short).
    public var file: String
    public var line: Int
    public var code: String
    /// The Mustache template the set step runs for it; nil when the value cannot be followed.
    public var template: String?
    public var site: String { "\(file):\(line)" }
}

extension ContentChange {
    /// UNMutableNotificationContent's properties → the set step's field names.
    static let fields = ["title": "title", "subtitle": "subtitle", "body": "body", "badge": "badge", "sound": "sound",
                         "threadIdentifier": "thread-id", "categoryIdentifier": "category"]

    static func read(_ facts: [SourceFacts], resolver: CodeResolver) -> [ContentChange] {
        let reads = ContentReads(resolver: resolver)
        var seen = Set<CodeSite>()
        // A messaging intent donated makes a communication notification: never followed (pushpreview.json communication says it).
        let intents = facts.flatMap(\.intentUpdates).filter { seen.insert($0.site).inserted }.map {
            ContentChange(field: "communication", file: $0.site.file, line: $0.site.line, code: CodeValue.call($0).sketch, template: nil)
        }
        return intents + facts.flatMap(\.assignments).compactMap { a in
            guard case .member(let base, let property) = a.target, let field = fields[property], isContent(base), seen.insert(a.site).inserted else { return nil }
            return ContentChange(field: field, file: a.site.file, line: a.site.line, code: "\(a.target.sketch) = \(a.value.sketch)",
                                 template: template(a.value, reads: reads, depth: 0))
        }
    }

    /// `bestAttemptContent`, `self.bestAttemptContent`, `content`, `mutableContent`: the content being delivered.
    static func isContent(_ value: CodeValue) -> Bool {
        guard let last = value.namePath?.path.last?.lowercased() else { return false }
        return last.contains("content") && !last.contains("handler") && !last.contains("view")
    }

    /// The value as a set-step template, or nil.
    static func template(_ value: CodeValue, reads: ContentReads, depth: Int) -> String? {
        guard depth < CodeResolver.maxDepth else { return nil }
        func sub(_ v: CodeValue) -> String? { template(v, reads: reads, depth: depth + 1) }
        switch value {
        case .text(let s): return s.contains("{{") ? nil : s
        case .number(let n): return "\(n)"
        case .member(let base, let field) where isContent(base):
            return ContentReads.contentFields.contains(field) ? "{{\(field)}}" : nil
        // `.default`, `UNNotificationSound.default`, `[UNNotificationSound defaultSound]`.
        case .implicitMember("default"), .member(.name("UNNotificationSound", _), "default"), .member(.name("UNNotificationSound", _), "defaultSound"):
            return "default"
        case .binary("+", let parts):
            let made = parts.map(sub)
            return made.contains(nil) ? nil : made.compactMap { $0 }.joined()
        case .binary("??", let parts) where parts.count == 2:
            guard let path = reads.keyPath(parts[0]), !path.isEmpty, let fallback = sub(parts[1]) else { return nil }
            let key = "userInfo." + path.joined(separator: ".")
            return "{{#\(key)}}{{\(key)}}{{/\(key)}}{{^\(key)}}\(fallback){{/\(key)}}"
        case .call(let call):
            // NSNumber(value: n), UNNotificationSound(named: …), UNNotificationSoundName("x"), @(n): their one value.
            if ["NSNumber", "UNNotificationSound", "UNNotificationSoundName", "numberWithInt", "numberWithInteger", "soundNamed"].contains(call.name ?? ""),
               call.arguments.count == 1 { return sub(call.arguments[0]) }
            // [NSString stringWithFormat:@"%@ [modified]", title]: each %@ (or %d) one argument.
            if call.name == "stringWithFormat" || call.name == "NSString" && call.labels.first == "format", case .text(let format)? = call.arguments.first.flatMap({ reads.resolver.text($0).map(CodeValue.text) }) {
                return formatted(format, Array(call.arguments.dropFirst()), sub)
            }
            return nil
        default:
            if let path = reads.keyPath(value), !path.isEmpty { return "{{userInfo.\(path.joined(separator: "."))}}" }
            return reads.resolver.text(value).flatMap { $0.contains("{{") ? nil : $0 }
        }
    }

    static func formatted(_ format: String, _ arguments: [CodeValue], _ sub: (CodeValue) -> String?) -> String? {
        var out = "", rest = Substring(format), i = 0
        while let percent = rest.firstIndex(of: "%") {
            out += rest[..<percent]
            let after = rest[rest.index(after: percent)...]
            guard let spec = ["@", "d", "i", "ld", "li", "lu", "u", "%"].first(where: { after.hasPrefix($0) }) else { return nil }
            if spec == "%" { out += "%" } else {
                guard i < arguments.count, let v = sub(arguments[i]) else { return nil }
                out += v
                i += 1
            }
            rest = after.dropFirst(spec.count)
        }
        return i == arguments.count ? out + rest : nil
    }
}
