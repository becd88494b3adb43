import ContentStage
import Payload
import Rendering
import Styling
import Typography

/// Which notifications a payload is drawn as, decided before anything is drawn: payload × `Variant`
/// (device, appearance, locale, text size, iOS), in `VariantAxes`' order. A payload that shows nothing localized (no
/// loc-keys, no localized action or app name) reads the same in every locale and is planned
/// once, with no locale. The service stage runs once per language and idiom the plan names.
struct ViewPlan {
    struct Notification {
        var device: DeviceProfile
        var variant: Variant
        var locale: String? { variant.locale }
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
        unknownDevices = options.devices.filter { id in !catalog.contains { $0.id == id } }
        for variant in options.axes.variants(localized: localized) {
            guard let device = catalog.first(where: { $0.id == variant.device }) else { continue }
            notifications.append(Notification(device: device, variant: variant))
        }
    }
}
