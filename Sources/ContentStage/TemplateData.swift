import Payload
import Imaging
import ServiceStage
import Styling
import Templating
import Typography

/// The one data model every template sees (README, "Template data"): the delivered content,
/// the app, the device, and what the system chrome needs (header title, actions, the custom
/// view's measurements, the play/pause button, the banner's texts).
public struct TemplateContext: Sendable {
    public var notification: DeliveredNotification
    public var appName: String
    /// `src` of the app icon, or nil for the lettered placeholder.
    public var appIconSource: String?
    public var device: DeviceProfile
    /// The chrome's numbers for the iOS version drawn (`Templates/system/iosNN/metrics.json`).
    public var chrome: ChromeMetrics
    public var appearance: Appearance
    public var locale: String
    public var timeLabel = "now"
    /// What each attachment shows: an image's `src` and pixel size (a video's poster frame),
    /// and a video's or audio file's duration.
    public var attachmentSources: [AttachmentSource]
    /// The images of a push SDK's own content view (`notification.contentView`), as attachments'.
    public var contentViewSources: [AttachmentSource] = []

    public struct AttachmentSource: Sendable {
        public var src: String?
        public var width = 0, height = 0
        /// Seconds, for video and audio.
        public var duration: Double?
        public init(src: String? = nil, width: Int = 0, height: Int = 0, duration: Double? = nil) {
            self.src = src; self.width = width; self.height = height; self.duration = duration
        }
    }

    /// The view controller's title, shown instead of the app name (OverridesDefaultTitle).
    public var customTitle: String?
    /// False when the extension sets UNNotificationExtensionDefaultContentHidden.
    public var showDefaultContent = true
    public var customView = CustomViewMetrics(limit: 320)
    public var actions: [NotificationAction] = []
    /// Set for the `-reply` mock-up: the text-input action after the tap.
    public var reply: NotificationAction.TextInput?
    public var mediaButton: MediaButton?
    /// The collapsed notification's texts and thumbnail.
    public var banner = Banner()
    /// The reader's Dynamic Type size.
    public var textSize = TextSize.standard
    /// The face iOS's own text is drawn in (SF Pro when the fonts have it, else Inter).
    public var systemFace = SystemFace.inter
    /// The iOS version's chrome (`ios.*`: its glass and the numbers it changes); nil: iOS 18's.
    public var ios: IOSChrome?
    public var glass = IOSChrome.Glass.clear
    /// A communication notification's leading image (the sender's or the group's avatar); nil
    /// `src` = the monogram of the sender's initials.
    public var avatarSource: String?
    /// The wallpaper a person named (`--wallpaper`), cropped to the device's screen; nil: ours.
    public var wallpaperSource: String?
    /// The labels the system draws for the interruption level, and the stack's summary line
    /// (`-stack` and `-lockscreen` views), in the locale's words.
    public var levelLabel: String?
    /// "Summarized by Apple Intelligence" in the locale's words (a simulated summary's attribution).
    public var simulationAttribution = "Summarized by Apple Intelligence"
    public var stack: Stack?
    /// The `-lockscreen` view: the date and clock over the wallpaper, and the screen's height.
    public var lockScreen: LockScreen?

    public struct Stack: Sendable {
        /// How many notifications the thread holds, the top one included.
        public var count: Int
        /// "2 more notifications", or the category's summary format filled in.
        public var summary: String
        public init(count: Int, summary: String) { self.count = count; self.summary = summary }
    }

    /// Where the Lock Screen puts things (METRICS.md), as ScreenLabel measured iOS 16 and later:
    /// the clock's size, the date's and the clock's baselines from the top, and the flashlight
    /// and camera buttons (50 pt, centred this far above the bottom and in from the sides) that
    /// an iPhone without a Home button has.
    public struct LockScreen: Sendable {
        public var date: String
        public var clock: String
        public var height: Double
        var dateTop: Double, clockTop: Double, clockSize: Double, listBottom: Double, buttonBottom: Double, buttonInset: Double, buttonSize = 50.0
        /// The flashlight and camera (a Face ID iPhone), and the home indicator (any device
        /// without a Home button).
        var buttons: Bool, homeIndicator: Bool
        /// Set for Notification Center: its heading, above the list that starts under the clock.
        public var centerTitle: String?
        var listTop: Double

        /// `chrome`: the iOS version's numbers; iOS 26's place the date below the safe area and
        /// draw larger buttons (`lockScreen.*` rows, which iOS 18's file has none of).
        public init(date: String, clock: String, device: DeviceProfile, chrome: ChromeMetrics? = nil) {
            self.date = date; self.clock = clock
            height = device.height
            let (size, dateBaseline, clockBaseline): (Double, Double, Double)
            switch (device.isPad, device.height) {
            case (true, _): (size, dateBaseline, clockBaseline) = device.width > 1000 ? (112, 129, 234) : (103, 111, 210)
            case (false, ..<700): (size, dateBaseline, clockBaseline) = (82, 71, 154)   // a Home-button iPhone
            case (false, ..<848): (size, dateBaseline, clockBaseline) = (96, 108, 201)  // 844 pt tall
            case (false, ..<900): (size, dateBaseline, clockBaseline) = (96, 117, 215)  // 852 pt tall
            default: (size, dateBaseline, clockBaseline) = (102, 122, 221)              // 926–932 pt tall
            }
            clockSize = size
            // A safe area with a bottom inset: no Home button, so a home indicator (and on an
            // iPhone, the flashlight and camera).
            homeIndicator = device.safeArea.bottom > 0
            buttons = !device.isPad && homeIndicator
            // The boxes' tops: a 28 pt date line and a clock line as tall as its size (Inter's
            // ascent is 0.97 of the size, its descent 0.24: the baseline sits 0.845 of it down).
            dateTop = dateBaseline - 21.9
            clockTop = (clockBaseline - 0.845 * size).rounded()
            buttonBottom = (device.height > 812 ? 83 : 75) - 25
            buttonInset = (device.height > 812 ? 79 : 71) - 25
            listBottom = buttons ? buttonBottom + 50 + 22 : 40
            listTop = clockBaseline + 0.24 * size + 28
            // Measured on a Face ID iPhone only: a Home-button iPhone and an iPad keep iOS 18's places.
            guard buttons, let chrome, let below = chrome.optional("lockScreen.dateBaselineBelowSafeArea"), let gap = chrome.optional("lockScreen.clockCapTopBelowDate"),
                  let clock = chrome.optional("lockScreen.clockSize"), let button = chrome.optional("lockScreen.buttonSize"),
                  let inset = chrome.optional("lockScreen.buttonCentreInset"), let rise = chrome.optional("lockScreen.buttonCentreAboveBottom") else { return }
            let dateLine = device.safeArea.top + below, clockLine = dateLine + gap + 0.727 * clock // Inter's cap height
            clockSize = clock
            dateTop = dateLine - 21.9
            clockTop = (clockLine - 0.845 * clock).rounded()
            buttonSize = button
            buttonBottom = rise - button / 2
            buttonInset = inset - button / 2
            listBottom = buttons ? buttonBottom + button + 22 : 40
            listTop = clockLine + 0.24 * clock + 28
        }
    }

    public struct CustomViewMetrics: Sendable {
        public var limit: Double
        /// An explicit height (the ratio's, or the measured one in review mode); nil = its content's.
        public var height: Double?
        public var clippedBy = 0.0
        /// `--show-limits`: draw the cap and what falls below it instead of clipping.
        public var showLimits = false
        public init(limit: Double) { self.limit = limit }
    }

    public struct MediaButton: Sendable {
        public var type: CategoryViewSettings.MediaButton
        public var frame: [CategoryViewSettings.FrameValue]
        /// A CSS colour; nil = the system's (the tint for `default`, white for `overlay`).
        public var tint: String?
        public var playing: Bool
        public init(type: CategoryViewSettings.MediaButton, frame: [CategoryViewSettings.FrameValue], tint: String?, playing: Bool) {
            self.type = type; self.frame = frame; self.tint = tint; self.playing = playing
        }
        /// The overlay button hides while the media plays.
        public var visible: Bool { type == .default || (type == .overlay && !playing) }
    }

    public struct Banner: Sendable {
        public var title = "", subtitle = "", body = ""
        public var thumbnail: String?
        public init() {}
    }

    public init(notification: DeliveredNotification, appName: String, appIconSource: String?, device: DeviceProfile, chrome: ChromeMetrics,
                appearance: Appearance, locale: String, attachmentSources: [AttachmentSource]) {
        self.notification = notification; self.appName = appName; self.appIconSource = appIconSource; self.device = device; self.chrome = chrome
        self.appearance = appearance; self.locale = locale; self.attachmentSources = attachmentSources
        timeLabel = RelativeTime.now(locale: locale)
        customView = CustomViewMetrics(limit: device.customViewHeightLimit)
        banner.title = notification.title.isEmpty ? appName : notification.title
        banner.subtitle = notification.subtitle
        banner.body = notification.body
        // A communication notification: the sender is the title; in a group, the group's name is
        // the subtitle (iOS 15 and later).
        if let c = notification.communication {
            banner.title = c.senderName
            if let group = c.groupName { banner.subtitle = group }
        }
    }

    /// The platters' widths. On an iPhone the profile's `notificationWidth` is the banner's (inset
    /// `banner.inset`); a list cell and the long look are inset by their own metrics. No capture
    /// shows an iPad's, so there every platter is the profile's width.
    public var platterWidths: (banner: Double, list: Double, longLook: Double) {
        let w = device.notificationWidth
        if device.isPad { return (w, w, w) }
        let banner = chrome["banner.inset"]
        return (w, w - 2 * (chrome["list.inset"] - banner), w - 2 * (chrome["longLook.inset"] - banner))
    }

    /// The sender's initials, as iOS draws a contact with no image: the first letters of the
    /// first two words (one for a single word, none for a name with no letters).
    public static func initials(_ name: String) -> String {
        name.split(whereSeparator: { $0.isWhitespace }).prefix(2).compactMap { $0.first(where: \.isLetter) }.map { String($0).uppercased() }.joined()
    }

    /// The data as templates see it; `icon` gives an action's symbol as SVG markup.
    public func value(icon: (NotificationAction.Icon?) -> String?, icons: [String: String]) -> TemplateValue {
        let n = notification
        let attachments: [TemplateValue] = zip(n.attachments, attachmentSources).map { a, s in
            var o: [String: TemplateValue] = ["identifier": .string(a.identifier), "type": .string(a.kind.rawValue),
                                               "isImage": .bool(a.kind == .image), "isVideo": .bool(a.kind == .video), "isAudio": .bool(a.kind == .audio)]
            if let src = s.src { o["url"] = .string(src); o["width"] = .number(Double(s.width)); o["height"] = .number(Double(s.height)) }
            if a.kind == .video, let src = s.src { o["poster"] = .string(src) }
            if let d = s.duration { o["duration"] = .string(MediaFile.durationText(d)); o["seconds"] = .number(d) }
            return .object(o)
        }
        var app: [String: TemplateValue] = ["name": .string(appName), "initial": .string(appName.first.map { String($0).uppercased() } ?? "")]
        if let icon = appIconSource { app["icon"] = .string(icon) }
        var custom: [String: TemplateValue] = ["limit": .number(customView.limit), "showLimits": .bool(customView.showLimits)]
        if let h = customView.height { custom["height"] = .number(h) }
        if customView.clippedBy > 0 { custom["clippedBy"] = .number((customView.clippedBy * 10).rounded() / 10) }
        let actionValues: [TemplateValue] = actions.prefix(NotificationCategory.maxActions).enumerated().map { i, a in
            var o: [String: TemplateValue] = ["index": .number(Double(i)), "first": .bool(i == 0), "identifier": .string(a.identifier),
                                               "title": .string(a.title), "destructive": .bool(a.isDestructive),
                                               "options": .string(a.options.map(\.rawValue).joined(separator: ", "))]
            if let svg = icon(a.icon) { o["icon"] = .string(svg) }
            return .object(o)
        }
        var object: [String: TemplateValue] = [
            "title": .string(n.title), "subtitle": .string(n.subtitle), "body": .string(n.body),
            "category": n.category.map(TemplateValue.string) ?? .null,
            "threadId": n.threadId.map(TemplateValue.string) ?? .null,
            "badge": n.badge.map { .number(Double($0)) } ?? .null,
            "app": .object(app),
            "header": ["title": .string(customTitle ?? appName), "overridden": .bool(customTitle != nil)],
            "textSize": .string(textSize.rawValue),
            "ios": (ios ?? IOSChrome(version: .ios18, values: [:])).templateValue(appearance: appearance, glass: glass),
            "level": ["name": .string(n.interruptionLevel.rawValue), "label": levelLabel.map(TemplateValue.string) ?? .null,
                      "timeSensitive": .bool(n.interruptionLevel == .timeSensitive), "critical": .bool(n.interruptionLevel == .critical),
                      "passive": .bool(n.interruptionLevel == .passive)],
            "time": .string(timeLabel),
            "attachments": .list(attachments),
            "attachment": attachments.first ?? .null,
            "userInfo": .object(Dictionary(n.userInfo.map { ($0.key, TemplateValue(json: $0.value)) }) { $1 }),
            "device": ["id": .string(device.id), "name": .string(device.name), "width": .number(device.width),
                       "scale": .number(Double(device.scale)), "isPad": .bool(device.isPad),
                       "notificationWidth": .number(device.notificationWidth), "hairline": .number(1 / Double(device.scale)),
                       "customViewHeightLimit": .number(device.customViewHeightLimit)],
            "chrome": chrome.templateValue,
            // The row's text lines are closer than Subheadline's leading (18 pt at Large on iOS 18).
            "rowTextLeading": .number(TextStyle.all.first { $0.name == "subheadline" }!.leading(textSize) + chrome["text.leadingAdjust"]),
            "widths": ["banner": .number(platterWidths.banner), "list": .number(platterWidths.list), "longLook": .number(platterWidths.longLook)],
            "appearance": .string(appearance.rawValue),
            "dark": .bool(appearance == .dark),
            "locale": .string(locale),
            "rtl": .bool(isRightToLeftLanguage(locale)),
            "showDefaultContent": .bool(showDefaultContent),
            "customView": .object(custom),
            "actions": .list(actionValues),
            "hasActions": .bool(!actionValues.isEmpty),
            "icons": .object(icons.mapValues(TemplateValue.string)),
            "banner": .object(["title": .string(banner.title), "subtitle": .string(banner.subtitle), "body": .string(banner.body),
                               "thumbnail": banner.thumbnail.map(TemplateValue.string) ?? .null]),
        ]
        if let v = n.contentView {
            // The SDK's view: its data (the payload, or the object its string key holds) and its images, in order.
            let images: [TemplateValue] = zip(v.images, contentViewSources).enumerated().compactMap { i, pair in
                pair.1.src.map { .object(["key": .string(pair.0.identifier), "url": .string($0), "width": .number(Double(pair.1.width)),
                                          "height": .number(Double(pair.1.height)), "index": .number(Double(i)), "first": .bool(i == 0)]) }
            }
            // Each image also where its key path leads (`sdkView.media.ab.c_items.0.i.url`), for a view whose pages hold their images.
            let media = images.reduce(TemplateValue.object([:])) { tree, image in tree.setting(image, at: (image["key"]?.text ?? "").split(separator: ".").map(String.init)[...]) }
            object["sdkView"] = ["sdk": .string(v.sdk), "data": TemplateValue(json: .object(v.data)), "images": .list(images), "media": media,
                                 "image": images.first ?? .null, "count": .number(Double(images.count)), "paging": .bool(images.count > 1),
                                 "variant": .object(v.variants.mapValues { .object([$0: .bool(true)]) })]
        }
        if let s = n.simulation {
            object["simulation"] = ["summary": s.summary.map(TemplateValue.string) ?? .null, "prioritized": .bool(s.prioritized),
                                    "attribution": .string(simulationAttribution)]
        }
        if let c = n.communication {
            var o: [String: TemplateValue] = ["sender": .string(c.senderName), "initials": .string(Self.initials(c.senderName))]
            if let group = c.groupName { o["group"] = .string(group) }
            if let handle = c.senderHandle { o["handle"] = .string(handle) }
            if let avatarSource { o["avatar"] = .string(avatarSource) }
            object["communication"] = .object(o)
        }
        if let stack {
            let plates = min(stack.count, 3) - 1
            object["stack"] = ["count": .number(Double(stack.count)), "summary": .string(stack.summary), 
                               "plates": .list((0..<plates).map { .number(Double($0 + 1)) })]
        }
        if let wallpaperSource {
            object["wallpaper"] = ["src": .string(wallpaperSource), "width": .number(device.width), "height": .number(device.height)]
        }
        object["hasLines"] = .bool(!banner.subtitle.isEmpty || !banner.body.isEmpty || banner.thumbnail != nil || n.simulation?.summary != nil)
        if let l = lockScreen {
            object["lockScreen"] = ["date": .string(l.date), "clock": .string(l.clock), "height": .number(l.height), "dateTop": .number(l.dateTop),
                                    "clockTop": .number(l.clockTop), "clockSize": .number(l.clockSize), "listBottom": .number(l.listBottom),
                                    "buttonBottom": .number(l.buttonBottom), "buttonInset": .number(l.buttonInset), "buttonSize": .number(l.buttonSize), "buttons": .bool(l.buttons), "homeIndicator": .bool(l.homeIndicator),
                                    "center": l.centerTitle.map(TemplateValue.string) ?? .null, "listTop": .number(l.listTop)]
        }
        if let reply { object["reply"] = ["placeholder": .string(reply.placeholder), "buttonTitle": .string(reply.buttonTitle)] }
        if let b = mediaButton, b.frame.count == 4, case .points(let width) = b.frame[2], case .points(let height) = b.frame[3] {
            // "center": 50% of the view, less half the button (a negative margin).
            func position(_ v: CategoryViewSettings.FrameValue, _ size: Double) -> (String, Double) {
                if case .points(let p) = v { return ("\(formatNumber(p))px", 0) }
                return ("50%", -size / 2)
            }
            let (x, mx) = position(b.frame[0], width), (y, my) = position(b.frame[1], height)
            object["mediaButton"] = ["type": .string(b.type.rawValue), "visible": .bool(b.visible), "playing": .bool(b.playing), "tint": b.tint.map(TemplateValue.string) ?? .null,
                                     "x": .string(x), "y": .string(y), "marginLeft": .number(mx), "marginTop": .number(my),
                                     "width": .number(width), "height": .number(height)]
        }
        return .object(object)
    }
}
