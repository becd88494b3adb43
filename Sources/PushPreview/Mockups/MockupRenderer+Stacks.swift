import ConfinedFiles
import ContentStage
import Diagnostics
import Foundation
import Payload
import ServiceStage

/// A thread's stack: the payloads of a project that share a `thread-id` (iOS groups an app's
/// notifications by it), drawn as Notification Center stacks them — the newest on top, the edges of
/// the ones below, and the summary line — and, with `--view lockscreen`, on the Lock Screen.
extension MockupRenderer {
    /// Payloads that iOS would stack: two or more of the app with the same `thread-id` (whatever
    /// their categories), each group in the order given (the last is the newest). Payloads that
    /// do not parse are left out.
    public static func threads(_ files: [URL], project: Project) -> [[URL]] {
        var groups: [String: [URL]] = [:], order: [String] = []
        for file in files {
            guard let data = try? readPayload(file, project: project),
                  let (payload, _) = try? PayloadParser.parse(data, file: file.path), let thread = payload.threadId, !thread.isEmpty else { continue }
            let key = thread
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(file)
        }
        return order.compactMap { groups[$0] }.filter { $0.count > 1 }
    }

    /// The `-stack` view (and `-stack-lockscreen`) of one thread, written beside the newest
    /// member's mock-ups, for every device, appearance, locale and text size asked for.
    public func renderStack(members: [URL], project: Project, options: RenderOptions) -> [MockupResult] {
        guard let newest = members.last else { return [] }
        let failure = { (finding: Diagnostic) in [MockupResult.failed(newest.path, view: "stack", [finding])] }
        saidForPayload = []
        var payloads: [Payload] = []
        for file in members {
            guard let data = try? Self.readPayload(file, project: project), let (payload, _) = try? PayloadParser.parse(data, file: file.path) else {
                return failure(Diagnostic(.error, code: .payload, file: file.path, "a member of the thread no longer parses"))
            }
            payloads.append(payload)
        }
        let top = payloads.last!, below = payloads.dropLast()
        let catalog: [DeviceProfile]
        do { catalog = try deviceProfiles(for: project) } catch { return failure(Diagnostic(.error, code: .devices, error.description)) }
        let output: ConfinedFolder
        do { output = try self.output(options) } catch { return failure(Diagnostic(.error, code: .path, file: error.fullPath, "\(error.why); nothing written")) }
        let service = ServiceStage(folders: project.serviceFolders.budget(options.timeBudget), stringsFolders: project.stringsFolders)
        let stage = contentStage(for: project)
        let category = project.content.category(top.category)
        // What the summary counts: each notification below the top one, by its summary-arg-count.
        let count = below.reduce(0) { $0 + ($1.alert?.summaryArgCount ?? 1) }
        var arguments: [String] = []
        for p in below { if let a = p.alert?.summaryArg, !arguments.contains(a) { arguments.append(a) } }
        var results: [MockupResult] = []
        var notifications: [String: DeliveredNotification] = [:]
        for planned in ViewPlan(payload: top, project: project, options: options, catalog: catalog, everyLocale: true).notifications {
            let key = "\(planned.language)|\(planned.idiom)"
            if notifications[key] == nil {
                activity?("running the service stage for the thread's newest (\(planned.language), \(planned.idiom))")
                notifications[key] = service.run(top, locale: planned.language, device: planned.idiom)
            }
            let chrome: ChromeMetrics
            do { chrome = try self.chrome(planned.variant.ios) } catch { results += failure(Diagnostic(.error, code: .failure, error.description)); continue }
            let job = Job(notification: notifications[key]!, project: project, stage: stage, device: planned.device, chrome: chrome, variant: planned.variant,
                          payloadFile: newest, options: options, output: output, findings: notifications[key]!.trace.fallbacks)
            results += renderStack(job, count: count, arguments: arguments, category: category, members: members.count)
        }
        return results
    }

    func renderStack(_ job: Job, count: Int, arguments: [String], category: NotificationCategory?, members: Int) -> [MockupResult] {
        var (base, made) = begin(job, view: "stack")
        guard var context = made else { return [base] }
        context.banner.thumbnail = media.thumbnail(for: job.notification, job: job, result: &base)
        context.stack = .init(count: members, summary: data.summary(count: count, arguments: arguments, category: category, job: job, result: &base))
        if job.ios.has(.stackCountBadge), category?.categorySummaryFormat != nil {
            base.notes = (base.notes ?? []) + ["iOS \(job.ios.rawValue) shows the stack's count on the app icon, not a summary line: the category's categorySummaryFormat (\"\(context.stack!.summary)\") is drawn only under iOS 18 (--ios 18)"]
        }
        var stack = base
        render(.stack, name: "stack", context: context, customView: nil, ratio: 1, templateFile: nil, job: job, result: &stack)
        return [stack] + screens(context, name: "stack-", base: base, job: job)
    }
}
