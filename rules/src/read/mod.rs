//! Reading the moves people type: lenient SAN, lower case, coordinates, Spanish letters and
//! figurines, into the legal move meant, or a precise [`ReadError`].
//!
//! The work is split in two: [`MoveText::parse`] understands the text with no position (every
//! possible reading, most likely first), then [`MoveText::to_move`] tries the readings in order
//! against the legal moves; the first reading that matches decides.

mod error;
mod explain;
mod text;

pub use error::{CastleProblem, IllegalReason, Malformed, ReadError, ReadErrorKind};
pub use text::{Lang, MAX_INPUT_CHARS, MoveText, Pattern, Reading};

use crate::{CastlingMode, File, Move, Position, Rank, Role, San, Square};

/// Reads a move as a player typed it, in `pos`, with a language hint.
///
/// Accepted:
/// - English SAN with a missing or extra `x`; `+`, `#`, `!`, `?` ignored; `0-0`, `o-o`,
///   `O-O-O`...; promotion with or without `=`, either case (`e8Q`, `e8=Q`, `e8q`);
///   over-disambiguation (`Ng1f3`); an `e.p.` suffix, attached or as the next word;
///   surrounding spaces.
/// - A pawn capture names the pawn's file, as in SAN: `c4` (or `xc4`, `Pc4`) is only ever a
///   pawn going straight to c4, never `dxc4` or an en passant capture; that text is refused
///   ([`IllegalReason::PawnCaptureWithoutFile`]) with the capture first among the suggestions.
/// - Lower case: `a`–`h` are files first (`bxc3`, `bc3`, `dc4` are pawn captures); only when
///   that reading is illegal is the letter read as a piece (bishop for `b`; in Spanish alfil,
///   caballo, dama for `a`, `c`, `d`). `k q r n t p` are piece letters (`nf3`).
/// - Coordinates: `e2e4`, `e2-e4`, `e2xe4`, `e7e8q`, `d7d8R`; castling as `e1g1` or as the king
///   taking its rook (`e1h1`). `Kg1` is a king move, never castling.
/// - Chess960 ([`CastlingMode::Chess960`] positions): `O-O`, `0-0-0`... as in standard chess;
///   the king onto its own rook in any notation (`b1a1`, `Kxa1`, `Ka1`, `♔a1`, Spanish `Ra1`);
///   the king's destination (`e1g1`) only when the king moves two files or more (`f1g1` is a
///   king move).
/// - Spanish letters for the piece and the promotion (`Cf3`, `e8=D`, `e8T`): D dama, T torre,
///   A alfil, C caballo, P peón, R rey, and K, Q as in our Spanish source document; accepted in
///   both languages. `R` is tried as rook first in English and as rey first in Spanish; when
///   that reading is illegal and the other is legal, the other is taken.
/// - Figurines `♔♕♖♗♘♙♚♛♜♝♞♟`, either colour's glyph for either side.
///
/// Null moves (`--`, `Z0`) are malformed. Input longer than [`MAX_INPUT_CHARS`] characters
/// (after trimming) is refused before parsing.
///
/// ```
/// use cajitas_rules::{read_move, san, Lang, Position};
/// let pos = Position::new();
/// for text in ["Nf3", "nf3", "Cf3", "♘f3", "g1f3", "Ng1f3", "N-f3!?", " Ng1-f3 "] {
///     let m = read_move(&pos, text, Lang::En).unwrap();
///     assert_eq!(san(&pos, m), "Nf3");
/// }
/// let err = read_move(&pos, "e5", Lang::En).unwrap_err();
/// assert_eq!(err.to_string(), "No pawn can reach e5. Did you mean e4, e3 or d4?");
/// // The c-pawn is blocked: `c4` is not read as `dxc4`.
/// let pos = Position::from_fen("4k3/8/8/8/2p5/2PP4/8/4K3 w - - 0 1").unwrap();
/// let err = read_move(&pos, "c4", Lang::En).unwrap_err();
/// assert_eq!(err.suggestions[0], "dxc4");
/// ```
pub fn read_move(pos: &Position, text: &str, lang: Lang) -> Result<Move, ReadError> {
    match MoveText::parse(text, lang) {
        Ok(parsed) => parsed.to_move(pos),
        Err(problem) => {
            let suggestions = match problem {
                Malformed::Empty | Malformed::TooLong { .. } | Malformed::NullMove => Vec::new(),
                _ => {
                    let legal = pos.legal_moves();
                    let hint = destination_hint(text).map(|to| {
                        Reading::Move(Pattern {
                            role: None,
                            from_file: None,
                            from_rank: None,
                            capture: false,
                            to,
                            promotion: None,
                            piece_letter: false,
                        })
                    });
                    suggest(&legal, &sans_of(&legal), text.trim(), hint.as_slice())
                }
            };
            Err(ReadError {
                kind: ReadErrorKind::Malformed { problem },
                suggestions,
            })
        }
    }
}

/// The last square name (`f3`) in a malformed text, to rank suggestions by.
fn destination_hint(text: &str) -> Option<Square> {
    let chars: Vec<char> = text.chars().collect();
    chars.windows(2).rev().find_map(|w| {
        Some(Square::from_coords(
            File::from_char(w[0])?,
            Rank::from_char(w[1])?,
        ))
    })
}

/// How a legal move relates to a reading.
#[derive(PartialEq, Eq)]
enum Match {
    No,
    Exact,
    /// Everything matches, but the move promotes and the text named no piece.
    NeedsPromotion,
}

fn match_reading(reading: &Reading, m: Move, mode: CastlingMode) -> Match {
    let p = match reading {
        Reading::Castle(side) => {
            return if m.castling_side() == Some(*side) {
                Match::Exact
            } else {
                Match::No
            };
        }
        Reading::Move(p) => p,
    };
    if let Move::Castle { king, rook } = m {
        // Coordinates (no piece letter) castle: `e1g1`, `e1h1`. `Kg1` never does. In
        // Chess960 the king's destination form only counts when the king moves at least two
        // files (a one-step `f1g1` is the king's own move there), and the king named onto
        // its own rook (`Kh1`, `Kxh1`, `♔h1`, `Rh1` in Spanish) castles too: no king move
        // ever lands on its own piece.
        let coordinates = p.role.is_none()
            && p.from() == Some(king)
            && (p.to == rook
                || (p.to == m.to()
                    && (mode == CastlingMode::Standard || king.distance(p.to) >= 2)));
        let king_onto_rook = mode == CastlingMode::Chess960
            && p.role == Some(Role::King)
            && p.to == rook
            && p.from_file.is_none_or(|f| f == king.file())
            && p.from_rank.is_none_or(|r| r == king.rank());
        return if p.promotion.is_none() && (coordinates || king_onto_rook) {
            Match::Exact
        } else {
            Match::No
        };
    }
    let from = m.from();
    if p.to != m.to()
        || p.role.is_some_and(|r| r != m.role())
        || p.from_file.is_some_and(|f| f != from.file())
        || p.from_rank.is_some_and(|r| r != from.rank())
        || is_capture_without_file(p, m)
    {
        return Match::No;
    }
    if p.promotion == m.promotion() {
        Match::Exact
    } else if p.promotion.is_none() {
        Match::NeedsPromotion
    } else {
        Match::No
    }
}

/// Whether `m` is a pawn capture and `p` names no origin file: `c4` (or `xc4`, `Pc4`) is a
/// pawn going straight to c4, never `dxc4` nor an en passant capture, as SAN has it.
pub(super) fn is_capture_without_file(p: &Pattern, m: Move) -> bool {
    m.role() == Role::Pawn && p.from_file.is_none() && m.from().file() != m.to().file()
}

/// How close a legal move is to the readings: 0 for the same piece to the same destination,
/// 1 for the same piece, 2 otherwise; and the king-step distance between its destination and
/// the one typed (0 when unknown).
fn closeness(readings: &[Reading], m: Move) -> (u8, u32) {
    let mut best: Option<(u8, u32)> = None;
    for reading in readings {
        let (same_piece, to) = match reading {
            Reading::Castle(side) => (m.is_castle(), m.castling_side() == Some(*side)),
            Reading::Move(p) => (
                match p.role {
                    Some(role) => m.role() == role,
                    None => p.from() == Some(m.from()),
                },
                m.to() == p.to,
            ),
        };
        let square_distance = match reading {
            Reading::Move(p) => p.to.distance(m.to()),
            Reading::Castle(_) => 0,
        };
        let group = match (same_piece, to) {
            (true, true) => 0,
            (true, false) => 1,
            _ => 2,
        };
        let this = (group, square_distance);
        best = Some(best.map_or(this, |b| b.min(this)));
    }
    best.unwrap_or((2, 0))
}

fn sans_of(legal: &[Move]) -> Vec<San> {
    sans_of_among(legal, legal)
}

/// The SAN of each of `moves`, disambiguated against `legal`.
fn sans_of_among(moves: &[Move], legal: &[Move]) -> Vec<San> {
    moves
        .iter()
        .map(|&m| San::from_move_among(m, legal))
        .collect()
}

/// Levenshtein distance between two short strings, ignoring case.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().flat_map(char::to_lowercase).collect();
    let b: Vec<char> = b.chars().flat_map(char::to_lowercase).collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (diagonal + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// Up to three legal moves, ranked as [`ReadError`] documents.
fn suggest(legal: &[Move], sans: &[San], typed: &str, readings: &[Reading]) -> Vec<San> {
    let limit = 2.max(typed.chars().count() / 2);
    let promotion_order = |m: &Move| match m.promotion() {
        Some(Role::Rook) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Knight) => 3,
        _ => 0,
    };
    let mut ranked: Vec<(u8, usize, u32, u8, String, San)> = legal
        .iter()
        .zip(sans)
        .filter_map(|(m, &san)| {
            let (group, square_distance) = closeness(readings, *m);
            let text = san.to_string();
            let distance = edit_distance(typed, &text);
            (group == 0 || distance <= limit).then_some((
                group,
                distance,
                square_distance,
                promotion_order(m),
                text,
                san,
            ))
        })
        .collect();
    // The English text last breaks ties; two legal moves never share it.
    ranked.sort_by(|a, b| (a.0, a.1, a.2, a.3, &a.4).cmp(&(b.0, b.1, b.2, b.3, &b.4)));
    ranked.into_iter().take(3).map(|r| r.5).collect()
}

impl MoveText {
    /// The legal move this text means in `pos`: the readings are tried in order and the first
    /// that matches any legal move decides (one move: that move; several: ambiguous; only
    /// promotions while no piece was named: incomplete promotion). When none matches, the
    /// error explains the first reading.
    ///
    /// ```
    /// use cajitas_rules::{Lang, MoveText, Position, Role};
    /// let pos = Position::new();
    /// let m = MoveText::parse("e2e4", Lang::En).unwrap().to_move(&pos).unwrap();
    /// assert_eq!(m.role(), Role::Pawn);
    /// ```
    pub fn to_move(&self, pos: &Position) -> Result<Move, ReadError> {
        let legal = pos.legal_moves();
        for reading in &self.readings {
            let mut exact = Vec::new();
            let mut unpromoted = Vec::new();
            for &m in legal.iter() {
                match match_reading(reading, m, pos.castling_mode()) {
                    Match::Exact => exact.push(m),
                    Match::NeedsPromotion => unpromoted.push(m),
                    Match::No => {}
                }
            }
            match (exact.as_slice(), unpromoted.first()) {
                ([m], _) => return Ok(*m),
                ([], None) => continue,
                ([], Some(first))
                    if unpromoted
                        .iter()
                        .all(|m| m.from() == first.from() && m.to() == first.to()) =>
                {
                    let mut choices: Vec<Role> = Role::PROMOTIONS
                        .into_iter()
                        .filter(|r| unpromoted.iter().any(|m| m.promotion() == Some(*r)))
                        .collect();
                    choices.dedup();
                    let kind = ReadErrorKind::IncompletePromotion {
                        to: first.to(),
                        choices,
                    };
                    return Err(self.error_among(kind, &unpromoted, &legal));
                }
                _ => {
                    let matched = if exact.is_empty() {
                        &unpromoted
                    } else {
                        &exact
                    };
                    let mut candidates: Vec<San> = matched
                        .iter()
                        .map(|&m| San::from_move_among(m, &legal))
                        .collect();
                    candidates.sort_by_cached_key(San::to_string);
                    let kind = ReadErrorKind::Ambiguous { candidates };
                    return Err(self.error_among(kind, matched, &legal));
                }
            }
        }
        let reason = explain::explain(pos, &legal, &self.readings[0]);
        Err(self.error(ReadErrorKind::Illegal { reason }, &legal))
    }

    fn error(&self, kind: ReadErrorKind, legal: &[Move]) -> ReadError {
        ReadError {
            kind,
            suggestions: suggest(legal, &sans_of(legal), &self.canonical, &self.readings),
        }
    }

    /// An error whose suggestions are only the `matched` moves (the candidates of an
    /// ambiguity, the choices of a promotion), ranked the same way.
    fn error_among(&self, kind: ReadErrorKind, matched: &[Move], legal: &[Move]) -> ReadError {
        let sans = sans_of_among(matched, legal);
        ReadError {
            kind,
            suggestions: suggest(matched, &sans, &self.canonical, &self.readings),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::edit_distance;

    #[test]
    fn levenshtein() {
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("Nf4", "nf3"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("e4", ""), 2);
        assert_eq!(edit_distance("O-O", "O-O-O"), 2);
    }
}
