//! PGN export in the shape lichess (and every other importer) reads.

use std::fmt::Write as _;

use super::PgnResult;
use crate::game::Game;
use crate::outcome::{DrawReason, Outcome, WinReason};
use crate::{Color, Position, san};

/// The tags the application fills in. The rest of the Seven Tag Roster (Result), the
/// Termination tag, FEN/SetUp for games not from the initial position, and Variant
/// "Chess960" with SetUp/FEN (X-FEN, even for #518) for a Chess960 game are written from
/// the game itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tags {
    /// The event, e.g. "Casual game" (`?` when unknown).
    pub event: String,
    /// Where: e.g. "Discord, #chess" (`?` when unknown).
    pub site: String,
    /// `YYYY.MM.DD`, with `??` for unknown parts (see [`Tags::date`]).
    pub date: String,
    /// The round (`?` when unknown, `-` when not applicable).
    pub round: String,
    /// White's name, "Last, First" for people if known.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// More tag pairs, written after the generated ones. Pairs whose name is not a valid
    /// PGN tag name, or that repeat a name written from the fields above or from the game
    /// (Result, Termination, FEN, SetUp), are left out.
    pub extra: Vec<(String, String)>,
}

impl Default for Tags {
    /// Every roster value unknown: `?`, and the date `????.??.??`.
    fn default() -> Tags {
        Tags {
            event: "?".into(),
            site: "?".into(),
            date: "????.??.??".into(),
            round: "?".into(),
            white: "?".into(),
            black: "?".into(),
            extra: Vec::new(),
        }
    }
}

impl Tags {
    /// A PGN date, `YYYY.MM.DD`.
    ///
    /// ```
    /// assert_eq!(cajitas_rules::pgn::Tags::date(2026, 11, 29), "2026.11.29");
    /// ```
    pub fn date(year: u32, month: u32, day: u32) -> String {
        format!("{year:04}.{month:02}.{day:02}")
    }
}

/// The Termination tag's value, as lichess writes it.
fn termination(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        None => "Unterminated",
        Some(Outcome::Decisive {
            reason: WinReason::Timeout,
            ..
        })
        | Some(Outcome::Draw {
            reason: DrawReason::TimeoutVsInsufficientMaterial,
        }) => "Time forfeit",
        Some(_) => "Normal",
    }
}

/// A tag value with `\` and `"` escaped and control characters (line breaks) made spaces.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

fn valid_tag_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 255
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The game's result marker: from its outcome, or `*` while it goes on.
pub(crate) fn result_of(game: &Game) -> PgnResult {
    game.outcome()
        .map_or(PgnResult::Unknown, Outcome::pgn_result)
}

/// Writes a game as PGN: tags, a blank line, the movetext with move numbers wrapped at 80
/// columns, the result, and a final newline.
///
/// ```
/// use cajitas_rules::{Game, pgn};
/// let mut game = Game::new();
/// let m = game.position().legal_moves().iter().copied()
///     .find(|m| m.to().to_string() == "e4").unwrap();
/// game.play(m);
/// let tags = pgn::Tags { white: "Ana".into(), black: "Bo \"B\"".into(), ..Default::default() };
/// let text = pgn::write_game(&game, &tags);
/// assert!(text.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
///                           [White \"Ana\"]\n[Black \"Bo \\\"B\\\"\"]\n[Result \"*\"]\n"));
/// assert!(text.ends_with("\n\n1. e4 *\n"));
/// ```
pub fn write_game(game: &Game, tags: &Tags) -> String {
    let mut out = String::new();
    let result = result_of(game);
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    };
    tag("Event", &tags.event);
    tag("Site", &tags.site);
    tag("Date", &tags.date);
    tag("Round", &tags.round);
    tag("White", &tags.white);
    tag("Black", &tags.black);
    tag("Result", &result.to_string());
    let start = game.start();
    let chess960 = start.castling_mode().is_chess960();
    if chess960 {
        tag("Variant", "Chess960");
    }
    // A Chess960 game names its start position even when it is the standard one (#518).
    let from_initial = !chess960 && start.fen() == Position::new().fen();
    if !from_initial {
        tag("SetUp", "1");
        tag("FEN", &start.fen());
    }
    tag("Termination", termination(game.outcome()));
    const WRITTEN: [&str; 11] = [
        "Event",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "Result",
        "SetUp",
        "FEN",
        "Termination",
        "Variant",
    ];
    let mut seen: Vec<&str> = Vec::new();
    for (name, value) in &tags.extra {
        if valid_tag_name(name)
            && !WRITTEN.iter().any(|w| w.eq_ignore_ascii_case(name))
            && !seen.iter().any(|s| s.eq_ignore_ascii_case(name))
        {
            seen.push(name);
            tag(name, value);
        }
    }
    out.push('\n');
    out.push_str(&movetext(game, result));
    out.push('\n');
    out
}

/// The movetext: `1. e4 e5 2. Nf3 ... 1-0`, lines at most 80 characters.
fn movetext(game: &Game, result: PgnResult) -> String {
    let mut text = String::new();
    let mut line_len = 0;
    let mut push = |token: &str| {
        if line_len > 0 && line_len + 1 + token.len() > 80 {
            text.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            text.push(' ');
            line_len += 1;
        }
        text.push_str(token);
        line_len += token.len();
    };
    let mut pos = game.start().clone();
    for (i, &m) in game.moves().iter().enumerate() {
        let number = match pos.turn() {
            Color::White => Some(format!("{}.", pos.fullmoves())),
            Color::Black if i == 0 => Some(format!("{}...", pos.fullmoves())),
            Color::Black => None,
        };
        if let Some(n) = number {
            push(&n);
        }
        push(&san(&pos, m).to_string());
        pos.play_unchecked(m);
    }
    push(&result.to_string());
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(escape("a\"b\\c\nd"), "a\\\"b\\\\c d");
    }

    #[test]
    fn tag_names() {
        assert!(valid_tag_name("WhiteElo"));
        assert!(valid_tag_name("Time_Control"));
        assert!(!valid_tag_name(""));
        assert!(!valid_tag_name("a b"));
        assert!(!valid_tag_name("x\"]"));
    }
}
