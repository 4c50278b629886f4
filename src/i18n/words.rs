//! The small pieces messages are made of: colour and role keys for Fluent selectors, lists
//! joined the way each language joins them, and moves written in a language's letters.

use cajitas_rules::{Color, Lang, Notation, Role, SanPlus};

use crate::tr;

/// The Fluent selector of a colour: `"white"` or `"black"`.
pub fn colour_key(c: Color) -> &'static str {
    c.name()
}

/// The Fluent selector of a role: `"king"`, `"queen"`, …, `"pawn"`.
pub fn role_key(r: Role) -> &'static str {
    r.name()
}

fn join(lang: Lang, items: &[String], last_id: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [head @ .., last] => {
            let sep = tr!(lang, "list-sep");
            tr!(lang, last_id, head = head.join(&sep), last = last.clone())
        }
    }
}

/// `a`, `a or b`, `a, b or c` in `lang` ("a, b o c").
pub fn list_or(lang: Lang, items: &[String]) -> String {
    join(lang, items, "list-or")
}

/// `a`, `a and b`, `a, b and c` in `lang` ("a, b y c").
pub fn list_and(lang: Lang, items: &[String]) -> String {
    join(lang, items, "list-and")
}

/// A move stored in English SAN, written with `lang`'s piece letters (`Nf3` → `Cf3`,
/// `e8=Q+` → `e8=D+`). Text that is not SAN is returned unchanged.
pub fn san_in(lang: Lang, san: &str) -> String {
    match lang {
        Lang::En => san.to_owned(),
        _ => san
            .parse::<SanPlus>()
            .map(|s| s.display(Notation::from(lang)).to_string())
            .unwrap_or_else(|_| san.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_lists_in_both_languages() {
        assert_eq!(san_in(Lang::Es, "Nf3"), "Cf3");
        assert_eq!(san_in(Lang::Es, "exd8=Q#"), "exd8=D#");
        assert_eq!(san_in(Lang::Es, "O-O"), "O-O");
        assert_eq!(san_in(Lang::En, "Nf3"), "Nf3");
        let three = ["a".to_owned(), "b".to_owned(), "c".to_owned()];
        assert_eq!(list_or(Lang::En, &three), "a, b or c");
        assert_eq!(list_or(Lang::Es, &three), "a, b o c");
        assert_eq!(list_and(Lang::Es, &three[..2]), "a y b");
        assert_eq!(list_or(Lang::Es, &three[..1]), "a");
    }
}
