/// Turns the category constructions the readers found into `ImportedCategory`s, following each
/// argument through the resolver; what it cannot follow is a problem at the call's position.
struct CategoryBuilder {
    let resolver: CodeResolver
    private(set) var problems: [String] = []

    static let actionOptions = ["authenticationRequired", "destructive", "foreground"]
    static let categoryOptions = ["customDismissAction", "allowInCarPlay", "hiddenPreviewsShowTitle", "hiddenPreviewsShowSubtitle", "allowAnnouncement"]

    init(resolver: CodeResolver) { self.resolver = resolver }

    private mutating func problem(_ site: CodeSite, _ message: String) { problems.append("\(site): \(message)") }

    /// The category `call` makes (`UNNotificationCategory(identifier:actions:intentIdentifiers:…options:)`),
    /// nil when its identifier is not a string the code spells out.
    mutating func category(_ call: CodeCall) -> ImportedCategory? {
        guard let idValue = call["identifier"] else { problem(call.site, "a UNNotificationCategory without an identifier is left out"); return nil }
        guard let identifier = resolver.text(idValue) else {
            problem(call.site, "the category identifier `\(idValue.sketch)` is not a literal or a constant the importer can follow (computed, or from data at run time); the category is left out")
            return nil
        }
        var category = ImportedCategory(identifier: identifier)
        category.sites = ["\(call.site.file):\(call.site.line)"]
        if let actions = call["actions"] {
            if let items = resolver.list(actions) {
                category.actions = items.compactMap { action($0, in: identifier, at: call.site) }
            } else {
                problem(call.site, "the actions of category \"\(identifier)\", `\(actions.sketch)`, are not a list the importer can follow; the category is imported without them")
            }
        }
        category.options = options(call["options"], known: Self.categoryOptions, prefix: "UNNotificationCategoryOption", what: "category \"\(identifier)\"", at: call.site)
        category.hiddenPreviewsBodyPlaceholder = optionalText(call["hiddenPreviewsBodyPlaceholder"], "hiddenPreviewsBodyPlaceholder of category \"\(identifier)\"", at: call.site)
        category.categorySummaryFormat = optionalText(call["categorySummaryFormat"], "categorySummaryFormat of category \"\(identifier)\"", at: call.site)
        return category
    }

    /// `setNotificationCategories(x)`: each category registered should be one made in the code;
    /// one that is not (made at run time, from server data) is said, as a list that is not followed.
    mutating func checkRegistration(_ call: CodeCall) {
        guard let argument = call.arguments.first else { return }
        guard let items = resolver.list(argument) else {
            problem(call.site, "setNotificationCategories is given `\(argument.sketch)`, which the importer cannot follow to its categories: those made in the code are imported from where they are made, but any made at run time (from server data, say) are not; add them to categories.json")
            return
        }
        for item in items {
            guard case .call(let c) = resolver.resolve(item), c.name == "UNNotificationCategory" else {
                problem(call.site, "`\(item.sketch)` registered by setNotificationCategories is not a UNNotificationCategory made in the code; it is not imported")
                continue
            }
        }
    }

    private mutating func action(_ value: CodeValue, in category: String, at categorySite: CodeSite) -> ImportedAction? {
        guard case .call(let call) = resolver.resolve(value), let kind = call.name, ["UNNotificationAction", "UNTextInputNotificationAction"].contains(kind) else {
            problem(categorySite, "`\(value.sketch)` among the actions of category \"\(category)\" is not a UNNotificationAction the importer can follow; it is left out")
            return nil
        }
        guard let identifier = resolver.text(call["identifier"]) else {
            problem(call.site, "the action identifier `\(call["identifier"]?.sketch ?? "(none)")` in category \"\(category)\" is not a literal or a constant the importer can follow; the action is left out")
            return nil
        }
        let title: ImportedText
        if let t = resolver.importedText(call["title"]) { title = t } else {
            problem(call.site, "the title of action \"\(identifier)\", `\(call["title"]?.sketch ?? "(none)")`, is neither a literal nor a localized key (NSLocalizedString, String(localized:)); the identifier stands in as its title")
            title = .literal(identifier)
        }
        var action = ImportedAction(identifier: identifier, title: title)
        action.options = options(call["options"], known: Self.actionOptions, prefix: "UNNotificationActionOption", what: "action \"\(identifier)\"", at: call.site)
        if let iconValue = call["icon"] { action.icon = icon(iconValue, of: identifier, at: call.site) }
        if kind == "UNTextInputNotificationAction" {
            action.textInput = .init(buttonTitle: optionalText(call["textInputButtonTitle"], "textInputButtonTitle of action \"\(identifier)\"", at: call.site),
                                     placeholder: optionalText(call["textInputPlaceholder"], "textInputPlaceholder of action \"\(identifier)\"", at: call.site))
        }
        return action
    }

    private mutating func icon(_ value: CodeValue, of action: String, at site: CodeSite) -> ImportedAction.Icon? {
        let resolved = resolver.resolve(value)
        if case .null = resolved { return nil }
        if case .call(let c) = resolved, c.name == "UNNotificationActionIcon", let name = resolver.text(c.arguments.first) {
            if c.labels.first == "systemImageName" { return .system(name) }
            if c.labels.first == "templateImageName" { return .template(name) }
        }
        problem(site, "the icon of action \"\(action)\", `\(value.sketch)`, is not a UNNotificationActionIcon(systemImageName:) or (templateImageName:) with a name the importer can follow; the action has no icon")
        return nil
    }

    private mutating func optionalText(_ value: CodeValue?, _ what: String, at site: CodeSite) -> ImportedText? {
        guard let value else { return nil }
        if case .null = resolver.resolve(value) { return nil }
        if let t = resolver.importedText(value) { return t }
        problem(site, "the \(what), `\(value.sketch)`, is neither a literal nor a localized key; it is left out")
        return nil
    }

    /// Option names from `[.foreground, .destructive]`, `.foreground`, `[]`, `.init()`,
    /// `UNNotificationActionOptions(rawValue: 4)`, `UNNotificationActionOptionForeground | …`, `0`.
    private mutating func options(_ value: CodeValue?, known: [String], prefix: String, what: String, at site: CodeSite) -> [String] {
        guard let value else { return [] }
        var names: [String] = []
        var unreadable: [CodeValue] = []
        func read(_ v: CodeValue, depth: Int) {
            guard depth < 8 else { unreadable.append(v); return }
            switch resolver.resolve(v) {
            case .array(let items), .binary("|", let items): items.forEach { read($0, depth: depth + 1) }
            case .implicitMember(let n): names.append(n)
            case .member(let base, let n) where known.contains(n) || base.namePath?.path.last?.hasSuffix("Options") == true: names.append(n)
            case .name(let n, _) where n.hasPrefix(prefix):
                let rest = n.dropFirst(prefix.count)
                if rest != "None" { names.append(rest.prefix(1).lowercased() + rest.dropFirst()) }
            case .number(let bits): names += known.enumerated().filter { bits & (1 << $0.offset) != 0 }.map(\.element)
            case .call(let c) where c.arguments.isEmpty: break // `.init()`, `UNNotificationActionOptions()`
            case .call(let c) where c.labels == ["rawValue"]: read(c.arguments[0], depth: depth + 1)
            default: unreadable.append(v)
            }
        }
        read(value, depth: 0)
        for v in unreadable { problem(site, "the options of \(what), `\(v.sketch)`, are not option names the importer can follow; they are left out") }
        for n in names where !known.contains(n) { problem(site, "\(n) is not an option of \(what) (one of \(known.joined(separator: ", "))); it is left out") }
        let valid = Set(names.filter(known.contains))
        return known.filter(valid.contains)
    }
}
