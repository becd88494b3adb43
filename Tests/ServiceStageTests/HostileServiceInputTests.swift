import Foundation
import Testing
import Payload
import ServiceStage

/// Inputs a mutation campaign found for the service stage: format strings, plural arguments and
/// strings files that trapped or took minutes, and project paths that reached outside the project.
struct HostileServiceInputTests {
    func localize(_ format: String, args: [String]) throws -> Localizer.Resolved {
        let p = ScratchProject()
        try p.write("en.lproj/Localizable.strings", "\"K\" = \"\(format)\";")
        return Localizer(projectFolder: p.folder, locale: "en").resolve(key: "K", args: args)
    }

    @Test(arguments: ["%0$@", "%٣$@", "%99999999999999999999$@", "%9223372036854775807$@", "%-1$@", "%$@", "%1$", "%"])
    func oddPositionsAreWarningsNotTraps(_ format: String) throws {
        let r = try localize("a \(format) b", args: ["X"])
        #expect(r.text.hasPrefix("a "), "\(format) → \(r.text)")
    }

    @Test func positionZeroAndOverflowAreExplained() throws {
        #expect(try localize("%0$@", args: ["X"]).warnings.contains { $0.contains("%0$") })
        #expect(try localize("%99999999999999999999$@", args: ["X"]).warnings.contains { $0.contains("99999999999999999999") })
        #expect(try localize("%2$@ %1$@", args: ["a", "b"]).text == "b a")
    }

    /// `abs(Int.min)` traps: the plural rules take the magnitude.
    @Test func pluralOfTheSmallestInteger() throws {
        let p = ScratchProject()
        try p.write("Localizable.xcstrings", #"{"sourceLanguage": "en", "version": "1.0", "strings": {"N": {"localizations": {"pl": {"variations": {"plural": {"one": {"stringUnit": {"state": "translated", "value": "%lld plik"}}, "few": {"stringUnit": {"state": "translated", "value": "%lld pliki"}}, "many": {"stringUnit": {"state": "translated", "value": "%lld plików"}}}}}}}}}"#)
        let r = Localizer(projectFolder: p.folder, locale: "pl").resolve(key: "N", args: ["-9223372036854775808"])
        #expect(r.text.hasPrefix("-9223372036854775808 plik"), "\(r.text)")
    }

    @Test func stringsFileEdges() throws {
        for text in [#"/**/"""#, #""a" = "b"; "last""#, #""a" = "#, #""a""#, "\"a\" = \"b\" /* c", "\"\\U00", "'", "\"a\" = \"\\"] {
            _ = try? StringsFile.parse(Array(text.utf8), file: "x.strings")
        }
        #expect(try StringsFile.parse(Array(#"/**/"k";"#.utf8), file: "x.strings") == ["k": "k"])
        do { _ = try StringsFile.parse(Array("\"a\" = \"b\";\n\n\"c\" = \"d\"".utf8), file: "x.strings"); Issue.record("accepted a missing ;") } catch {
            #expect(error.line == 3 && error.message.contains("end of the file"), "\(error)")
        }
    }

    /// 60,000 entries: lines are counted only for a message, not for every string.
    @Test func largeStringsFileIsLinear() throws {
        let text = (0..<60_000).map { "\"key\($0)\" = \"value \($0)\";" }.joined(separator: "\n")
        let table = try StringsFile.parse(Array(text.utf8), file: "big.strings")
        #expect(table.count == 60_000 && table["key59999"] == "value 59999")
    }

    /// One entry in a form we don't read loses that entry (named), not the whole catalog.
    @Test func unsupportedCatalogEntryKeepsTheRest() throws {
        let p = ScratchProject()
        try p.write("Localizable.xcstrings", #"{"sourceLanguage": "en", "strings": {"A": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "Alpha"}}}}, "W": {"localizations": {"en": {"variations": {"width": {"1": {"stringUnit": {"value": "w"}}}}}}}}}"#)
        let localizer = Localizer(projectFolder: p.folder, locale: "en")
        #expect(localizer.resolve(key: "A", args: []).text == "Alpha")
        #expect(localizer.problems.contains { $0.contains("strings.W") && $0.contains("width") }, "\(localizer.problems)")
        let n = try p.run(#"{"aps": {"alert": {"title-loc-key": "A", "loc-key": "MISSING"}, "mutable-content": 1}}"#)
        #expect(n.title == "Alpha")
        #expect(n.trace.fallbacks.map(\.message).contains { $0.contains("MISSING") }, "\(n.trace.fallbacks)")
        #expect(n.trace.fallbacks.map(\.message).contains { $0.contains("width") }, "\(n.trace.fallbacks)")
    }

    /// decrypt.keys and enrich.data that climb out of the project, relative or absolute, are not
    /// read: the secret's value never reaches the notification.
    @Test func projectPathsStayInTheProject() throws {
        let outside = ScratchProject("outside")
        try outside.write("keys.json", #"{"default": "c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0MTI="}"#)
        try outside.write("contacts.json", #"{"ann": {"name": "SECRET NAME"}}"#)
        let p = ScratchProject()
        for keys in ["../\(outside.folder.lastPathComponent)/keys.json", outside.folder.appendingPathComponent("keys.json").path] {
            var settings = ServiceSettings()
            settings.decrypt = .init()
            settings.decrypt!.keys = keys
            let n = try p.run(#"{"aps": {"alert": "plain", "mutable-content": 1}, "encrypted": "AAAA"}"#, settings: settings)
            #expect(n.trace.steps.contains { $0.step == "decrypt" && $0.message.contains("outside the project") }, "\(n.trace.steps)")
        }
        for data in ["../\(outside.folder.lastPathComponent)/contacts.json", outside.folder.appendingPathComponent("contacts.json").path] {
            var settings = ServiceSettings()
            settings.enrich = [.init(key: "sender", data: data, set: [("title", "{{name}}")])]
            let n = try p.run(#"{"aps": {"alert": {"title": "T", "body": "B"}, "mutable-content": 1}, "sender": "ann"}"#, settings: settings)
            #expect(n.title == "T" && n.trace.fallbacks.map(\.message).contains { $0.contains("outside the project") }, "\(n.title) \(n.trace.steps)")
        }
    }

    /// A poisoned download-cache index naming a file elsewhere, and a cache folder that is a
    /// symlink out of the project: neither is read from or written to.
    @Test func downloadCacheStaysInTheProject() throws {
        let outside = ScratchProject("outsidecache")
        try outside.write("secret.jpg", testJPEG)
        let p = ScratchProject()
        var settings = ServiceSettings()
        settings.allowedHosts = ["127.0.0.1:\(closedPort())"]
        let url = "http://\(settings.allowedHosts[0])/photo.jpg"
        try p.write("app-group/cache/urls/\(SHA256.hex(Array(url.utf8)))", "../../../../\(outside.folder.lastPathComponent)/secret.jpg")
        let poisoned = try p.run(#"{"aps": {"alert": "a", "mutable-content": 1}, "image-url": "\#(url)"}"#, settings: settings)
        #expect(poisoned.attachments.isEmpty, "the poisoned index was followed")

        let q = ScratchProject("symlinkedcache")
        try FileManager.default.createSymbolicLink(at: q.folder.appendingPathComponent("app-group/cache"), withDestinationURL: outside.folder)
        try q.write("media/photo.jpg", testJPEG)
        let n = try q.run(#"{"aps": {"alert": "a", "mutable-content": 1}, "image-url": "data:image/jpeg;base64,\#(Data(testJPEG).base64EncodedString())"}"#)
        #expect(n.attachments.isEmpty && n.trace.fallbacks.map(\.message).contains { $0.contains("outside the project") }, "\(n.trace.steps)")
        #expect(!FileManager.default.fileExists(atPath: outside.folder.appendingPathComponent("objects").path), "wrote through the symlink")
    }
}

/// Plural categories from ICU's CLDR rules, for languages a hand-made table got wrong or lacked.
struct PluralRulesTests {
    @Test(arguments: [
        ("ar", [0: "zero", 1: "one", 2: "two", 3: "few", 11: "many", 100: "other"]),
        ("cy", [0: "zero", 1: "one", 2: "two", 3: "few", 4: "other", 6: "many"]),
        ("ru", [1: "one", 2: "few", 5: "many", 21: "one", 111: "many"]),
        ("pl", [1: "one", 2: "few", 5: "many", 22: "few", 12: "many"]),
        ("ja", [1: "other", 2: "other"]), ("pt_BR", [0: "one", 1: "one", 2: "other"]), ("pt-PT", [0: "other", 1: "one"]),
        ("fr", [0: "one", 1: "one", 2: "other", 1_000_000: "many"]), ("fil", [1: "one", 4: "other", 5: "one"]),
    ])
    func categories(_ language: String, _ expected: [Int: String]) {
        for (n, category) in expected { #expect(PluralRules.category(for: n, language: language) == category, "\(language) \(n)") }
    }
}

/// The time a notification just delivered shows, in the locale's words (CLDR, through ICU).
struct RelativeTimeTests {
    @Test(arguments: [("en", "now"), ("de", "jetzt"), ("fr", "maintenant"), ("ar", "الآن"), ("ja", "今"), ("pt-BR", "agora")])
    func now(_ locale: String, _ word: String) { #expect(RelativeTime.now(locale: locale) == word, "\(locale)") }
}
