import Checked
import ConfinedFiles
import Foundation
import Payload

/// What an app's Swift and Objective-C sources say about its notifications (issue 15): the
/// categories and actions it registers, the userInfo keys its extensions read, and which content
/// field each of a content extension's outlets shows. What cannot be followed (a computed
/// identifier, a title from a function call, categories made from server data) is a problem at
/// its file, line and column, and the rest is still imported.
public struct CodeImport: Sendable {
    /// Sorted by identifier; one per identifier, however many places make it.
    public var categories: [ImportedCategory] = []
    /// Sorted, unique; a nested read is `"a.b"` (`(userInfo["a"] as? [String: Any])?["b"]`), and
    /// a key read only to reach deeper ones is not listed on its own.
    public var userInfoKeys: [String] = []
    /// How the code spells each key other than as a literal (the constants it reads it through).
    private var keySpellings: [String: Set<String>] = [:]
    /// Outlet → Mustache path: `"body"`, `"title"`, `"subtitle"`, `"userInfo.x"`, `"attachment.url"`.
    public var outletBindings: [String: String] = [:]
    /// The content view the code makes (issue 22); nil when it adds no views and sets no size.
    public var codeView: CodeMadeView?
    /// Whether the code reads the notification's attachments.
    public var readsAttachments = false
    /// What each of `userInfoKeys` is read as, where the code says (by its last name for a
    /// nested one); the others are read as strings, as far as the code shows.
    public var userInfoTypes: [String: UserInfoType] = [:]
    /// Whether the code downloads (`URLSession`, `Data(contentsOf:)`) and makes attachments: the
    /// keys it reads as URLs then name media, as a service extension's `mediaKeys`.
    public var downloadsAttachments = false
    /// What the code sets on the content it delivers (a service extension's title, badge, …), in source order.
    public var contentChanges: [ContentChange] = []
    /// The push SDKs the code imports, subclasses or calls (`Templates/sdks`), each with where.
    public var sdks = SDKRecognition()
    /// `"RELATIVE/FILE.swift:LINE:COL: message"` (no position where the whole file is concerned).
    public var problems: [String] = []

    /// A Swift file is parsed when it mentions one of these; other files when they declare a name
    /// the parsed ones use (parsing and reading the AST cost ~10 ms a file, and apps have thousands).
    static let notificationWords = ["UNNotificationCategory", "UNNotificationAction", "UNTextInputNotificationAction", "setNotificationCategories",
                                    "userInfo", "UNNotificationContentExtension", "UNNotificationServiceExtension"]
    static let maxFileSize = 4 << 20

    /// Reads `files` (Swift and Objective-C sources, .swift/.m/.mm/.h), paths reported relative to `root`.
    /// Each file is read beneath `repository`; `root` (the folder init was given, by default the
    /// repository's) is what paths are reported relative to.
    public static func read(_ files: [URL], in repository: Repository, root: URL? = nil) -> CodeImport {
        read(files, in: repository, root: root, swiftc: SwiftcParser.findSwiftc())
    }

    /// `files` read beneath `root` (a folder standing for the repository).
    public static func read(_ files: [URL], root: URL) -> CodeImport { read(files, in: Repository(root: root)) }
    static func read(_ files: [URL], root: URL, swiftc: URL?) -> CodeImport { read(files, in: Repository(root: root), swiftc: swiftc) }

    /// `swiftc` nil: Swift files are skipped, and that is a problem.
    static func read(_ files: [URL], in repository: Repository, root: URL? = nil, swiftc: URL?) -> CodeImport {
        var result = CodeImport()
        let root = root ?? repository.root
        let rootPath = root.standardizedFileURL.path.hasSuffix("/") ? root.standardizedFileURL.path : root.standardizedFileURL.path + "/"
        func relative(_ url: URL) -> String {
            let path = url.standardizedFileURL.path
            return path.hasPrefix(rootPath) ? String(path.dropFirst(rootPath.count)) : path
        }
        var swiftFiles: [(name: String, bytes: [UInt8])] = []
        var facts: [SourceFacts] = []
        var sources: [[UInt8]] = [], named: [(name: String, bytes: [UInt8])] = []
        // An Objective-C class's header beside its .m, which targets do not list: it names the superclass.
        let listed = Set(files.map(\.standardizedFileURL.path))
        let headers = files.filter { ["m", "mm"].contains($0.pathExtension.lowercased()) }.map { $0.deletingPathExtension().appendingPathExtension("h") }
            .filter { !listed.contains($0.standardizedFileURL.path) && repository.contains($0) && ((try? repository.read($0, limit: maxFileSize)) != nil) }
        for url in (files + headers).sorted(by: { relative($0) < relative($1) }) {
            let name = relative(url), ext = url.pathExtension.lowercased()
            guard ["swift", "m", "mm", "h"].contains(ext) else { continue }
            let data: [UInt8]
            do { data = try repository.read(url, limit: maxFileSize) } catch {
                if case .tooLarge(let size, _) = error.reason { result.problems.append("\(name): \(size) bytes, over the \(maxFileSize >> 20) MB a source file may have; not read") }
                else { result.problems.append("\(name): cannot be read (\(error.why))") }
                continue
            }
            if let deep = SourceNesting.tooDeep(data, swift: ext == "swift") {
                result.problems.append("\(name):\(deep.line): \(deep.what); not read")
                continue
            }
            sources.append(data)
            named.append((name, data))
            if ext == "swift" { swiftFiles.append((name, data)) } else {
                Activity.now("reading \(name)")
                facts.append(ObjCSourceReader.read(data, file: name))
            }
        }
        if let swiftc {
            facts += readSwift(swiftFiles, parser: SwiftcParser(swiftc: swiftc), objectiveC: facts)
        } else if !swiftFiles.isEmpty {
            result.problems.append("swiftc is not on PATH, and the Swift sources are read with Swift's own parser: \(swiftFiles.count) Swift files were not read (install a Swift toolchain, or put its usr/bin on PATH)")
        }
        result.build(from: facts)
        result.readTypes(sources)
        result.sdks = SDKRecognition.inSources(named, catalog: PushSDK.Catalog.standard.sdks)
        return result
    }

    /// Parses the Swift files that mention notifications, then, round by round, those that declare
    /// a name the parsed ones use and nothing parsed binds (`enum ActionID` in its own file).
    private static func readSwift(_ files: [(name: String, bytes: [UInt8])], parser: SwiftcParser, objectiveC: [SourceFacts]) -> [SourceFacts] {
        var parsed: [Int: SourceFacts] = [:]
        var declaring: [Int: Set<String>] = [:]
        var next = files.indices.filter { i in notificationWords.contains { files[i].bytes.contains(word: $0) } }
        for _ in 0..<4 where !next.isEmpty {
            let sources = next.map { ConditionalCompilation.activeSource(files[$0].bytes) }
            Activity.now("parsing \(next.count) Swift file\(next.count == 1 ? "" : "s") with swiftc (\(next.prefix(3).map { files[$0].name }.joined(separator: ", "))\(next.count > 3 ? ", …" : ""))")
            for (k, parse) in parser.parse(sources).enumerated() { parsed[next[k]] = SwiftSourceReader.read(sources[k], file: files[next[k]].name, parse: parse) }
            let all = objectiveC + parsed.keys.sorted().map { parsed[$0]! }
            let wanted = unboundNames(all)
            next = []
            guard !wanted.isEmpty else { break }
            for i in files.indices where parsed[i] == nil {
                if declaring[i] == nil { declaring[i] = declaredNames(files[i].bytes) }
                if !declaring[i]!.isDisjoint(with: wanted) { next.append(i) }
            }
        }
        return parsed.keys.sorted().map { parsed[$0]! }
    }

    /// The names the notification code uses, directly or through what they are bound to, that no
    /// file read so far binds or declares.
    private static func unboundNames(_ facts: [SourceFacts]) -> Set<String> {
        let resolver = CodeResolver(facts)
        let declared = facts.reduce(into: Set<String>()) { $0.formUnion($1.declaredNames) }
        var values: [[String]: [CodeValue]] = [:]
        for f in facts { for b in f.bindings { values[[b.path.last ?? ""], default: []].append(b.value) } }
        var pending = facts.flatMap(usedValues), seen = Set<String>(), wanted = Set<String>()
        while let v = pending.popLast() {
            var names = Set<String>()
            SourceFacts.mentionedNames(v, into: &names)
            for n in names where seen.insert(n).inserted {
                if resolver.binds(n) { pending += values[[n]] ?? [] } else if !declared.contains(n), !isSDKName(n) { wanted.insert(n) }
            }
        }
        return wanted
    }

    /// The values whose names the import follows: the categories' and registrations' arguments,
    /// the keys of subscripts on something called userInfo, what outlets are set from. (Not every
    /// subscript's: apps index many dictionaries.)
    private static func usedValues(_ f: SourceFacts) -> [CodeValue] {
        var values = f.constructions.flatMap(\.arguments) + f.registrations.flatMap(\.arguments)
        for case .subscripted(let base, let key) in f.subscripts where base.uses("userInfo") { values.append(key) }
        values += f.assignments.filter { if case .member(_, let p) = $0.target { return ContentReads.outletProperties.contains(p) }; return false }.map(\.value)
        return values
    }

    /// Names the SDK or the language define (`UNNotificationDefaultActionIdentifier`, `self`),
    /// which no file of the app does.
    private static func isSDKName(_ name: String) -> Bool {
        if ["self", "Self", "super", "newValue", "userInfo", "content", "notification", "response", "request", "center", "$0", "$1"].contains(name) { return true }
        let scalars = Array(name.unicodeScalars)
        return scalars.count > 2 && ["UN", "NS", "UI", "CG"].contains(String(name.prefix(2))) && CharacterSet.uppercaseLetters.contains(scalars[2])
    }

    static let declaringWords: Set<String> = ["enum", "struct", "class", "extension", "actor", "protocol", "let", "var", "case", "func", "typealias"]

    /// The names a Swift file declares, roughly: each identifier right after `enum`, `let`, `case`, …
    /// (a file that only uses a name is not worth parsing for it).
    private static func declaredNames(_ bytes: [UInt8]) -> Set<String> {
        var names = Set<String>(), start: Int?, previous = ""
        for i in 0...bytes.count {
            let b = i < bytes.count ? bytes[i] : 0x20
            let part = SourceBytes.continuesIdentifier(b)
            if part, start == nil { start = i }
            if !part, let s = start {
                let word = String(decoding: bytes[s..<i], as: UTF8.self)
                if declaringWords.contains(previous) { names.insert(word) }
                previous = word
                start = nil
            }
        }
        return names
    }

    mutating func build(from facts: [SourceFacts]) {
        let resolver = CodeResolver(facts)
        var builder = CategoryBuilder(resolver: resolver)
        var byIdentifier: [String: ImportedCategory] = [:]
        for f in facts {
            problems += f.problems
            for call in f.constructions {
                guard let made = builder.category(call) else { continue }
                byIdentifier[made.identifier] = byIdentifier[made.identifier].map { Self.merge($0, made) } ?? made
            }
        }
        for f in facts { for call in f.registrations { builder.checkRegistration(call) } }
        categories = byIdentifier.values.sorted { $0.identifier < $1.identifier }
        let reads = ContentReads(resolver: resolver)
        userInfoKeys = reads.userInfoKeys(facts.flatMap(\.subscripts))
        // A key read through a constant (`userInfo[Keys.recipe]`) is typed where that spelling is cast.
        for case .subscripted(_, let key) in facts.flatMap(\.subscripts) {
            if case .text = key { continue }
            if let k = resolver.text(key) { keySpellings[k, default: []].insert(key.rendered) }
        }
        let (bindings, bindingProblems) = reads.outletBindings(facts.flatMap(\.assignments))
        outletBindings = bindings
        codeView = CodeMadeView.read(facts, resolver: resolver)
        contentChanges = ContentChange.read(facts, resolver: resolver).sorted { ($0.file, $0.line) < ($1.file, $1.line) }
        readsAttachments = facts.contains { f in f.bindings.contains { $0.value.uses("attachments") } || f.assignments.contains { $0.value.uses("attachments") } }
        for key in Set(facts.flatMap(\.urlArguments).compactMap { reads.keyPath($0).flatMap { $0.isEmpty ? nil : $0.joined(separator: ".") } }) {
            userInfoTypes[key] = .url
        }
        var seen = Set<String>()
        problems = (problems + builder.problems + bindingProblems).filter { seen.insert($0).inserted }
    }

    static let downloadWords = ["URLSession", "NSURLSession", "downloadTask", "dataTask", "contentsOf", "dataWithContentsOfURL", "downloadTaskWithURL", "dataTaskWithURL"]

    /// The types the text says the keys are read as, and whether the code downloads attachments.
    private mutating func readTypes(_ sources: [[UInt8]]) {
        for key in userInfoKeys where userInfoTypes[key] == nil {
            let last = String(key.split(separator: ".").last ?? "")
            if let type = UserInfoType.read(spellings: ["\"\(last)\""] + (keySpellings[last] ?? []).sorted(), in: sources) { userInfoTypes[key] = type }
        }
        downloadsAttachments = sources.contains { $0.contains(word: "UNNotificationAttachment") } && sources.contains { s in Self.downloadWords.contains { s.contains(word: $0) } }
    }

    /// One category made in two places: the first's fields, the actions of both (by identifier),
    /// the options of both, both places.
    static func merge(_ a: ImportedCategory, _ b: ImportedCategory) -> ImportedCategory {
        var m = a
        for action in b.actions where !m.actions.contains(where: { $0.identifier == action.identifier }) { m.actions.append(action) }
        m.options = CategoryBuilder.categoryOptions.filter { a.options.contains($0) || b.options.contains($0) }
        m.hiddenPreviewsBodyPlaceholder = a.hiddenPreviewsBodyPlaceholder ?? b.hiddenPreviewsBodyPlaceholder
        m.categorySummaryFormat = a.categorySummaryFormat ?? b.categorySummaryFormat
        for s in b.sites where !m.sites.contains(s) { m.sites.append(s) }
        return m
    }
}
