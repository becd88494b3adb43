import Checked
import ConfinedFiles
import Foundation
import Payload
import Formats

/// A React Native, Expo, Flutter or Capacitor app (issue 39): which framework the folder init is
/// given is, from which file, where its iOS app is (`ios/`, Capacitor's `ios/App`), and its own
/// TypeScript/JavaScript or Dart sources, where it registers its categories. A folder inside it
/// that is another app (its own framework marker or iOS project) is not this app's: its code and
/// payloads are left out, and said.
public struct CrossPlatformApp {
    public enum Framework: String, Sendable { case reactNative = "React Native", expo = "Expo", flutter = "Flutter", capacitor = "Capacitor" }

    public var framework: Framework
    /// `package.json depends on react-native 0.81.4`, `pubspec.yaml depends on the Flutter SDK`, …
    public var evidence: String
    public var root: URL
    /// The folder holding the iOS app's Xcode project or workspace; nil when there is none (Expo before prebuild).
    public var iosFolder: URL?
    /// Other apps inside this one's folder (relative paths), with what makes each one.
    public var otherApps: [(path: String, why: String)] = []

    /// Folders never the app's own source.
    static let skipped: Set<String> = XcodeDiscovery.skipped.union(["ios", "android", "macos", "windows", "linux", "web", "Pods", ".dart_tool", ".expo", "dist", "coverage", "__tests__", "e2e", "vendor", ".yarn"])
    static let maxFiles = 20_000

    /// The framework of the app at `folder`, or nil when it is none of these.
    public static func detect(at folder: URL, in repository: Repository) -> CrossPlatformApp? {
        guard let (framework, evidence) = marker(folder, in: repository) else { return nil }
        var app = CrossPlatformApp(framework: framework, evidence: evidence, root: folder.standardizedFileURL)
        let ios = folder.appendingPathComponent("ios")
        let candidates = framework == .capacitor ? [ios.appendingPathComponent("App"), ios] : [ios]
        app.iosFolder = candidates.first { c in repository.names(c).contains { $0.hasSuffix(".xcodeproj") || $0.hasSuffix(".xcworkspace") || $0 == "project.yml" } }
        if app.iosFolder == nil, framework == .reactNative, let expo = hasDependency(folder, "expo", in: repository) {
            app.framework = .expo
            app.evidence = "package.json: expo \(expo), react-native \(hasDependency(folder, "react-native", in: repository) ?? "?")"
        }
        app.otherApps = others(below: folder, in: repository)
        return app
    }

    /// What makes `folder` an app of one of the frameworks.
    static func marker(_ folder: URL, in repository: Repository) -> (Framework, String)? {
        let names = Set(repository.names(folder))
        if let config = ["capacitor.config.ts", "capacitor.config.json", "capacitor.config.js"].first(where: names.contains) { return (.capacitor, config) }
        if names.contains("pubspec.yaml"), let text = repository.contents(folder.appendingPathComponent("pubspec.yaml"), limit: 1 << 20),
           String(decoding: text, as: UTF8.self).range(of: #"sdk:\s*flutter"#, options: .regularExpression) != nil {
            return (.flutter, "pubspec.yaml: the Flutter SDK")
        }
        guard names.contains("package.json") else { return nil }
        if let v = hasDependency(folder, "react-native", in: repository) {
            return (.reactNative, "package.json: react-native \(v)")
        }
        if let v = hasDependency(folder, "expo", in: repository) { return (.expo, "package.json: expo \(v)") }
        return nil
    }

    /// The version package.json asks for `name` (dependencies or devDependencies), or nil.
    static func hasDependency(_ folder: URL, _ name: String, in repository: Repository) -> String? {
        guard let bytes = repository.contents(folder.appendingPathComponent("package.json"), limit: 4 << 20),
              let json = try? JSONParser.parse(bytes, file: "package.json") else { return nil }
        for section in ["dependencies", "devDependencies", "peerDependencies"] {
            if let v = json[section]?[name] { return v.string ?? "?" }
        }
        return nil
    }

    /// Folders below `folder` (not the app's own ios/ and android/) that are apps of their own.
    static func others(below folder: URL, in repository: Repository) -> [(path: String, why: String)] {
        var found: [(String, String)] = []
        func walk(_ dir: URL, _ relative: [String], depth: Int) {
            guard depth < 6 else { return }
            for name in repository.names(dir).sorted() where !XcodeDiscovery.skipped.contains(name) && !name.hasPrefix(".") {
                let url = dir.appendingPathComponent(name), path = relative + [name]
                guard repository.isFolder(url), !repository.isLink(url) else { continue }
                if depth == 0, ["ios", "android", "macos"].contains(name) { continue }
                if let (framework, evidence) = marker(url, in: repository) { found.append((path.joined(separator: "/"), "a \(framework.rawValue) app (\(evidence))")); continue }
                if let project = repository.names(url).first(where: { $0.hasSuffix(".xcodeproj") }), depth > 0 || !["ios"].contains(name) {
                    found.append((path.joined(separator: "/"), "an Xcode project of its own (\(project))")); continue
                }
                walk(url, path, depth: depth + 1)
            }
        }
        walk(folder, [], depth: 0)
        // A nested project below ios/ (a local pod's, an example's) is said by the Xcode reading.
        return found
    }

    /// The app's own source files in `extensions` (not ios/, android/, node_modules, other apps).
    public func sources(_ extensions: Set<String>, in repository: Repository, problems: inout [String]) -> [URL] {
        var files: [URL] = []
        let others = Set(otherApps.map { root.appendingPathComponent($0.path).standardizedFileURL.path })
        func walk(_ dir: URL, depth: Int) {
            guard depth < 16, files.count < Self.maxFiles else { return }
            for name in repository.names(dir).sorted() where !Self.skipped.contains(name) && !name.hasPrefix(".") {
                let url = dir.appendingPathComponent(name)
                if repository.isLink(url) { continue }
                if repository.isFolder(url) {
                    if !others.contains(url.standardizedFileURL.path), !name.hasSuffix(".xcodeproj"), !name.hasSuffix(".xcassets") { walk(url, depth: depth + 1) }
                } else if extensions.contains(url.pathExtension.lowercased()), !name.hasSuffix(".d.ts"), !name.contains(".test."), !name.contains(".spec.") {
                    files.append(url)
                }
            }
        }
        walk(root, depth: 0)
        if files.count >= Self.maxFiles { problems.append("\(root.path): over \(Self.maxFiles) source files; only the first \(Self.maxFiles) were looked at for categories") }
        return files
    }

    /// The code languages this framework's app registers categories in.
    public var codeExtensions: Set<String> {
        framework == .flutter ? ["dart"] : ["ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts"]
    }

    /// Categories from the app's TypeScript/JavaScript or Dart code.
    public func categories(in repository: Repository, problems: inout [String]) -> CodeImport {
        let files = sources(codeExtensions, in: repository, problems: &problems)
        return CodeImport.readScripts(files, in: repository, root: root, parser: TreeSitterChild.find())
    }

    /// What a missing generated file means here, or nil for a problem of another kind: the command
    /// that makes it, and what is read without it.
    public static func generatedFile(_ problem: String) -> String? {
        if problem.contains("Generated.xcconfig") {
            return "ios/Flutter/Generated.xcconfig is made by `flutter pub get` (or `flutter build ios --config-only`) and is not committed: it holds the Flutter SDK's paths and FLUTTER_BUILD_NAME/FLUTTER_BUILD_NUMBER (from pubspec.yaml's version:); everything else (bundle ids, Info.plists, extensions, icons, strings) is read without it, and CFBundleShortVersionString/CFBundleVersion are left as $(FLUTTER_BUILD_NAME)/$(FLUTTER_BUILD_NUMBER)"
        }
        if problem.range(of: #"Pods[-/][^ ]*\.xcconfig"#, options: .regularExpression) != nil || problem.contains("Target Support Files") || problem.contains("/Pods/") {
            return "ios/Pods/ (the Pods-*.xcconfig files, ExpoModulesProvider.swift) is made by `pod install` (in ios/, after `npm install` or `flutter pub get`) and is not committed: it holds CocoaPods' search paths, linker flags and generated module lists, none of which says what a notification shows; the targets' own settings and code are read without it"
        }
        if problem.contains("GeneratedPluginRegistrant") {
            return "ios/Runner/GeneratedPluginRegistrant.m is made by `flutter pub get` and is not committed: it only registers the Flutter plugins; the app's notification code is its Dart code, read through tree-sitter"
        }
        return nil
    }

    /// Said when the Xcode project is read from ios/: what the shells generate that is not committed.
    public var generatedNotes: [String] {
        switch framework {
        case .reactNative: return ["React Native: ios/Pods, ios/.xcode.env.local and the codegen output (ios/build/generated) are made by `pod install`; none holds what a notification shows"]
        case .capacitor: return ["Capacitor: ios/App/App/capacitor.config.json, config.xml and public/ are copied in by `npx cap sync ios`; none holds what a notification shows"]
        case .flutter, .expo: return []
        }
    }
}
