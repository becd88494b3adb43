/// The payload keys the app's server sends, shared by every target.
enum RecipeKeys {
    static let recipe = "recipe"
    static let minutes = "minutes"
}
