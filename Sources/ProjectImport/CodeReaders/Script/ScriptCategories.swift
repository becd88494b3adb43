import Checked
import ConfinedFiles
import Foundation
import Payload
import Formats

/// The categories React Native, Capacitor, Expo and Flutter apps register through their
/// notification libraries, as the `UNNotificationCategory`/`UNNotificationAction` constructions
/// each library makes of its arguments (per the libraries' own native code; notes/xplat/APIS.md),
/// so that `CategoryBuilder` reads them as it reads Swift's. Each keeps the library call's file and
/// line; what the library would drop or cannot be followed is a problem there.
struct ScriptCategories {
    let resolver: CodeResolver
    private(set) var constructions: [CodeCall] = []
    private(set) var problems: [String] = []

    init(resolver: CodeResolver) { self.resolver = resolver }

    private mutating func problem(_ site: CodeSite, _ message: String) { problems.append("\(site): \(message)") }

    /// An object literal's field (`{id: 'x'}` → `'x'`), following names to the object.
    private func field(_ object: CodeValue?, _ key: String) -> CodeValue? {
        guard let object, case .call(let c) = resolver.resolve(object), case .name("{}", _) = c.callee else { return nil }
        return c[key]
    }
    private func isObject(_ v: CodeValue) -> Bool { if case .call(let c) = resolver.resolve(v), case .name("{}", _) = c.callee { return true }; return false }
    private func isTrue(_ v: CodeValue?) -> Bool { if let v, case .name("true", _) = resolver.resolve(v) { return true }; return false }
    private func site(of v: CodeValue, or fallback: CodeSite) -> CodeSite { if case .call(let c) = resolver.resolve(v) { return c.site }; return fallback }

    private func unCategory(_ id: CodeValue, actions: [CodeValue], options: [String], extra: [(String, CodeValue)] = [], at site: CodeSite) -> CodeCall {
        CodeCall(callee: .name("UNNotificationCategory", scope: []), labels: ["identifier", "actions", "intentIdentifiers", "options"] + extra.map(\.0),
                 arguments: [id, .array(actions), .array([]), .array(options.map(CodeValue.implicitMember))] + extra.map(\.1), site: site)
    }

    /// A text through the app's JS translations: `I18n.t('Reply')` (i18n-js, i18next) gives its key,
    /// react-intl's `formatMessage({id, defaultMessage})` its default message, each said.
    private mutating func translated(_ v: CodeValue?, at site: CodeSite) -> CodeValue? {
        guard let v else { return nil }
        let resolved = resolver.resolve(v)
        // Flutter's generated localizations: `l10n.accept`, `AppLocalizations.of(context).accept`, read from the template ARB file.
        if case .member(let base, let key) = resolved, base.uses("l10n") || base.uses("AppLocalizations") || base.uses("S") || base.uses("loc") {
            if let text = arb?.table[key] {
                problem(site, "`\(v.sketch)` is a Flutter localization; its text in \(arb!.file) (\"\(text)\") is used (other locales' .arb files are not read)")
                return .text(text)
            }
            return v
        }
        guard case .call(let c) = resolved else { return v }
        // react-intl: `formatMessage({id, defaultMessage})`, or a helper given `messages.x.id`.
        for a in c.arguments {
            var message = a
            if case .member(let base, "id") = a { message = base }
            if let d = field(message, "defaultMessage"), let text = resolver.text(d) {
                problem(site, "`\(v.sketch)` is a react-intl message; its default message \"\(text)\" is used (other locales come from the app's own JSON, not read)")
                return .text(text)
            }
        }
        if ["t", "translate", "tr"].contains(c.name), let key = resolver.text(c.arguments.first) {
            problem(site, "`\(v.sketch)` is looked up in the app's JavaScript translations at run time; its key \"\(key)\" stands in for the text (edit categories.json for another locale)")
            return .text(key)
        }
        return v
    }

    /// A Flutter app's template ARB file (l10n.yaml's `arb-dir`/`template-arb-file`, else lib/l10n/app_en.arb): key → text.
    var arb: (file: String, table: [String: String])?

    static func readARB(root: URL, in repository: Repository) -> (file: String, table: [String: String])? {
        var dir = "lib/l10n", template = "app_en.arb"
        if let yaml = repository.contents(root.appendingPathComponent("l10n.yaml"), limit: 1 << 16) {
            for line in String(decoding: yaml, as: UTF8.self).split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { continue }
                if parts[0] == "arb-dir" { dir = parts[1] }
                if parts[0] == "template-arb-file" { template = parts[1] }
            }
        }
        let file = "\(dir)/\(template)"
        guard let bytes = repository.contents(root.appendingPathComponent(file), limit: 8 << 20), case .object(let pairs)? = try? JSONParser.parse(bytes, file: file) else { return nil }
        var table: [String: String] = [:]
        for (k, v) in pairs where !k.hasPrefix("@") { if let s = v.string { table[k] = s } }
        return (file, table)
    }

    private mutating func unAction(_ id: CodeValue, title: CodeValue, options: [String], textInput: (button: CodeValue?, placeholder: CodeValue?)?, at site: CodeSite) -> CodeValue {
        let title = translated(title, at: site) ?? title
        let textInput = textInput.map { (button: translated($0.button, at: site), placeholder: translated($0.placeholder, at: site)) }
        var labels = ["identifier", "title", "options"], args: [CodeValue] = [id, title, .array(options.map(CodeValue.implicitMember))]
        if let textInput {
            labels += ["textInputButtonTitle", "textInputPlaceholder"]
            args += [textInput.button ?? .null, textInput.placeholder ?? .null]
        }
        return .call(CodeCall(callee: .name(textInput == nil ? "UNNotificationAction" : "UNTextInputNotificationAction", scope: []), labels: labels, arguments: args, site: site))
    }

    /// The names of `flags` (option name → key) that are true in `object`.
    private func flags(_ object: CodeValue?, _ table: [(String, String)]) -> [String] { table.filter { isTrue(field(object, $0.1)) }.map(\.0) }

    private mutating func items(_ value: CodeValue?, _ what: String, at site: CodeSite) -> [CodeValue] {
        guard let value else { problem(site, "\(what) is not given; nothing is imported from this call"); return [] }
        guard let list = resolver.list(value) else {
            problem(site, "\(what), `\(value.sketch)`, is not a list the importer can follow (made at run time?); add its categories to categories.json")
            return []
        }
        return list
    }

    /// Reads one library call.
    mutating func read(_ call: CodeCall) {
        switch call.name {
        case "setNotificationCategoryAsync": expo(call)
        case "setCategories": reactNativeNotifications(call)
        case "setNotificationCategories": notifee(call)
        case "registerActionTypes": capacitor(call)
        case "DarwinNotificationCategory": flutter(call)
        default: break
        }
    }

    /// expo-notifications: `setNotificationCategoryAsync(id, [{identifier, buttonTitle, options, textInput}], options)`.
    private mutating func expo(_ call: CodeCall) {
        guard let id = call.arguments.first else { problem(call.site, "setNotificationCategoryAsync without an identifier is left out"); return }
        var actions: [CodeValue] = []
        for a in items(call.arguments.count > 1 ? call.arguments[1] : nil, "the actions of setNotificationCategoryAsync", at: call.site) {
            let s = site(of: a, or: call.site)
            guard isObject(a), let aid = field(a, "identifier") else { problem(s, "`\(a.sketch)` is not an action object with an identifier the importer can follow; it is left out"); continue }
            guard let title = field(a, "buttonTitle") else { problem(s, "the action `\(aid.sketch)` has no buttonTitle, and expo-notifications drops such an action; it is left out"); continue }
            let options = field(a, "options")
            // opensAppToForeground is true unless the code says false (expo-notifications' default).
            var names: [String] = []
            if isTrue(field(options, "isAuthenticationRequired")) { names.append("authenticationRequired") }
            if isTrue(field(options, "isDestructive")) { names.append("destructive") }
            if let fg = field(options, "opensAppToForeground") { if isTrue(fg) { names.append("foreground") } } else { names.append("foreground") }
            let input = field(a, "textInput")
            actions.append(unAction(aid, title: title, options: names, textInput: input.map { _ in (field(input, "submitButtonTitle"), field(input, "placeholder")) }, at: s))
        }
        let o = call.arguments.count > 2 ? call.arguments[2] : nil
        let names = flags(o, [("customDismissAction", "customDismissAction"), ("allowInCarPlay", "allowInCarPlay"), ("hiddenPreviewsShowTitle", "showTitle"),
                               ("hiddenPreviewsShowSubtitle", "showSubtitle"), ("allowAnnouncement", "allowAnnouncement")])
        var extra: [(String, CodeValue)] = []
        if let p = field(o, "previewPlaceholder") { extra.append(("hiddenPreviewsBodyPlaceholder", p)) }
        if let f = field(o, "categorySummaryFormat") { extra.append(("categorySummaryFormat", f)) }
        constructions.append(unCategory(id, actions: actions, options: names, extra: extra, at: call.site))
    }

    /// react-native-notifications: `setCategories([new NotificationCategory(id, [new NotificationAction(id, activationMode, title, authenticationRequired, textInput)])])`.
    private mutating func reactNativeNotifications(_ call: CodeCall) {
        for c in items(call.arguments.first, "the categories given to setCategories", at: call.site) {
            guard case .call(let category) = resolver.resolve(c), category.name == "NotificationCategory", let id = category.arguments.first else {
                problem(call.site, "`\(c.sketch)` given to setCategories is not a `new NotificationCategory(…)` the importer can follow; it is left out"); continue
            }
            var actions: [CodeValue] = []
            for a in items(category.arguments.count > 1 ? category.arguments[1] : nil, "the actions of NotificationCategory \(id.sketch)", at: category.site) {
                guard case .call(let action) = resolver.resolve(a), action.name == "NotificationAction", action.arguments.count >= 3 else {
                    problem(category.site, "`\(a.sketch)` is not a `new NotificationAction(id, activationMode, title, …)` the importer can follow; it is left out"); continue
                }
                var names: [String] = []
                if action.arguments.count > 3, isTrue(action.arguments[3]) { names.append("authenticationRequired") }
                if case .text("foreground") = resolver.resolve(action.arguments[1]) { names.append("foreground") }
                let input = action.arguments.count > 4 ? action.arguments[4] : nil
                actions.append(unAction(action.arguments[0], title: action.arguments[2], options: names,
                                        textInput: input.flatMap { isObject($0) ? (field($0, "buttonTitle"), field($0, "placeholder")) : nil }, at: action.site))
            }
            constructions.append(unCategory(id, actions: actions, options: [], at: category.site))
        }
    }

    /// notifee `setNotificationCategories([{id, actions: [{id, title, foreground, destructive, authenticationRequired, input}], …}])`,
    /// or @react-native-community/push-notification-ios's `[{id, actions: [{id, title, options: {…}, textInput: {…}}]}]`.
    private mutating func notifee(_ call: CodeCall) {
        for c in items(call.arguments.first, "the categories given to setNotificationCategories", at: call.site) {
            let s = site(of: c, or: call.site)
            guard isObject(c), let id = field(c, "id") else { problem(s, "`\(c.sketch)` given to setNotificationCategories is not a category object with an id the importer can follow; it is left out"); continue }
            var actions: [CodeValue] = [], pushNotificationIOS = false
            for a in items(field(c, "actions"), "the actions of category \(id.sketch)", at: s) {
                let sa = site(of: a, or: s)
                guard isObject(a), let aid = field(a, "id") else { problem(sa, "`\(a.sketch)` is not an action object with an id the importer can follow; it is left out"); continue }
                let title = field(a, "title") ?? .text("")
                if case .text("") = resolver.resolve(title) {
                    problem(sa, "the action \(aid.sketch) has an empty title: notifee rejects the whole setNotificationCategories call, so on a device none of its categories is registered")
                }
                if let o = field(a, "options") {
                    pushNotificationIOS = true
                    let names = flags(o, [("authenticationRequired", "authenticationRequired"), ("destructive", "destructive"), ("foreground", "foreground")])
                    let input = field(a, "textInput")
                    actions.append(unAction(aid, title: title, options: names, textInput: input.map { _ in (field(input, "buttonTitle"), field(input, "placeholder")) }, at: sa))
                } else {
                    let names = flags(a, [("authenticationRequired", "authenticationRequired"), ("destructive", "destructive"), ("foreground", "foreground")])
                    let input = field(a, "input")
                    let text: (CodeValue?, CodeValue?)? = input.flatMap { isObject($0) ? (field($0, "buttonText"), field($0, "placeholderText")) : (isTrue($0) ? (nil, nil) : nil) }
                    actions.append(unAction(aid, title: title, options: names, textInput: text, at: sa))
                }
            }
            var names = flags(c, [("allowInCarPlay", "allowInCarPlay"), ("hiddenPreviewsShowTitle", "hiddenPreviewsShowTitle"),
                                  ("hiddenPreviewsShowSubtitle", "hiddenPreviewsShowSubtitle"), ("allowAnnouncement", "allowAnnouncement")])
            if !pushNotificationIOS { names.insert("customDismissAction", at: 0) } // notifee sets it on every category
            var extra: [(String, CodeValue)] = []
            if let p = field(c, "hiddenPreviewsBodyPlaceholder") { extra.append(("hiddenPreviewsBodyPlaceholder", p)) }
            if let f = field(c, "summaryFormat") { extra.append(("categorySummaryFormat", f)) }
            constructions.append(unCategory(id, actions: actions, options: names, extra: extra, at: s))
        }
    }

    /// @capacitor/local-notifications `registerActionTypes({types: [{id, actions: [...], ios…}]})`:
    /// the plugin keeps only the first true option of an action, and of a category.
    private mutating func capacitor(_ call: CodeCall) {
        for t in items(field(call.arguments.first, "types"), "the types given to registerActionTypes", at: call.site) {
            let s = site(of: t, or: call.site)
            guard isObject(t), let id = field(t, "id") else { problem(s, "`\(t.sketch)` is not an action type with an id the importer can follow; it is left out"); continue }
            var actions: [CodeValue] = []
            for a in items(field(t, "actions"), "the actions of action type \(id.sketch)", at: s) {
                let sa = site(of: a, or: s)
                guard isObject(a), let aid = field(a, "id") else { problem(sa, "`\(a.sketch)` is not an action with an id the importer can follow; it is left out"); continue }
                let names = Array(flags(a, [("foreground", "foreground"), ("destructive", "destructive"), ("authenticationRequired", "requiresAuthentication")]).prefix(1))
                var text: (CodeValue?, CodeValue?)?
                if isTrue(field(a, "input")) { text = field(a, "inputButtonTitle").map { ($0, field(a, "inputPlaceholder") ?? .text("")) } ?? (nil, nil) }
                actions.append(unAction(aid, title: field(a, "title") ?? .text(""), options: names, textInput: text, at: sa))
            }
            let names = Array(flags(t, [("customDismissAction", "iosCustomDismissAction"), ("allowInCarPlay", "iosAllowInCarPlay"),
                                        ("hiddenPreviewsShowTitle", "iosHiddenPreviewsShowTitle"), ("hiddenPreviewsShowSubtitle", "iosHiddenPreviewsShowSubtitle")]).prefix(1))
            var extra: [(String, CodeValue)] = []
            if let p = field(t, "iosHiddenPreviewsBodyPlaceholder") { extra.append(("hiddenPreviewsBodyPlaceholder", p)) }
            constructions.append(unCategory(id, actions: actions, options: names, extra: extra, at: s))
        }
    }

    /// flutter_local_notifications: `DarwinNotificationCategory(id, actions: [DarwinNotificationAction.plain(id, title, options: {…}) / .text(id, title, buttonTitle:, placeholder:)], options: {…})`.
    private mutating func flutter(_ call: CodeCall) {
        guard let id = call.arguments.first, call.labels.first == "" else { problem(call.site, "DarwinNotificationCategory without an identifier is left out"); return }
        func optionNames(_ v: CodeValue?, _ type: String, _ site: CodeSite) -> [String] {
            guard let v else { return [] }
            guard let list = resolver.list(v) else { problem(site, "the options `\(v.sketch)` are not a set the importer can follow; they are left out"); return [] }
            return list.compactMap { o -> String? in
                if case .member(let base, let name) = resolver.resolve(o), base.namePath?.path.last == type {
                    return name.replacingOccurrences(of: "hiddenPreviewShow", with: "hiddenPreviewsShow")
                }
                problem(site, "the option `\(o.sketch)` is not a \(type) the importer can follow; it is left out")
                return nil
            }
        }
        var actions: [CodeValue] = []
        if let list = call["actions"] {
            for a in items(list, "the actions of DarwinNotificationCategory \(id.sketch)", at: call.site) {
                guard case .call(let action) = resolver.resolve(a), let kind = action.name, ["plain", "text"].contains(kind),
                      case .member(let type, _) = action.callee, type.namePath?.path.last == "DarwinNotificationAction", action.arguments.count >= 2 else {
                    problem(call.site, "`\(a.sketch)` is not a DarwinNotificationAction.plain(…) or .text(…) the importer can follow; it is left out"); continue
                }
                let names = optionNames(action["options"], "DarwinNotificationActionOption", action.site)
                actions.append(unAction(action.arguments[0], title: action.arguments[1], options: names,
                                        textInput: kind == "text" ? (action["buttonTitle"], action["placeholder"]) : nil, at: action.site))
            }
        }
        constructions.append(unCategory(id, actions: actions, options: optionNames(call["options"], "DarwinNotificationCategoryOption", call.site), at: call.site))
    }
}

extension CodeImport {
    /// Another reading's categories (one identifier made in both is one category) and problems.
    mutating func merge(_ other: CodeImport) {
        var byIdentifier = Dictionary(uniqueKeysWithValues: categories.map { ($0.identifier, $0) })
        for c in other.categories { byIdentifier[c.identifier] = byIdentifier[c.identifier].map { Self.merge($0, c) } ?? c }
        categories = byIdentifier.values.sorted { $0.identifier < $1.identifier }
    }

    /// The TypeScript, JavaScript and Dart files of a cross-platform app that register categories
    /// (`ScriptSourceReader.words`), and, round by round, those that declare a name they use, parsed
    /// by tree-sitter in a child process. `parser` failing: nothing is read, and that is said.
    static func readScripts(_ files: [URL], in repository: Repository, root: URL, parser: Result<TreeSitterChild, TreeSitterChild.Why>) -> CodeImport {
        var result = CodeImport()
        let rootPath = root.standardizedFileURL.path.hasSuffix("/") ? root.standardizedFileURL.path : root.standardizedFileURL.path + "/"
        func relative(_ url: URL) -> String { let p = url.standardizedFileURL.path; return p.hasPrefix(rootPath) ? String(p.dropFirst(rootPath.count)) : p }
        var sources: [(name: String, bytes: [UInt8], language: TreeSitterChild.Language)] = []
        for url in files.sorted(by: { relative($0) < relative($1) }) {
            let name = relative(url)
            let language: TreeSitterChild.Language
            switch url.pathExtension.lowercased() {
            case "ts", "mts", "cts": language = .typescript
            case "tsx", "jsx": language = .tsx
            case "js", "mjs", "cjs": language = .javascript
            case "dart": language = .dart
            default: continue
            }
            do { sources.append((name, try repository.read(url, limit: maxFileSize), language)) } catch {
                if case .tooLarge(let size, _) = error.reason { result.problems.append("\(name): \(size) bytes, over the \(maxFileSize >> 20) MB a source file may have; not read") }
                else { result.problems.append("\(name): cannot be read (\(error.why))") }
            }
        }
        var next = sources.indices.filter { i in ScriptSourceReader.words.contains { sources[i].bytes.contains(word: $0) } }
        guard !next.isEmpty else { return result }
        let child: TreeSitterChild
        switch parser {
        case .success(let c): child = c
        case .failure(let why):
            result.problems.append("\(next.prefix(3).map { sources[$0].name }.joined(separator: ", "))\(next.count > 3 ? " and \(next.count - 3) more" : ""): register\(next.count == 1 ? "s" : "") notification categories, not read: \(why.text)")
            return result
        }
        var read: [Int: ScriptSourceReader.Result] = [:]
        for _ in 0..<3 where !next.isEmpty {
            Activity.now("parsing \(next.count) file\(next.count == 1 ? "" : "s") with tree-sitter (\(next.prefix(3).map { sources[$0].name }.joined(separator: ", ")))")
            let parses = child.parse(next.map { (sources[$0].bytes, sources[$0].language) })
            for (k, parse) in parses.enumerated() {
                read[next[k]] = ScriptSourceReader.read(parse, file: sources[next[k]].name, kind: sources[next[k]].language == .dart ? .dart : .script)
            }
            // The names the library calls use that no file read binds: parse the files declaring them.
            let all = read.keys.sorted().map { read[$0]! }
            let resolver = CodeResolver(all.map(\.facts))
            var names = Set<String>()
            // What the calls use, and what the files making them bind (a method returning the category).
            for r in all where !r.calls.isEmpty {
                for c in r.calls { c.arguments.forEach { SourceFacts.mentionedNames($0, into: &names) } }
                for b in r.facts.bindings { SourceFacts.mentionedNames(b.value, into: &names) }
            }
            var wanted = Set<String>(), pending = Array(names), seen = Set<String>()
            while let n = pending.popLast() {
                guard seen.insert(n).inserted else { continue }
                if resolver.binds(n) {
                    for r in all { for b in r.facts.bindings where b.path.last == n { var more = Set<String>(); SourceFacts.mentionedNames(b.value, into: &more); pending += more } }
                } else if !["true", "false"].contains(n) { wanted.insert(n) }
            }
            next = sources.indices.filter { i in read[i] == nil && wanted.contains { w in Self.declares(sources[i].bytes, w) } }
            if next.count > 64 {
                result.problems.append("\(next.count) files declare names the categories use (\(wanted.sorted().prefix(5).joined(separator: ", "))); only the first 64 were parsed")
                next = Array(next.prefix(64))
            }
        }
        let facts = read.keys.sorted().map { read[$0]! }
        var categories = ScriptCategories(resolver: CodeResolver(facts.map(\.facts)))
        if sources.contains(where: { $0.language == .dart }) { categories.arb = ScriptCategories.readARB(root: root, in: repository) }
        for r in facts { for call in r.calls { categories.read(call) } }
        var made = SourceFacts()
        made.constructions = categories.constructions
        made.problems = categories.problems
        result.build(from: facts.map(\.facts) + [made])
        return result
    }

    /// Whether a TS/JS/Dart file declares `name` (`const NAME`, `enum NAME`, `class NAME`, `NAME =` in a class or object).
    static func declares(_ bytes: [UInt8], _ name: String) -> Bool {
        guard bytes.contains(word: name) else { return false }
        let text = String(decoding: bytes, as: UTF8.self)
        for keyword in ["const ", "let ", "var ", "enum ", "class ", "final ", "static ", "String "] where text.contains(keyword + name) { return true }
        return false
    }
}
