import ConfinedFiles
import Foundation

/// The folders a project's service stage reads and writes, each held open (ConfinedFiles): the
/// project folder (decryption keys, enrichment data), the media roots local attachments come
/// from, and the app group's download cache, where no link is followed. Made once per project.
public struct ServiceFolders: Sendable {
    public let project: ConfinedFolder
    /// The media roots, each opened beneath the checkout that holds the project (or the project
    /// folder, outside a checkout): a root that is missing or leads out is no root.
    public let media: ConfinedRoots
    /// What keeps a media root from being read, said when an attachment is refused.
    public let mediaProblems: [String]
    public private(set) var settings: ServiceSettings
    /// The project folder as the media roots are named from (its real path inside a checkout).
    let base: URL

    public init(project: ConfinedFolder, settings: ServiceSettings) {
        self.project = project
        self.settings = settings
        let checkout = Repository(around: project.url)
        // The checkout is known by its real path: the project's is the base its roots are named from.
        let (boundary, base) = checkout.folder.map { ($0, URL(fileURLWithPath: TrustedFiles.realPath(project.url.path) ?? project.url.path)) } ?? (project, project.url)
        self.base = base
        var roots: [ConfinedFolder] = [], problems: [String] = []
        for root in settings.mediaRoots {
            let url = (root.hasPrefix("/") ? URL(fileURLWithPath: root) : base.appendingPathComponent(root)).standardizedFileURL
            do { roots.append(try boundary.folder(url)) } catch {
                if !error.isMissing { problems.append("mediaRoots \(root): \(error.why)") }
            }
        }
        media = ConfinedRoots(roots)
        mediaProblems = problems
    }

    /// The same folders with `--time-budget` in place of the project's.
    public func budget(_ seconds: Double?) -> ServiceFolders {
        var copy = self
        if let seconds { copy.settings.timeBudget = seconds }
        return copy
    }

    public init(projectFolder: URL, settings: ServiceSettings) throws(FileRefusal) {
        self.init(project: try ConfinedFolder(trusted: projectFolder), settings: settings)
    }

    /// `path` (relative to the project, or absolute) as a file inside one of the media roots;
    /// nil when it lies outside them (by name, or through a link).
    public func mediaFile(_ path: String) -> URL? { media.file(path, relativeTo: base) }

    /// A file the project names for itself (keys, enrichment data): inside the project folder,
    /// by the same rule; nil when it lies outside.
    public func projectFile(_ path: String) -> URL? { ConfinedRoots([project]).file(path, relativeTo: project.url) }

    /// The app group's download cache, made when missing; a link anywhere on its way is refused
    /// (a symlinked `app-group/cache` would have downloads written elsewhere).
    public func cache() throws(FileRefusal) -> ConfinedFolder {
        try project.folder(settings.appGroup + "/cache", links: .refused, create: true)
    }
}
