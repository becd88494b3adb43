import Foundation

/// What an edit touches, asked of the last report: a payload file touches itself; a category's
/// template touches the payloads drawn with it; any other file of a template folder (a partial,
/// a style sheet, an image, the system chrome) touches every payload, as does a template added or
/// removed (a category may now have one, or none); and a file the project's
/// reading depends on (settings, Info.plists, categories, strings, media, the Xcode app) touches
/// every payload and means the project is read again.
public struct EditPlan: Equatable, Sendable {
    /// The payloads to draw again (relative paths); nil: all of them.
    public var payloads: Set<String>?
    public var readProjectAgain = false

    /// `addedOrRemoved`: those of `paths` that were not there before, or are gone.
    public static func touched(by paths: Set<String>, addedOrRemoved: Set<String> = [], project: Project, templates: URL, report: GalleryReport?) -> EditPlan {
        var plan = EditPlan(payloads: [])
        let folder = project.folder.path, own = folder + "/Templates/", shared = templates.standardizedFileURL.path + "/"
        for path in paths {
            if path.hasPrefix(folder + "/received/") || path == folder + "/received" { continue }
            if path.hasPrefix(folder + "/payloads/") || path == folder + "/payloads" {
                if path == folder + "/payloads" { plan.payloads = nil } else { plan.payloads?.insert(String(path.dropFirst(folder.count + 1))) }
                continue
            }
            if path.hasPrefix(own) || path.hasPrefix(shared) {
                let name = path.hasPrefix(own) ? "Templates/" + path.dropFirst(own.count) : String(path.dropFirst(shared.count))
                let users = report?.inputs.filter { $0.mockups.contains { $0.content?.template == name } }.map(\.payload) ?? []
                // A category's own template (Templates/ID.html, stock/NAME.html) is read by the
                // payloads it drew; anything else in a template folder may be read by any.
                let ownTemplate = name.hasPrefix("Templates/") ? !name.dropFirst("Templates/".count).contains("/") : name.hasPrefix("stock/")
                if ownTemplate && !addedOrRemoved.contains(path) { plan.payloads?.formUnion(users) } else { plan.payloads = nil }
                continue
            }
            plan.payloads = nil
            plan.readProjectAgain = true
        }
        return plan
    }
}
