import Foundation
import FuzzTargets
import Testing

/// Every input a fuzzer ever crashed us with, kept in Tests/Fixtures/fuzz/TARGET/, fed again to
/// the same code the fuzz target runs: a regression traps this test run.
struct FuzzCrasherTests {
    static let folder = repositoryRoot.appendingPathComponent("Tests/Fixtures/fuzz")

    @Test func everyKeptCrasherRunsClean() throws {
        var replayed = 0
        for target in try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).sorted() {
            let run = try #require(FuzzTargets.all[target], "Tests/Fixtures/fuzz/\(target): no such fuzz target")
            for name in try FileManager.default.contentsOfDirectory(atPath: Self.folder.appendingPathComponent(target).path).sorted() {
                run([UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(target).appendingPathComponent(name))))
                replayed += 1
            }
        }
        #expect(replayed > 0)
    }
}
