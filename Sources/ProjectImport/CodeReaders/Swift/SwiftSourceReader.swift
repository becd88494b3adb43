import Foundation

/// Reads one Swift file's facts from swiftc's parse-only AST: its declarations become bindings
/// under their scope (`AppDelegate.register().reply`), its expressions `CodeValue`s, each call
/// placed at its name's position in the file.
final class SwiftSourceReader {
    private let text: SwiftSourceText
    private var facts = SourceFacts()
    private var scope: [String] = []
    /// The byte ranges of the declarations and statements being read, innermost last.
    private var ranges: [(start: Int, end: Int)] = []
    /// Per name, how many of its occurrences in the file calls have been placed at.
    private var used: [String: Int] = [:]
    private var lastSite: CodeSite
    /// Per function, getter or closure being read, what its `return`s give.
    private var returns: [[CodeValue]] = []
    private var closures = 0

    static let castKinds: Set<String> = ["conditional_checked_cast_expr", "forced_checked_cast_expr", "coerce_expr"]
    static let transparentKinds: Set<String> = ["paren_expr", "bind_optional_expr", "optional_evaluation_expr", "force_value_expr", "try_expr", "optional_try_expr", "force_try_expr", "await_expr", "dot_self_expr"]
    static let typeKinds: Set<String> = ["class_decl", "struct_decl", "enum_decl", "protocol_decl", "actor_decl"]

    /// The facts of `bytes` (the file's text with `#if` decided), from swiftc's `parse` of it;
    /// `file` is the path problems name.
    static func read(_ bytes: [UInt8], file: String, parse: SwiftcParser.Parse) -> SourceFacts {
        let reader = SwiftSourceReader(SwiftSourceText(bytes, file: file))
        for e in parse.errors {
            reader.facts.problems.append("\(file):\(e.line):\(e.column): Swift syntax error: \(e.message); the rest of the file is read, what the error hides is not")
        }
        if let failure = parse.failure { reader.facts.problems.append("\(file): \(failure)") }
        if let root = parse.root { reader.visit(root) }
        return reader.facts
    }

    private init(_ text: SwiftSourceText) {
        self.text = text
        lastSite = text.site(0)
    }

    // MARK: Declarations and statements

    private func visit(_ node: SwiftASTNode) {
        if let r = node.range { ranges.append(r) }
        defer { if node.range != nil { ranges.removeLast() } }
        if node.kind.hasSuffix("_expr") { facts.collect(expr(node)); return }
        switch node.kind {
        case "import_decl": facts.declaredNames.formUnion(node.stringLists["module_path"] ?? [])
        case "enum_case_decl", "operator_decl", "precedence_group_decl": return
        case _ where Self.typeKinds.contains(node.kind):
            guard let name = node.declName else { return }
            facts.declaredNames.insert(name)
            inScope([name]) {
                if node.kind == "enum_decl" { enumRawValues(node) }
                node.children("members").forEach(visit)
            }
        case "extension_decl":
            let names = (node["extended_type"] ?? "").split(separator: ".").map(String.init)
            inScope(names) { node.children("members").forEach(visit) }
        case "pattern_binding_decl":
            for entry in node.children("pattern_entries") {
                guard let value = entry.child("original_init").map(expr) else { continue }
                facts.collect(value)
                if let name = entry.child("pattern").flatMap(patternName) { facts.bindings.append(.init(path: scope + [name], value: value)) }
            }
        case "var_decl":
            guard let name = node.declName else { return }
            facts.declaredNames.insert(name)
            for accessor in node.children("accessors") {
                let result = body(accessor.child("body"), scope: name)
                if accessor["get"] == "true", let result {
                    facts.bindings.append(.init(path: scope + [name], value: result))
                    if name == "preferredContentSize" { facts.assignments.append(.init(target: .name(name, scope: scope), value: result, site: anchor(name))) }
                }
            }
        case "func_decl", "constructor_decl", "destructor_decl", "subscript_decl", "accessor_decl":
            let name = node.declName ?? (node.kind == "constructor_decl" ? "init" : node.kind)
            // Its parameters: a category made from one is said as such, no file need define it.
            for p in node.child("params")?.children("params") ?? [] { if let n = p.declName { facts.declaredNames.insert(n) } }
            if let result = body(node.child("body"), scope: name), name.hasSuffix("()") { facts.bindings.append(.init(path: scope + [name], value: result)) }
        case "return_stmt":
            guard let result = node.child("result").map(expr) else { return }
            facts.collect(result)
            if !returns.isEmpty { returns[returns.count - 1].append(result) }
        case "if_stmt", "guard_stmt", "while_stmt":
            for condition in node.children("conditions") { self.condition(condition) }
            for (field, child) in node.children where field != "conditions" { visit(child) }
        default:
            for (_, child) in node.children { visit(child) }
        }
    }

    /// `if let a = x`: `a` is bound to `x` (in the enclosing scope: names rarely repeat).
    private func condition(_ node: SwiftASTNode) {
        guard node.kind == "pattern" else { if node.kind.hasSuffix("_expr") { facts.collect(expr(node)) }; return }
        guard let value = node.child("initializer").map(expr) else { return }
        facts.collect(value)
        if let name = node.child("pattern").flatMap(patternName) { facts.bindings.append(.init(path: scope + [name], value: value)) }
    }

    /// Reads a function's or getter's body in its own scope; the one value it returns, if it has
    /// exactly one `return` (or is a single expression).
    private func body(_ node: SwiftASTNode?, scope name: String) -> CodeValue? {
        let results = returnsOf(node, scope: name)
        return results.count == 1 ? results[0] : nil
    }

    private func inScope(_ names: [String], _ read: () -> Void) {
        scope += names
        read()
        scope.removeLast(names.count)
    }

    private func patternName(_ node: SwiftASTNode) -> String? {
        if node.kind == "pattern_named" { return node.declName }
        return node.child("sub_pattern").flatMap(patternName)
    }

    /// Each case's raw value: the literal after `=` (the case's range ends at it), or, in an enum
    /// whose raw type is String, the case's name. The AST has neither the raw values nor the raw type.
    private func enumRawValues(_ node: SwiftASTNode) {
        guard let range = node.range else { return }
        let header = text.bytes[range.start..<min(range.end + 1, text.bytes.count)].prefix { $0 != UInt8(ascii: "{") }
        let isString = String(decoding: header, as: UTF8.self).split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).contains("String")
        for element in node.children("members") where element.kind == "enum_element_decl" {
            guard let name = element.declName, let r = element.range else { continue }
            let raw = r.end > r.start ? text.stringLiteral(at: r.end) : (isString ? name : nil)
            if let raw { facts.bindings.append(.init(path: scope + [name], value: .text(raw))) }
        }
    }

    // MARK: Expressions

    /// Where the next occurrence of `name` inside the current declaration or statement is.
    private func anchor(_ name: String) -> CodeSite {
        let range = ranges.last ?? (0, text.bytes.count)
        var site = text.site(range.start)
        if let offsets = text.identifiers[name] {
            var k = used[name] ?? 0
            while k < offsets.count, offsets[k] < range.start { k += 1 }
            if k < offsets.count, offsets[k] <= range.end {
                site = text.site(offsets[k])
                used[name] = k + 1
            }
        }
        lastSite = site
        return site
    }

    private func expr(_ node: SwiftASTNode) -> CodeValue {
        if Self.transparentKinds.contains(node.kind), let sub = node.child("sub_expr") { return expr(sub) }
        switch node.kind {
        case "string_literal_expr": return .text(node["value"] ?? "")
        // `-40` is the literal 40 marked negative.
        case "integer_literal_expr":
            let digits = (node["negative"] == "true" ? "-" : "") + (node["value"] ?? "")
            return Int(digits).map(CodeValue.number) ?? .opaque(digits.isEmpty ? "a number" : digits)
        // Its digits: a size's height may be one (`180.5`).
        case "float_literal_expr": return .opaque((node["negative"] == "true" ? "-" : "") + (node["value"] ?? "a number"))
        case "nil_literal_expr": return .null
        case "interpolated_string_literal_expr":
            // Its segments are `appendLiteral` and `appendInterpolation` calls: "SNOOZE_\(x)" reads
            // as "SNOOZE_" + x; an interpolation with a format or several values is not followed.
            var parts: [CodeValue] = []
            for call in node.child("appending_expr")?.child("body")?.children("elements") ?? [] where call.kind == "call_expr" {
                let (labels, arguments) = argumentList(call.child("args"))
                if call.child("fn")?["field"]?.hasPrefix("appendLiteral") == true, case .text(let t)? = arguments.first { if !t.isEmpty { parts.append(.text(t)) }; continue }
                arguments.forEach { facts.collect($0) }
                parts.append(arguments.count == 1 && labels.allSatisfy(\.isEmpty) ? arguments[0] : .opaque("\\(" + arguments.map(\.sketch).joined(separator: ", ") + ")"))
            }
            return parts.count <= 1 ? parts.first ?? .text("") : .binary("+", parts)
        case "unresolved_decl_ref_expr":
            let name = node["name"] ?? ""
            _ = anchor(name)
            return .name(name, scope: scope)
        case "unresolved_dot_expr":
            let base = node.child("base").map(expr) ?? .opaque("?")
            let field = String((node["field"] ?? "").prefix { $0 != "(" })
            _ = anchor(field)
            return field == "init" ? base : .member(base, field)
        case "unresolved_member_expr":
            let name = node["name"] ?? ""
            _ = anchor(name)
            return .implicitMember(name)
        case "array_expr": return .array(node.children("elements").map(expr))
        case "call_expr":
            let callee = node.child("fn").map(expr) ?? .opaque("?")
            let site = lastSite
            let (labels, arguments) = argumentList(node.child("args"))
            if case .closure(let results) = callee, arguments.isEmpty { return results.count == 1 ? results[0] : .opaque("a closure's result") }
            return .call(CodeCall(callee: callee, labels: labels, arguments: arguments, site: site))
        case "subscript_expr":
            let base = node.child("base").map(expr) ?? .opaque("?")
            let (_, arguments) = argumentList(node.child("args"))
            return arguments.count == 1 ? .subscripted(base, key: arguments[0]) : .opaque("a subscript")
        case "sequence_expr": return sequence(node.children("elements"))
        case "closure_expr":
            for p in node.child("params")?.children("params") ?? [] { if let n = p.declName { facts.declaredNames.insert(n) } }
            closures += 1
            let results = returnsOf(node.child("body"), scope: "{closure#\(closures)}")
            return .closure(results: results)
        case "key_path_expr": return .opaque("a key path")
        default:
            // Not followed, but what it holds is still read (a `map { … }`'s calls, a tuple's).
            for (_, child) in node.children { if child.kind.hasSuffix("_expr") { facts.collect(expr(child)) } else { visit(child) } }
            return .opaque(node.kind.replacingOccurrences(of: "_expr", with: "").replacingOccurrences(of: "_", with: " "))
        }
    }

    /// Reads a body (a function's, getter's, closure's) in its own scope: what its `return`s give,
    /// or its one expression.
    private func returnsOf(_ body: SwiftASTNode?, scope name: String) -> [CodeValue] {
        var all: [CodeValue] = []
        inScope([name]) {
            returns.append([])
            if let body {
                let elements = body.children("elements")
                if elements.count == 1, elements[0].kind.hasSuffix("_expr") {
                    if let r = body.range { ranges.append(r) }
                    let value = expr(elements[0])
                    if body.range != nil { ranges.removeLast() }
                    facts.collect(value)
                    returns[returns.count - 1].append(value)
                } else {
                    visit(body)
                }
            }
            all = returns.removeLast()
        }
        return all
    }

    private func argumentList(_ node: SwiftASTNode?) -> ([String], [CodeValue]) {
        let args = node?.children("args") ?? []
        return (args.map { $0["label"] ?? "" }, args.map { $0.child("expr").map(expr) ?? .opaque("?") })
    }

    /// `a = b`, `a + b`, `x as? T ?? y`: the parser leaves operators unfolded, in source order.
    private func sequence(_ elements: [SwiftASTNode]) -> CodeValue {
        let parts = elements.filter { !Self.castKinds.contains($0.kind) }
        if parts.count == 1 { return expr(parts[0]) }
        if parts.count >= 3, parts[1].kind == "assign_expr" {
            let target = expr(parts[0])
            let site = lastSite
            let value = sequence(Array(parts[2...]))
            facts.collectAssigned(target)
            facts.collect(value)
            if case .name(let name, _) = target { facts.bindings.append(.init(path: scope + [name], value: value)) }
            // `self.iconURL = …` in an initializer binds the property as `iconURL = …` does.
            // (`self.userInfo = userInfo` copies the parameter of that name: no binding to itself.)
            if case .member(.name("self", _), let name) = target, value.namePath?.path != [name] { facts.bindings.append(.init(path: scope + [name], value: value)) }
            // A name too: `preferredContentSize = …` in a view controller is its own property's.
            facts.assignments.append(.init(target: target, value: value, site: site))
            return .opaque("an assignment")
        }
        let operators = stride(from: 1, to: parts.count, by: 2).map { parts[$0] }
        if parts.count % 2 == 1, let op = operators.first?["name"], ["+", "??", "|", "+="].contains(op),
           operators.allSatisfy({ $0.kind == "unresolved_decl_ref_expr" && $0["name"] == op }) {
            return .binary(op, stride(from: 0, to: parts.count, by: 2).map { expr(parts[$0]) })
        }
        for part in parts where part.kind != "unresolved_decl_ref_expr" || part["name"]?.first?.isLetter == true { facts.collect(expr(part)) }
        return .opaque("an expression with operators")
    }
}
