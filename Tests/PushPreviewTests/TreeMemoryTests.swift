import Foundation
import PushPreview
import Testing

/// `--stats`' memory: the PSS of the supervisor and its workers, the tree's, not RSS added up.
struct TreeMemoryTests {
    @Test func aTreeCountsItsChildrenOnce() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["5"]
        try child.run()
        defer { kill(child.processIdentifier, SIGKILL); child.waitUntilExit() }  // SIGTERM may be blocked in a test thread's children
        let me = getpid()
        #expect(TreeMemory.members(me).contains(child.processIdentifier))
        let own = try #require(TreeMemory.pss(me)), childPSS = try #require(TreeMemory.pss(child.processIdentifier))
        #expect(own > 0 && childPSS > 0)
        #expect(TreeMemory.total(me) >= own + childPSS / 2, "the child is counted in the tree")
    }

    @Test func statsPrintsThePeakPSS() throws {
        let project = try examplesCopy(payloads: ["plain-alert.apns", "subtitle.apns"])
        let r = try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", project.deletingLastPathComponent().appendingPathComponent("Out").path,
                                                   "--device", "iphone-17", "--locale", "en", "--jobs", "2", "--stats"])
        #expect(r.status == 0, "\(r.stderr)")
        let megabytes = r.stdout.components(separatedBy: "peak PSS ").dropFirst().first.flatMap { Double($0.prefix { $0 != " " }) }
        // A supervisor and two workers: more than one process's worth, far less than a gigabyte.
        #expect((megabytes ?? 0) > 20 && (megabytes ?? 0) < 1000, "\(r.stdout)")
        #expect(r.stdout.contains("(the supervisor and its workers together)"))
    }
}
