extension String {
    /// Without leading and trailing blanks (no Foundation here).
    package var trimmingSpaces: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        return String(drop(while: blank).reversed().drop(while: blank).reversed())
    }
}
