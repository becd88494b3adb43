import Checked
import Foundation

/// Reads one Objective-C file's facts from its tokens: a reader of statements and message sends,
/// not a full parser. It knows methods and functions (their scope), declarations with an
/// initializer (`UNNotificationAction *a = …`, `NSString *const X = @"…"`), assignments, `return`,
/// and expressions built of message sends (`[Class selector:arg …]`), calls, literals (`@"…"`,
/// `@[…]`), dot access, subscripts and `|`. Message sends read as Swift does: `[UNNotificationAction
/// actionWithIdentifier:a title:b options:c]` is a call `UNNotificationAction(identifier:title:options:)`.
/// Under a budget: expressions nested past `maxDepth` (50,000 `@[` overflowed the stack) or work
/// past `stepsPerToken` a token (a statement tried again at every token went quadratic) stop the
/// file with a problem at the place, and what was read before it is kept.
final class ObjCSourceReader {
    /// Real code nests a dozen; each level is a handful of stack frames.
    static let maxDepth = 128
    static let stepsPerToken = 64
    private let source: ObjCTokenizer
    private var tokens: [ObjCTokenizer.Token] { source.tokens }
    private let file: String
    private(set) var facts = SourceFacts()
    private var scope: [String] = []
    private var returns: [[CodeValue]] = []
    /// Expression depth, and steps taken (the work counter).
    private(set) var budget: InputBudget
    /// Set when the budget ran out: every loop and rule stops.
    private var stopped = false

    static let keywords: Set<String> = ["if", "else", "for", "while", "do", "switch", "case", "default", "break", "continue", "goto", "typedef", "struct", "enum", "union", "sizeof", "in"]
    static let binaryOperators: Set<String> = ["|", "&", "+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "&&", "||", "<<", ">>", "^"]

    static func read(_ bytes: [UInt8], file: String) -> SourceFacts { reader(bytes, file: file).facts }

    /// The reader after reading `bytes`, for its facts and its budget.
    static func reader(_ bytes: [UInt8], file: String) -> ObjCSourceReader {
        let reader = ObjCSourceReader(ObjCTokenizer(bytes), file: file)
        for d in reader.source.defines { reader.facts.bindings.append(.init(path: [d.name], value: d.value)) }
        reader.readFile()
        return reader
    }

    private init(_ source: ObjCTokenizer, file: String) {
        self.source = source
        self.file = file
        budget = InputBudget(maxDepth: Self.maxDepth, maxSize: Self.stepsPerToken * (source.tokens.count + 64), unit: "steps reading it")
    }

    /// `n` steps of work at token `i`; false (and the file stopped, said) past the budget.
    private func spend(_ n: Int, at i: Int) -> Bool {
        guard !stopped else { return false }
        do { try budget.count(n) } catch { stop(error, at: i); return false }
        return true
    }

    private func stop(_ exceeded: InputBudget.Exceeded, at i: Int) {
        stopped = true
        facts.problems.append("\(site(i)): \(exceeded); the rest of the file is not read")
    }

    private func text(_ i: Int) -> String? { i < tokens.count ? tokens[i].text : nil }
    private func isPunctuation(_ i: Int, _ p: String) -> Bool { i < tokens.count && tokens[i].kind == .punctuation && tokens[i].text == p }
    private func site(_ i: Int) -> CodeSite { source.site(tokens[min(i, tokens.count - 1)].offset, file: file) }

    /// The index past the bracket that closes the one at `i`.
    private func closing(_ i: Int) -> Int {
        let open = tokens[i].text.last.map(String.init) ?? "{"
        let close = ["{": "}", "[": "]", "(": ")"][open] ?? "}"
        var depth = 0, j = i
        defer { _ = spend(j - i, at: i) }
        while j < tokens.count {
            if tokens[j].kind == .punctuation {
                if tokens[j].text.hasSuffix(open) { depth += 1 } else if tokens[j].text == close { depth -= 1; if depth == 0 { return j + 1 } }
            }
            j += 1
        }
        return tokens.count
    }

    // MARK: File level: classes, methods, functions

    private func readFile() {
        var i = 0, className: String?
        // Where the last body ended: a function's parameter list lies after it.
        var afterBody = 0
        while i < tokens.count, spend(1, at: i) {
            let t = tokens[i]
            if t.kind == .atKeyword {
                if ["@implementation", "@interface", "@protocol"].contains(t.text), let name = text(i + 1) {
                    className = name
                    facts.declaredNames.insert(name)
                } else if t.text == "@import", let module = text(i + 1) {
                    facts.declaredNames.insert(module)
                } else if t.text == "@end" {
                    className = nil
                }
                i += 1
            } else if (t.text == "-" || t.text == "+"), t.kind == .punctuation, isPunctuation(i + 1, "(") {
                i = method(from: i, className: className)
            } else if isPunctuation(i, "{") {
                // A function's body follows its `name(…)`; an ivar block or enum's body does not.
                var name: String?
                if i > 0, isPunctuation(i - 1, ")") {
                    // Back to its `(`, not past the last body (`){}){}…` would go back to the start each time).
                    var j = i - 1, depth = 0
                    while j >= afterBody { if isPunctuation(j, ")") { depth += 1 } else if isPunctuation(j, "(") { depth -= 1; if depth == 0 { break } }; j -= 1 }
                    guard spend(i - j, at: i) else { break }
                    if j > 0, depth == 0, tokens[j - 1].kind == .identifier { name = tokens[j - 1].text }
                }
                let end = closing(i) - 1
                scope = (className.map { [$0] } ?? []) + (name.map { [$0 + "()"] } ?? [])
                var k = i + 1
                statements(&k, until: end)
                scope = []
                i = end + 1
                afterBody = i
            } else {
                var k = i
                if !statement(&k, until: tokens.count) { k = i + 1 }
                i = max(k, i + 1)
            }
        }
    }

    /// `- (Type)selector:(T)arg more:(U)arg2 { … }`: its body in scope `[Class, "selector:more:"]`.
    private func method(from start: Int, className: String?) -> Int {
        var i = closing(start + 1), selector = ""
        while i < tokens.count, !isPunctuation(i, "{"), !isPunctuation(i, ";") {
            if tokens[i].kind == .identifier, isPunctuation(i + 1, ":") { selector += tokens[i].text + ":"; i += 2; continue }
            if tokens[i].kind == .identifier, selector.isEmpty { selector = tokens[i].text }
            if isPunctuation(i, "(") {
                i = closing(i)
                if i < tokens.count, tokens[i].kind == .identifier, selector.hasSuffix(":") { facts.declaredNames.insert(tokens[i].text) } // a parameter
                continue
            }
            i += 1
        }
        guard i < tokens.count, isPunctuation(i, "{") else { return i + 1 }
        let end = closing(i) - 1
        scope = (className.map { [$0] } ?? []) + [selector]
        returns.append([])
        var k = i + 1
        statements(&k, until: end)
        let results = returns.removeLast()
        // A method without arguments that returns one value stands for it (`[self replyCategory]`).
        if !selector.hasSuffix(":"), results.count == 1 { facts.bindings.append(.init(path: scope, value: results[0])) }
        scope = []
        return end + 1
    }

    // MARK: Statements

    private func statements(_ i: inout Int, until end: Int) {
        while i < end, spend(1, at: i) {
            let start = i
            if !statement(&i, until: end) || i <= start { i = start + 1 }
        }
    }

    /// Reads one declaration, assignment, `return` or expression at `i`; false when none starts there.
    private func statement(_ i: inout Int, until end: Int) -> Bool {
        guard i < end else { return false }
        if tokens[i].kind == .identifier, tokens[i].text == "return" {
            i += 1
            guard let value = expression(&i, end) else { return true }
            facts.collect(value)
            if !returns.isEmpty { returns[returns.count - 1].append(value) }
            return true
        }
        if let (name, valueStart) = declaration(at: i, end) {
            i = valueStart
            guard let value = expression(&i, end) else { return true }
            facts.collect(value)
            facts.bindings.append(.init(path: scope + [name], value: value))
            return true
        }
        guard startsExpression(i), !(tokens[i].kind == .identifier && Self.keywords.contains(tokens[i].text)) else { return false }
        let targetSite = site(i)
        guard let value = expression(&i, end) else { return false }
        if isPunctuation(i, "=") {
            // `self.label.text = …`
            i += 1
            guard let assigned = expression(&i, end) else { return true }
            facts.collectAssigned(value)
            facts.collect(assigned)
            facts.assignments.append(.init(target: value, value: assigned, site: targetSite))
            return true
        }
        facts.collect(value)
        return true
    }

    /// `Type *name = `, `static NSString *const name = `, `name = `: the name and where its value starts.
    private func declaration(at i: Int, _ end: Int) -> (String, Int)? {
        var j = i, angle = 0
        while j < end, j - i < 16 {
            let t = tokens[j]
            if t.kind == .punctuation {
                switch t.text {
                case "=" where angle == 0:
                    guard j > i, tokens[j - 1].kind == .identifier, !Self.keywords.contains(tokens[j - 1].text) else { return nil }
                    return (tokens[j - 1].text, j + 1)
                case "*": break
                case "<": angle += 1
                case ">": angle -= 1
                case "," where angle > 0: break
                default: return nil
                }
            } else if t.kind != .identifier || (t.text == "return" && j == i) {
                return nil
            }
            j += 1
        }
        return nil
    }

    private func startsExpression(_ i: Int) -> Bool {
        guard i < tokens.count else { return false }
        switch tokens[i].kind {
        case .identifier, .objcString, .string, .number: return true
        case .atKeyword: return ["@selector", "@available", "@encode", "@protocol"].contains(tokens[i].text)
        case .punctuation: return ["[", "(", "@[", "@{", "@(", "^"].contains(tokens[i].text)
        }
    }

    // MARK: Expressions

    private func expression(_ i: inout Int, _ end: Int) -> CodeValue? {
        guard spend(1, at: i) else { return nil }
        do { try budget.enter() } catch { stop(error, at: i); return nil }
        defer { budget.leave() }
        guard let condition = binary(&i, end) else { return nil }
        guard isPunctuation(i, "?") else { return condition }
        i += 1
        let chosen = isPunctuation(i, ":") ? condition : expression(&i, end) // `a ?: b`
        guard isPunctuation(i, ":") else { return nil }
        i += 1
        let other = expression(&i, end)
        for v in [condition, chosen, other].compactMap({ $0 }) { facts.collect(v) }
        return .opaque("a ?: choice")
    }

    private func binary(_ i: inout Int, _ end: Int) -> CodeValue? {
        guard let first = unary(&i, end) else { return nil }
        var operands = [first], operators: [String] = []
        while i < end, tokens[i].kind == .punctuation, Self.binaryOperators.contains(tokens[i].text) {
            let save = i
            i += 1
            guard let next = unary(&i, end) else { i = save; break }
            operators.append(tokens[save].text)
            operands.append(next)
        }
        if operators.isEmpty { return first }
        if operators.allSatisfy({ $0 == "|" }) { return .binary("|", operands) }
        operands.forEach { facts.collect($0) }
        return .opaque("an expression with operators")
    }

    private func unary(_ i: inout Int, _ end: Int) -> CodeValue? {
        guard i < end else { return nil }
        if tokens[i].kind == .punctuation, ["!", "-", "~", "&", "*", "++", "--"].contains(tokens[i].text) {
            i += 1
            guard let operand = expressionOperand(&i, end) else { return nil }
            facts.collect(operand)
            return .opaque("an expression with operators")
        }
        // A cast: `(NSString *)x`, `(id)x`.
        if isPunctuation(i, "("), i + 2 < end, tokens[i + 1].kind == .identifier {
            var j = i + 2
            while j < end, tokens[j].kind == .identifier || isPunctuation(j, "*") { j += 1 }
            if isPunctuation(j, ")"), startsExpression(j + 1), tokens[j + 1].kind != .punctuation || tokens[j + 1].text != "(" || j > i + 2 {
                let save = i
                i = j + 1
                if let value = expressionOperand(&i, end) { return value }
                i = save
            }
        }
        return postfix(&i, end)
    }

    /// An operand of a prefix operator, a cast or a message, one level deeper (`- - - … x` and
    /// `[[[… x] a] b]` nest too).
    private func expressionOperand(_ i: inout Int, _ end: Int) -> CodeValue? {
        guard spend(1, at: i) else { return nil }
        do { try budget.enter() } catch { stop(error, at: i); return nil }
        defer { budget.leave() }
        return unary(&i, end)
    }

    private func postfix(_ i: inout Int, _ end: Int) -> CodeValue? {
        let start = i
        guard var value = primary(&i, end) else { return nil }
        while i < end {
            if (isPunctuation(i, ".") || isPunctuation(i, "->")), i + 1 < end, tokens[i + 1].kind == .identifier {
                value = .member(value, tokens[i + 1].text)
                i += 2
            } else if isPunctuation(i, "[") {
                i += 1
                guard let key = expression(&i, end), isPunctuation(i, "]") else { return nil }
                i += 1
                value = .subscripted(value, key: key)
            } else if isPunctuation(i, "("), case .name = value {
                i += 1
                var arguments: [CodeValue] = []
                while i < end, !isPunctuation(i, ")") {
                    guard let a = expression(&i, end) else { return nil }
                    arguments.append(a)
                    if isPunctuation(i, ",") { i += 1 }
                }
                i += 1
                value = .call(CodeCall(callee: value, labels: Array(repeating: "", count: arguments.count), arguments: arguments, site: site(start)))
            } else if isPunctuation(i, "++") || isPunctuation(i, "--") {
                i += 1
            } else {
                break
            }
        }
        return value
    }

    private func primary(_ i: inout Int, _ end: Int) -> CodeValue? {
        guard i < end else { return nil }
        let t = tokens[i]
        switch t.kind {
        case .identifier:
            i += 1
            switch t.text {
            case "nil", "NULL", "Nil": return .null
            case "YES", "NO", "true", "false": return .opaque(t.text)
            default: return .name(t.text, scope: scope)
            }
        case .number:
            i += 1
            let digits = t.text.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "ul"))
            let n = digits.hasPrefix("0x") ? Int(digits.dropFirst(2), radix: 16) : Int(digits)
            return n.map(CodeValue.number) ?? .opaque(t.text)
        case .objcString, .string:
            var joined = ""
            while i < end, tokens[i].kind == .objcString || tokens[i].kind == .string { joined += tokens[i].text; i += 1 }
            return .text(joined)
        case .atKeyword:
            i += 1
            guard isPunctuation(i, "(") else { return .opaque(t.text) } // `@BUNDLE_ID`: a macro stringized
            i = closing(i)
            return .opaque(t.text + "(…)")
        case .punctuation:
            switch t.text {
            case "@[":
                i += 1
                var items: [CodeValue] = []
                while i < end, !isPunctuation(i, "]") {
                    guard let item = expression(&i, end) else { return nil }
                    items.append(item)
                    if isPunctuation(i, ",") { i += 1 }
                }
                i += 1
                return .array(items)
            case "@{":
                i = closing(i)
                return .opaque("a dictionary literal")
            case "@(", "(":
                i += 1
                guard let inner = expression(&i, end), isPunctuation(i, ")") else { return nil }
                i += 1
                return inner
            case "[": return message(&i, end)
            case "^": return block(&i, end)
            default: return nil
            }
        }
    }

    /// `^(BOOL granted, NSError *error) { … }`: its statements are read (in the enclosing scope).
    private func block(_ i: inout Int, _ end: Int) -> CodeValue? {
        var j = i + 1
        while j < end, !isPunctuation(j, "{"), j - i < 40 { j = isPunctuation(j, "(") ? closing(j) : j + 1 }
        guard isPunctuation(j, "{") else { return nil }
        let close = closing(j) - 1
        returns.append([])
        var k = j + 1
        statements(&k, until: close)
        returns.removeLast()
        i = close + 1
        return .opaque("a block")
    }

    /// `[receiver selector]` or `[receiver part:arg part:arg, variadic, nil]`, as a call.
    private func message(_ i: inout Int, _ end: Int) -> CodeValue? {
        let start = i
        i += 1
        let at = site(i)
        guard let receiver = expressionOperand(&i, end) else { return nil }
        if i + 1 < end, tokens[i].kind == .identifier, isPunctuation(i + 1, "]") {
            let selector = tokens[i].text
            i += 2
            return unaryMessage(receiver, selector, at)
        }
        var parts: [String] = [], arguments: [CodeValue] = []
        while i < end, !isPunctuation(i, "]") {
            var part = ""
            if tokens[i].kind == .identifier { part = tokens[i].text; i += 1 }
            guard isPunctuation(i, ":") else { i = start; return nil }
            i += 1
            guard let argument = expression(&i, end) else { i = start; return nil }
            parts.append(part)
            arguments.append(argument)
            while isPunctuation(i, ",") {
                i += 1
                guard let more = expression(&i, end) else { break }
                if case .null = more { continue }
                parts.append("")
                arguments.append(more)
            }
        }
        guard isPunctuation(i, "]"), !parts.isEmpty else { i = start; return nil }
        i += 1
        return keywordMessage(receiver, parts, arguments, at)
    }

    private static func isClassName(_ v: CodeValue) -> Bool {
        if case .name(let n, _) = v, let first = n.first, first.isUppercase { return true }
        return false
    }

    private func unaryMessage(_ receiver: CodeValue, _ selector: String, _ site: CodeSite) -> CodeValue {
        if ["new", "alloc", "array", "set"].contains(selector), Self.isClassName(receiver) { return .call(CodeCall(callee: receiver, labels: [], arguments: [], site: site)) }
        if ["init", "copy", "mutableCopy", "autorelease", "retain"].contains(selector) { return receiver }
        return .member(receiver, selector)
    }

    /// `[UNNotificationCategory categoryWithIdentifier:…]` → `UNNotificationCategory(identifier:…)`,
    /// `[[NSSet alloc] initWithArray:x]` → `NSSet(array: x)`, `[d objectForKey:k]` → `d[k]`,
    /// `[self.label setText:x]` → an assignment, others `receiver.part(arg, part2: arg2)`.
    private func keywordMessage(_ receiver: CodeValue, _ parts: [String], _ arguments: [CodeValue], _ site: CodeSite) -> CodeValue {
        let first = parts[0]
        func label(after word: String) -> String? {
            guard let r = first.range(of: word) else { return nil }
            let rest = first[r.upperBound...]
            return rest.prefix(1).lowercased() + rest.dropFirst()
        }
        if case .call(let alloc) = receiver, alloc.arguments.isEmpty, first.hasPrefix("init"), let l = label(after: "initWith") {
            return .call(CodeCall(callee: alloc.callee, labels: [l] + parts.dropFirst(), arguments: arguments, site: site))
        }
        if Self.isClassName(receiver), let l = label(after: "With") {
            return .call(CodeCall(callee: receiver, labels: [l] + parts.dropFirst(), arguments: arguments, site: site))
        }
        if ["objectForKey", "valueForKey", "objectForKeyedSubscript"].contains(first), arguments.count == 1 {
            return .subscripted(receiver, key: arguments[0])
        }
        if ["setText", "setAttributedText", "setImage"].contains(first), arguments.count == 1 {
            let property = first.dropFirst(3).prefix(1).lowercased() + first.dropFirst(4)
            facts.assignments.append(.init(target: .member(receiver, property), value: arguments[0], site: site))
        }
        return .call(CodeCall(callee: .member(receiver, first), labels: [""] + parts.dropFirst(), arguments: arguments, site: site))
    }
}
