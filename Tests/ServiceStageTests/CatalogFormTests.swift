import Foundation
import Testing
import ServiceStage
import Formats

/// The forms real catalogs take: a .stringsdict with plural rules, String Catalog device and
/// plural variations nested either way, substitutions, every format specifier, shouldTranslate.
struct CatalogFormTests {
    @Test func stringsdictPluralRules() throws {
        let p = ScratchProject()
        try p.write("pl.lproj/Localizable.stringsdict", """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        	<key>SEATS_LEFT</key>
        	<dict>
        		<key>NSStringLocalizedFormatKey</key>
        		<string>%#@seats@ na %@</string>
        		<key>seats</key>
        		<dict>
        			<key>NSStringFormatSpecTypeKey</key>
        			<string>NSStringPluralRuleType</string>
        			<key>NSStringFormatValueTypeKey</key>
        			<string>d</string>
        			<key>one</key>
        			<string>Zostało %d miejsce</string>
        			<key>few</key>
        			<string>Zostały %d miejsca</string>
        			<key>many</key>
        			<string>Zostało %d miejsc</string>
        			<key>other</key>
        			<string>Zostało %d miejsca</string>
        		</dict>
        	</dict>
        </dict>
        </plist>
        """)
        let strings = Localizer(projectFolder: p.folder, locale: "pl")
        #expect(strings.resolve(key: "SEATS_LEFT", args: ["3", "prom"]).text == "Zostały 3 miejsca na prom")
        #expect(strings.resolve(key: "SEATS_LEFT", args: ["1", "prom"]).text == "Zostało 1 miejsce na prom")
        #expect(strings.resolve(key: "SEATS_LEFT", args: ["12", "prom"]).text == "Zostało 12 miejsc na prom")
    }

    static let catalog = #"""
    {"sourceLanguage": "en", "version": "1.0", "strings": {
      "TAP": {"extractionState": "manual", "localizations": {"en": {"variations": {"device": {
          "iphone": {"stringUnit": {"state": "translated", "value": "Tap to reply"}},
          "ipad": {"variations": {"plural": {"one": {"stringUnit": {"state": "translated", "value": "Click %lld reply"}},
                                             "other": {"stringUnit": {"state": "translated", "value": "Click %lld replies"}}}}},
          "other": {"stringUnit": {"state": "translated", "value": "Open"}}}}}}},
      "BOOKED": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "%1$@ booked %#@seats@"},
          "substitutions": {"seats": {"argNum": 2, "formatSpecifier": "lld", "variations": {"plural": {
            "one": {"stringUnit": {"state": "translated", "value": "%arg seat"}},
            "other": {"stringUnit": {"state": "needs_review", "value": "%arg seats"}}}}}}}}},
      "SPECS": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "%lld at %.1f knots, %d%% full, %tu left, %2$@ again"}}}},
      "BRAND": {"shouldTranslate": false}
    }}
    """#

    @Test func catalogVariationsSubstitutionsAndSpecifiers() throws {
        let p = ScratchProject()
        try p.write("Localizable.xcstrings", Self.catalog)
        let phone = Localizer(projectFolder: p.folder, locale: "en", device: "iphone")
        let pad = Localizer(projectFolder: p.folder, locale: "en", device: "ipad")
        #expect(phone.problems.isEmpty, "\(phone.problems)")
        #expect(phone.resolve(key: "TAP", args: ["2"]).text == "Tap to reply")
        #expect(pad.resolve(key: "TAP", args: ["2"]).text == "Click 2 replies")
        #expect(pad.resolve(key: "TAP", args: ["1"]).text == "Click 1 reply")
        #expect(pad.resolve(key: "TAP", args: ["1"]).source == "Localizable.xcstrings (en, ipad, one)")
        #expect(phone.resolve(key: "BOOKED", args: ["Ann", "1"]).text == "Ann booked 1 seat")
        #expect(phone.resolve(key: "BOOKED", args: ["Ann", "4"]).text == "Ann booked 4 seats")
        #expect(phone.resolve(key: "SPECS", args: ["3", "12.345", "80", "7"]).text == "3 at 12.3 knots, 80% full, 7 left, 12.345 again")
        #expect(phone.resolve(key: "BRAND", args: []).text == "BRAND" && phone.resolve(key: "BRAND", args: []).warnings.isEmpty)
    }
}

/// Shapes a blogging app ships: its extensions' tables are binary property lists, and others
/// XML ones; an enrichment rule that names an aps field is said, not stored as a custom key.
struct TableFormTests {
    @Test func propertyListStringsTables() throws {
        let p = ScratchProject()
        let table: [String: String] = ["Reply": "Responder", "Like": "Curtir"]
        try p.write("pt-BR.lproj/Localizable.strings", [UInt8](try PropertyListSerialization.data(fromPropertyList: table, format: .binary, options: 0)))
        try p.write("fr.lproj/Localizable.strings", [UInt8](try PropertyListSerialization.data(fromPropertyList: ["Reply": "Répondre"], format: .xml, options: 0)))
        #expect(Localizer(projectFolder: p.folder, locale: "pt-BR").resolve(key: "Like", args: []).text == "Curtir")
        #expect(Localizer(projectFolder: p.folder, locale: "fr").resolve(key: "Reply", args: []).text == "Répondre")
        try p.write("de.lproj/Localizable.strings", Array("bplist00".utf8) + [0, 1, 2])
        #expect(Localizer(projectFolder: p.folder, locale: "de").problems.contains { $0.contains("de.lproj/Localizable.strings") })
    }

    /// Issue 16: enrichment sets the aps fields an extension may change (the badge here); one
    /// it may not, or a value that is not one, is said and changes nothing.
    @Test func enrichmentSetsApsFields() throws {
        let p = ScratchProject()
        try p.write("app-group/rooms.json", #"{"!room": {"name": "Crew", "count": "3"}, "!bad": {"name": "Bad", "count": "three"}}"#)
        var settings = ServiceSettings()
        settings.enrich = [.init(key: "room_id", data: "app-group/rooms.json", set: [("title", "{{name}}"), ("badge", "{{count}}"), ("aps", "x")])]
        let n = try p.run(#"{"aps": {"alert": {"title": "T", "body": "B"}, "mutable-content": 1, "badge": 1}, "room_id": "!room"}"#, settings: settings)
        #expect(n.title == "Crew" && n.badge == 3)
        #expect(n.trace.fallbacks.map(\.message).contains { $0.contains("set.aps") && $0.contains("not a field an extension can change") }, "\(n.trace.steps)")
        #expect(!n.userInfo.contains { $0.key == "badge" || $0.key == "aps" })
        let bad = try p.run(#"{"aps": {"alert": {"title": "T", "body": "B"}, "mutable-content": 1, "badge": 1}, "room_id": "!bad"}"#, settings: settings)
        #expect(bad.title == "Bad" && bad.badge == 1)
        #expect(bad.trace.fallbacks.map(\.message).contains { $0.contains("set.badge") && $0.contains("not a whole number") }, "\(bad.trace.steps)")
    }
}

/// What a messenger's and a blogging app's locales showed: a key only the development language
/// has is said; en-US finds en; zh-CN finds zh-Hans; a folder without the table has no strings.
struct LocaleMatchingTests {
    @Test func fallbacksAreSaidAndLocalesMatchAsOnIOS() throws {
        let p = ScratchProject()
        try p.write("en.lproj/Localizable.strings", #""A" = "Alpha"; "B" = "Beta";"#)
        try p.write("de.lproj/Localizable.strings", #""A" = "Anfang";"#)
        try p.write("zh_Hans.lproj/Localizable.strings", #""A" = "开始";"#)
        try p.write("tr.lproj/InfoPlist.strings", #"CFBundleDisplayName = "Liman";"#)
        let de = Localizer(projectFolder: p.folder, locale: "de")
        #expect(de.resolve(key: "A", args: []).text == "Anfang" && !de.resolve(key: "A", args: []).fellBack)
        let b = de.resolve(key: "B", args: [])
        #expect(b.text == "Beta" && b.fellBack && b.warnings.contains { $0.contains("no de translation") }, "\(b)")
        #expect(b.source == "en.lproj/Localizable")
        #expect(Localizer(projectFolder: p.folder, locale: "en-US").problems.isEmpty)
        #expect(Localizer(projectFolder: p.folder, locale: "zh-CN").resolve(key: "A", args: []).text == "开始")
        #expect(Localizer(projectFolder: p.folder, locale: "zh-CN").resolve(key: "A", args: []).source == "zh_Hans.lproj/Localizable")
        #expect(Localizer(projectFolder: p.folder, locale: "tr").problems.contains { $0.contains("no strings for tr") })
        let n = try p.run(#"{"aps": {"alert": {"title-loc-key": "B", "loc-key": "A"}, "mutable-content": 1}}"#, locale: "de")
        #expect(n.trace.fallbacks.map(\.message).contains { $0.contains("fell back") && $0.contains("\"B\"") }, "\(n.trace.fallbacks)")
    }
}
