import Foundation
import Payload
import Testing
import XcodeImport

/// Issue 15, the first part: an Xcode project's pbxproj (the old-style OpenStep property list)
/// read strictly, its object graph resolved, on files written here in the shape Xcode writes.
struct XcodeProjectTests {
    /// An app with a content extension: two configurations, a generated Info.plist with
    /// INFOPLIST_KEY_ settings, $(VAR) expansion, a localized storyboard (a variant group), and
    /// Xcode's comments, quoting and escapes.
    static let pbxproj = #"""
    // !$*UTF8*$!
    {
    	archiveVersion = 1;
    	classes = {
    	};
    	objectVersion = 56;
    	objects = {

    /* Begin PBXBuildFile section */
    		A1000001 /* AppDelegate.swift in Sources */ = {isa = PBXBuildFile; fileRef = A2000001 /* AppDelegate.swift */; };
    		A1000002 /* NotificationViewController.swift in Sources */ = {isa = PBXBuildFile; fileRef = A2000002 /* NotificationViewController.swift */; };
    		A1000003 /* MainInterface.storyboard in Resources */ = {isa = PBXBuildFile; fileRef = A3000001 /* MainInterface.storyboard */; };
    		A1000004 /* Assets.xcassets in Resources */ = {isa = PBXBuildFile; fileRef = A2000004 /* Assets.xcassets */; };
    /* End PBXBuildFile section */

    /* Begin PBXFileReference section */
    		A2000001 /* AppDelegate.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = AppDelegate.swift; sourceTree = "<group>"; };
    		A2000002 /* NotificationViewController.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = NotificationViewController.swift; sourceTree = "<group>"; };
    		A2000003 /* Base */ = {isa = PBXFileReference; lastKnownFileType = file.storyboard; name = Base; path = Base.lproj/MainInterface.storyboard; sourceTree = "<group>"; };
    		A2000005 /* nl */ = {isa = PBXFileReference; lastKnownFileType = text.plist.strings; name = nl; path = nl.lproj/MainInterface.strings; sourceTree = "<group>"; };
    		A2000004 /* Assets.xcassets */ = {isa = PBXFileReference; lastKnownFileType = folder.assetcatalog; path = Assets.xcassets; sourceTree = "<group>"; };
    		A2000006 /* Harbor.app */ = {isa = PBXFileReference; explicitFileType = wrapper.application; includeInIndex = 0; path = Harbor.app; sourceTree = BUILT_PRODUCTS_DIR; };
    		A2000007 /* Info.plist */ = {isa = PBXFileReference; lastKnownFileType = text.plist.xml; path = Info.plist; sourceTree = "<group>"; };
    /* End PBXFileReference section */

    /* Begin PBXGroup section */
    		A4000001 = {
    			isa = PBXGroup;
    			children = (
    				A4000002 /* Harbor */,
    				A4000003 /* HarborContent */,
    				A4000004 /* Products */,
    			);
    			sourceTree = "<group>";
    		};
    		A4000002 /* Harbor */ = {isa = PBXGroup; children = (A2000001 /* AppDelegate.swift */, A2000004 /* Assets.xcassets */, ); path = Harbor; sourceTree = "<group>"; };
    		A4000003 /* HarborContent */ = {
    			isa = PBXGroup;
    			children = (
    				A2000002 /* NotificationViewController.swift */,
    				A3000001 /* MainInterface.storyboard */,
    				A2000007 /* Info.plist */,
    			);
    			path = "Harbor Content";
    			sourceTree = "<group>";
    		};
    		A4000004 /* Products */ = {isa = PBXGroup; children = (A2000006 /* Harbor.app */, ); name = Products; sourceTree = "<group>"; };
    /* End PBXGroup section */

    /* Begin PBXNativeTarget section */
    		A5000001 /* Harbor */ = {
    			isa = PBXNativeTarget;
    			buildConfigurationList = A7000001 /* Build configuration list for PBXNativeTarget "Harbor" */;
    			buildPhases = (A6000001 /* Sources */, A6000002 /* Resources */, );
    			name = Harbor;
    			productName = Harbor;
    			productReference = A2000006 /* Harbor.app */;
    			productType = "com.apple.product-type.application";
    		};
    		A5000002 /* HarborContent */ = {
    			isa = PBXNativeTarget;
    			buildConfigurationList = A7000002 /* Build configuration list for PBXNativeTarget "HarborContent" */;
    			buildPhases = (A6000003 /* Sources */, A6000004 /* Resources */, );
    			name = HarborContent;
    			productType = "com.apple.product-type.app-extension";
    		};
    /* End PBXNativeTarget section */

    /* Begin PBXProject section */
    		A0000001 /* Project object */ = {
    			isa = PBXProject;
    			buildConfigurationList = A7000000 /* Build configuration list for PBXProject "Harbor" */;
    			developmentRegion = en;
    			knownRegions = (en, Base, nl, "pt-BR", );
    			mainGroup = A4000001;
    			targets = (A5000001 /* Harbor */, A5000002 /* HarborContent */, );
    		};
    /* End PBXProject section */

    /* Begin PBXResourcesBuildPhase section */
    		A6000002 /* Resources */ = {isa = PBXResourcesBuildPhase; files = (A1000004 /* Assets.xcassets in Resources */, ); };
    		A6000004 /* Resources */ = {isa = PBXResourcesBuildPhase; files = (A1000003 /* MainInterface.storyboard in Resources */, ); };
    /* End PBXResourcesBuildPhase section */

    /* Begin PBXSourcesBuildPhase section */
    		A6000001 /* Sources */ = {isa = PBXSourcesBuildPhase; files = (A1000001 /* AppDelegate.swift in Sources */, ); };
    		A6000003 /* Sources */ = {isa = PBXSourcesBuildPhase; files = (A1000002 /* NotificationViewController.swift in Sources */, ); };
    /* End PBXSourcesBuildPhase section */

    /* Begin PBXVariantGroup section */
    		A3000001 /* MainInterface.storyboard */ = {isa = PBXVariantGroup; children = (A2000003 /* Base */, A2000005 /* nl */, ); name = MainInterface.storyboard; sourceTree = "<group>"; };
    /* End PBXVariantGroup section */

    /* Begin XCBuildConfiguration section */
    		A8000001 /* Debug */ = {isa = XCBuildConfiguration; buildSettings = {
    				SWIFT_VERSION = 5.0;
    				MARKETING_VERSION = 2.1;
    				IPHONEOS_DEPLOYMENT_TARGET = 17.0;
    			}; name = Debug; };
    		A8000002 /* Release */ = {isa = XCBuildConfiguration; buildSettings = {SWIFT_VERSION = 5.0; MARKETING_VERSION = 2.1; }; name = Release; };
    		A8000003 /* Debug */ = {
    			isa = XCBuildConfiguration;
    			buildSettings = {
    				ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon;
    				GENERATE_INFOPLIST_FILE = YES;
    				INFOPLIST_KEY_CFBundleDisplayName = "Harbor \"Beta\"";
    				INFOPLIST_KEY_UIApplicationSceneManifest_Generation = YES;
    				PRODUCT_BUNDLE_IDENTIFIER = "com.example.$(PRODUCT_NAME:rfc1034identifier).debug";
    				PRODUCT_NAME = "$(TARGET_NAME)";
    				OTHER_SWIFT_FLAGS = ("$(inherited)", "-DDEBUG", );
    			};
    			name = Debug;
    		};
    		A8000004 /* Release */ = {
    			isa = XCBuildConfiguration;
    			buildSettings = {
    				ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon;
    				GENERATE_INFOPLIST_FILE = YES;
    				INFOPLIST_KEY_CFBundleDisplayName = "Harbor";
    				PRODUCT_BUNDLE_IDENTIFIER = "com.example.$(PRODUCT_NAME:rfc1034identifier)";
    				PRODUCT_NAME = "$(TARGET_NAME)";
    			};
    			name = Release;
    		};
    		A8000005 /* Debug */ = {isa = XCBuildConfiguration; buildSettings = {INFOPLIST_FILE = "Harbor Content/Info.plist"; PRODUCT_BUNDLE_IDENTIFIER = "${PRODUCT_BUNDLE_PREFIX}.content"; PRODUCT_BUNDLE_PREFIX = com.example.Harbor; }; name = Debug; };
    		A8000006 /* Release */ = {isa = XCBuildConfiguration; buildSettings = {INFOPLIST_FILE = "Harbor Content/Info.plist"; PRODUCT_BUNDLE_IDENTIFIER = "com.example.Harbor.content"; }; name = Release; };
    /* End XCBuildConfiguration section */

    /* Begin XCConfigurationList section */
    		A7000000 /* Build configuration list for PBXProject "Harbor" */ = {isa = XCConfigurationList; buildConfigurations = (A8000001 /* Debug */, A8000002 /* Release */, ); defaultConfigurationName = Release; };
    		A7000001 /* Build configuration list for PBXNativeTarget "Harbor" */ = {isa = XCConfigurationList; buildConfigurations = (A8000003 /* Debug */, A8000004 /* Release */, ); defaultConfigurationName = Release; };
    		A7000002 /* Build configuration list for PBXNativeTarget "HarborContent" */ = {isa = XCConfigurationList; buildConfigurations = (A8000005 /* Debug */, A8000006 /* Release */, ); defaultConfigurationName = Release; };
    /* End XCConfigurationList section */
    	};
    	rootObject = A0000001 /* Project object */;
    }
    """#

    static func write(_ text: String, name: String = "Harbor") throws -> URL {
        let bundle = temporaryFolder("xcode").appendingPathComponent("\(name).xcodeproj")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: bundle.appendingPathComponent("project.pbxproj"))
        return bundle
    }

    @Test func targetsSettingsAndFiles() throws {
        let project = try XcodeProject(bundle: try Self.write(Self.pbxproj))
        #expect(project.problems.isEmpty, "\(project.problems)")
        #expect(project.knownRegions == ["en", "Base", "nl", "pt-BR"] && project.developmentRegion == "en")
        #expect(project.targets.map(\.name) == ["Harbor", "HarborContent"])
        let app = try #require(project.targets.first { $0.isApplication })
        #expect(app.configurations.map(\.name) == ["Debug", "Release"])
        let debug = try #require(app.configuration("Debug")), release = try #require(app.configuration("Release"))
        // The target's settings over the project's, $(VAR) with an operator expanded, $(inherited) joined.
        #expect(debug["PRODUCT_NAME"] == "Harbor" && debug["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.Harbor.debug")
        #expect(release["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.Harbor" && release["SWIFT_VERSION"] == "5.0")
        #expect(debug["INFOPLIST_KEY_CFBundleDisplayName"] == #"Harbor "Beta""# && release["INFOPLIST_KEY_CFBundleDisplayName"] == "Harbor")
        #expect(debug["GENERATE_INFOPLIST_FILE"] == "YES" && debug["ASSETCATALOG_COMPILER_APPICON_NAME"] == "AppIcon")
        #expect(debug["OTHER_SWIFT_FLAGS"] == "-DDEBUG" && debug["IPHONEOS_DEPLOYMENT_TARGET"] == "17.0")
        #expect(app.sources == ["Harbor/AppDelegate.swift"] && app.resources == ["Harbor/Assets.xcassets"])
        let ext = try #require(project.targets.first { $0.isAppExtension })
        #expect(ext.configuration("Debug")?["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.Harbor.content")
        #expect(ext.configuration()?["INFOPLIST_FILE"] == "Harbor Content/Info.plist")
        #expect(ext.sources == ["Harbor Content/NotificationViewController.swift"])
        // A localized storyboard: each localization's file.
        #expect(ext.resources == ["Harbor Content/Base.lproj/MainInterface.storyboard", "Harbor Content/nl.lproj/MainInterface.strings"])
    }

    /// The same reader reads Xcode's escapes, data, comments and bare words.
    @Test func openStepValues() throws {
        let text = #"// !$*UTF8*$!"# + "\n" + #"{ a = "tab\tquote\" \U00e9 \101"; b = <0fAB 10>; c = (x/y.z, "$(SRCROOT)/a", -1.5, ); /* c */ d/*x*/ = {}; }"#
        let value = try #require(try PropertyList.read(Array(text.utf8), file: "t.pbxproj") as? [String: Any])
        #expect(value["a"] as? String == "tab\tquote\" é A")
        #expect(value["b"] as? Data == Data([0x0F, 0xAB, 0x10]))
        #expect(value["c"] as? [String] == ["x/y.z", "$(SRCROOT)/a", "-1.5"])
        #expect((value["d"] as? [String: Any])?.isEmpty == true)
    }

    /// A cut-short file, at many places, is an error with the file, line and column; a reference
    /// cycle and a dangling id are problems naming the object while the rest is read.
    @Test func hostileProjects() throws {
        let bytes = Array(Self.pbxproj.utf8)
        for fraction in [0.05, 0.2, 0.37, 0.5, 0.63, 0.8, 0.95, 0.999] {
            let cut = String(decoding: bytes.prefix(Int(Double(bytes.count) * fraction)), as: UTF8.self)
            do {
                _ = try XcodeProject(bundle: try Self.write(cut))
                Issue.record("a pbxproj cut at \(fraction) was read")
            } catch {
                let said = "\(error)"
                #expect(said.contains("project.pbxproj: line ") && said.contains("column") && said.contains("cut short"), "\(fraction): \(said)")
            }
        }
        for (text, says) in [("{ a = 1; a = 2; }", "appears twice"), ("{ a = 1 }", "expected ';'"), ("{ a = <0g>; }", "hexadecimal"),
                             (String(repeating: "(", count: 100_000), "nested deeper than"), ("{ a = (1, 2; }", "expected ',' or ')'"), ("{} }", "after the property list's end")] {
            do {
                _ = try XcodeProject(bundle: try Self.write(text))
                Issue.record("\(text.prefix(20)) was read")
            } catch { #expect("\(error)".contains(says), "\(error)") }
        }
        // A group inside itself, and a build file whose file reference does not exist.
        var cyclic = Self.pbxproj.replacingOccurrences(of: "children = (A2000001 /* AppDelegate.swift */,", with: "children = (A4000001, A2000001 /* AppDelegate.swift */,")
        cyclic = cyclic.replacingOccurrences(of: "fileRef = A2000002 /* NotificationViewController.swift */", with: "fileRef = FFFFFFFF")
        cyclic = cyclic.replacingOccurrences(of: "buildPhases = (A6000003 /* Sources */,", with: "buildPhases = (DEADBEEF, A6000003 /* Sources */,")
        let project = try XcodeProject(bundle: try Self.write(cyclic))
        #expect(project.problems.contains { $0.contains("group A4000001 contains itself") && $0.contains("A4000001 → A4000002 → A4000001") }, "\(project.problems)")
        #expect(project.problems.contains { $0.contains("object DEADBEEF") && $0.contains("HarborContent") })
        #expect(project.problems.contains { $0.contains("names file FFFFFFFF, which does not exist") })
        #expect(project.targets.count == 2 && project.targets[0].sources == ["Harbor/AppDelegate.swift"])
        #expect(project.targets[1].sources.isEmpty)
        // Not a project at all.
        #expect(throws: XcodeProject.ReadError.self) { _ = try XcodeProject(bundle: try Self.write("{ archiveVersion = 1; }")) }
    }
}
