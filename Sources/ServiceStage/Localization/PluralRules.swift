/// CLDR plural categories for whole numbers, for the languages the Examples use and their
/// close neighbours (https://cldr.unicode.org/index/cldr-spec/plural-rules).
public enum PluralRules {
    public static func category(for n: Int, language: String) -> String {
        let i = n.magnitude, mod10 = i % 10, mod100 = i % 100  // abs(Int.min) would trap
        switch language {
        case "vi", "ja", "zh", "ko", "th", "id", "ms":
            return "other"
        case "pl":
            if i == 1 { return "one" }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return "few" }
            return "many"
        case "ru", "uk":
            if mod10 == 1 && mod100 != 11 { return "one" }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return "few" }
            return "many"
        case "fil", "tl":
            return [1, 2, 3].contains(i) || ![4, 6, 9].contains(mod10) ? "one" : "other"
        case "fr", "pt":
            return i == 0 || i == 1 ? "one" : "other"
        default: // en, nl, de, tr, es, it, sv, …
            return i == 1 ? "one" : "other"
        }
    }
}
