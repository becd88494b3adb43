/// Reads a TypeScript/JavaScript or Dart file's tree (from `TreeSitterChild`) into the facts the
/// Swift and Objective-C readers give (`SourceFacts`): the constants it binds, and, kept beside
/// them, the calls of the notification libraries that register categories (expo-notifications,
/// react-native-notifications, notifee, push-notification-ios, @capacitor/local-notifications,
/// flutter_local_notifications), which `ScriptCategories` turns into `UNNotificationCategory`
/// constructions. A JS object literal or a Dart map reads as a call of `{}` labelled by its keys.
/// Values nested past `maxDepth` are opaque (said where they matter), so no input recurses far.
struct ScriptSourceReader {
    enum Kind { case script, dart }

    static let maxDepth = 48
    /// The calls whose arguments `ScriptCategories` reads.
    static let libraryCalls: Set<String> = ["setNotificationCategoryAsync", "setCategories", "setNotificationCategories", "registerActionTypes", "DarwinNotificationCategory"]
    /// What a file must mention to be parsed for categories.
    static let words = ["setNotificationCategoryAsync", "setCategories", "setNotificationCategories", "registerActionTypes", "DarwinNotificationCategory"]

    struct Result {
        var facts = SourceFacts()
        var calls: [CodeCall] = []
        /// Object literals with a key an app config or an extension target's config has (`plugins`,
        /// `ios`, `bundleIdentifier`, `type`), for reading Expo's config files without running them.
        var configObjects: [CodeCall] = []
    }
    static let configKeys: Set<String> = ["plugins", "ios", "bundleIdentifier", "type", "expo"]

    let nodes: [ScriptNode]
    let file: String
    let kind: Kind
    private var parents: [Int]
    /// Names this file imports (`import X from`, `import * as X`, `import {X}`): `X.name` is read as
    /// the `name` another file of the app exports (a constants module), found by that name.
    private var imported: Set<String> = []

    init(nodes: [ScriptNode], file: String, kind: Kind) {
        self.nodes = nodes
        self.file = file
        self.kind = kind
        var parents = Array(repeating: -1, count: nodes.count)
        for (i, n) in nodes.enumerated() { for c in n.children { parents[c] = i } }
        self.parents = parents
        for n in nodes where n.type == "import_clause" || n.type == "namespace_import" || n.type == "import_specifier" {
            for c in n.children where nodes[c].type == "identifier" { imported.insert(nodes[c].text ?? "") }
        }
    }

    static let classTypes: Set<String> = ["class_declaration", "class", "abstract_class_declaration", "class_definition", "extension_declaration", "mixin_declaration"]

    /// The enclosing classes' names, outermost first (the scope names are looked up from).
    private func scope(_ i: Int) -> [String] {
        var names: [String] = [], p = parents[i], steps = 0
        while p >= 0, steps < 256 {
            if Self.classTypes.contains(nodes[p].type), let name = named(p, "name") ?? nodes[p].children.first(where: { nodes[$0].type == "identifier" || nodes[$0].type == "type_identifier" }) {
                names.append(text(name))
            }
            p = parents[p]
            steps += 1
        }
        return names.reversed()
    }

    static func read(_ parse: TreeSitterChild.Parse, file: String, kind: Kind) -> Result {
        var result = Result()
        if let failure = parse.failure { result.facts.problems.append("\(file): \(failure)"); return result }
        if let e = parse.errors.first { result.facts.problems.append("\(file):\(e.line):\(e.column): tree-sitter could not parse the code here; the rest of the file is read") }
        let reader = ScriptSourceReader(nodes: parse.nodes, file: file, kind: kind)
        reader.collect(into: &result)
        return result
    }

    private func site(_ i: Int) -> CodeSite { CodeSite(file: file, line: nodes[i].line, column: nodes[i].column) }
    private func named(_ i: Int, _ field: String) -> Int? { nodes[i].children.first { nodes[$0].field == field } }
    private func text(_ i: Int) -> String { nodes[i].text ?? "" }

    /// Every node once, in order (an index loop: the tree is flat).
    private func collect(into result: inout Result) {
        for i in nodes.indices {
            let n = nodes[i]
            if kind == .dart {
                // A chain `DarwinNotificationCategory(…)` is flat: an identifier, then its selectors.
                for group in groups(n.children) where nodes[group[0]].type == "identifier" && text(group[0]) == "DarwinNotificationCategory" && group.count > 1 {
                    if case .call(let call) = dartValue(group, 0) { result.calls.append(call) }
                }
            }
            switch (kind, n.type) {
            case (.script, "variable_declarator"):
                if let name = named(i, "name"), nodes[name].type == "identifier", let v = named(i, "value") { bind(scope(i) + [text(name)], value(v, 0), into: &result) }
            case (.script, "public_field_definition"), (.script, "field_definition"):
                if let name = named(i, "name") ?? named(i, "property"), let v = named(i, "value") {
                    bind(scope(i) + [text(name)], value(v, 0), into: &result)
                }
            case (_, "return_statement"):
                // A function or method that returns one value reads as that value (`makeCategory()`).
                guard let v = n.children.first, let fn = enclosing(function: i), let name = named(fn, "name") ?? named(fn, "property") ?? nodes[fn].children.first(where: { nodes[$0].type == "identifier" }) else { break }
                bind(scope(fn) + [text(name) + "()"], kind == .script ? value(v, 0) : dartValue(groups(n.children).first ?? [v], 0), into: &result)
            case (.script, "enum_declaration"):
                guard let name = named(i, "name"), let body = named(i, "body") else { break }
                for member in nodes[body].children {
                    if nodes[member].type == "enum_assignment", let key = named(member, "name"), let v = named(member, "value") {
                        bind([text(name), unquoted(key)], value(v, 0), into: &result)
                    } else if nodes[member].type == "property_identifier" {
                        bind([text(name), text(member)], .opaque("a numeric enum member"), into: &result)
                    }
                }
            case (.script, "object"):
                if case .call(let c) = value(i, 0), c.labels.contains(where: Self.configKeys.contains) { result.configObjects.append(c) }
            case (.script, "call_expression"), (.script, "new_expression"):
                if case .call(let call) = value(i, 0), let name = call.name, Self.libraryCalls.contains(name) { result.calls.append(call) }
            case (.dart, "static_final_declaration"), (.dart, "initialized_identifier"):
                let children = n.children
                guard let first = children.first, nodes[first].type == "identifier", children.count > 1 else { break }
                bind(scope(i) + [text(first)], dartValue(Array(children.dropFirst()), 0), into: &result)
            case (.dart, "const_object_expression"), (.dart, "new_expression"):
                if case .call(let call) = dartValue([i], 0), call.name == "DarwinNotificationCategory" { result.calls.append(call) }
            default: break
            }
        }
    }

    /// A binding, and for an object literal each of its keys (`IDS.REPLY`), a few levels down.
    private func bind(_ path: [String], _ value: CodeValue, into result: inout Result, depth: Int = 0) {
        result.facts.bindings.append(.init(path: path, value: value))
        var value = value
        // react-intl's `defineMessages({reply: {id, defaultMessage}})` is its object.
        if case .call(let c) = value, ["defineMessages", "defineMessage"].contains(c.name), c.arguments.count == 1 { value = c.arguments[0] }
        guard depth < 4, case .call(let c) = value, case .name("{}", _) = c.callee else { return }
        for (label, v) in zip(c.labels, c.arguments) where !label.isEmpty { bind(path + [label], v, into: &result, depth: depth + 1) }
    }

    static let functionTypes: Set<String> = ["method_definition", "function_declaration", "function_definition", "method_signature", "function_signature"]

    /// The nearest enclosing named function or method of a `return` (not a closure's).
    private func enclosing(function i: Int) -> Int? {
        var p = parents[i], steps = 0
        while p >= 0, steps < 256 {
            if ["arrow_function", "function_expression", "function"].contains(nodes[p].type) {
                // `make = () => { return … }` (a class field or a constant holding the function) is named by what holds it.
                let holder = parents[p]
                if holder >= 0, ["public_field_definition", "field_definition", "variable_declarator"].contains(nodes[holder].type) { return holder }
                return nil
            }
            if ["function_expression_body", "lambda_expression"].contains(nodes[p].type) { return nil }
            if Self.functionTypes.contains(nodes[p].type) { return p }
            // Dart: a method's body follows its signature as a sibling.
            if nodes[p].type == "function_body", let parent = parents[p] >= 0 ? parents[p] : nil,
               let k = nodes[parent].children.firstIndex(of: p), k > 0 {
                let sig = nodes[parent].children[k - 1]
                if ["method_signature", "function_signature"].contains(nodes[sig].type) {
                    return nodes[sig].children.first { Self.functionTypes.contains(nodes[$0].type) } ?? sig
                }
            }
            p = parents[p]
            steps += 1
        }
        return nil
    }

    // MARK: TypeScript / JavaScript

    private func value(_ i: Int, _ depth: Int) -> CodeValue {
        guard depth < Self.maxDepth else { return .opaque("a value nested over \(Self.maxDepth) deep") }
        let n = nodes[i], d = depth + 1
        switch n.type {
        case "string": return .text(Self.unescape(String(text(i).dropFirst().dropLast())))
        case "template_string":
            let t = text(i)
            return t.contains("${") ? .opaque("the template string \(t.prefix(40))") : .text(Self.unescape(String(t.dropFirst().dropLast())))
        case "number": return Int(text(i)).map(CodeValue.number) ?? .opaque(text(i))
        case "true", "false": return .name(n.type, scope: [])
        case "null", "undefined": return .null
        case "identifier", "property_identifier", "shorthand_property_identifier", "type_identifier": return .name(text(i), scope: scope(i))
        case "this": return .name("self", scope: scope(i))
        case "member_expression":
            guard let o = named(i, "object"), let p = named(i, "property") else { return .opaque(n.type) }
            if nodes[o].type == "identifier", imported.contains(text(o)) { return .name(text(p), scope: []) }
            return .member(value(o, d), text(p))
        case "subscript_expression":
            guard let o = named(i, "object"), let k = named(i, "index") else { return .opaque(n.type) }
            let key = value(k, d)
            if case .text(let s) = key { return .member(value(o, d), s) }
            return .subscripted(value(o, d), key: key)
        case "call_expression", "new_expression":
            guard let f = named(i, "function") ?? named(i, "constructor") else { return .opaque(n.type) }
            let args = named(i, "arguments").map { nodes[$0].children.filter { nodes[$0].type != "comment" } } ?? []
            return .call(CodeCall(callee: value(f, d), labels: args.map { _ in "" }, arguments: args.map { value($0, d) }, site: site(i)))
        case "array": return .array(n.children.filter { nodes[$0].type != "comment" }.map { value($0, d) })
        case "object":
            var labels: [String] = [], values: [CodeValue] = []
            for c in n.children {
                switch nodes[c].type {
                case "pair":
                    guard let k = named(c, "key"), let v = named(c, "value") else { continue }
                    labels.append(unquoted(k))
                    values.append(value(v, d))
                case "shorthand_property_identifier":
                    labels.append(text(c))
                    values.append(.name(text(c), scope: []))
                case "comment": continue
                default:
                    labels.append("")
                    values.append(.opaque("`...` spread into an object"))
                }
            }
            return .call(CodeCall(callee: .name("{}", scope: []), labels: labels, arguments: values, site: site(i)))
        case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression", "await_expression", "type_assertion":
            return n.children.first.map { value($0, d) } ?? .opaque(n.type)
        case "binary_expression" where n.text == "+":
            return .binary("+", n.children.map { value($0, d) })
        case "ternary_expression": return .opaque("a choice made at run time (`? :`) at \(site(i))")
        case "arrow_function", "function_expression", "function": return .closure(results: [])
        default: return .opaque("a \(n.type.replacingOccurrences(of: "_", with: " ")) at \(site(i))")
        }
    }

    /// A key as written: `a`, `'a'`, `"a"`.
    private func unquoted(_ i: Int) -> String {
        switch nodes[i].type {
        case "string", "string_literal": return Self.unescape(String(text(i).dropFirst().dropLast()))
        default: return text(i)
        }
    }

    static func unescape(_ s: String) -> String {
        guard s.contains("\\") else { return s }
        var out = "", escaped = false
        for ch in s {
            if escaped {
                switch ch { case "n": out.append("\n"); case "t": out.append("\t"); default: out.append(ch) }
                escaped = false
            } else if ch == "\\" { escaped = true } else { out.append(ch) }
        }
        return out
    }

    // MARK: Dart

    /// Sibling nodes as expressions: each that is not a selector starts one, its selectors follow.
    private func groups(_ children: [Int]) -> [[Int]] {
        var out: [[Int]] = []
        for c in children where !["type_arguments", "comment", "label"].contains(nodes[c].type) {
            if nodes[c].type == "selector", !out.isEmpty { out[out.count - 1].append(c) } else { out.append([c]) }
        }
        return out
    }

    private func dartValue(_ group: [Int], _ depth: Int) -> CodeValue {
        guard depth < Self.maxDepth, let first = group.first else { return .opaque("a value nested over \(Self.maxDepth) deep") }
        var v = dartPrimary(first, depth + 1)
        for s in group.dropFirst() {
            guard let part = nodes[s].children.first else { continue }
            switch nodes[part].type {
            case "unconditional_assignable_selector", "conditional_assignable_selector":
                if let name = nodes[part].children.first { v = .member(v, text(name)) }
            case "argument_part":
                guard let args = nodes[part].children.first(where: { nodes[$0].type == "arguments" }) else { continue }
                let (labels, values) = dartArguments(args, depth + 1)
                v = .call(CodeCall(callee: v, labels: labels, arguments: values, site: site(group[0])))
            default: v = .opaque("`\(nodes[part].type)` after \(v.sketch)")
            }
        }
        return v
    }

    private func dartArguments(_ args: Int, _ depth: Int) -> ([String], [CodeValue]) {
        var labels: [String] = [], values: [CodeValue] = []
        for a in nodes[args].children {
            if nodes[a].type == "named_argument" {
                let label = nodes[a].children.first { nodes[$0].type == "label" }.flatMap { nodes[$0].children.first }.map(text) ?? ""
                labels.append(label)
                values.append(dartValue(groups(nodes[a].children).first ?? [], depth))
            } else if nodes[a].type == "argument" {
                labels.append("")
                values.append(dartValue(groups(nodes[a].children).first ?? [], depth))
            }
        }
        return (labels, values)
    }

    private func dartPrimary(_ i: Int, _ depth: Int) -> CodeValue {
        let n = nodes[i]
        switch n.type {
        case "string_literal": return Self.dartString(text(i)).map(CodeValue.text) ?? .opaque("the interpolated string \(text(i).prefix(40))")
        case "decimal_integer_literal": return Int(text(i)).map(CodeValue.number) ?? .opaque(text(i))
        case "true", "false": return .name(n.type, scope: [])
        case "null_literal": return .null
        case "identifier", "type_identifier": return .name(text(i), scope: scope(i))
        case "this": return .name("self", scope: scope(i))
        case "list_literal": return .array(groups(n.children).map { dartValue($0, depth) })
        case "set_or_map_literal":
            let pairs = n.children.filter { nodes[$0].type == "pair" }
            if pairs.isEmpty { return .array(groups(n.children).map { dartValue($0, depth) }) }
            var labels: [String] = [], values: [CodeValue] = []
            for p in pairs {
                guard let k = named(p, "key"), let v = named(p, "value") else { continue }
                labels.append(Self.dartString(text(k)) ?? text(k))
                values.append(dartValue([v], depth))
            }
            return .call(CodeCall(callee: .name("{}", scope: []), labels: labels, arguments: values, site: site(i)))
        case "const_object_expression", "new_expression":
            guard let type = n.children.first(where: { nodes[$0].type == "type_identifier" }), let args = n.children.first(where: { nodes[$0].type == "arguments" }) else { return .opaque(n.type) }
            var callee = CodeValue.name(text(type), scope: [])
            if let ctor = n.children.first(where: { nodes[$0].type == "identifier" }) { callee = .member(callee, text(ctor)) }
            let (labels, values) = dartArguments(args, depth)
            return .call(CodeCall(callee: callee, labels: labels, arguments: values, site: site(i)))
        case "parenthesized_expression": return groups(n.children).first.map { dartValue($0, depth) } ?? .opaque(n.type)
        case "additive_expression" where n.children.contains { nodes[$0].type == "additive_operator" && nodes[$0].text == "+" }:
            return .binary("+", groups(n.children.filter { nodes[$0].type != "additive_operator" }).map { dartValue($0, depth) })
        case "conditional_expression": return .opaque("a choice made at run time (`? :`) at \(site(i))")
        default: return .opaque("a \(n.type.replacingOccurrences(of: "_", with: " ")) at \(site(i))")
        }
    }

    /// A Dart string literal's value: `'a'`, `"a"`, `'''a'''`, `r'a'`; nil when it interpolates.
    static func dartString(_ literal: String) -> String? {
        var s = Substring(literal), raw = false
        if s.hasPrefix("r") { raw = true; s = s.dropFirst() }
        for quote in ["'''", "\"\"\"", "'", "\""] where s.hasPrefix(quote) && s.hasSuffix(quote) && s.count >= 2 * quote.count {
            let body = String(s.dropFirst(quote.count).dropLast(quote.count))
            if raw { return body }
            // `$name` / `${…}` interpolate; `\$` is a dollar sign.
            var unescapedDollars = body
            unescapedDollars = unescapedDollars.replacingOccurrences(of: "\\$", with: "")
            if unescapedDollars.contains("$") { return nil }
            return unescape(body)
        }
        return nil
    }
}
