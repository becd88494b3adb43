/// The statements of a helper's body, as `TuistEvaluator` runs them: `let`/`var`, `x = …`,
/// `x += …`, `x.append(…)`, `return`, and `if`/`guard` on a Bool it knows. Any other statement is
/// not run: each local it changes becomes unknown, with where and why.
extension TuistEvaluator {
    /// Runs a body: what its `return` gives (or its one expression); nil when it returns nothing.
    func run(_ body: SwiftASTNode?) -> TuistValue? {
        guard let body else { return nil }
        let elements = body.children("elements")
        if elements.count == 1, elements[0].kind.hasSuffix("_expr"), !isMutation(elements[0]) { return eval(elements[0]) }
        for element in elements { if let result = execute(element) { return result } }
        return nil
    }

    private func execute(_ node: SwiftASTNode) -> TuistValue? {
        if let r = node.range { frames[frames.count - 1].ranges.append(r) }
        defer { if node.range != nil { frames[frames.count - 1].ranges.removeLast() } }
        switch node.kind {
        case "pattern_binding_decl":
            for entry in node.children("pattern_entries") {
                guard let name = entry.child("pattern").flatMap(Self.patternName) else { continue }
                let value = entry.child("original_init").map(eval) ?? .null
                frames[frames.count - 1].locals[name] = value
            }
        case "return_stmt": return node.child("result").map(eval) ?? .null
        case "brace_stmt", "do_stmt":
            for element in node.child("body")?.children("elements") ?? node.children("elements") { if let r = execute(element) { return r } }
        case "if_stmt", "guard_stmt":
            let conditions = node.children("conditions")
            let decided = conditions.count == 1 && conditions[0].kind.hasSuffix("_expr") ? eval(conditions[0]) : nil
            if case .bool(let holds)? = decided {
                if node.kind == "guard_stmt" { return holds ? nil : (run(node.child("body")) ?? .null) }
                let branch = holds ? node.child("then_stmt") : node.child("else_stmt")
                guard let branch else { return nil }
                return branch.kind == "if_stmt" ? execute(branch) : run(branch)
            }
            if node.kind == "guard_stmt" { return nil } // a precondition the reader cannot decide: taken as met
            return undecided(node, why: "only when a condition holds that the reader does not decide")
        case _ where node.kind.hasSuffix("_stmt"):
            return undecided(node, why: "inside a \(node.kind.replacingOccurrences(of: "_stmt", with: "").replacingOccurrences(of: "_", with: " ")) statement, which the reader does not run")
        case _ where node.kind.hasSuffix("_expr"): mutate(node)
        default: break
        }
        return nil
    }

    /// A statement the reader does not run: each local it changes becomes unknown, and so does
    /// the function's result when it returns from inside.
    private func undecided(_ node: SwiftASTNode, why: String) -> TuistValue? {
        var changed = Set<String>(), returns = false
        func walk(_ n: SwiftASTNode) {
            if n.kind == "return_stmt" { returns = true }
            if let target = mutationTarget(n) { changed.insert(target) }
            for (_, child) in n.children where child.kind != "closure_expr" { walk(child) }
        }
        walk(node)
        for name in changed.sorted() where frames[frames.count - 1].locals[name] != nil {
            frames[frames.count - 1].locals[name] = unknown("\(name) is changed \(why)", near: name)
        }
        return returns ? unknown("the value is returned \(why)", near: nil) : nil
    }

    private func isMutation(_ node: SwiftASTNode) -> Bool { mutationTarget(node) != nil }

    /// The local `x = …`, `x += …`, `x.append(…)` changes.
    private func mutationTarget(_ node: SwiftASTNode) -> String? {
        if node.kind == "sequence_expr" {
            let parts = node.children("elements")
            guard parts.count == 3, parts[0].kind == "unresolved_decl_ref_expr",
                  parts[1].kind == "assign_expr" || ["+=", "-="].contains(parts[1]["name"] ?? "") else { return nil }
            return parts[0]["name"]
        }
        if node.kind == "call_expr", let fn = node.child("fn"), fn.kind == "unresolved_dot_expr",
           ["append", "insert", "removeAll", "remove", "merge"].contains(String((fn["field"] ?? "").prefix { $0 != "(" })),
           let base = fn.child("base"), base.kind == "unresolved_decl_ref_expr" {
            return base["name"]
        }
        return nil
    }

    private func mutate(_ node: SwiftASTNode) {
        guard let name = mutationTarget(node), let current = frames[frames.count - 1].locals[name] else { _ = eval(node); return }
        var updated: TuistValue
        if node.kind == "sequence_expr" {
            let parts = node.children("elements")
            let value = eval(parts[2])
            if parts[1].kind == "assign_expr" { updated = value } else if case .text(let a) = current, case .text(let b) = value { updated = .text(a + b) } else {
                updated = extended(current, with: value, name: name)
            }
        } else {
            let fn = node.child("fn")!
            let field = String((fn["field"] ?? "").prefix { $0 != "(" })
            let args = node.child("args")?.children("args") ?? []
            let value = args.first?.child("expr").map(eval) ?? .null
            switch (field, current, args.first?["label"] ?? "") {
            case (_, .unknown, _): updated = current
            case ("append", _, "contentsOf"): updated = extended(current, with: value, name: name)
            case ("append", .array(let a), ""): updated = .array(a + [value])
            default: updated = unknown("\(name).\(field)(…) is not followed", near: field)
            }
        }
        frames[frames.count - 1].locals[name] = updated
    }

    /// `x += y`, `x.append(contentsOf: y)`: a list not followed is kept as one unknown element, so the rest is still read.
    private func extended(_ current: TuistValue, with value: TuistValue, name: String) -> TuistValue {
        switch (current, value) {
        case (.unknown, _): return current
        case (.array(let a), .array(let b)): return .array(a + b)
        case (.array(let a), .unknown): return .array(a + [value])
        default: return unknown("\(name) is extended with \(value.sketch), which is not a list", near: name)
        }
    }
}
