/// Reads what a Tuist manifest's syntax says, from swiftc's parse-only AST, without running it:
/// the `let`s and static `let`s of the manifest and its ProjectDescriptionHelpers, the helper
/// functions they call (free, or static in a type or an extension, with their arguments and
/// default values bound), their bodies' `let`/`var`, `+=`, `append`, `if` on a known Bool and
/// `return`, and `map`/`flatMap`/`compactMap` with a closure. What cannot be followed becomes a
/// `TuistValue.unknown` at its file, line and column.
final class TuistEvaluator {
    struct Function {
        var params: [(label: String, name: String, defaultValue: SwiftASTNode?)]
        var body: SwiftASTNode?
        var file: Int
        var scope: [String]
        var range: (start: Int, end: Int)?
    }
    struct Global {
        var value: SwiftASTNode
        var file: Int
        var scope: [String]
        var range: (start: Int, end: Int)?
    }
    struct Frame {
        var locals: [String: TuistValue] = [:]
        var scope: [String]
        var file: Int
        var ranges: [(start: Int, end: Int)]
    }

    static let maxCallDepth = 16
    static let maxSteps = 200_000
    static let typeKinds: Set<String> = ["class_decl", "struct_decl", "enum_decl", "actor_decl"]
    static let transparentKinds: Set<String> = ["paren_expr", "bind_optional_expr", "optional_evaluation_expr", "force_value_expr", "try_expr",
                                                "optional_try_expr", "force_try_expr", "await_expr"]

    let files: [SwiftSourceText]
    private var globals: [[String]: Global] = [:]
    private var functions: [[String]: [Function]] = [:]
    private var memo: [[String]: TuistValue] = [:]
    private var evaluating: Set<[String]> = []
    var frames: [Frame] = []
    private var steps = 0
    /// Per file and name, how many of its occurrences sites have been placed at (names repeat: `.target(…)`).
    private var used: [Int: [String: Int]] = [:]
    /// The last place a name was found, for a value with no name of its own (a literal).
    private var lastSite: (file: Int, offset: Int)?

    /// `files[k]` is the source `roots[k]` was parsed from; the first file's declarations win.
    init(files: [SwiftSourceText], roots: [SwiftASTNode?]) {
        self.files = files
        for (k, root) in roots.enumerated() {
            for item in root?.children("items") ?? [] { declare(item, file: k, scope: []) }
        }
    }

    private func declare(_ node: SwiftASTNode, file: Int, scope: [String]) {
        switch node.kind {
        case "top_level_code_decl":
            for element in node.child("body")?.children("elements") ?? [] { declare(element, file: file, scope: scope) }
        case _ where Self.typeKinds.contains(node.kind):
            guard let name = node.declName else { return }
            for member in node.children("members") { declare(member, file: file, scope: scope + [name]) }
        case "extension_decl":
            let names = (node["extended_type"] ?? "").split(separator: ".").map(String.init)
            for member in node.children("members") { declare(member, file: file, scope: scope + names) }
        case "pattern_binding_decl":
            for entry in node.children("pattern_entries") {
                guard let value = entry.child("original_init"), let name = entry.child("pattern").flatMap(Self.patternName) else { continue }
                if globals[scope + [name]] == nil { globals[scope + [name]] = Global(value: value, file: file, scope: scope, range: node.range) }
            }
        case "var_decl":
            // A computed property: a function without parameters.
            guard let name = node.declName, let getter = node.children("accessors").first(where: { $0["get"] == "true" }) else { return }
            functions[scope + [name], default: []].append(Function(params: [], body: getter.child("body"), file: file, scope: scope, range: node.range))
        case "func_decl", "constructor_decl":
            guard let name = node.kind == "constructor_decl" ? "init" : node.child("name")?.child("base_name")?["name"] else { return }
            let params = (node.child("params")?.children("params") ?? []).map { p in
                (label: p["apiName"] ?? "", name: p.declName ?? "_", defaultValue: p.child("expression"))
            }
            functions[scope + [name], default: []].append(Function(params: params, body: node.child("body"), file: file, scope: scope, range: node.range))
        default: return
        }
    }

    static func patternName(_ node: SwiftASTNode) -> String? {
        if node.kind == "pattern_named" { return node.declName }
        return node.child("sub_pattern").flatMap(patternName)
    }

    /// The value of the global (or static) `path`, e.g. `["project"]`.
    func global(_ path: [String]) -> TuistValue? {
        if let known = memo[path] { return known }
        guard let g = globals[path] else { return nil }
        let frame = Frame(scope: g.scope, file: g.file, ranges: g.range.map { [$0] } ?? [])
        guard evaluating.insert(path).inserted else {
            return .unknown("\(path.joined(separator: ".")) is defined in terms of itself", at: site(path.last, in: frame))
        }
        frames.append(frame)
        let value = eval(g.value)
        frames.removeLast()
        evaluating.remove(path)
        memo[path] = value
        return value
    }

    // MARK: Places

    /// Where the next occurrence of `name` is in the innermost declaration or statement being
    /// read (the first again when a helper is read a second time); without a name, the last place
    /// found there, else where that starts.
    private func site(_ name: String?, in frame: Frame? = nil) -> CodeSite {
        guard let frame = frame ?? frames.last else { return CodeSite(file: files.first?.file ?? "", line: 1, column: 1) }
        let text = files[frame.file]
        let range = frame.ranges.last ?? (0, text.bytes.count)
        if let name, let offsets = text.identifiers[name] {
            var k = used[frame.file]?[name] ?? 0
            while k < offsets.count, offsets[k] < range.start { k += 1 }
            if k >= offsets.count || offsets[k] > range.end { k = offsets.firstIndex { $0 >= range.start } ?? offsets.count }
            if k < offsets.count, offsets[k] <= range.end {
                used[frame.file, default: [:]][name] = k + 1
                lastSite = (frame.file, offsets[k])
                return text.site(offsets[k])
            }
        }
        if let last = lastSite, last.file == frame.file, last.offset >= range.start, last.offset <= range.end { return text.site(last.offset) }
        return text.site(range.start)
    }

    /// The first name an expression uses, to place a problem about it.
    private static func firstName(_ node: SwiftASTNode) -> String? {
        if node.kind == "unresolved_decl_ref_expr" || node.kind == "unresolved_member_expr" { return node["name"] }
        for (_, child) in node.children { if let name = firstName(child) { return name } }
        return nil
    }

    func unknown(_ why: String, near name: String?) -> TuistValue { .unknown(why, at: site(name)) }

    // MARK: Expressions

    func eval(_ node: SwiftASTNode) -> TuistValue {
        steps += 1
        guard steps <= Self.maxSteps else { return unknown("the manifest takes more than \(Self.maxSteps) steps to read; the rest is not followed", near: nil) }
        if Self.transparentKinds.contains(node.kind), let sub = node.child("sub_expr") { return eval(sub) }
        switch node.kind {
        case "string_literal_expr": return .text(node["value"] ?? "")
        case "integer_literal_expr":
            let digits = (node["value"] ?? "").replacingOccurrences(of: "_", with: "")  // 1_000 is Swift's 1000
            return Int(digits).map(TuistValue.integer) ?? unknown("the number \(node["value"] ?? "") is too large", near: nil)
        case "float_literal_expr": return Double(node["value"] ?? "").map(TuistValue.real) ?? unknown("the number \(node["value"] ?? "")", near: nil)
        case "boolean_literal_expr": return .bool(node["value"] == "true")
        case "nil_literal_expr": return .null
        case "interpolated_string_literal_expr": return interpolation(node)
        case "array_expr": return .array(node.children("elements").map(eval))
        case "dictionary_expr":
            var pairs: [(key: String, value: TuistValue)] = []
            for element in node.children("elements") {
                let parts = element.children("elements")
                guard parts.count == 2 else { continue }
                let key = eval(parts[0])
                guard let text = key.text else { return key.unknownReason == nil ? unknown("a dictionary key that is not a string (\(key.sketch))", near: nil) : key }
                pairs.append((text, eval(parts[1])))
            }
            return .dictionary(pairs)
        case "unresolved_decl_ref_expr": return lookup(node["name"] ?? "")
        case "declref_expr":
            // A closure's `$0`: the AST names it `…closure….$0@File.swift:L:C`.
            let decl = node["decl"] ?? ""
            let name = decl.split(separator: "@").first.flatMap { $0.split(separator: ".").last }.map(String.init) ?? decl
            return lookup(name)
        case "unresolved_member_expr": return .member(node["name"] ?? "")
        case "unresolved_dot_expr": return dot(node)
        case "call_expr": return call(node)
        case "sequence_expr": return sequence(node.children("elements").filter { !["coerce_expr", "conditional_checked_cast_expr", "forced_checked_cast_expr"].contains($0.kind) })
        case "closure_expr": return unknown("a closure", near: nil)
        case "prefix_unary_expr" where node.child("fn")?["name"] == "!":
            let operand = node.child("args")?.children("args").first?.child("expr").map(eval) ?? .null
            if case .bool(let b) = operand { return .bool(!b) }
            if case .unknown = operand { return operand }
            return unknown("!\(operand.sketch) is not a Bool", near: nil)
        default:
            let what = node.kind.replacingOccurrences(of: "_expr", with: "").replacingOccurrences(of: "_", with: " ")
            return unknown("\(what == "subscript" ? "a subscript (x[…])" : what) is not an expression the reader follows", near: Self.firstName(node))
        }
    }

    /// A local, else a static or global from the innermost enclosing type outwards.
    private func lookup(_ name: String) -> TuistValue {
        if let local = frames.last?.locals[name] { return local }
        let scope = frames.last?.scope ?? []
        for k in stride(from: scope.count, through: 0, by: -1) {
            let path = Array(scope.prefix(k)) + [name]
            if let value = global(path) { return value }
            if let getter = functions[path]?.first(where: \.params.isEmpty) { return invoke(getter, name: name, labels: [], arguments: []) }
        }
        return unknown("\(name) is not defined in the manifest or its ProjectDescriptionHelpers", near: name)
    }

    /// `a.b.c` as names, when it is a chain of names only.
    private func namePath(_ node: SwiftASTNode) -> [String]? {
        switch node.kind {
        case "unresolved_decl_ref_expr": return node["name"].map { [$0] }
        case "unresolved_dot_expr":
            guard let base = node.child("base").flatMap(namePath), let field = node["field"] else { return nil }
            return base + [String(field.prefix { $0 != "(" })]
        default: return nil
        }
    }

    /// Whether `name` names a type rather than a value here.
    private func isTypeName(_ name: String) -> Bool {
        frames.last?.locals[name] == nil && name.first?.isUppercase == true
    }

    private func dot(_ node: SwiftASTNode) -> TuistValue {
        let field = String((node["field"] ?? "").prefix { $0 != "(" })
        if let path = namePath(node), path.count >= 2, isTypeName(path[0]) {
            let scope = frames.last?.scope ?? []
            for k in stride(from: scope.count, through: 0, by: -1) {
                if let value = global(Array(scope.prefix(k)) + path) { return value }
            }
            if let getter = functions[path]?.first(where: \.params.isEmpty) { return invoke(getter, name: field, labels: [], arguments: []) }
            // `Product.app`, `Destinations.iOS`: a ProjectDescription case.
            if path.count == 2 { return .member(field) }
        }
        let base = node.child("base").map(eval) ?? .null
        if case .unknown = base { return base }
        // A struct built by its initializer: its field is the argument of that label.
        if case .call(let c) = base, let value = c[field] { return value }
        if case .array(let items) = base, field == "isEmpty" { return .bool(items.isEmpty) }
        if case .text(let s) = base, field == "isEmpty" { return .bool(s.isEmpty) }
        return unknown("\(base.sketch).\(field) is not followed", near: field)
    }

    private func interpolation(_ node: SwiftASTNode) -> TuistValue {
        var out = ""
        for segment in node.child("appending_expr")?.child("body")?.children("elements") ?? [] where segment.kind == "call_expr" {
            guard let argument = segment.child("args")?.children("args").first?.child("expr") else { continue }
            let value = eval(argument)
            switch value {
            case .text(let s): out += s
            case .integer(let n): out += String(n)
            case .unknown: return value
            default: return unknown("the string interpolation \\(\(value.sketch)) is not a string", near: nil)
            }
        }
        return .text(out)
    }

    /// `a + b` (strings, arrays), `a ?? b`, `a == b`, `a && b`; operators are left unfolded.
    private func sequence(_ parts: [SwiftASTNode]) -> TuistValue {
        if parts.count == 1 { return eval(parts[0]) }
        guard parts.count % 2 == 1 else { return unknown("an expression with operators", near: nil) }
        var result = eval(parts[0])
        for k in stride(from: 1, to: parts.count, by: 2) {
            let op = parts[k]["name"] ?? parts[k].kind
            let right = eval(parts[k + 1])
            switch (op, result, right) {
            case ("+", .array(let a), .array(let b)): result = .array(a + b)
            // A list part of which is not followed: the rest is still read.
            case ("+", .array(let a), .unknown): result = .array(a + [right])
            case ("+", .unknown, .array(let b)): result = .array([result] + b)
            case (_, .unknown, _): return result
            case (_, _, .unknown) where op != "??": return right
            case ("+", .text(let a), .text(let b)): result = .text(a + b)
            case ("??", .null, _): result = right
            case ("??", _, _): break
            case ("==", .text(let a), .text(let b)): result = .bool(a == b)
            case ("!=", .text(let a), .text(let b)): result = .bool(a != b)
            case ("&&", .bool(let a), .bool(let b)): result = .bool(a && b)
            case ("||", .bool(let a), .bool(let b)): result = .bool(a || b)
            default: return unknown("\(result.sketch) \(op) \(right.sketch) is not followed", near: op.first?.isLetter == true ? op : nil)
            }
        }
        return result
    }

    // MARK: Calls

    private func call(_ node: SwiftASTNode) -> TuistValue {
        guard let fn = node.child("fn") else { return unknown("a call", near: nil) }
        let args = node.child("args")?.children("args") ?? []
        let labels = args.map { $0["label"] ?? "" }
        let argumentNodes = args.compactMap { $0.child("expr") }
        switch fn.kind {
        case "unresolved_decl_ref_expr":
            let name = fn["name"] ?? ""
            let scope = frames.last?.scope ?? []
            for k in stride(from: scope.count, through: 0, by: -1) {
                if let f = function(Array(scope.prefix(k)) + [name], labels: labels) { return invoke(f, name: name, labels: labels, arguments: argumentNodes.map(eval)) }
            }
            guard isTypeName(name) else { return unknown("\(name)(…) is not a function the manifest or its ProjectDescriptionHelpers define", near: name) }
            let here = site(name)
            // A struct of the helpers: its fields are its initializer's parameters, defaults filled in.
            if let initializer = function([name, "init"], labels: labels) {
                let arguments = argumentNodes.map(eval)
                let bound = bind(initializer, labels: labels, arguments: arguments)
                return .call(TuistCall(name: name, labels: initializer.params.map(\.name), arguments: initializer.params.map { bound[$0.name] ?? .null }, site: here))
            }
            return .call(TuistCall(name: name, labels: labels, arguments: argumentNodes.map(eval), site: here))
        case "unresolved_member_expr":
            // `.target(…)`, `.settings(…)`, or a helper a type of the helpers declares (`.feature(…)`).
            let name = fn["name"] ?? ""
            let candidates = functions.keys.filter { $0.count >= 2 && $0.last == name }.sorted { ($0.first == "Target" ? 0 : 1, $0.joined(separator: ".")) < ($1.first == "Target" ? 0 : 1, $1.joined(separator: ".")) }
            if let f = candidates.lazy.compactMap({ self.function($0, labels: labels) }).first { return invoke(f, name: name, labels: labels, arguments: argumentNodes.map(eval)) }
            let here = site(name)
            return .call(TuistCall(name: name, labels: labels, arguments: argumentNodes.map(eval), site: here))
        case "unresolved_dot_expr":
            let field = String((fn["field"] ?? "").prefix { $0 != "(" })
            if let base = fn.child("base"), let path = namePath(base), path.count == 1, isTypeName(path[0]) {
                if let f = function(path + [field], labels: labels) { return invoke(f, name: "\(path[0]).\(field)", labels: labels, arguments: argumentNodes.map(eval)) }
                // `Target.target(…)`, `TargetDependency.target(name:)`: a ProjectDescription call.
                let here = site(field)
                return .call(TuistCall(name: field, labels: labels, arguments: argumentNodes.map(eval), site: here))
            }
            let base = fn.child("base").map(eval) ?? .null
            if case .unknown = base { return base }
            return method(field, on: base, labels: labels, arguments: argumentNodes)
        default:
            return unknown("a call of \(fn.kind.replacingOccurrences(of: "_", with: " ")) is not followed", near: nil)
        }
    }

    /// The few methods of arrays and dictionaries helpers use to build targets.
    private func method(_ name: String, on base: TuistValue, labels: [String], arguments: [SwiftASTNode]) -> TuistValue {
        switch (name, base) {
        case ("map", .array(let items)), ("flatMap", .array(let items)), ("compactMap", .array(let items)):
            guard arguments.count == 1, arguments[0].kind == "closure_expr" else { break }
            let closure = arguments[0]
            let parameter = closure.child("params")?.children("params").first?.declName ?? "$0"
            var results: [TuistValue] = []
            for item in items {
                var frame = frames.last ?? Frame(scope: [], file: 0, ranges: [])
                frame.locals[parameter] = item
                frames.append(frame)
                let result = run(closure.child("body")) ?? unknown("the closure returns no value the reader follows", near: name)
                frames.removeLast()
                if name == "flatMap", case .array(let inner) = result { results += inner } else if name == "compactMap", case .null = result {} else { results.append(result) }
            }
            return .array(results)
        case ("merging", .dictionary(let a)):
            guard let other = arguments.first.map(eval)?.dictionary else { break }
            // Tuist's helpers merge with `{ _, new in new }`: the later value wins.
            return .dictionary(a.filter { pair in !other.contains { $0.key == pair.key } } + other)
        default: break
        }
        return unknown("\(base.sketch).\(name)(…) is not followed", near: name)
    }

    /// The function of `path` whose parameters take these labels (the others having defaults).
    private func function(_ path: [String], labels: [String]) -> Function? {
        functions[path]?.first { f in
            var i = 0
            for p in f.params {
                if i < labels.count, labels[i] == p.label { i += 1 } else if p.defaultValue == nil { return false }
            }
            return i == labels.count
        }
    }

    private func invoke(_ f: Function, name: String, labels: [String], arguments: [TuistValue]) -> TuistValue {
        let callSite = site(name.split(separator: ".").last.map(String.init))
        guard frames.count < Self.maxCallDepth else { return .unknown("\(name)(…): helpers call each other deeper than \(Self.maxCallDepth) levels", at: callSite) }
        var frame = Frame(scope: f.scope, file: f.file, ranges: f.range.map { [$0] } ?? [])
        frame.locals = bind(f, labels: labels, arguments: arguments)
        frames.append(frame)
        let result = run(f.body)
        frames.removeLast()
        // Said where the helper gives up, and where it was called from.
        if case .unknown(let why, let at)? = result, !why.contains(" called at ") { return .unknown("\(why) (in \(name)(…), called at \(callSite))", at: at) }
        return result ?? .unknown("\(name)(…) returns no value the reader follows", at: callSite)
    }

    /// The parameters' values: each argument by its label, else the parameter's default (read in the function's scope).
    private func bind(_ f: Function, labels: [String], arguments: [TuistValue]) -> [String: TuistValue] {
        var frame = Frame(scope: f.scope, file: f.file, ranges: f.range.map { [$0] } ?? [])
        var i = 0
        for p in f.params {
            if i < labels.count, labels[i] == p.label { frame.locals[p.name] = arguments[i]; i += 1 } else if let d = p.defaultValue {
                frames.append(frame)
                let value = eval(d)
                frames.removeLast()
                frame.locals[p.name] = value
            }
        }
        return frame.locals
    }
}
