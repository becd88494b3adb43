import ContentStage
import Payload
import Rendering
import Styling
import Typography

/// Which notifications a payload is drawn as, decided before anything is drawn: payload × device
/// × appearance × locale × text size, in that order. A payload that shows nothing localized (no
/// loc-keys, no localized action or app name) reads the same in every locale and is planned
/// once, with no locale. The service stage runs once per language and idiom the plan names.
struct ViewPlan {
    struct Notification {
        var device: DeviceProfile
        var appearance: Appearance
        var locale: String?
        var textSize: TextSize
        var language: String { locale ?? "en" }
        var idiom: String { device.isPad ? "ipad" : "iphone" }
    }

    var notifications: [Notification] = []
    /// Devices asked for that the catalog does not have.
    var unknownDevices: [String] = []
    var localized: Bool

    /// `everyLocale`: plan each locale asked for even when nothing is localized (a thread's stack,
    /// whose summary is).
    init(payload: Payload, project: Project, options: RenderOptions, catalog: [DeviceProfile], everyLocale: Bool = false) {
        // A category the service stage may change could be any with localized actions.
        let categories = project.service.mayChange("category") ? project.content.categories : project.content.category(payload.category).map { [$0] } ?? []
        localized = everyLocale || (payload.alert.map { $0.titleLocKey != nil || $0.subtitleLocKey != nil || $0.locKey != nil } ?? false)
            || project.localizesDisplayName || project.service.readsAppStrings
            || categories.contains { $0.actions.contains { $0.titleKey != nil || $0.textInput?.buttonTitleKey != nil || $0.textInput?.placeholderKey != nil } }
        let locales = options.locales.isEmpty || !localized ? [nil] : options.locales.map(Optional.some)
        for id in options.devices {
            guard let device = catalog.first(where: { $0.id == id }) else { unknownDevices.append(id); continue }
            for appearance in options.appearances {
                for locale in locales {
                    for textSize in options.textSizes {
                        notifications.append(Notification(device: device, appearance: appearance, locale: locale, textSize: textSize))
                    }
                }
            }
        }
    }
}
