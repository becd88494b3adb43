import Templating

/// init's template for a content view the app makes in code (issue 22): the notification's
/// fields — title, body, the attachment when the code reads attachments, the userInfo keys it
/// reads — at the height the view controller asks for, and a `{{! warning: … }}` that puts where
/// the real view is made on every mock-up drawn with it, until a person draws that view here.
enum StarterTemplate {
    /// `showsTitleAndBody`: only when the extension hides the default content, which otherwise
    /// draws them below the view (they appeared twice).
    static func html(extensionName: String, sources: [String], view: CodeMadeView?, readsAttachments: Bool, showsTitleAndBody: Bool = true,
                     userInfoKeys: [String], types: [String: UserInfoType]) -> String {
        let sites = view.flatMap { $0.madeAt.isEmpty ? nil : $0.madeAt.prefix(3).joined(separator: ", ") + ($0.madeAt.count > 3 ? ", …" : "") }
        let made = sites.map { "at \($0)" } ?? "in \(sources.prefix(3).joined(separator: ", "))\(sources.count > 3 ? ", …" : "")"
        let kind = view?.hostsSwiftUI == true ? "a SwiftUI view in a UIHostingController" : "its view in code"
        var size = "its height is the content's"
        if let view, let site = view.preferredSizeSite {
            size = view.preferredHeight.map { "preferredContentSize at \(site): \(CSS.number($0)) pt high, as drawn here" }
                ?? "preferredContentSize at \(site) is computed (\(view.preferredSizeSketch ?? "?")): the height here is the content's"
        }
        // Keys shown as text: not the objects that only hold deeper keys, not the lists.
        let shown = userInfoKeys.filter { ![.object, .array].contains(types[$0]) }.filter { $0.allSatisfy { $0.isLetter || $0.isNumber || "_-.".contains($0) } }
        let fields = shown.map { key in
            "  <p class=\"starter-field\"><span class=\"starter-key\">\(escapeHTML(key))</span> {{userInfo.\(key)}}</p>"
        }
        let height = view?.preferredHeight.map { " height: \(CSS.number($0))px; overflow: hidden;" } ?? ""
        return """
        {{! \(extensionName) makes \(kind) \(made); \(size).
            This is a starter that shows the notification's fields: make it look like that view, with
            Mustache over the notification — title, subtitle, body, userInfo.KEY, attachment.url (each
            in double braces) — then delete the warning below. }}
        {{! warning: the custom view is init's starter: \(extensionName) makes \(kind) \(made) }}
        <style>
          .starter { box-sizing: border-box; padding: 16px; display: flex; flex-direction: column; gap: 6px; color: var(--label);\(height) }
          .starter-title { font: var(--font-headline); margin: 0; flex-shrink: 0; }
          .starter-body { font: var(--font-body); margin: 0; flex-shrink: 0; }
          .starter-field { font: var(--font-footnote); color: var(--secondary-label); margin: 0; flex-shrink: 0; }
          .starter-key { font-weight: 600; }
          .starter-image { display: block; width: 100%; height: 96px; object-fit: cover; border-radius: 8px; flex-shrink: 0; }
        </style>
        <div class="starter">

        """ + (readsAttachments ? "  {{#attachment}}{{#url}}<img class=\"starter-image\" src=\"{{url}}\" alt=\"\">{{/url}}{{/attachment}}\n" : "")
            + (showsTitleAndBody ? "  <p class=\"starter-title\">{{title}}</p>\n  <p class=\"starter-body\">{{body}}</p>\n" : "")
            + fields.map { $0 + "\n" }.joined()
            // Nothing of the notification's own to show: say what stands here, not an empty box.
            + (fields.isEmpty && !readsAttachments && !showsTitleAndBody ? "  <p class=\"starter-field\">\(escapeHTML(extensionName))'s view, made in code</p>\n" : "")
            + "</div>\n"
    }
}
