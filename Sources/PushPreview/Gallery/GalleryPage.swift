import ConfinedFiles
import ContentStage
import Foundation
import Imaging
import Rendering
import ServiceStage
import Templating
import Typography

/// `Output/index.html`: one page a designer opens from disk. Cards grouped by category, filters by
/// device, appearance, locale and outcome, each card with its mock-ups and details. No remote
/// resources; the only script is the filter, allowed by its hash in the Content-Security-Policy.
/// Images load lazily and carry their size, so 2,000 mock-ups neither stall nor jump.
enum GalleryPage {
    /// The cards wait in each category's inert `<template>` (parsed, never styled, laid out or
    /// loaded) and are placed in the page a screenful at a time, in order, as the filters allow
    /// and as the reader scrolls near the end: a gallery of thousands of cards is usable at once
    /// and a filter change touches only the cards placed. The filters live in the URL's query,
    /// so a link shows what its sender saw.
    static let script = """
    const selects = [...document.querySelectorAll('select[data-filter]')];
    const step = 60;
    // pinned: the card a link names, shown whatever the screenful until a filter changes.
    let groups = [], all = [], wanted = step, pinned = null, onApply = () => {};
    function collect() {
      groups = [...document.querySelectorAll('section.category, #received')].map(section => {
        const grid = section.querySelector('.grid'), waiting = grid.querySelector('template.cards');
        return { section, grid, cards: [...grid.querySelectorAll(':scope > .card'), ...(waiting ? [...waiting.content.children] : [])] };
      });
      all = groups.flatMap(g => g.cards.map(card => ({ card, group: g })));
    }
    function matches(card) { return selects.every(s => !s.value || card.dataset[s.dataset.filter] === s.value); }
    function place(entry) {
      const { card, group } = entry;
      if (card.isConnected) return;
      const after = group.cards.slice(group.cards.indexOf(card) + 1).find(c => c.isConnected && c.parentNode === group.grid);
      group.grid.insertBefore(card, after || group.grid.querySelector('template.cards'));
    }
    function apply() {
      let shown = 0;
      const seen = new Set();
      for (const entry of all) {
        const show = matches(entry.card), visible = show && (shown < wanted || entry.card === pinned);
        if (visible) { place(entry); seen.add(entry.group); }
        if (entry.card.isConnected) entry.card.hidden = !visible;
        if (show) shown++;
      }
      for (const g of groups) if (g.section.classList.contains('category')) g.section.hidden = !seen.has(g);
      document.getElementById('shown').textContent = shown + ' of ' + all.length + ' shown';
      more.hidden = shown <= wanted;
      onApply();
    }
    function remember() {
      const query = new URLSearchParams(location.search);
      for (const s of selects) { if (s.value) query.set(s.dataset.filter, s.value); else query.delete(s.dataset.filter); }
      const text = query.toString();
      try { history.replaceState(null, '', (text ? '?' + text : location.pathname) + location.hash); } catch (e) { /* a file: page may refuse */ }
    }
    const more = document.createElement('p');
    more.className = 'meta more';
    more.textContent = 'More below…';
    document.querySelector('main').after(more);
    new IntersectionObserver(entries => {
      if (!entries.some(e => e.isIntersecting)) return;
      // Cards placed above a linked card would push it away: it stays where it is on screen.
      const anchor = pinned && pinned.isConnected ? pinned : null, top = anchor && anchor.getBoundingClientRect().top;
      wanted += step;
      apply();
      if (anchor) window.scrollBy(0, anchor.getBoundingClientRect().top - top);
    }, { rootMargin: '800px' }).observe(more);
    const query = new URLSearchParams(location.search);
    for (const s of selects) {
      const value = query.get(s.dataset.filter);
      if (value !== null && [...s.options].some(o => o.value === value)) s.value = value;
      s.addEventListener('change', () => { wanted = step; pinned = null; apply(); remember(); });
    }
    // A click shows a picture at 1:1 device pixels (one image pixel to one screen pixel); again, fitted.
    document.addEventListener('click', e => {
      const img = e.target.closest('figure img');
      if (!img) return;
      const actual = img.classList.toggle('actual');
      img.style.width = actual ? (img.naturalWidth / devicePixelRatio) + 'px' : '';
      const before = img.parentNode.querySelector('img.before');
      if (before) before.style.width = img.style.width || '100%';
    });
    collect();
    apply();
    // A link to a card: placed (whatever the filters), then shown.
    const named = location.hash && all.find(e => e.card.id === decodeURIComponent(location.hash.slice(1)));
    if (named) { pinned = named.card; place(named); apply(); named.card.scrollIntoView(); }
    """

    /// `serve`'s page: the same gallery, kept current. On each `changed` event it fetches the page
    /// again and swaps in the cards that differ (a card that did not change keeps its node, so
    /// its pictures do not reload), keeping the scroll position, the filters and open details.
    /// It tells serve which cards are in view, so those are drawn first after an edit.
    static let liveScript = """
    const live = new EventSource('/events');
    let busy = false, again = false;
    async function refresh() {
      if (busy) { again = true; return; }
      busy = true;
      try {
        const next = new DOMParser().parseFromString(await (await fetch('/', { cache: 'no-store' })).text(), 'text/html');
        const open = new Set([...document.querySelectorAll('[data-card] details[open]')].map(d => d.closest('[data-card]').dataset.card));
        const old = new Map([...document.querySelectorAll('[data-card]')].map(c => [c.dataset.card, c]));
        const waiting = [...next.querySelectorAll('template.cards')].flatMap(t => [...t.content.querySelectorAll('[data-card]')]);
        for (const card of [...next.querySelectorAll('[data-card]'), ...waiting]) {
          const kept = old.get(card.dataset.card);
          if (kept && kept.dataset.sig === card.dataset.sig) { card.replaceWith(kept); continue; }
          if (open.has(card.dataset.card)) card.querySelector('details')?.setAttribute('open', '');
        }
        document.querySelector('main').replaceWith(next.querySelector('main'));
        document.querySelector('header .meta').replaceWith(next.querySelector('header .meta'));
        collect();
        apply();
        document.body.dataset.version = (+(document.body.dataset.version || 0) + 1).toString();
      } finally {
        busy = false;
        if (again) { again = false; refresh(); }
      }
    }
    // The cards in view, told to serve (after a pause in scrolling): it draws them first.
    const inView = new Set();
    let told = '', pause = 0;
    const seen = new IntersectionObserver(entries => {
      for (const e of entries) { if (e.isIntersecting) inView.add(e.target.dataset.card); else inView.delete(e.target.dataset.card); }
      clearTimeout(pause); pause = setTimeout(tell, 200);
    });
    function tell() {
      const cards = [...document.querySelectorAll('[data-card]')].map(c => c.dataset.card).filter(id => inView.has(id)).slice(0, 32);
      const body = JSON.stringify({ cards });
      if (body === told || !cards.length) return;
      told = body;
      fetch('/viewing', { method: 'POST', headers: { 'content-type': 'application/json' }, body }).catch(() => {});
    }
    function observe() { seen.disconnect(); inView.clear(); document.querySelectorAll('[data-card]').forEach(c => seen.observe(c)); }
    // Before and after: a card whose pictures changed since serve started offers the pictures
    // before beside them — alone, as an onion skin, or as their difference.
    function compare() {
      for (const card of document.querySelectorAll('[data-card]')) {
        if (card.querySelector('select.compare') || !card.querySelector('img[data-before]')) continue;
        const select = document.createElement('select');
        select.className = 'compare';
        select.title = 'compare with the picture before the last change';
        for (const [value, label] of [['after', 'now'], ['before', 'before'], ['onion', 'onion skin'], ['difference', 'difference']]) select.add(new Option(label, value));
        select.addEventListener('change', () => show(card, select.value));
        card.querySelector('h3').after(select);
      }
    }
    function show(card, mode) {
      for (const img of card.querySelectorAll('img[data-before]')) {
        let over = img.parentNode.querySelector('img.before');
        if (!over) { over = document.createElement('img'); over.className = 'before'; over.alt = 'before'; img.after(over); }
        // The difference as diff draws it: the picture faded to grey, what changed red.
        over.src = mode === 'difference' ? img.dataset.difference : img.dataset.before;
        over.style.width = img.style.width || '100%';
        over.hidden = mode === 'after';
        over.style.opacity = mode === 'onion' ? '0.5' : '1';
      }
    }
    // Approve a card as it looks now (kept in the project's pushpreview-approved.json).
    document.addEventListener('click', async e => {
      const button = e.target.closest('button.approve');
      if (!button) return;
      button.disabled = true;
      const card = button.closest('[data-card]').dataset.card;
      const answer = await fetch('/approve', { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ card, approved: button.dataset.approved === 'yes' }) }).catch(() => null);
      if (!answer || !answer.ok) { button.disabled = false; button.textContent = 'Could not approve: ' + (answer ? await answer.text() : 'no answer'); }
    });
    onApply = () => { observe(); compare(); };
    compare();
    observe();
    live.addEventListener('changed', refresh);
    live.addEventListener('reload', refresh);
    """

    /// What `serve` adds: each picture's version (so a changed one has a new URL), the pushes
    /// the endpoint took, and a note on the endpoint.
    struct Live {
        var versions: [String: String]
        /// The version before, for pictures that changed since serve started (kept as `previous/PATH`).
        var previous: [String: String] = [:]
        /// Each picture's width and height, known from when it was drawn.
        var sizes: [String: (width: Int, height: Int)] = [:]
        /// The approved cards' states, by card id.
        var approvals: [String: Approvals.State] = [:]
        var received: [ReceivedPushes.Entry]
        var receivedTotal: Int
        var collapsed: Int
        var endpoint: String
    }

    static func jsonEscaped(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }

    static let style = """
    :root { color-scheme: light dark; --bg: #f2f2f7; --card: #ffffff; --text: #1c1c1e; --muted: #6e6e73; --line: #d1d1d6;
      --red: #d70015; --orange: #c93400; --green: #248a3d; }
    @media (prefers-color-scheme: dark) { :root { --bg: #000000; --card: #1c1c1e; --text: #f2f2f7; --muted: #98989d; --line: #38383a;
      --red: #ff6961; --orange: #ffb340; --green: #30d158; } }
    * { box-sizing: border-box; }
    body { margin: 0; background: var(--bg); color: var(--text); font: 14px/1.4 Inter, system-ui, sans-serif; }
    header { position: sticky; top: 0; z-index: 1; display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; padding: 12px 20px;
      background: var(--card); border-bottom: 1px solid var(--line); }
    header h1 { margin: 0; font-size: 18px; }
    header label { color: var(--muted); }
    select { margin-left: 4px; font: inherit; }
    main { padding: 8px 20px 40px; }
    h2 { margin: 28px 0 10px; font-size: 16px; }
    .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(280px, 100%), 1fr)); gap: 16px; align-items: start; }
    .card.wide { grid-column: span 2; }
    @media (max-width: 680px) { .card.wide { grid-column: auto; } }
    .card { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 10px; content-visibility: auto;
      contain-intrinsic-size: 300px 700px; }
    .card[hidden], section[hidden] { display: none; }
    .card h3 { margin: 0 0 6px; font-size: 13px; font-weight: 600; overflow-wrap: anywhere; }
    .meta { color: var(--muted); font-size: 12px; }
    .views { display: flex; flex-direction: column; gap: 8px; margin-top: 8px; }
    figure { margin: 0; }
    figure img { display: block; width: 100%; height: auto; border-radius: 6px; background: var(--bg); }
    figcaption { color: var(--muted); font-size: 12px; }
    .badge { display: inline-block; padding: 0 6px; border-radius: 6px; font-size: 12px; font-weight: 600; color: #fff; }
    .rendered { background: var(--green); } .warnings { background: var(--orange); } .failed { background: var(--red); }
    details { margin-top: 8px; font-size: 12px; }
    summary { cursor: pointer; color: var(--muted); }
    table { border-collapse: collapse; width: 100%; }
    td, th { text-align: left; padding: 2px 4px; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: anywhere; }
    ul { margin: 4px 0; padding-left: 18px; }
    .error { color: var(--red); } .warning { color: var(--orange); }
    .note { margin: 8px 0 0; padding: 4px 8px; border-left: 3px solid var(--muted); color: var(--muted); font-size: 12px; }
    .anchor { color: var(--muted); text-decoration: none; font-weight: 400; }
    figure { overflow-x: auto; position: relative; }
    figure img.before { position: absolute; left: 0; top: 0; width: 100%; height: auto; pointer-events: none; }
    figure img.before[hidden] { display: none; }
    select.compare { margin: 0 0 4px; }
    .approval { margin: 6px 0 0; font-size: 12px; }
    figure img { cursor: zoom-in; }
    figure img.actual { cursor: zoom-out; max-width: none; }
    .card:target { outline: 3px solid var(--orange); }
    @media (max-width: 600px) {
      header { flex-wrap: nowrap; overflow-x: auto; gap: 10px; padding: 6px 10px; white-space: nowrap; }
      header h1 { font-size: 15px; }
      header > .meta:not(#shown) { display: none; }
      header label { font-size: 12px; }
      main { padding: 4px 10px 40px; }
    }
    #failed { border: 1px solid var(--red); border-radius: 12px; padding: 4px 14px; margin-top: 16px; background: var(--card); }
    """

    static func html(_ report: GalleryReport, output: URL, live: Live? = nil) -> String {
        // The hash covers the element's whole text, the newlines around the script included.
        let hash = hexToBase64(SHA256.hex(Array("\n\(script)\n".utf8)))
        let liveHash = hexToBase64(SHA256.hex(Array("\n\(liveScript)\n".utf8)))
        let all = report.inputs.flatMap(\.mockups)
        let variants = all.compactMap(\.variant)
        let axes = report.axes
        func options(_ name: String, _ values: [String]) -> String {
            "<label>\(name)<select data-filter=\"\(name.lowercased().replacingOccurrences(of: " ", with: ""))\"><option value=\"\">all</option>"
                + Set(values).sorted().map { "<option value=\"\(escapeHTML($0))\">\(escapeHTML($0))</option>" }.joined() + "</select></label>"
        }
        var body = """
        <header><h1>\(escapeHTML(report.project))</h1>
        <span class="meta">\(report.summary.payloads) payloads · \(report.summary.mockups) mock-ups · \(report.summary.failed) failed · \(report.summary.withWarnings) with warnings\(report.shard.map { " · shard \(escapeHTML($0))" } ?? "")</span>
        \(Variant.filters.map { f in options(f.label, variants.map(f.value).filter { !$0.isEmpty }) }.joined())\(options("Level", all.compactMap(\.interruptionLevel)))\(options("Outcome", ["rendered", "warnings", "failed"]))
        <span class="meta" id="shown"></span>\(systemFontNote(all))</header>
        <main>

        """
        if let issues = report.projectIssues, !issues.isEmpty {
            body += "<section id=\"project\"><h2>The project (\(issues.count))</h2><ul>"
                + issues.map { "<li class=\"\($0.hasPrefix("error") ? "error" : "warning")\">\(escapeHTML($0))</li>" }.joined() + "</ul></section>\n"
        }
        if let live { body += received(live, report: report, output: output) }
        let failed = report.inputs.filter { $0.outcome == "failed" }
        if !failed.isEmpty {
            body += "<section id=\"failed\"><h2>Failed inputs (\(failed.count))</h2><ul>"
            for input in failed {
                let errors = Set(input.mockups.flatMap(\.errors)).sorted()
                body += "<li><strong>\(escapeHTML(input.payload))</strong><ul>" + errors.map { "<li class=\"error\">\(escapeHTML($0))</li>" }.joined() + "</ul></li>"
            }
            body += "</ul></section>\n"
        }
        let groups = Dictionary(grouping: report.inputs) { $0.category ?? "" }
        for category in groups.keys.sorted(by: { ($0.isEmpty ? 1 : 0, $0) < ($1.isEmpty ? 1 : 0, $1) }) {
            body += "<section class=\"category\"><h2>\(category.isEmpty ? "No category" : "Category: " + escapeHTML(category))</h2><div class=\"grid\">\n"
            var placed = 0
            for input in groups[category]! {
                // In the order asked for (`VariantAxes.rank`: appearances last, so each light card
                // has its dark twin beside it); a failure before any variant first.
                let cards = Dictionary(grouping: input.mockups) { $0.variant.map(axes.rank) ?? [-1] }
                for key in cards.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                    // The first screenful of cards is in the page; the rest wait in the template.
                    if placed == firstCards { body += "<template class=\"cards\">" }
                    placed += 1
                    body += card(input, cards[key]!, profile: report.deviceProfiles.first { $0.id == cards[key]![0].device }, output: output, live: live,
                                 namesIOS: axes.namesIOS)
                }
            }
            body += (placed > firstCards ? "</template>" : "") + "</div></section>\n"
        }
        body += "</main>"
        return """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(HTMLWriter.lockedDown); img-src 'self' file: data:; style-src 'unsafe-inline'; script-src 'sha256-\(hash)'\(live == nil ? "" : " 'sha256-\(liveHash)'; connect-src 'self'")">
        <meta name="viewport" content="width=device-width, initial-scale=1">\(live == nil ? "" : "\n<link rel=\"icon\" href=\"data:,\">")
        <title>\(escapeHTML(report.project)) — PushPreview gallery</title>
        <style>
        \(style)
        </style>
        </head>
        <body>
        \(body)
        <script>
        \(script)
        </script>\(live == nil ? "" : "\n<script>\n\(liveScript)\n</script>")
        </body>
        </html>

        """
    }

    /// Cards of a category placed in the page as it is written; the script places the rest.
    static let firstCards = 24

    static func card(_ input: GalleryReport.Input, _ results: [MockupResult], profile: DeviceProfile?, output: URL, live: Live? = nil, namesIOS: Bool = false,
                     title: String? = nil) -> String {
        let first = results[0]
        let variant = first.variant
        let outcome = GalleryReport.outcome(of: results)
        // The card's name: its anchor (a link to it), and for the live page's swap.
        let id = variant?.cardID(payload: input.payload) ?? input.payload
        let data = Variant.filters.map { f in " data-\(f.attribute)=\"\(escapeHTML(variant.map(f.value) ?? ""))\"" }.joined()
        var out = "<article id=\"\(escapeHTML(id))\" class=\"card\(profile?.isPad == true ? " wide" : "")\"\(data) data-level=\"\(escapeHTML(first.interruptionLevel ?? ""))\" data-outcome=\"\(outcome)\">"
        out += "<h3>\(escapeHTML(title ?? input.payload)) <span class=\"badge \(outcome)\">\(outcome)</span> <a class=\"anchor\" href=\"#\(escapeHTML(anchor(id)))\" title=\"a link to this card\">#</a></h3>"
        let level = first.interruptionLevel == "active" ? nil : first.interruptionLevel
        let caption = (variant?.caption(deviceName: profile?.name, iosNamed: namesIOS) ?? [profile?.name ?? first.device]) + [level].compactMap { $0 }
        out += "<div class=\"meta\">\(caption.filter { !$0.isEmpty }.map(escapeHTML).joined(separator: " · "))</div><div class=\"views\">"
        // The banner first: it is what people see first.
        for r in results.sorted(by: { ($0.view.hasPrefix("banner") ? 0 : 1) < ($1.view.hasPrefix("banner") ? 0 : 1) }) {
            for png in r.outputs where png.hasSuffix(".png") {
                let size = live?.sizes[png] ?? (try? ConfinedFolder(trusted: output, links: .refused).head(png, count: 24)).flatMap(PNGCodec.size(ofHeader:)) ?? (width: 0, height: 0)
                let page = r.outputs.first { $0.hasSuffix(".html") }
                let src = live?.versions[png].map { "\(png)?v=\($0)" } ?? png
                let before = live.flatMap { live in live.previous[png].map { was in
                    let now = live.versions[png] ?? ""
                    return " data-before=\"\(escapeHTML("previous/\(png)?v=\(was)"))\" data-difference=\"\(escapeHTML("difference/\(png)?v=\(was)-\(now)"))\""
                } } ?? ""
                out += "<figure><img loading=\"lazy\" decoding=\"async\" src=\"\(escapeHTML(src))\"\(before) width=\"\(size.width)\" height=\"\(size.height)\" alt=\"\(escapeHTML(r.view))\">"
                out += "<figcaption>\(escapeHTML(r.view))\(page.map { " · <a href=\"\(escapeHTML($0))\">HTML</a>" } ?? "")</figcaption></figure>"
            }
        }
        out += "</div>"
        if let live {
            let state = live.approvals[id]
            out += "<p class=\"approval\">" + (state.map { "<span class=\"badge \($0 == .approved ? "rendered" : "warnings")\">\($0 == .approved ? "approved" : "changed since approved")</span> " } ?? "")
                + "<button type=\"button\" class=\"approve\" data-approved=\"\(state == .approved ? "no" : "yes")\">\(state == .approved ? "Take back approval" : "Approve as baseline")</button></p>"
        }
        for note in Set(results.flatMap { $0.notes ?? [] }).sorted() { out += "<p class=\"note\">\(escapeHTML(note))</p>" }
        out += details(results)
        out += "</article>\n"
        guard live != nil else { return out }
        // A signature of what it shows, for the live page's swap.
        return "<article data-card=\"\(escapeHTML(id))\" data-sig=\"\(SHA256.hex(Array(out.utf8)).prefix(16))\"" + out.dropFirst("<article".count)
    }

    /// The pushes `serve` took, newest first, each as a card of its own.
    static func received(_ live: Live, report: GalleryReport, output: URL) -> String {
        var out = "<section id=\"received\"><h2>Received (\(live.receivedTotal))</h2><p class=\"meta\">\(escapeHTML(live.endpoint))"
        if live.receivedTotal > live.received.count {
            out += " · the newest \(live.received.count) are shown; every push is kept in received/"
            if live.collapsed > 0 { out += " (\(live.collapsed) replaced by a later push with their apns-collapse-id, as iOS does)" }
        }
        out += "</p><div class=\"grid\">\n"
        for entry in live.received {
            let name = "received/" + entry.file.lastPathComponent
            let push = entry.push
            // Titled by what the push says, its file named beside its headers.
            let title = ReceivedPushes.alertTitle(push.payload).map { String($0.prefix(120)) } ?? name
            let headers = (title == name ? "" : "\(name) · ") + "apns-id \(push.id) · \(push.pushType) · priority \(push.priority)" + (push.collapseID.map { " · collapse-id \($0)" } ?? "") + (push.topic.map { " · topic \($0)" } ?? "")
            guard let results = entry.results else {
                out += "<article class=\"card\" data-card=\"\(escapeHTML(name))\" data-sig=\"pending\"><h3>\(escapeHTML(title))</h3><div class=\"meta\">\(escapeHTML(headers))</div><p class=\"note\">Drawing…</p></article>\n"
                continue
            }
            guard !results.isEmpty else {
                let note = APNsEndpoint.noAlertNote(pushType: push.pushType, payload: push.payload)
                out += "<article class=\"card\" data-card=\"\(escapeHTML(name))\" data-sig=\"\(escapeHTML(push.pushType))\"><h3>\(escapeHTML(title))</h3><div class=\"meta\">\(escapeHTML(headers))</div><p class=\"note\">\(escapeHTML(note))</p></article>\n"
                continue
            }
            let input = GalleryReport.Input(payload: name, category: results.first?.category, outcome: GalleryReport.outcome(of: results), key: "", mockups: results)
            let first = results.first { !$0.device.isEmpty } ?? results[0]
            let group = results.filter { $0.variant == first.variant }
            out += card(input, group, profile: report.deviceProfiles.first { $0.id == first.device }, output: output, live: live, namesIOS: report.axes.namesIOS, title: title)
                .replacingOccurrences(of: "<div class=\"views\">", with: "<div class=\"meta\">\(escapeHTML(headers))</div><div class=\"views\">")
        }
        return out + "</div></section>\n"
    }

    static func details(_ results: [MockupResult]) -> String {
        var out = "<details><summary>Details</summary>"
        let r = results[0]
        out += "<p>Service: \(r.service.ran ? "ran" : "did not run"), \(escapeHTML(r.service.level)) content</p>"
        if !r.service.steps.isEmpty {
            let timed = r.service.steps.contains { $0.ms > 0 }
            out += "<table><tr><th>step</th><th>outcome</th><th>bytes</th>\(timed ? "<th>ms</th>" : "")<th>message</th></tr>"
            for s in r.service.steps {
                out += "<tr><td>\(escapeHTML(s.step))</td><td>\(escapeHTML(s.outcome))</td><td>\(s.bytes)</td>\(timed ? "<td>\(String(format: "%.1f", s.ms))</td>" : "")<td>\(escapeHTML(s.message))</td></tr>"
            }
            out += "</table>"
        }
        if let c = results.lazy.compactMap(\.content).first {
            out += "<p>Custom view: \(escapeHTML(c.template.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "")) \(formatPoints(c.customViewHeight)) pt tall\(c.clippedBy > 0 ? ", <span class=\"warning\">\(formatPoints(c.clippedBy)) pt clipped</span>" : "")</p>"
        }
        if let actions = results.first(where: { $0.view.hasPrefix("expanded") })?.actions, !actions.isEmpty {
            out += "<p>Actions</p><ul>" + actions.map { a in
                "<li>\(escapeHTML(a.title)) <span class=\"meta\">\(escapeHTML(a.identifier))\(a.options.isEmpty ? "" : " · " + escapeHTML(a.options.joined(separator: ", ")))\(a.textInput ? " · text input" : "")</span></li>"
            }.joined() + "</ul>"
        }
        let warnings = Set(results.flatMap(\.warnings)).sorted(), errors = Set(results.flatMap(\.errors)).sorted()
        if !errors.isEmpty { out += "<p>Errors</p><ul>" + errors.map { "<li class=\"error\">\(escapeHTML($0))</li>" }.joined() + "</ul>" }
        if !warnings.isEmpty { out += "<p>Warnings</p><ul>" + warnings.map { "<li class=\"warning\">\(escapeHTML($0))</li>" }.joined() + "</ul>" }
        return out + "</details>"
    }

    /// A fragment that names `id`: what a URL's fragment may not hold, percent-encoded.
    static func anchor(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: CharacterSet.urlFragmentAllowed.subtracting(CharacterSet(charactersIn: "%"))) ?? id
    }

    static func formatPoints(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(format: "%.1f", v) }

    static func hexToBase64(_ hex: String) -> String {
        var bytes: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex, let j = hex.index(i, offsetBy: 2, limitedBy: hex.endIndex), let b = UInt8(hex[i..<j], radix: 16) { bytes.append(b); i = j }
        return Data(bytes).base64EncodedString()
    }

    /// Which face drew the chrome, said once: Inter is SF Pro's stand-in, so lines may break
    /// elsewhere than on the phone.
    static func systemFontNote(_ results: [MockupResult]) -> String {
        let faces = Set(results.compactMap(\.systemFont)).sorted()
        guard !faces.isEmpty else { return "" }
        let note = faces == [SystemFace.inter.name]
            ? "The system's text is drawn in Inter, SF Pro's stand-in: lines may break elsewhere than on the phone (give SF Pro with --font-dir to draw it as iOS does)."
            : "The system's text is drawn in \(faces.joined(separator: "; "))."
        return "<p class=\"meta\" id=\"system-font\">\(escapeHTML(note))</p>"
    }
}
