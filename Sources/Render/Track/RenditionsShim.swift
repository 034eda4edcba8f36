import Recipe

// Until Recipe's locales land (issue 32): a recipe's renditions are its variants.
extension Recipe {
    var locales: [String] { [] }
    var locale: String? { nil }
    func renditions() -> [Recipe] { variants() }
}
