//! The syntax side of the reader: typed text to structured readings, with no position.

use super::error::Malformed;
use crate::notation::Notation;
use crate::{CastlingSide, File, Rank, Role, Square};

/// The longest input the reader looks at, in characters, after trimming surrounding spaces.
///
/// ```
/// use cajitas_rules::{read_move, Lang, Malformed, Position, ReadErrorKind, MAX_INPUT_CHARS};
/// let text = "e".repeat(MAX_INPUT_CHARS + 1);
/// let err = read_move(&Position::new(), &text, Lang::En).unwrap_err();
/// assert_eq!(err.kind, ReadErrorKind::Malformed { problem: Malformed::TooLong { max: MAX_INPUT_CHARS } });
/// ```
pub const MAX_INPUT_CHARS: usize = 32;

/// The language hint of the reader: which meaning of `R` (rook in English, rey — king — in
/// Spanish) is tried first, and whether lower-case `a`, `c`, `d` may name Spanish pieces.
///
/// Every other letter is accepted in both languages: `K Q R B N` (English), `R D T A C P`
/// (Spanish) and the `K`, `Q` of the Spanish source document never clash.
///
/// ```
/// use cajitas_rules::Lang;
/// assert_eq!(Lang::default(), Lang::En);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English (the default).
    #[default]
    En,
    /// Spanish.
    Es,
}

impl Lang {
    /// The ISO 639-1 code: `"en"` or `"es"`.
    ///
    /// ```
    /// use cajitas_rules::Lang;
    /// assert_eq!(Lang::Es.code(), "es");
    /// assert_eq!("ES".parse::<Lang>(), Ok(Lang::Es));
    /// assert!("fr".parse::<Lang>().is_err());
    /// ```
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Es => "es",
        }
    }
}

/// The letters a language writes SAN with: English or Spanish.
///
/// ```
/// use cajitas_rules::{Lang, Notation};
/// assert_eq!(Notation::from(Lang::Es), Notation::Spanish);
/// ```
impl From<Lang> for Notation {
    fn from(lang: Lang) -> Notation {
        match lang {
            Lang::En => Notation::English,
            Lang::Es => Notation::Spanish,
        }
    }
}

/// Parses `en` or `es` (any case).
impl std::str::FromStr for Lang {
    type Err = ();

    fn from_str(s: &str) -> Result<Lang, ()> {
        match s.to_ascii_lowercase().as_str() {
            "en" => Ok(Lang::En),
            "es" => Ok(Lang::Es),
            _ => Err(()),
        }
    }
}

/// One way to understand a typed move, before it meets a position.
///
/// ```
/// use cajitas_rules::{CastlingSide, Lang, MoveText, Reading};
/// let text = MoveText::parse("0-0-0+", Lang::Es).unwrap();
/// assert_eq!(text.readings, [Reading::Castle(CastlingSide::QueenSide)]);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reading {
    /// Castling (`O-O`, `0-0-0`, `o-o`, ...).
    Castle(CastlingSide),
    /// A move to a square, with whatever else was typed.
    Move(Pattern),
}

/// A move to a square as typed: the piece, origin hints, capture mark and promotion.
///
/// ```
/// use cajitas_rules::{Lang, MoveText, Reading, Role, Square};
/// let text = MoveText::parse("e7xd8=D", Lang::Es).unwrap();
/// let Reading::Move(p) = text.readings[0] else { panic!() };
/// assert_eq!(p.role, None); // coordinates: whatever stands on e7
/// assert_eq!(p.from(), Some(Square::E7));
/// assert_eq!((p.to, p.capture, p.promotion), (Square::D8, true, Some(Role::Queen)));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pattern {
    /// The piece that moves; `None` for coordinates (`g1f3`), where any piece on the origin may.
    pub role: Option<Role>,
    /// The origin file, if typed.
    pub from_file: Option<File>,
    /// The origin rank, if typed.
    pub from_rank: Option<Rank>,
    /// Whether a capture mark (`x`, `:`) was typed. The reader ignores it when matching.
    pub capture: bool,
    /// The destination.
    pub to: Square,
    /// The promotion piece, if typed (even one a pawn cannot become, like a king).
    pub promotion: Option<Role>,
    /// Whether the piece came from a letter or figurine (rather than being implied).
    pub piece_letter: bool,
}

impl Pattern {
    /// The origin square when both file and rank were typed.
    ///
    /// ```
    /// use cajitas_rules::{Lang, MoveText, Reading, Square};
    /// let Reading::Move(p) = MoveText::parse("Ng1f3", Lang::En).unwrap().readings[0] else { panic!() };
    /// assert_eq!(p.from(), Some(Square::G1));
    /// ```
    pub fn from(&self) -> Option<Square> {
        match (self.from_file, self.from_rank) {
            (Some(f), Some(r)) => Some(Square::from_coords(f, r)),
            _ => None,
        }
    }
}

/// Typed move text understood without a position: every reading, in the order the reader tries
/// them.
///
/// ```
/// use cajitas_rules::{Lang, MoveText, Reading, Role};
/// let text = MoveText::parse(" bxc3+ ", Lang::En).unwrap();
/// // Files first: a pawn capture, then the bishop.
/// assert_eq!(text.readings.len(), 2);
/// assert!(matches!(text.readings[0], Reading::Move(p) if p.role == Some(Role::Pawn)));
/// assert!(matches!(text.readings[1], Reading::Move(p) if p.role == Some(Role::Bishop)));
/// assert_eq!(text.canonical, "bxc3");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// The readings, most likely first (never empty).
    pub readings: Vec<Reading>,
    /// The move as typed without spaces, annotations or `e.p.`, the piece written as its English
    /// letter: what suggestions are compared with.
    pub canonical: String,
}

const ANNOTATION: &[char] = &[
    '+', '#', '!', '?', '\u{203C}', '\u{2047}', '\u{2048}', '\u{2049}', '\u{2020}', '\u{2021}',
];

/// Whether a word after the move is only annotations and/or an `e.p.` mark.
fn is_annotation_word(w: &str) -> bool {
    let w = w.trim_matches(ANNOTATION);
    w.is_empty()
        || matches!(
            w.to_ascii_lowercase().as_str(),
            "e.p." | "e.p" | "ep." | "ep"
        )
}

/// Removes trailing annotations and an attached `e.p.`; returns the rest.
fn strip_suffixes(mut s: &str) -> &str {
    loop {
        let before = s.len();
        s = s.trim_end_matches(ANNOTATION);
        for suffix in ["e.p.", "e.p", "ep.", "ep"] {
            let n = suffix.len();
            if s.len() > n
                && s.is_char_boundary(s.len() - n)
                && s[s.len() - n..].eq_ignore_ascii_case(suffix)
                && s[..s.len() - n].ends_with(|c: char| c.is_ascii_digit())
            {
                s = &s[..s.len() - n];
                break;
            }
        }
        if s.len() == before {
            return s;
        }
    }
}

/// The same role as a `&'static` one-element slice.
fn only(role: Role) -> &'static [Role] {
    static ROLES: [Role; 6] = Role::ALL;
    std::slice::from_ref(&ROLES[role.index()])
}

/// The pieces a first letter may name, in the order tried (after the file reading, if any).
/// The letters and figurines are [`Notation`]'s table; only the reader's leniency is here.
fn piece_roles(c: char, lang: Lang) -> &'static [Role] {
    let role = match (c, lang) {
        // `R` is rook in English and rey in Spanish: both, the language's meaning first.
        ('R' | 'r', Lang::En) => return &[Role::Rook, Role::King],
        ('R' | 'r', Lang::Es) => return &[Role::King, Role::Rook],
        // Upper case: the letters of either language.
        (c, _) if c.is_ascii_uppercase() => {
            Role::from_letter(c, Notation::English).or(Role::from_letter(c, Notation::Spanish))
        }
        // Lower case: the English letters and `t` (torre, no file) in both languages; `a`,
        // `c`, `d` (alfil, caballo, dama) only in Spanish, English reads them as files.
        (c, _) if c.is_ascii_lowercase() => {
            let upper = c.to_ascii_uppercase();
            Role::from_letter(upper, Notation::English).or(match (c, lang) {
                ('t', _) | (_, Lang::Es) => Role::from_letter(upper, Notation::Spanish),
                _ => None,
            })
        }
        (c, _) => Role::from_letter(c, Notation::Figurine),
    };
    role.map_or(&[], only)
}

/// A promotion letter (either case, English or Spanish) or figurine.
fn promotion_role(c: char) -> Option<Role> {
    let upper = c.to_ascii_uppercase();
    if upper == 'R' {
        // `R` is rook in English and rey in Spanish; a pawn never becomes a king, so rook.
        return Some(Role::Rook);
    }
    Role::from_letter(upper, Notation::English)
        .or(Role::from_letter(upper, Notation::Spanish))
        .or(Role::from_letter(c, Notation::Figurine))
}

fn file_of(c: char) -> Option<File> {
    File::from_char(c.to_ascii_lowercase())
}

fn rank_of(c: char) -> Option<Rank> {
    Rank::from_char(c)
}

/// Parses `[file][rank]` hints; `first` says whether `s[0]` is the first character of the move
/// (where upper-case `A`–`D` are piece letters, not files).
fn hints(s: &[char], first: bool) -> Option<(Option<File>, Option<Rank>)> {
    let mut i = 0;
    let mut file = None;
    if let Some(&c) = s.first() {
        let is_file = if first {
            c.is_ascii_lowercase() || matches!(c, 'E'..='H')
        } else {
            true
        };
        if is_file && let Some(f) = file_of(c) {
            file = Some(f);
            i = 1;
        }
    }
    let mut rank = None;
    if let Some(&c) = s.get(i) {
        rank = Some(rank_of(c)?);
        i += 1;
    }
    (i == s.len()).then_some((file, rank))
}

fn castle(word: &str) -> Option<CastlingSide> {
    let mut count = 0;
    let mut hyphens = 0;
    let mut last_was_o = false;
    for c in word.chars() {
        match c {
            'O' | 'o' | '0' => {
                if last_was_o && hyphens > 0 {
                    return None;
                }
                count += 1;
                last_was_o = true;
            }
            '-' | '\u{2013}' | '\u{2014}' => {
                if !last_was_o {
                    return None;
                }
                hyphens += 1;
                last_was_o = false;
            }
            _ => return None,
        }
    }
    if !last_was_o || (hyphens != 0 && hyphens != count - 1) {
        return None;
    }
    match count {
        2 => Some(CastlingSide::KingSide),
        3 => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

impl MoveText {
    /// Reads move text without a position. Fails only on text that is no move in any notation
    /// the reader knows; whether the move is legal is for [`crate::read_move`] to say.
    ///
    /// ```
    /// use cajitas_rules::{Lang, Malformed, MoveText};
    /// assert!(MoveText::parse("Nf3", Lang::En).is_ok());
    /// assert_eq!(MoveText::parse("--", Lang::En), Err(Malformed::NullMove));
    /// assert_eq!(MoveText::parse("Zf3", Lang::En), Err(Malformed::UnknownPiece { letter: 'Z' }));
    /// ```
    pub fn parse(text: &str, lang: Lang) -> Result<MoveText, Malformed> {
        let text = text.trim();
        if text.is_empty() {
            return Err(Malformed::Empty);
        }
        if text.chars().nth(MAX_INPUT_CHARS).is_some() {
            return Err(Malformed::TooLong {
                max: MAX_INPUT_CHARS,
            });
        }
        // Emoji presentation selectors some keyboards append to figurines.
        let text: String = text
            .chars()
            .filter(|&c| c != '\u{FE0F}' && c != '\u{FE0E}')
            .collect();
        let mut words = text.split_whitespace();
        let word = words.next().ok_or(Malformed::Empty)?;
        if let Some(extra) = words.find(|w| !is_annotation_word(w)) {
            return Err(Malformed::TrailingText {
                text: extra.chars().take(12).collect(),
            });
        }
        let word = strip_suffixes(word);
        if word.is_empty() {
            return Err(Malformed::Unreadable);
        }
        if matches!(word, "--" | "Z0" | "z0" | "0000" | "@@@@") {
            return Err(Malformed::NullMove);
        }
        if let Some(side) = castle(word) {
            let canonical = match side {
                CastlingSide::KingSide => "O-O",
                CastlingSide::QueenSide => "O-O-O",
            };
            return Ok(MoveText {
                readings: vec![Reading::Castle(side)],
                canonical: canonical.to_string(),
            });
        }
        let chars: Vec<char> = word.chars().collect();
        Self::parse_move(&chars, lang)
    }

    fn parse_move(chars: &[char], lang: Lang) -> Result<MoveText, Malformed> {
        let mut end = chars.len();
        // Promotion: `=Q`, `Q`, `/Q`, `(Q)`, or a dangling `=`.
        let mut promotion = None;
        if end >= 3 && chars[end - 1] == ')' && chars[end - 3] == '(' {
            promotion = Some(promotion_role(chars[end - 2]).ok_or(Malformed::Unreadable)?);
            end -= 3;
        } else if end >= 3
            && !chars[end - 1].is_ascii_digit()
            && let Some(role) = promotion_role(chars[end - 1])
        {
            promotion = Some(role);
            end -= 1;
        }
        if end > 0 && matches!(chars[end - 1], '=' | '/') {
            end -= 1;
        }
        // Destination.
        if end < 2 {
            return Err(Malformed::NoDestination);
        }
        let (Some(to_file), Some(to_rank)) = (file_of(chars[end - 2]), rank_of(chars[end - 1]))
        else {
            return Err(if chars.iter().any(|c| c.is_ascii_digit()) {
                Malformed::Unreadable
            } else {
                Malformed::NoDestination
            });
        };
        let to = Square::from_coords(to_file, to_rank);
        end -= 2;
        // Capture mark or separator.
        let mut capture = false;
        if end > 0 {
            match chars[end - 1] {
                'x' | 'X' | ':' | '\u{00D7}' => {
                    capture = true;
                    end -= 1;
                }
                '-' | '\u{2013}' => end -= 1,
                _ => {}
            }
        }
        let prefix = &chars[..end];
        if prefix.len() > 3 {
            return Err(Malformed::Unreadable);
        }

        let mut readings = Vec::new();
        // Files first: `bxc3`, `e2e4`, `exd5`.
        if let Some((from_file, from_rank)) = hints(prefix, true) {
            let role = match (from_file, from_rank) {
                (Some(_), Some(_)) => None,
                _ => Some(Role::Pawn),
            };
            readings.push(Reading::Move(Pattern {
                role,
                from_file,
                from_rank,
                capture,
                to,
                promotion,
                piece_letter: false,
            }));
        }
        let mut canonical_piece = None;
        if let Some(&first) = prefix.first()
            && let Some((from_file, from_rank)) = hints(&prefix[1..], false)
        {
            for &role in piece_roles(first, lang) {
                if readings.is_empty() {
                    canonical_piece = Some(role);
                }
                readings.push(Reading::Move(Pattern {
                    role: Some(role),
                    from_file,
                    from_rank,
                    capture,
                    to,
                    promotion,
                    piece_letter: true,
                }));
            }
        }
        if readings.is_empty() {
            let first = prefix[0];
            return Err(
                if first.is_alphabetic()
                    && file_of(first).is_none()
                    && first != 'x'
                    && piece_roles(first, lang).is_empty()
                {
                    Malformed::UnknownPiece { letter: first }
                } else {
                    Malformed::Unreadable
                },
            );
        }
        let mut canonical: String = match canonical_piece {
            Some(role) => std::iter::once(role.upper_char())
                .chain(chars[1..].iter().copied())
                .collect(),
            None => chars.iter().collect(),
        };
        canonical.retain(|c| !c.is_whitespace());
        Ok(MoveText {
            readings,
            canonical,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pat(r: &Reading) -> Pattern {
        match r {
            Reading::Move(p) => *p,
            Reading::Castle(_) => panic!("castle"),
        }
    }

    #[test]
    fn castling_forms() {
        for s in ["O-O", "0-0", "o-o", "OO", "O-O+", "0-0#", " o-o! "] {
            let t = MoveText::parse(s, Lang::En).unwrap();
            assert_eq!(t.readings, [Reading::Castle(CastlingSide::KingSide)], "{s}");
        }
        for s in ["O-O-O", "0-0-0", "o-o-o", "OOO", "O–O–O"] {
            let t = MoveText::parse(s, Lang::En).unwrap();
            assert_eq!(
                t.readings,
                [Reading::Castle(CastlingSide::QueenSide)],
                "{s}"
            );
        }
        for s in ["O-", "-O-O", "O--O", "O-O-O-O", "OO-O"] {
            assert!(MoveText::parse(s, Lang::En).is_err(), "{s}");
        }
    }

    #[test]
    fn pieces_and_hints() {
        let t = MoveText::parse("Ng1f3", Lang::En).unwrap();
        let p = pat(&t.readings[0]);
        assert_eq!(p.role, Some(Role::Knight));
        assert_eq!(p.from(), Some(Square::G1));
        assert_eq!(p.to, Square::F3);

        let t = MoveText::parse("e2e4", Lang::En).unwrap();
        assert_eq!(t.readings.len(), 1);
        assert_eq!(pat(&t.readings[0]).role, None);

        let t = MoveText::parse("e7e8q", Lang::En).unwrap();
        assert_eq!(pat(&t.readings[0]).promotion, Some(Role::Queen));

        let t = MoveText::parse("Re1", Lang::Es).unwrap();
        let roles: Vec<_> = t.readings.iter().map(|r| pat(r).role).collect();
        assert_eq!(roles, [Some(Role::King), Some(Role::Rook)]);
        let t = MoveText::parse("Re1", Lang::En).unwrap();
        let roles: Vec<_> = t.readings.iter().map(|r| pat(r).role).collect();
        assert_eq!(roles, [Some(Role::Rook), Some(Role::King)]);

        let t = MoveText::parse("cd5", Lang::Es).unwrap();
        let roles: Vec<_> = t.readings.iter().map(|r| pat(r).role).collect();
        assert_eq!(roles, [Some(Role::Pawn), Some(Role::Knight)]);
        let t = MoveText::parse("cd5", Lang::En).unwrap();
        assert_eq!(t.readings.len(), 1);

        let t = MoveText::parse("\u{265E}f3\u{FE0F}", Lang::En).unwrap();
        assert_eq!(pat(&t.readings[0]).role, Some(Role::Knight));
        assert_eq!(t.canonical, "Nf3");
    }

    #[test]
    fn en_passant_marks() {
        for s in [
            "exd6e.p.",
            "exd6 e.p.",
            "exd6ep",
            "exd6 ep",
            "exd6 e.p.+",
            "exd6e.p.+",
        ] {
            let t = MoveText::parse(s, Lang::En).unwrap();
            assert_eq!(pat(&t.readings[0]).to, Square::D6, "{s}");
            assert_eq!(t.canonical, "exd6", "{s}");
        }
    }

    #[test]
    fn malformed() {
        assert_eq!(MoveText::parse("   ", Lang::En), Err(Malformed::Empty));
        assert_eq!(MoveText::parse("Z0", Lang::En), Err(Malformed::NullMove));
        assert_eq!(
            MoveText::parse("e4 please", Lang::En),
            Err(Malformed::TrailingText {
                text: "please".into()
            })
        );
        assert_eq!(
            MoveText::parse("Nf", Lang::En),
            Err(Malformed::NoDestination)
        );
        assert!(matches!(
            MoveText::parse(&"e4".repeat(40), Lang::En),
            Err(Malformed::TooLong { .. })
        ));
    }
}
