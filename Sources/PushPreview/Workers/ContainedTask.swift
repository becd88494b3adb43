import Checked
import Diagnostics
import Foundation
import ProjectImport

/// Work on a repository's files that runs in a worker of its own, under the same supervisor and
/// limits as a payload (`--timeout`, `--max-memory`): reading a project (its Xcode app, strings
/// and the template checks), `init`'s reading of an Xcode project, and `validate`. A repository
/// that makes our code trap, hang or grow then costs one clear error, not the command.
public enum ContainedTask: Codable {
    /// → `ProjectReading`
    case readProject(folder: URL, templates: URL)
    /// → `InitPlan`
    case initPlan(path: URL, folder: URL?)
    /// → `[Diagnostic]`
    case validate(path: URL, project: URL?, templates: URL)

    /// In the worker: does the task and sends its reply.
    func perform(replyingOn out: LineChannel) -> Bool {
        switch self {
        case .readProject(let folder, let templates):
            let reading: ProjectReading
            do {
                let project = try Project(folder: folder)
                reading = ProjectReading(xcode: project.xcodeReading, findings: Validator(templates: templates).projectFindings(project))
            } catch { reading = ProjectReading(error: error.diagnostic) }
            return out.send(WorkerMessage(reply: reading))
        case .initPlan(let path, let folder):
            do {
                let plan = try ProjectInit(path: path, folder: folder)
                let files = (plan.output + [(ProjectInit.schemaFile, Array(SettingsSchema.text.utf8))]).sorted { $0.path < $1.path }
                return out.send(WorkerMessage(reply: InitPlan(folder: plan.folder, files: files.map { .init(path: $0.path, bytes: Data($0.bytes)) },
                                                              found: plan.found, problems: plan.problems)))
            } catch { return out.send(WorkerMessage(reply: InitPlan(error: error.description))) }
        case .validate(let path, let project, let templates):
            return out.send(WorkerMessage(reply: Validator(templates: templates).validate(path, project: project)))
        }
    }
}

/// A project as a worker read it: the Xcode app's part, and what `validate` would say of it.
struct ProjectReading: Codable {
    var xcode: XcodeReading?
    var findings: [Diagnostic] = []
    var error: Diagnostic?
}

/// What `init` would write, found by a worker: the project folder's files, what was found and
/// what could not be read (or why the project could not be read at all).
public struct InitPlan: Codable {
    /// A file as init writes it: text, or a sample image.
    public struct File: Codable { public var path: String; public var bytes: Data }
    public var folder = URL(fileURLWithPath: "/")
    public var files: [File] = []
    public var found: [String] = []
    public var problems: [String] = []
    public var error: String?
}

extension WorkerPlan {
    /// Does `task` in a worker of its own, within this plan's time and memory: the reply, or how
    /// the worker died or was stopped and what it was doing then.
    public func perform<Reply: Codable>(_ task: ContainedTask, _ reply: Reply.Type, activity: String) -> Result<Reply, WorkerFailure> {
        let worker: WorkerProcess
        do { worker = try WorkerProcess(self, setup: WorkerSetup(dataLimitMB: memoryMB * 2 + 1024)) } catch {
            return .failure(WorkerFailure(reason: "could not start a worker (\(executable.path)): \(error)", activity: activity))
        }
        let result = worker.exchange(task, reply, activity: activity)
        worker.stop()
        return result
    }
}

extension Project {
    /// The project and its findings (`validate`'s project checks, templates included), read in a
    /// worker of its own under `workers`' limits, or in this process without a plan.
    public static func read(folder: URL, templates: URL, workers: WorkerPlan?) throws(ProjectError) -> (project: Project, findings: [Diagnostic]) {
        guard let workers else {
            let project = try Project(folder: folder)
            return (project, Validator(templates: templates).projectFindings(project))
        }
        let reading: ProjectReading
        switch workers.perform(.readProject(folder: folder, templates: templates), ProjectReading.self, activity: "reading the project") {
        case .success(let r): reading = r
        case .failure(let failure): throw ProjectError(Diagnostic(.error, code: .worker, file: folder.path, "\(failure)"))
        }
        if let error = reading.error { throw ProjectError(error) }
        let project = try Project(folder: folder) { (_, file) throws(ProjectError) in
            guard let xcode = reading.xcode else { throw ProjectError(Diagnostic(.error, code: .xcode, file: file, keyPath: "xcode", "the worker that read the project read no Xcode app")) }
            return xcode
        }
        return (project, reading.findings)
    }
}
