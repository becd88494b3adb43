import ContentStage
import Diagnostics
import ServiceStage

/// An action's texts in one locale, where categories.json gives them as keys, and what could not
/// be translated: one function for the mock-ups and for `validate`, so both say the same.
enum ActionTexts {
    static func localized(_ action: NotificationAction, _ strings: Localizer, category: String?) -> (NotificationAction, [Diagnostic]) {
        var a = action, found: [Diagnostic] = []
        func say(_ message: String) {
            found.append(Diagnostic(.warning, code: .stringsUntranslated, "action \(action.identifier): \(message)", category: category, locale: strings.locale))
        }
        func look(_ key: NotificationAction.LocalizedKey?, _ text: inout String) {
            guard let key else { return }
            if let hit = strings.find(key: key.key, table: key.table) {
                text = hit.text
                if hit.fellBack { hit.warnings.prefix(1).forEach(say) }
            } else {
                say("no translation for \"\(key.key)\" in \(key.table) for \(strings.fallbackChain.joined(separator: ", ")); showing \"\(text)\"")
            }
        }
        look(action.titleKey, &a.title)
        if a.textInput?.buttonTitleIsSystemDefault == true, !strings.locale.lowercased().hasPrefix("en") {
            say("no text-input button title, so iOS shows its own \"Send\" in \(strings.locale); drawn in English")
        }
        if a.textInput != nil {
            look(action.textInput?.buttonTitleKey, &a.textInput!.buttonTitle)
            look(action.textInput?.placeholderKey, &a.textInput!.placeholder)
        }
        return (a, found)
    }

    /// Every category's actions in each of `locales`: what validate says before a gallery draws them.
    static func findings(_ project: Project, locales: [String]) -> [Diagnostic] {
        var out: [Diagnostic] = [], seen: Set<Diagnostic> = []
        for locale in locales {
            let strings = Localizer.shared(folders: project.stringsFolders, locale: locale)
            for category in project.content.categories {
                for action in category.actions.prefix(NotificationCategory.maxActions) {
                    for d in localized(action, strings, category: category.identifier).1 where seen.insert(d).inserted { out.append(d) }
                }
            }
        }
        return out
    }
}
