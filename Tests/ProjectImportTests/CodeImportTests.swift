import Foundation
import Payload
import Testing
@testable import ProjectImport
import Formats

/// Issue 15, part 5: categories, userInfo keys and outlet bindings read from an app's Swift and
/// Objective-C code. The fixtures under Tests/Fixtures/xcode/code are written here in the shapes
/// real apps use (see each file's comment); expected positions are found in the fixtures' text.
struct CodeImportTests {
    static let root = xcodeFixtures.appendingPathComponent("code")
    static let files: [URL] = {
        let names = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String]) ?? []
        return names.filter { $0.hasSuffix(".swift") || $0.hasSuffix(".m") }.sorted().map { root.appendingPathComponent($0) }
    }()
    /// Read once: every test looks at the same import.
    static let imported = CodeImport.read(files, root: root)

    static func category(_ id: String) throws -> ImportedCategory {
        try #require(imported.categories.first { $0.identifier == id }, "no category \(id) in \(imported.categories.map(\.identifier))")
    }

    static func action(_ id: String, in category: String) throws -> ImportedAction {
        try #require(try Self.category(category).actions.first { $0.identifier == id }, "no action \(id) in \(category)")
    }

    /// `FILE:LINE:COL` of the first line of a fixture holding `text`, at `column` (default: `text`'s own).
    static func position(of text: String, in file: String, column: String? = nil) throws -> String {
        let lines = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.contains(text) }, "\(file) has no line with \(text)")
        let range = try #require(lines[index].range(of: column ?? text))
        return "\(file):\(index + 1):\(lines[index].utf8[..<range.lowerBound].count + 1)"
    }

    static func site(of text: String, in file: String) throws -> String {
        let p = try position(of: text, in: file)
        return String(p[..<p.lastIndex(of: ":")!])
    }

    static func problem(at position: String) -> String? { imported.problems.first { $0.hasPrefix(position + ": ") } }

    @Test func swiftCategoriesAndActions() throws {
        let file = "Harbor/NotificationCategories.swift"
        let message = try Self.category("MESSAGE")
        // An enum raw value for the category, local actions by name, localized texts as keys.
        #expect(message.actions.map(\.identifier) == ["REPLY", "LIKE", "mute"])
        #expect(message.options == ["customDismissAction", "hiddenPreviewsShowTitle"])
        #expect(message.hiddenPreviewsBodyPlaceholder == .localized(key: "%u new messages", table: "Localizable", default: nil))
        #expect(message.categorySummaryFormat == .literal("%u more messages from %@"))
        #expect(message.sites == [try Self.site(of: "let message = UNNotificationCategory(", in: file)])
        let reply = try Self.action("REPLY", in: "MESSAGE")
        #expect(reply.title == .localized(key: "action.reply", table: "Notifications", default: "Reply"))
        #expect(reply.options == ["authenticationRequired"])
        #expect(reply.icon == .system("arrowshape.turn.up.left"))
        #expect(reply.textInput == .init(buttonTitle: .localized(key: "action.reply.send", table: "Localizable", default: nil),
                                         placeholder: .localized(key: "action.reply.placeholder", table: "Localizable", default: nil)))
        #expect(try Self.action("LIKE", in: "MESSAGE").title == .literal("👍 Like"))
        // A case without a raw value in a String enum is its own name; an icon from a variable.
        let mute = try Self.action("mute", in: "MESSAGE")
        #expect(mute.title == .localized(key: "action.mute", table: "Notifications", default: nil))
        #expect(mute.options == ["authenticationRequired", "destructive"] && mute.icon == .template("bell.slash.harbor") && mute.textInput == nil)

        // A category made in a closure, identifiers from static lets in another file (one of them `prefix + "DECLINE"`).
        let invitation = try Self.category("invitation")
        #expect(invitation.actions.map(\.identifier) == ["INVITE_ACCEPT", "INVITE_DECLINE"] && invitation.options.isEmpty)
        #expect(try Self.action("INVITE_ACCEPT", in: "invitation").title == .localized(key: "Accept", table: "Localizable", default: nil))
        #expect(try Self.action("INVITE_ACCEPT", in: "invitation").options == ["foreground"])
        #expect(try Self.action("INVITE_DECLINE", in: "invitation").options == ["destructive"]) // rawValue: 2

        // A global let from another file; actions appended, the #if DEBUG branch's (a preview is a Debug build).
        #expect(try Self.category("ALERT").actions.map(\.identifier) == ["ACK", "DEBUG_DUMP"])
        // A computed property registered as `Self.tripCategory`, and a title through `"key".localized`.
        #expect(try Self.action("TRIP_OPEN", in: "TRIP").title == .localized(key: "trip.open", table: "Localizable", default: nil))
        #expect(!Self.imported.problems.contains { $0.contains("tripCategory") }, "\(Self.imported.problems)")
    }

    @Test func objectiveCCategoriesAndActions() throws {
        let file = "Harbor/LegacyNotifications.m"
        // The identifier from `NSString *const`, options `A | B`, the site of the message send.
        let boarding = try Self.category("BOARDING")
        #expect(boarding.actions.map(\.identifier) == ["CHECK_IN", "SHARE", "NOTE", "SEAT"])
        #expect(boarding.options == ["customDismissAction", "allowInCarPlay"])
        #expect(boarding.sites == [try Self.site(of: "categoryWithIdentifier:HarborBoardingCategory", in: file)])
        let checkIn = try Self.action("CHECK_IN", in: "BOARDING")
        #expect(checkIn.title == .localized(key: "Check in", table: "Localizable", default: nil))
        #expect(checkIn.options == ["authenticationRequired", "foreground"])
        // `static NSString * const`, NSLocalizedStringFromTable, the `icon:` form.
        let share = try Self.action("SHARE", in: "BOARDING")
        #expect(share.title == .localized(key: "share.title", table: "Legacy", default: nil) && share.icon == .system("square.and.arrow.up") && share.options.isEmpty)
        let note = try Self.action("NOTE", in: "BOARDING")
        #expect(note.title == .literal("Add a note") && note.options.isEmpty)
        #expect(note.textInput == .init(buttonTitle: .literal("Save"), placeholder: .localized(key: "note.placeholder", table: "Localizable", default: nil)))
    }

    /// One identifier made in Swift and in Objective-C (`#define kHarborTripCategory @"TRIP"`) is one
    /// category with both files' actions and both sites; files are read in path order.
    @Test func categoriesMergeAcrossFiles() throws {
        let trip = try Self.category("TRIP")
        #expect(trip.actions.map(\.identifier) == ["SHARE", "TRIP_OPEN"])
        #expect(trip.sites == [try Self.site(of: "categoryWithIdentifier:kHarborTripCategory", in: "Harbor/LegacyNotifications.m"),
                               try Self.site(of: "UNNotificationCategory(identifier: \"TRIP\"", in: "Harbor/NotificationCategories.swift")])
        let ids = Self.imported.categories.map(\.identifier)
        #expect(ids == ids.sorted() && Set(ids).count == ids.count)
    }

    @Test func whatCannotBeFollowedIsAProblemAtItsPosition() throws {
        let swift = "Harbor/NotificationCategories.swift"
        let computed = try Self.position(of: "identifier: d.id.uppercased()", in: swift, column: "UNNotificationCategory")
        #expect(Self.problem(at: computed)?.contains("`d.id.uppercased()`") == true, "\(Self.imported.problems)")
        let server = try Self.position(of: "setNotificationCategories(Set(made))", in: swift, column: "setNotificationCategories")
        #expect(Self.problem(at: server)?.contains("`Set(made)`") == true)
        let interpolated = try Self.position(of: "identifier: \"SNOOZE_", in: swift, column: "UNNotificationAction")
        #expect(Self.problem(at: interpolated)?.contains(#""SNOOZE_\(minutes)""#) == true)
        let called = try Self.position(of: "title: snoozeTitle(60)", in: swift, column: "UNNotificationAction")
        #expect(Self.problem(at: called)?.contains("`snoozeTitle(60)`") == true)
        let objc = try Self.position(of: "actionWithIdentifier:@\"SEAT\"", in: "Harbor/LegacyNotifications.m", column: "UNNotificationAction actionWithIdentifier")
        #expect(Self.problem(at: objc)?.contains("`HarborStrings.seatTitle`") == true)
        // What can be is still imported: the action whose title is unknown shows its identifier.
        #expect(try Self.action("SEAT", in: "BOARDING").title == .literal("SEAT"))
        #expect(try Self.category("SNOOZE").actions.map(\.identifier) == ["LATER"])
        #expect(try Self.category("SNOOZE").options == ["allowInCarPlay"])
        #expect(!Self.imported.categories.contains { $0.identifier.hasPrefix("SNOOZE_") || $0.identifier.contains("uppercased") })
    }

    @Test func aSyntaxErrorIsSaidAndTheRestIsRead() throws {
        let error = try Self.position(of: "func halfWritten( {", in: "Harbor/Broken.swift", column: "{")
        #expect(Self.problem(at: error)?.contains("Swift syntax error") == true, "\(Self.imported.problems)")
        // Before and after the error in the same file, and every other file, are imported.
        #expect(try Self.category("BEFORE_ERROR").sites == [try Self.site(of: "\"BEFORE_ERROR\"", in: "Harbor/Broken.swift")])
        #expect(try Self.category("AFTER_ERROR").sites == [try Self.site(of: "\"AFTER_ERROR\"", in: "Harbor/Broken.swift")])
        #expect(!Self.imported.categories.contains { $0.identifier == "LOST" })
        #expect(Self.imported.categories.contains { $0.identifier == "MESSAGE" })
    }

    /// `content.userInfo[PayloadKey.sender]`, `if let trip = …["trip"] as? [String: Any], … trip["gate"]`,
    /// `(…["badge"] as? [String: Any])?["color"]`, Objective-C `userInfo[@"image_url"]`, `objectForKey:`.
    @Test func userInfoKeys() {
        #expect(Self.imported.userInfoKeys == ["badge.color", "detail", "flight.number", "image_url", "sender_name", "trip.gate"])
    }

    @Test func outletBindings() {
        #expect(Self.imported.outletBindings == [
            "titleLabel": "title", "bodyLabel": "body", "senderLabel": "userInfo.sender_name", "gateLabel": "userInfo.trip.gate",
            "photoView": "attachment.url", "routeLabel": "subtitle", "detailLabel": "userInfo.detail",
        ])
    }

    /// The same bytes whatever order the files come in; sorted keys, 2-space indent, one trailing
    /// newline; only the keys and value forms NotificationCategory.read documents.
    @Test func categoriesJSONIsDeterministicInTheReadersForm() throws {
        let json = Self.imported.categoriesJSON()
        #expect(CodeImport.read(Self.files.reversed(), root: Self.root).categoriesJSON() == json)
        #expect(json.hasSuffix("}\n") && !json.hasSuffix("\n\n"))
        for line in json.split(separator: "\n") { #expect(line.prefix { $0 == " " }.count % 2 == 0, "\(line)") }
        let root = try JSONParser.parse(Array(json.utf8), file: "categories.json")
        func sortedKeys(_ v: JSONValue) -> Bool {
            switch v {
            case .object(let m): return m.map(\.key) == m.map(\.key).sorted() && m.allSatisfy { sortedKeys($0.value) }
            case .array(let items): return items.allSatisfy(sortedKeys)
            default: return true
            }
        }
        #expect(sortedKeys(root))
        func keys(_ v: JSONValue?) -> Set<String> { if case .object(let m)? = v { return Set(m.map(\.key)) }; return [] }
        func isText(_ v: JSONValue?) -> Bool { v?.string != nil || (keys(v).isSubset(of: ["key", "table", "default"]) && v?["key"]?.string != nil) }
        guard case .array(let categories)? = root["categories"] else { Issue.record("no categories array"); return }
        #expect(categories.compactMap { $0["identifier"]?.string } == Self.imported.categories.map(\.identifier))
        for c in categories {
            #expect(keys(c).isSubset(of: ["identifier", "actions", "options", "hiddenPreviewsBodyPlaceholder", "categorySummaryFormat"]))
            if case .array(let options)? = c["options"] {
                for o in options { #expect(o.string.map(CategoryBuilder.categoryOptions.contains) == true, "\(o)") }
            }
            guard case .array(let actions)? = c["actions"] else { continue }
            for a in actions {
                #expect(keys(a).isSubset(of: ["identifier", "title", "options", "icon", "textInput"]) && a["identifier"]?.string != nil && isText(a["title"]))
                if let icon = a["icon"] { #expect(keys(icon) == ["system"] || keys(icon) == ["template"]) }
                if let input = a["textInput"] {
                    #expect(keys(input).isSubset(of: ["buttonTitle", "placeholder"]))
                    #expect((input["buttonTitle"].map { isText($0) } ?? true) && (input["placeholder"].map { isText($0) } ?? true))
                }
            }
        }
        let message = try #require(categories.first { $0["identifier"]?.string == "MESSAGE" })
        guard case .array(let actions)? = message["actions"] else { Issue.record("MESSAGE has no actions"); return }
        #expect(actions.first?["title"] == .object([("default", .string("Reply")), ("key", .string("action.reply")), ("table", .string("Notifications"))]))
        #expect(message["hiddenPreviewsBodyPlaceholder"] == .string("%u new messages"))
    }

    @Test func withoutSwiftcTheSwiftFilesAreSaidAndObjectiveCIsRead() {
        let result = CodeImport.read(Self.files, root: Self.root, swiftc: nil)
        #expect(result.problems.contains { $0.contains("swiftc is not on PATH") && $0.contains("4 Swift files") }, "\(result.problems)")
        #expect(result.categories.map(\.identifier) == ["BOARDING", "TRIP"])
    }

    /// swiftc 6.3 prints a typealias of an attributed type as an object it never closes; the
    /// declarations after it are still read.
    @Test func swiftcsUnbalancedDumpIsRead() throws {
        let folder = temporaryFolder()
        let file = folder.appendingPathComponent("Handlers.swift")
        try Data("""
        import UserNotifications
        typealias Handler = @convention(block) (UNNotificationAction) -> Void
        enum Late { static let id = "LATE" }
        let late = UNNotificationCategory(identifier: Late.id, actions: [], intentIdentifiers: [], options: [])
        """.utf8).write(to: file)
        let result = CodeImport.read([file], root: folder)
        #expect(result.categories.map(\.identifier) == ["LATE"] && result.problems.isEmpty, "\(result.problems)")
    }

    /// `#if` is decided for a Debug build of an iOS app in the simulator, every byte offset kept.
    @Test func conditionalCompilation() {
        #expect(ConditionalCompilation.evaluate("DEBUG && os(iOS)"))
        #expect(!ConditionalCompilation.evaluate("os(macOS) || !canImport(UIKit)"))
        #expect(ConditionalCompilation.evaluate("targetEnvironment(simulator) && (RELEASE || swift(>=5.9))"))
        let source = "a\n#if os(macOS)\nb\n#elseif DEBUG // debug\nc\n#else\nd\n#endif\ne\n"
        let active = String(decoding: ConditionalCompilation.activeSource(Array(source.utf8)), as: UTF8.self)
        #expect(active.utf8.count == source.utf8.count)
        #expect(active.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } == ["a", "c", "e"])
    }
}
