import Checked
import ConfinedFiles
import Foundation

/// tree-sitter (PyPI `tree-sitter` 0.26.1 with `tree-sitter-typescript` 0.23.2,
/// `tree-sitter-javascript` 0.25.0 and `tree-sitter-dart` 0.1.0, pinned by scripts/install-deps into
/// `.build/python/tree-sitter-0.26.1`), run in a child process as swiftc is: the child gets copies of
/// the files in a folder of its own, limits its own memory (RLIMIT_AS) and CPU time, gives up a file
/// past a per-file deadline (tree-sitter's progress callback), and is killed with its group past the
/// parent's deadline or output cap. It prints each file's named nodes, one a line, depth first,
/// walked without recursion, so a file nested 100,000 deep is no hazard to either side.
struct TreeSitterChild {
    enum Language: String, Sendable { case typescript, tsx, javascript, dart }

    var python: URL
    var library: URL
    /// The whole batch, as the parent sees it.
    var timeout: Double = 60
    /// One file, inside the child.
    var fileSeconds: Double = 10
    var memoryMB = 768

    static let folderName = "tree-sitter-0.26.1"

    /// The pinned library beside the executable (`.build/<config>/pushpreview` → `.build/python/…`,
    /// `PREFIX/bin/pushpreview` → `PREFIX/share/pushpreview/python/…`), and Debian's python3; or why not.
    static func find(executable: URL? = Bundle.main.executableURL) -> Result<TreeSitterChild, Why> {
        let python = URL(fileURLWithPath: "/usr/bin/python3")
        guard TrustedFiles.isExecutable(python) else { return .failure(Why(text: "/usr/bin/python3 is not installed (apt-get install python3)")) }
        var tried: [String] = []
        if let bin = executable?.resolvingSymlinksInPath().deletingLastPathComponent() {
            // .build/debug is a link to .build/<triple>/debug: the pinned folder is one or two levels up.
            let up = bin.deletingLastPathComponent()
            for candidate in [up.appendingPathComponent("python/\(folderName)"), up.deletingLastPathComponent().appendingPathComponent("python/\(folderName)"),
                              up.appendingPathComponent("share/pushpreview/python/\(folderName)")] {
                let marker = candidate.appendingPathComponent("tree_sitter_dart")
                if TrustedFiles.isFolder(marker) { return .success(TreeSitterChild(python: python, library: candidate)) }
                tried.append(candidate.standardizedFileURL.path)
            }
        }
        return .failure(Why(text: "tree-sitter 0.26.1 with its TypeScript, JavaScript and Dart grammars is not installed (looked in \(tried.joined(separator: ", "))); `make deps` installs it from PyPI"))
    }

    struct Why: Error, Sendable { var text: String }

    /// One file's named nodes, or why it has none.
    struct Parse: Sendable {
        var nodes: [ScriptNode] = []
        /// `(line, column)` of the first syntax error tree-sitter marked (an ERROR or MISSING node), if any.
        var errors: [(line: Int, column: Int)] = []
        var failure: String?
    }

    /// Parses each source with its language; one `Parse` per source, in order.
    func parse(_ sources: [(bytes: [UInt8], language: Language)]) -> [Parse] {
        let failed = { (why: String) in sources.map { _ in Parse(failure: why) } }
        guard !sources.isEmpty else { return [] }
        let folder: ConfinedFolder
        do { folder = try ConfinedFolder(trusted: ChildProcesses.temporaryFolder("pushpreview-treesitter"), links: .refused) } catch {
            return failed("could not make a folder for tree-sitter's copy: \(error)")
        }
        defer { ChildProcesses.remove(folder: folder.url) }
        let out: FileHandle, err: FileHandle
        do {
            try folder.write(Array(Self.script.utf8), to: "parse.py")
            for (i, source) in sources.enumerated() { try folder.write(source.bytes, to: "\(i).src") }
            out = try folder.create("nodes.txt")
            err = try folder.create("errors.txt")
        } catch {
            return failed("could not write a copy for tree-sitter in \(folder.url.path): \(error.why)")
        }
        let process = Process()
        process.executableURL = python
        // -I: no user site, no PYTHONPATH, no current folder; -S: no site packages. The script adds the pinned folder itself.
        process.arguments = ["-I", "-S", folder.url.appendingPathComponent("parse.py").path, library.path, String(memoryMB), String(fileSeconds)]
            + sources.enumerated().flatMap { [$0.element.language.rawValue, folder.url.appendingPathComponent("\($0.offset).src").path] }
        process.environment = ["LC_ALL": "C.UTF-8"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch { return failed("could not run \(python.path): \(error.localizedDescription)") }
        let group = process.processIdentifier
        ChildProcesses.started(group)
        let outputLimit = max(64 << 20, 24 * sources.reduce(0) { $0 + $1.bytes.count })
        let stopped = ChildProcesses.watch(process, name: "tree-sitter", seconds: timeout,
                                           written: { if case .file(let n)? = folder.kind("nodes.txt") { return n } else { return 0 } },
                                           limit: outputLimit)
        ChildProcesses.ended(group)
        try? out.close()
        try? err.close()
        if stopped != nil || process.terminationReason == .uncaughtSignal || process.terminationStatus != 0 {
            if sources.count > 1 { return sources.flatMap { parse([$0]) } }
            let stderr = String(decoding: (try? folder.read("errors.txt", limit: 1 << 16)) ?? [], as: UTF8.self)
            let last = stderr.split(separator: "\n").last.map { ": \($0)" } ?? ""
            return failed((stopped ?? (process.terminationReason == .uncaughtSignal ? "tree-sitter's process was killed (signal \(process.terminationStatus))" : "tree-sitter's process failed (exit status \(process.terminationStatus))\(last)")) + "; the file is not read")
        }
        return Self.read(String(decoding: (try? folder.read("nodes.txt", limit: outputLimit + (1 << 20))) ?? [], as: UTF8.self), count: sources.count)
    }

    /// `F\tINDEX\tok|failed\tMESSAGE` before each file's nodes; a node is
    /// `DEPTH\tTYPE\tFIELD\tLINE\tCOLUMN\tTEXT` (TEXT JSON-quoted for leaves and strings, else empty).
    static func read(_ text: String, count: Int) -> [Parse] {
        var results = (0..<count).map { _ in Parse(failure: "tree-sitter printed nothing for it") }
        var current: Int?
        var stack: [Int] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let f = line.split(separator: "\t", maxSplits: 5, omittingEmptySubsequences: false)
            if f.first == "F", f.count >= 4, let k = Int(f[1]), k < count {
                current = k
                stack = []
                results[k] = f[2] == "ok" ? Parse() : Parse(failure: String(f[3]))
                if f[2] == "ok", f[3] != "" {
                    let pos = f[3].split(separator: ":").compactMap { Int($0) }
                    if pos.count == 2 { results[k].errors.append((pos[0], pos[1])) }
                }
                continue
            }
            guard let k = current, f.count == 6, let depth = Int(f[0]), let l = Int(f[3]), let c = Int(f[4]) else { continue }
            var node = ScriptNode(type: String(f[1]), field: f[2].isEmpty ? nil : String(f[2]), line: l, column: c)
            if !f[5].isEmpty, let data = f[5].data(using: .utf8), let s = try? JSONDecoder().decode(String.self, from: data) { node.text = s }
            while stack.count > depth { stack.removeLast() }
            let index = results[k].nodes.count
            if let parent = stack.last { results[k].nodes[parent].children.append(index) }
            results[k].nodes.append(node)
            stack.append(index)
        }
        return results
    }

    /// The child: no recursion anywhere (an explicit cursor walk), limits set before any parse.
    static let script = #"""
import sys, time, json, resource
library, memory_mb, file_seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
limit = memory_mb << 20
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
resource.setrlimit(resource.RLIMIT_CPU, (int(file_seconds * 4) + 10, int(file_seconds * 4) + 11))
sys.path.insert(0, library)
import tree_sitter as T
def grammar(kind):
    if kind in ('typescript', 'tsx'):
        import tree_sitter_typescript as g
        return T.Language(g.language_tsx() if kind == 'tsx' else g.language_typescript())
    if kind == 'javascript':
        import tree_sitter_javascript as g
        return T.Language(g.language())
    import tree_sitter_dart as g
    return T.Language(g.language())
TEXT_TYPES = {'string', 'template_string', 'string_literal', 'number', 'decimal_integer_literal', 'hex_integer_literal', 'regex'}
OPERATORS = {'binary_expression', 'additive_expression', 'augmented_assignment_expression', 'assignment_expression'}
out = sys.stdout
args = sys.argv[4:]
for k in range(0, len(args), 2):
    kind, path = args[k], args[k + 1]
    index = k // 2
    src = open(path, 'rb').read()
    if b'\0' in src:
        out.write(f'F\t{index}\tfailed\tholds NUL bytes: not a source file\n'); continue
    try:
        src.decode('utf-8')
    except UnicodeDecodeError as e:
        out.write(f'F\t{index}\tfailed\tnot UTF-8 (byte {e.start}): not a source file\n'); continue
    start = time.monotonic()
    def read(offset, point, src=src):
        return src[offset:offset + 65536]
    def progress(*state, start=start):
        return time.monotonic() - start > file_seconds
    try:
        tree = T.Parser(grammar(kind)).parse(read, progress_callback=progress)
    except MemoryError:
        out.write(f'F\t{index}\tfailed\ttree-sitter ran out of its {memory_mb} MB\n'); continue
    except Exception as e:
        why = f'tree-sitter gave up after {file_seconds:g} s' if time.monotonic() - start > file_seconds else f'tree-sitter failed: {type(e).__name__}'
        out.write(f'F\t{index}\tfailed\t{why}\n'); continue
    lines = []
    first_error = ''
    cursor = tree.walk(); depth = 0; field = None
    while True:
        n = cursor.node
        if (n.type == 'ERROR' or n.is_missing) and not first_error:
            first_error = f'{n.start_point[0] + 1}:{n.start_point[1] + 1}'
        if n.is_named:
            text = ''
            if n.named_child_count == 0 or n.type in TEXT_TYPES:
                text = json.dumps(n.text[:4096].decode('utf-8', 'replace'))
            elif n.type in OPERATORS:
                op = n.child_by_field_name('operator')
                if op is not None: text = json.dumps(op.text.decode('utf-8', 'replace'))
            lines.append(f'{depth}\t{n.type}\t{cursor.field_name or ""}\t{n.start_point[0] + 1}\t{n.start_point[1] + 1}\t{text}')
        descend = n.type not in TEXT_TYPES and cursor.goto_first_child()
        if descend:
            if n.is_named: depth += 1  # an unnamed node's children are at its named parent's level
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                cursor = None; break
            if cursor.node.is_named: depth -= 1
        if cursor is None: break
    out.write(f'F\t{index}\tok\t{first_error}\n')
    out.write('\n'.join(lines)); out.write('\n')
out.flush()
"""#
}

/// A named node of tree-sitter's tree: its type, the field it fills in its parent, its position
/// (1-based line, 1-based column in UTF-8 bytes), its text for a leaf or string, its children.
struct ScriptNode: Sendable {
    var type: String
    var field: String?
    var line: Int
    var column: Int
    var text: String?
    var children: [Int] = []
}
