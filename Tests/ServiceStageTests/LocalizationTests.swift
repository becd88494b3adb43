import Foundation
import Testing
import ServiceStage

/// loc-keys resolved per locale from .lproj/Localizable.strings (UTF-8 and UTF-16) and from a
/// String Catalog with plural variations.
struct LocalizationTests {
    /// key "FERRY_BOARDING": "%1$@ boards at %2$@", reordered where a language wants it.
    static let boarding: [String: String] = [
        "en": "%1$@ boards at %2$@",
        "nl": "Om %2$@ begint het instappen voor %1$@",
        "pl": "Wejście na %1$@ o %2$@",
        "tr": "%1$@ için biniş saat %2$@",
        "vi": "Lên tàu %1$@ lúc %2$@",
        "tl": "Sasakay sa %1$@ nang %2$@",
    ]
    static let expected: [String: String] = [
        "en": "Westhaven ferry boards at 18:40",
        "nl": "Om 18:40 begint het instappen voor Westhaven ferry",
        "pl": "Wejście na Westhaven ferry o 18:40",
        "tr": "Westhaven ferry için biniş saat 18:40",
        "vi": "Lên tàu Westhaven ferry lúc 18:40",
        "tl": "Sasakay sa Westhaven ferry nang 18:40",
    ]

    func project(utf16: Set<String> = ["nl", "vi"]) throws -> ScratchProject {
        let p = ScratchProject()
        for (language, format) in Self.boarding {
            let text = """
            /* Boarding announcement */
            "FERRY_BOARDING" = "\(format)";
            // A percent sign and a quote
            "DISCOUNT" = "%@%% off \\"today\\"";
            """
            // Xcode writes UTF-16 with a byte-order mark; some teams keep UTF-8.
            let bytes: [UInt8] = utf16.contains(language)
                ? [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
                : Array(text.utf8)
            try p.write("\(language).lproj/Localizable.strings", bytes)
        }
        return p
    }

    func payload(_ key: String, _ args: [String]) -> String {
        let list = args.map { "\"\($0)\"" }.joined(separator: ", ")
        return #"{"aps": {"alert": {"title-loc-key": "\#(key)", "title-loc-args": [\#(list)], "loc-key": "DISCOUNT", "loc-args": ["20"]}}}"#
    }

    @Test(arguments: ["en", "nl", "pl", "tr", "vi", "tl"])
    func stringsFilesWithPositionalArgs(_ locale: String) throws {
        let note = try project().run(payload("FERRY_BOARDING", ["Westhaven ferry", "18:40"]), locale: locale)
        #expect(note.title == Self.expected[locale])
        #expect(note.body == "20% off \"today\"")
        #expect(note.trace.steps.contains { $0.step == "localize" && $0.outcome == "localized" && $0.message.contains("\(locale).lproj") })
    }

    @Test func missingKeyShowsTheKeyAndWarns() throws {
        let note = try project().run(payload("NO_SUCH_KEY", []), locale: "nl")
        #expect(note.title == "NO_SUCH_KEY")
        let step = try #require(note.trace.steps.first { $0.outcome == "missing" })
        #expect(step.message.contains("no translation for \"NO_SUCH_KEY\"") && step.message.contains("nl, en"))
    }

    @Test func missingLocaleFallsBackThroughLanguageToDevelopmentLanguage() throws {
        let p = try project()
        #expect(try p.run(payload("FERRY_BOARDING", ["X", "9:00"]), locale: "de").title == "X boards at 9:00")
        #expect(try p.run(payload("FERRY_BOARDING", ["X", "9:00"]), locale: "nl-BE").title == "Om 9:00 begint het instappen voor X")
    }

    @Test func tooFewArgumentsLeaveTheSpecifierEmptyWithAWarning() throws {
        let note = try project().run(payload("FERRY_BOARDING", ["Only one"]), locale: "en")
        #expect(note.title == "Only one boards at ")
        #expect(note.trace.steps.contains { $0.message.contains("needs argument 2") })
    }

    @Test func brokenStringsFileNamesFileAndLine() throws {
        let p = ScratchProject()
        try p.write("en.lproj/Localizable.strings", "\"A\" = \"ok\";\n\"B\" = \"unterminated;\n")
        let note = try p.run(payload("A", []), locale: "en")
        let step = try #require(note.trace.steps.first { $0.outcome == "failed" })
        #expect(step.message.contains("en.lproj/Localizable.strings:2") && step.message.contains("never closed"), "\(step.message)")
    }

    /// A String Catalog: plain units, and plural variations chosen by the numeric argument
    /// with each language's CLDR rules.
    @Test(arguments: [
        ("en", "1", "1 new message from Marta"), ("en", "5", "5 new messages from Marta"),
        ("nl", "1", "1 nieuw bericht van Marta"), ("nl", "3", "3 nieuwe berichten van Marta"),
        ("pl", "1", "1 nowa wiadomość od Marta"), ("pl", "3", "3 nowe wiadomości od Marta"), ("pl", "5", "5 nowych wiadomości od Marta"),
        ("pl", "22", "22 nowe wiadomości od Marta"), ("pl", "12", "12 nowych wiadomości od Marta"),
        ("tr", "1", "Marta'dan 1 yeni mesaj"), ("tr", "4", "Marta'dan 4 yeni mesaj"),
        ("vi", "7", "7 tin nhắn mới từ Marta"),
        ("tl", "1", "1 bagong mensahe mula kay Marta"), ("tl", "6", "6 na bagong mensahe mula kay Marta"),
    ])
    func stringCatalogPlurals(_ locale: String, _ count: String, _ expected: String) throws {
        let p = ScratchProject()
        try p.write("Localizable.xcstrings", Self.catalog)
        let json = #"{"aps": {"alert": {"loc-key": "NEW_MESSAGES", "loc-args": ["\#(count)", "Marta"], "title-loc-key": "INBOX"}}}"#
        let note = try p.run(json, locale: locale)
        #expect(note.body == expected, "\(locale) \(count)")
        #expect(note.trace.steps.contains { $0.message.contains("Localizable.xcstrings (\(locale)") })
        #expect(note.title == (locale == "nl" ? "Postvak IN" : "Inbox"))
    }

    @Test func stringCatalogMissingKeyAndMissingLocale() throws {
        let p = ScratchProject()
        try p.write("Localizable.xcstrings", Self.catalog)
        let missingKey = try p.run(#"{"aps": {"alert": {"loc-key": "NOPE", "loc-args": ["1"]}}}"#, locale: "pl")
        #expect(missingKey.body == "NOPE" && missingKey.trace.steps.contains { $0.outcome == "missing" && $0.message.contains("pl, en") })
        // German is not in the catalog: the source language (en) answers, plural rules and all.
        let german = try p.run(#"{"aps": {"alert": {"loc-key": "NEW_MESSAGES", "loc-args": ["1", "Jonas"]}}}"#, locale: "de")
        #expect(german.body == "1 new message from Jonas")
        #expect(german.trace.steps.contains { $0.message.contains("Localizable.xcstrings (en, one)") })
        // A broken catalog is reported with its file, and the key is shown.
        try p.write("Localizable.xcstrings", "{\"strings\": [}")
        let broken = try p.run(#"{"aps": {"alert": {"loc-key": "INBOX"}}}"#, locale: "en")
        #expect(broken.body == "INBOX" && broken.trace.steps.contains { $0.outcome == "failed" && $0.message.contains("Localizable.xcstrings") })
    }

    static let catalog = """
    {
      "sourceLanguage": "en", "version": "1.0",
      "strings": {
        "INBOX": {"localizations": {
          "en": {"stringUnit": {"state": "translated", "value": "Inbox"}},
          "nl": {"stringUnit": {"state": "translated", "value": "Postvak IN"}}}},
        "NEW_MESSAGES": {"localizations": {
          "en": {"variations": {"plural": {
            "one": {"stringUnit": {"state": "translated", "value": "%1$lld new message from %2$@"}},
            "other": {"stringUnit": {"state": "translated", "value": "%1$lld new messages from %2$@"}}}}},
          "nl": {"variations": {"plural": {
            "one": {"stringUnit": {"state": "translated", "value": "%1$lld nieuw bericht van %2$@"}},
            "other": {"stringUnit": {"state": "translated", "value": "%1$lld nieuwe berichten van %2$@"}}}}},
          "pl": {"variations": {"plural": {
            "one": {"stringUnit": {"state": "translated", "value": "%1$lld nowa wiadomość od %2$@"}},
            "few": {"stringUnit": {"state": "translated", "value": "%1$lld nowe wiadomości od %2$@"}},
            "many": {"stringUnit": {"state": "translated", "value": "%1$lld nowych wiadomości od %2$@"}},
            "other": {"stringUnit": {"state": "translated", "value": "%1$lld wiadomości od %2$@"}}}}},
          "tr": {"variations": {"plural": {
            "one": {"stringUnit": {"state": "translated", "value": "%2$@'dan %1$lld yeni mesaj"}},
            "other": {"stringUnit": {"state": "translated", "value": "%2$@'dan %1$lld yeni mesaj"}}}}},
          "vi": {"variations": {"plural": {
            "other": {"stringUnit": {"state": "translated", "value": "%1$lld tin nhắn mới từ %2$@"}}}}},
          "tl": {"variations": {"plural": {
            "one": {"stringUnit": {"state": "translated", "value": "%1$lld bagong mensahe mula kay %2$@"}},
            "other": {"stringUnit": {"state": "translated", "value": "%1$lld na bagong mensahe mula kay %2$@"}}}}}
        }}
      }
    }
    """
}
