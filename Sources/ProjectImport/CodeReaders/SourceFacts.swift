/// What one source file says that the import needs, in the form both readers share: the names it
/// binds, and the category constructions, registrations, userInfo reads and view assignments in it.
struct SourceFacts: Sendable {
    /// A `let`, `var`, `static let`, enum case raw value, `NSString *const`, `#define`, or a
    /// function or getter with one `return`: its path (enclosing scopes + name) and value.
    struct Binding: Sendable {
        var path: [String]
        var value: CodeValue
    }
    /// `actions.append(x)`, `actions += [x]`, `[categories addObject:x]`: more elements of a list.
    struct Append: Sendable {
        var list: CodeValue
        var element: CodeValue
        /// `append(contentsOf:)`, `+=`, `addObjectsFromArray:`: `element` is itself a list.
        var isList: Bool
    }
    /// `target = value` where target is a member (`self.label.text`, `imageView.image`).
    struct Assignment: Sendable {
        var target: CodeValue
        var value: CodeValue
        var site: CodeSite
    }

    var bindings: [Binding] = []
    var appends: [Append] = []
    var assignments: [Assignment] = []
    /// `UNNotificationCategory(…)` / `[UNNotificationCategory categoryWithIdentifier:…]`.
    var constructions: [CodeCall] = []
    /// `setNotificationCategories(…)`.
    var registrations: [CodeCall] = []
    /// Every `x[key]` (and `[x objectForKey:key]`): the userInfo reads are among them.
    var subscripts: [CodeValue] = []
    /// Types declared (`enum ActionID`, `struct Ids`, `@interface Foo`), for finding the files
    /// that define a name another file uses.
    var declaredNames: Set<String> = []
    /// Where the content view is made in code: a view added, constraints activated, a hosting
    /// controller made (issue 22), each with what is done there.
    var viewSites: [(what: String, site: CodeSite)] = []
    /// What is handed to `URL(string:)` / `[NSURL URLWithString:]`, or to a function whose name
    /// says it takes a URL or downloads (`loadAttachmentForUrlString:`): the keys read as URLs.
    var urlArguments: [CodeValue] = []
    /// `content.updating(from: intent)`, `[content contentByUpdatingWithProvider:…]`: a messaging intent donated.
    var intentUpdates: [CodeCall] = []
    var problems: [String] = []

    /// The calls that make a view in code.
    static let viewMakers: Set<String> = ["addSubview", "addArrangedSubview", "insertSubview", "activateConstraints", "UIHostingController", "addChild", "addChildViewController"]

    /// Records what `value` holds: the calls and subscripts anywhere inside it. Closures are not
    /// entered: their statements are recorded by the reader as it reads them.
    mutating func collect(_ value: CodeValue) {
        switch value {
        case .call(let call):
            switch call.name {
            case "UNNotificationCategory": constructions.append(call)
            case "setNotificationCategories": registrations.append(call)
            case let name? where Self.viewMakers.contains(name): viewSites.append((name, call.site))
            case "activate" where call.callee.namePath?.path.first == "NSLayoutConstraint": viewSites.append(("NSLayoutConstraint.activate", call.site))
            case let name? where ["URL", "NSURL"].contains(name) && call.labels.first == "string": urlArguments.append(call.arguments[0])
            case "updating" where call.labels.first == "from", "contentByUpdatingWithProvider": intentUpdates.append(call)
            case "append", "insert", "addObject", "formUnion", "addObjectsFromArray":
                if case .member(let list, _) = call.callee, let element = call.arguments.first {
                    let isList = call.labels.first == "contentsOf" || call.name == "formUnion" || call.name == "addObjectsFromArray"
                    appends.append(Append(list: list, element: element, isList: isList))
                }
            case let name? where ["url", "download"].contains(where: name.lowercased().contains): urlArguments += call.arguments
            default: break
            }
            collect(call.callee)
            call.arguments.forEach { collect($0) }
        case .member(let base, _): collect(base)
        case .array(let items): items.forEach { collect($0) }
        case .subscripted(let base, let key):
            subscripts.append(value)
            collect(base)
            collect(key)
        case .binary(let op, let operands):
            if op == "+=", operands.count == 2 { appends.append(Append(list: operands[0], element: operands[1], isList: true)) }
            operands.forEach { collect($0) }
        case .text, .number, .null, .name, .implicitMember, .closure, .opaque: break
        }
    }

    /// Records what an assignment's target holds; `userInfo["k"] = v` writes a key, it does not read one.
    mutating func collectAssigned(_ target: CodeValue) {
        if case .subscripted(let base, let key) = target { collect(base); collect(key) } else { collect(target) }
    }

    /// The names `value` uses as values (the first of each `a.b.c`; not the functions it calls),
    /// for finding the files that define them.
    static func mentionedNames(_ value: CodeValue, into names: inout Set<String>) {
        switch value {
        case .name(let n, _): names.insert(n)
        case .member(let base, _): mentionedNames(base, into: &names)
        case .call(let call):
            if call.callee.namePath == nil { mentionedNames(call.callee, into: &names) }
            call.arguments.forEach { mentionedNames($0, into: &names) }
        case .array(let items), .binary(_, let items), .closure(let items): items.forEach { mentionedNames($0, into: &names) }
        case .subscripted(let base, let key):
            mentionedNames(base, into: &names)
            mentionedNames(key, into: &names)
        case .text, .number, .null, .implicitMember, .opaque: break
        }
    }
}
