import Diagnostics
import Foundation

/// What kept a side of a comparison from being whole, named so a reviewer can act on it: a
/// payload that failed (with its errors), the project's errors, a side that could not be rendered
/// at all, a CI shard that did not finish. The comment and the diff page list these first.
public struct ComparisonFailure: Codable, Sendable, Equatable {
    public enum Side: String, Codable, Sendable {
        /// The commit compared with: a warning only, the branch is not to blame.
        case base
        /// The branch's side (the working tree).
        case new
        /// Neither side's own: a CI shard that did not finish, a step that failed (`--failure`).
        case run

        public var label: String {
            switch self {
            case .base: "base"
            case .new: "this branch"
            case .run: "the run"
            }
        }
    }

    public var side: Side
    /// What failed: a payload file (`payloads/x.apns`), a project file, `the project`, `shard 2/4`.
    public var subject: String
    public var message: String

    public init(side: Side, subject: String, message: String) {
        self.side = side
        self.subject = subject
        self.message = message
    }

    /// `this branch: payloads/x.apns: not valid JSON …`, for standard error.
    public var line: String { "\(side.label): \(subject): \(message)" }

    /// What a gallery report says went wrong: each failed payload with its errors (each distinct
    /// error once, in the order its mock-ups met them), then each of the project's errors.
    public static func of(_ report: GalleryReport, side: Side) -> [ComparisonFailure] {
        var failures: [ComparisonFailure] = []
        for input in report.inputs where input.outcome == "failed" {
            var errors: [String] = []
            for error in input.mockups.flatMap(\.errors) where !errors.contains(error) { errors.append(error) }
            failures.append(ComparisonFailure(side: side, subject: input.payload,
                                              message: errors.isEmpty ? "failed to render (no error was recorded)" : errors.joined(separator: "; ")))
        }
        for d in (report.projectDiagnostics ?? []) where d.severity == .error {
            failures.append(ComparisonFailure(side: side, subject: d.file.isEmpty ? "the project" : d.location, message: d.message))
        }
        return failures
    }
}
