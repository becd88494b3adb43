import ConfinedFiles
import Foundation
import Formats

/// How a push SDK's service extension reads a payload, as data: `Templates/sdks/ID.json`, one
/// file per SDK, each fact with its source (`owner/repo@commit:path:line`, or `doc:` and a page).
/// `init` recognises the SDK by `recognise`; the service stage does what `media`, `actions` and
/// `changes` say, and says "as NAME does (source)". Adding an SDK is adding its file.
public struct PushSDK: Sendable, Equatable {
    /// The file's stem: what `"sdks"` in pushpreview.json names.
    public var id: String
    public var name: String
    public var recognise: Recognition
    /// Key paths the SDK needs before it does anything (Customer.io's delivery id and token).
    public var gate: Gate?
    public var media: [Media]
    public var actions: Actions?
    public var changes: [Change]
    /// The content view the SDK draws itself (a carousel, a story), when PushPreview has a copy of it.
    public var contentView: ContentView?
    /// userInfo members init's sample payload gets, `{{sampleImage}}` standing for its sample image.
    public var sample: [(key: String, value: JSONValue)]

    public static func == (a: PushSDK, b: PushSDK) -> Bool { a.id == b.id }

    /// What in an app says it uses the SDK: words in its extension's code, and package manifests.
    public struct Recognition: Sendable, Equatable {
        /// Modules imported (`import X`, `@import X;`, `#import <X/…>`).
        public var imports: [String] = []
        /// Classes the extension's principal class inherits from.
        public var superclasses: [String] = []
        /// Names of functions or types the extension calls.
        public var calls: [String] = []
        /// CocoaPods names (Podfile, Podfile.lock).
        public var pods: [String] = []
        /// Swift packages, as `owner/name` of their repository URL (Package.resolved).
        public var packages: [String] = []
        /// Carthage entries, as `owner/name` (Cartfile).
        public var carthage: [String] = []
        /// Superclasses and calls of a content extension whose view the SDK draws itself.
        public var contentViews: [String] = []
        public var source: String = ""
    }

    public struct Gate: Sendable, Equatable {
        public var keyPaths: [String]
        public var source: String
    }

    /// A key the SDK downloads and attaches from: a string URL, an array of them, an object of
    /// them (`valueShape`), and the key saying its type where the SDK reads one.
    public struct Media: Sendable, Equatable {
        public enum Shape: String, Sendable { case string, strings, objectValues }
        public var keyPath: String
        public var shape = Shape.string
        public var typeKeyPath: String?
        /// Without the type key the SDK attaches nothing (CleverTap).
        public var typeRequired = false
        public var source: String
    }

    /// The SDK's own content view as PushPreview draws it: the stock template that copies it
    /// (`Templates/stock/NAME.html`), where the view reads its data and the images it downloads
    /// itself (not attachments: the banner shows none of them).
    public struct ContentView: Sendable, Equatable {
        public var template: String
        /// Keys whose value is a JSON object in a string, read in place of the payload's own keys:
        /// the first the payload has (CleverTap's `ct_ContentSlider`, then `pt_json`).
        public var dataKeys: [String]
        /// Keys (in the view's data) whose values choose its layout: `sdkView.variant.KEY.VALUE`.
        public var variantKeys: [String]
        /// Key paths of the images, in the order the view shows them, looked up in the view's data;
        /// `*` stands for each item of an array (`ab.c_items.*.i`).
        public var images: [String]
        public var source: String

        /// The image paths present in `data`, each `*` spelled out, in the view's order.
        public func imagePaths(in data: JSONValue) -> [String] {
            images.flatMap { Self.expand($0.split(separator: ".", omittingEmptySubsequences: false).map(String.init)[...], in: data, prefix: []) }
        }

        static func expand(_ parts: ArraySlice<String>, in value: JSONValue, prefix: [String]) -> [String] {
            guard let head = parts.first else { return [prefix.joined(separator: ".")] }
            guard head == "*" else {
                // Lookup as KeyPath does (a number indexes an array), one part at a time.
                guard let next = KeyPath(head).lookup(in: value).value as? JSONValue else { return [] }
                return expand(parts.dropFirst(), in: next, prefix: prefix + [head])
            }
            guard case .array(let items) = value else { return [] }
            return items.indices.flatMap { expand(parts.dropFirst(), in: items[$0], prefix: prefix + ["\($0)"]) }
        }
    }

    /// Buttons the SDK builds from the payload into a category it registers at delivery.
    public struct Actions: Sendable, Equatable {
        public var keyPath: String
        public var identifierKey: String
        public var titleKey: String
        /// Options every button gets (`foreground`), unless `foregroundKey` says otherwise.
        public var options: [String] = []
        /// A boolean member: false drops `foreground` (Iterable's `openApp`).
        public var foregroundKey: String?
        /// A member naming the button's kind, and which of its values mean destructive and text input.
        public var kindKey: String?
        public var destructiveKind: String?
        public var textInputKind: String?
        public var textInputButtonKey: String?
        public var textInputPlaceholderKey: String?
        /// The category: prefix + the value at `categoryKeyPath` (else the request's identifier).
        public var categoryPrefix = ""
        public var categoryKeyPath: String?
        /// The SDK leaves a category the payload names alone (all but PushEngage).
        public var keepsPayloadCategory = true
        /// Another key the SDK needs to build them (Klaviyo's `body._k`).
        public var requires: String?
        public var source: String
    }

    /// A change the SDK makes to the content: a field from a key, a text appended, a value set
    /// when the payload has none; or, with only `note`, one PushPreview cannot draw and says.
    public struct Change: Sendable, Equatable {
        public var field: String
        public var fromKeyPath: String?
        public var append: String?
        public var whenMissing: String?
        public var note: String?
        /// A key path the payload must hold for the change to happen (Klaviyo's `badge_config`).
        public var when: String?
        public var source: String
    }

    /// The SDKs a share folder holds, and what in their files could not be read.
    public struct Catalog: Sendable {
        public var sdks: [PushSDK] = []
        public var problems: [String] = []
        public func sdk(_ id: String) -> PushSDK? { sdks.first { $0.id == id } }

        /// `Templates/sdks` of the share folder the executable finds (ShareFolder), read once.
        public static let standard: Catalog = {
            guard let share = ShareFolder.locate() else { return Catalog(problems: ["Templates/sdks: the share folder was not found; no push SDK is known"]) }
            return read(share.templates.appendingPathComponent("sdks"))
        }()

        /// Every `*.json` in `folder`, sorted by name; a file that does not read is a problem, the rest load.
        public static func read(_ folder: URL) -> Catalog {
            var catalog = Catalog()
            let folderHandle: ConfinedFolder
            do { folderHandle = try ConfinedFolder(trusted: folder) } catch {
                return Catalog(problems: ["\(folder.path): \(error.why); no push SDK is known"])
            }
            let names = ((try? folderHandle.names("")) ?? []).filter { $0.hasSuffix(".json") }.sorted()
            for name in names {
                let file = folder.appendingPathComponent(name).path
                do {
                    let json = try JSONParser.parse(try folderHandle.read(name, limit: 1 << 20), file: file)
                    catalog.sdks.append(try PushSDK(json, id: String(name.dropLast(5)), file: file))
                } catch let error as JSONError { catalog.problems.append(error.description) }
                catch let error as FileRefusal { catalog.problems.append("\(file): \(error.why)") }
                catch { catalog.problems.append("\(error)") }
            }
            return catalog
        }
    }

    public struct FormatError: Error, CustomStringConvertible {
        public var file: String, keyPath: String, reason: String
        public var description: String { "\(file): \(keyPath): \(reason)" }
    }

    /// Reads one SDK's file; a fact without its `source` is an error, as a fact nobody can check.
    public init(_ json: JSONValue, id: String, file: String) throws(FormatError) {
        func fail(_ path: String, _ why: String) -> FormatError { FormatError(file: file, keyPath: path, reason: why) }
        func string(_ v: JSONValue?, _ path: String) throws(FormatError) -> String {
            guard let s = v?.string, !s.isEmpty else { throw fail(path, "expected a non-empty string") }
            return s
        }
        func optional(_ v: JSONValue?, _ path: String) throws(FormatError) -> String? { v == nil ? nil : try string(v, path) }
        func strings(_ v: JSONValue?, _ path: String) throws(FormatError) -> [String] {
            guard let v else { return [] }
            guard case .array(let items) = v, items.allSatisfy({ $0.string != nil }) else { throw fail(path, "expected an array of strings") }
            return items.compactMap(\.string)
        }
        func bool(_ v: JSONValue?, _ path: String, _ d: Bool) throws(FormatError) -> Bool {
            guard let v else { return d }
            guard case .bool(let b) = v else { throw fail(path, "expected true or false") }
            return b
        }
        func objects(_ v: JSONValue?, _ path: String) throws(FormatError) -> [JSONValue] {
            guard let v else { return [] }
            guard case .array(let items) = v, items.allSatisfy({ if case .object = $0 { return true }; return false }) else { throw fail(path, "expected an array of objects") }
            return items
        }
        self.id = id
        name = try string(json["name"], "name")
        let r = json["recognise"] ?? .object([])
        recognise = Recognition(imports: try strings(r["imports"], "recognise.imports"), superclasses: try strings(r["superclasses"], "recognise.superclasses"),
                                calls: try strings(r["calls"], "recognise.calls"), pods: try strings(r["pods"], "recognise.pods"),
                                packages: try strings(r["packages"], "recognise.packages"), carthage: try strings(r["carthage"], "recognise.carthage"),
                                contentViews: try strings(r["contentViews"], "recognise.contentViews"),
                                source: try string(r["source"], "recognise.source"))
        if let g = json["gate"] {
            gate = Gate(keyPaths: try strings(g["keyPaths"], "gate.keyPaths"), source: try string(g["source"], "gate.source"))
        }
        media = []
        for (i, m) in try objects(json["media"], "media").enumerated() {
            let at = "media[\(i)]"
            let shapeName = try optional(m["shape"], "\(at).shape") ?? "string"
            guard let shape = Media.Shape(rawValue: shapeName) else { throw fail("\(at).shape", "expected string, strings or objectValues") }
            media.append(Media(keyPath: try string(m["keyPath"], "\(at).keyPath"), shape: shape, typeKeyPath: try optional(m["typeKeyPath"], "\(at).typeKeyPath"),
                               typeRequired: try bool(m["typeRequired"], "\(at).typeRequired", false), source: try string(m["source"], "\(at).source")))
        }
        if let a = json["actions"] {
            var actions = Actions(keyPath: try string(a["keyPath"], "actions.keyPath"), identifierKey: try string(a["identifierKey"], "actions.identifierKey"),
                                  titleKey: try string(a["titleKey"], "actions.titleKey"), source: try string(a["source"], "actions.source"))
            actions.options = try strings(a["options"], "actions.options")
            actions.foregroundKey = try optional(a["foregroundKey"], "actions.foregroundKey")
            actions.kindKey = try optional(a["kindKey"], "actions.kindKey")
            actions.destructiveKind = try optional(a["destructiveKind"], "actions.destructiveKind")
            actions.textInputKind = try optional(a["textInputKind"], "actions.textInputKind")
            actions.textInputButtonKey = try optional(a["textInputButtonKey"], "actions.textInputButtonKey")
            actions.textInputPlaceholderKey = try optional(a["textInputPlaceholderKey"], "actions.textInputPlaceholderKey")
            actions.categoryPrefix = a["categoryPrefix"]?.string ?? ""
            actions.categoryKeyPath = try optional(a["categoryKeyPath"], "actions.categoryKeyPath")
            actions.keepsPayloadCategory = try bool(a["keepsPayloadCategory"], "actions.keepsPayloadCategory", true)
            actions.requires = try optional(a["requires"], "actions.requires")
            self.actions = actions
        }
        changes = []
        for (i, c) in try objects(json["changes"], "changes").enumerated() {
            let at = "changes[\(i)]"
            let change = Change(field: try string(c["field"], "\(at).field"), fromKeyPath: try optional(c["fromKeyPath"], "\(at).fromKeyPath"),
                                append: c["append"]?.string, whenMissing: try optional(c["whenMissing"], "\(at).whenMissing"),
                                note: try optional(c["note"], "\(at).note"), when: try optional(c["when"], "\(at).when"),
                                source: try string(c["source"], "\(at).source"))
            guard change.fromKeyPath != nil || change.append != nil || change.whenMissing != nil || change.note != nil else {
                throw fail(at, "a change needs fromKeyPath, append, whenMissing or note")
            }
            changes.append(change)
        }
        if let v = json["contentView"] {
            contentView = ContentView(template: try string(v["template"], "contentView.template"), dataKeys: try strings(v["dataKeys"], "contentView.dataKeys"),
                                      variantKeys: try strings(v["variantKeys"], "contentView.variantKeys"),
                                      images: try strings(v["images"], "contentView.images"), source: try string(v["source"], "contentView.source"))
            guard let name = contentView?.template, !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                throw fail("contentView.template", "expected a stock template's name (Templates/stock/NAME.html)")
            }
        }
        sample = json["sample"]?.objectMembers ?? []
        let known: Set<String> = ["$comment", "name", "recognise", "gate", "media", "actions", "changes", "contentView", "sample"]
        if let unknown = json.objectMembers.first(where: { !known.contains($0.key) }) { throw fail(unknown.key, "unknown key; expected \(known.sorted().joined(separator: ", "))") }
    }

    /// "as Klaviyo does (source)": how a mock-up and init say where a behaviour comes from.
    public func said(_ source: String) -> String { "as \(name) does (\(source))" }
}
