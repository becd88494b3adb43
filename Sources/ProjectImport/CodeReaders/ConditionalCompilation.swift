import Foundation

/// Swift's `#if`, decided before the source goes to `swiftc -dump-parse`: the parse-only AST leaves
/// out every `#if` block, active or not (Swift 6.3), and categories are often registered inside
/// one (`#if DEBUG`, `#if os(iOS)`). Each `#if … #elseif … #else … #endif` keeps the first branch
/// whose condition holds for a Debug build of an iOS app in the simulator, the one a preview
/// stands for; the other branches and the directive lines become spaces, so every byte offset
/// (and line and column) of the rest stays what it is in the file.
enum ConditionalCompilation {
    /// `source` with the inactive branches blanked; unchanged when it has no `#if`.
    static func activeSource(_ source: [UInt8]) -> [UInt8] {
        guard source.contains(UInt8(ascii: "#")) else { return source }
        var out = source
        // Per open #if: whether the enclosing code is live, and whether a branch was taken.
        var stack: [(outerLive: Bool, taken: Bool, live: Bool)] = []
        var live = true
        var lineStart = 0
        while lineStart < source.count {
            var lineEnd = lineStart
            while lineEnd < source.count, source[lineEnd] != 0x0A { lineEnd += 1 }
            var first = lineStart
            while first < lineEnd, source[first] == 0x20 || source[first] == 0x09 { first += 1 }
            let line = String(decoding: source[first..<lineEnd], as: UTF8.self)
            var isDirective = true
            if let condition = directiveArgument(line, "#if") {
                let holds = live && evaluate(condition)
                stack.append((live, holds, holds))
                live = holds
            } else if let condition = directiveArgument(line, "#elseif"), let top = stack.popLast() {
                let holds = top.outerLive && !top.taken && evaluate(condition)
                stack.append((top.outerLive, top.taken || holds, holds))
                live = holds
            } else if directiveArgument(line, "#else") != nil, let top = stack.popLast() {
                let holds = top.outerLive && !top.taken
                stack.append((top.outerLive, true, holds))
                live = holds
            } else if directiveArgument(line, "#endif") != nil, let top = stack.popLast() {
                live = top.outerLive
            } else {
                isDirective = false
            }
            if isDirective || !live {
                for k in lineStart..<lineEnd where out[k] != 0x0D { out[k] = 0x20 }
            }
            lineStart = lineEnd + 1
        }
        return out
    }

    /// The text after `word` when `line` is that directive (`#if DEBUG` → `DEBUG`).
    private static func directiveArgument(_ line: String, _ word: String) -> String? {
        guard line.hasPrefix(word) else { return nil }
        let rest = line.dropFirst(word.count)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" || rest.first == "(" || rest.first == "!" || rest.hasPrefix("//") else { return nil }
        let code = rest.range(of: "//").map { rest[..<$0.lowerBound] } ?? rest
        return code.trimmingCharacters(in: .whitespaces)
    }

    /// Whether a condition holds: `DEBUG`, `os(iOS)`, `canImport(UIKit)`, `targetEnvironment(simulator)`,
    /// `swift(>=5.9)`, with `!`, `&&`, `||` and parentheses. An unknown flag is off, as in a build that does not set it.
    static func evaluate(_ condition: String) -> Bool {
        var tokens: [String] = []
        var i = condition.startIndex
        while i < condition.endIndex {
            let c = condition[i]
            if c.isWhitespace { i = condition.index(after: i); continue }
            if c == "&" || c == "|", condition[i...].hasPrefix(String([c, c])) {
                tokens.append(String([c, c]))
                i = condition.index(i, offsetBy: 2)
                continue
            }
            if "!()".contains(c) { tokens.append(String(c)); i = condition.index(after: i); continue }
            var j = i
            while j < condition.endIndex, !condition[j].isWhitespace, !"!()&|".contains(condition[j]) { j = condition.index(after: j) }
            if j == i { j = condition.index(after: i) }
            var word = String(condition[i..<j])
            if j < condition.endIndex, condition[j] == "(", let close = condition[j...].firstIndex(of: ")") {
                word += String(condition[j...close])
                j = condition.index(after: close)
            }
            tokens.append(word)
            i = j
        }
        var position = 0
        return disjunction(tokens, &position)
    }

    private static func disjunction(_ t: [String], _ p: inout Int, depth: Int = 0) -> Bool {
        var value = conjunction(t, &p, depth: depth)
        while p < t.count, t[p] == "||" { p += 1; value = conjunction(t, &p, depth: depth) || value }
        return value
    }

    private static func conjunction(_ t: [String], _ p: inout Int, depth: Int) -> Bool {
        var value = unary(t, &p, depth: depth)
        while p < t.count, t[p] == "&&" { p += 1; value = unary(t, &p, depth: depth) && value }
        return value
    }

    private static func unary(_ t: [String], _ p: inout Int, depth: Int = 0) -> Bool {
        // A condition nested past any real one (`!!!…`, `((((…`) is false, not a deeper stack.
        guard p < t.count, depth < 64 else { return false }
        let token = t[p]
        p += 1
        if token == "!" { return !unary(t, &p, depth: depth + 1) }
        if token == "(" {
            let value = disjunction(t, &p, depth: depth + 1)
            if p < t.count, t[p] == ")" { p += 1 }
            return value
        }
        return atom(token)
    }

    private static func atom(_ word: String) -> Bool {
        guard let open = word.firstIndex(of: "("), word.hasSuffix(")") else { return ["DEBUG", "true"].contains(word) }
        let function = String(word[..<open])
        let argument = word[word.index(after: open)..<word.index(before: word.endIndex)].trimmingCharacters(in: .whitespaces)
        switch function {
        case "os": return argument == "iOS"
        case "canImport": return !["AppKit", "Cocoa", "WatchKit"].contains(argument.split(separator: ".").first.map(String.init) ?? argument)
        case "targetEnvironment": return argument == "simulator"
        case "arch": return argument == "arm64"
        case "swift", "compiler": return argument.hasPrefix(">=")
        case "hasFeature", "hasAttribute": return true
        default: return false
        }
    }
}
