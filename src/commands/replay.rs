//! `cajitas replay [FILE] [--fen FEN] [--lang en|es]`: plays bare move text (one game) and
//! prints one JSON line describing how the game stands, or where and why a move failed.
//!
//! The work is a function from input text to per-game results ([`replay`]), then printing
//! ([`run`]), so PGN input with several games can be added without touching the printing.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use cajitas_rules::{Color, Lang, Position, read_move, san};
use serde::Serialize;

/// The largest input read, in bytes.
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// The longest `input` token echoed back in an error line, in characters.
const MAX_ECHO_CHARS: usize = 64;

/// Flags of `cajitas replay`.
#[derive(Debug, Clone, clap::Args)]
pub struct ReplayArgs {
    /// The move text to read; standard input when omitted.
    pub file: Option<PathBuf>,
    /// Start from this FEN instead of the initial position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Which language's piece letters come first (`R` is a rook in English, a king in Spanish).
    #[arg(long, value_enum, default_value_t = LangArg::En)]
    pub lang: LangArg,
}

/// `--lang`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LangArg {
    /// English.
    En,
    /// Spanish.
    Es,
}

impl From<LangArg> for Lang {
    fn from(l: LangArg) -> Lang {
        match l {
            LangArg::En => Lang::En,
            LangArg::Es => Lang::Es,
        }
    }
}

/// One game's result: one JSON line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum GameReport {
    /// Every move was played.
    Played {
        /// The game's index in the input, from 0.
        game: usize,
        /// The final position.
        fen: String,
        /// `ongoing`, `checkmate`, `stalemate` or `dead-position`.
        status: &'static str,
        /// `white` or `black` after a checkmate.
        winner: Option<&'static str>,
        /// What the player to move could claim (filled in by the draw layer).
        claimable: Vec<&'static str>,
        /// Every move in standard SAN, with `+` and `#`.
        san: Vec<String>,
        /// How many plies were played.
        plies: usize,
    },
    /// A move could not be played.
    Failed {
        /// The game's index in the input, from 0.
        game: usize,
        /// Why, as a player would be told.
        error: String,
        /// How many plies were played before the failing move.
        ply: usize,
        /// The token that failed.
        input: String,
    },
}

impl GameReport {
    /// Whether the game replayed without error.
    pub fn is_ok(&self) -> bool {
        matches!(self, GameReport::Played { .. })
    }
}

/// Whether a token is a move number (`1.`, `1...`), a result or a separate `e.p.`; a move
/// number glued to a move (`12.e4`) gives the move back.
fn move_token(token: &str) -> Option<&str> {
    if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "\u{00BD}-\u{00BD}" | "*") {
        return None;
    }
    if matches!(
        token.to_ascii_lowercase().as_str(),
        "e.p." | "e.p" | "ep." | "ep"
    ) {
        return None;
    }
    let rest = token.trim_start_matches(|c: char| c.is_ascii_digit());
    if rest.len() < token.len() && rest.starts_with(['.', '\u{2026}']) {
        let rest = rest.trim_start_matches(['.', '\u{2026}']);
        return (!rest.is_empty()).then_some(rest);
    }
    Some(token)
}

fn status_of(pos: &Position) -> (&'static str, Option<&'static str>) {
    if pos.is_checkmate() {
        let winner = match pos.turn() {
            Color::White => "black",
            Color::Black => "white",
        };
        ("checkmate", Some(winner))
    } else if pos.is_stalemate() {
        ("stalemate", None)
    } else if pos.has_insufficient_material() {
        ("dead-position", None)
    } else {
        ("ongoing", None)
    }
}

/// Plays bare move text (one game) from `start`.
pub fn replay_moves(game: usize, text: &str, start: &Position, lang: Lang) -> GameReport {
    let mut pos = start.clone();
    let mut sans = Vec::new();
    for token in text.split_whitespace().filter_map(move_token) {
        match read_move(&pos, token, lang) {
            Ok(m) => {
                sans.push(san(&pos, m));
                pos.play(m);
            }
            Err(e) => {
                let mut input: String = token.chars().take(MAX_ECHO_CHARS).collect();
                if input.len() < token.len() {
                    input.push('\u{2026}');
                }
                return GameReport::Failed {
                    game,
                    error: e.to_string(),
                    ply: sans.len(),
                    input,
                };
            }
        }
    }
    let (status, winner) = status_of(&pos);
    GameReport::Played {
        game,
        fen: pos.fen(),
        status,
        winner,
        claimable: Vec::new(),
        plies: sans.len(),
        san: sans,
    }
}

/// Replays the whole input: today one game of bare move text.
pub fn replay(input: &str, start: &Position, lang: Lang) -> Vec<GameReport> {
    vec![replay_moves(0, input, start, lang)]
}

fn read_input(file: Option<&PathBuf>) -> Result<String, String> {
    let mut bytes = Vec::new();
    let result = match file {
        Some(path) => std::fs::File::open(path)
            .and_then(|f| f.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes))
            .map_err(|e| format!("cannot read {}: {e}", path.display())),
        None => std::io::stdin()
            .lock()
            .take(MAX_INPUT_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read standard input: {e}")),
    };
    result?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(format!(
            "the input is larger than {} MiB",
            MAX_INPUT_BYTES >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|e| format!("the input is not UTF-8 text: {e}"))
}

/// Runs `cajitas replay`: exit 0 when every game replayed, 1 when a move failed, 2 when the
/// input or the FEN cannot be read.
pub fn run(args: &ReplayArgs) -> ExitCode {
    let start = match &args.fen {
        None => Position::new(),
        Some(fen) => match Position::from_fen(fen) {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let input = match read_input(args.file.as_ref()) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let reports = replay(&input, &start, args.lang.into());
    for report in &reports {
        match serde_json::to_string(report) {
            Ok(line) => println!("{line}"),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    }
    if reports.iter().all(GameReport::is_ok) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        assert_eq!(move_token("1."), None);
        assert_eq!(move_token("1..."), None);
        assert_eq!(move_token("12.e4"), Some("e4"));
        assert_eq!(move_token("3...Nf6"), Some("Nf6"));
        assert_eq!(move_token("1-0"), None);
        assert_eq!(move_token("1/2-1/2"), None);
        assert_eq!(move_token("*"), None);
        assert_eq!(move_token("e.p."), None);
        assert_eq!(move_token("ep"), None);
        assert_eq!(move_token("0-0"), Some("0-0"));
        assert_eq!(move_token("e4"), Some("e4"));
    }

    #[test]
    fn fools_mate() {
        let r = replay("1. f3 e5 2. g4 Qh4# 0-1", &Position::new(), Lang::En);
        let json = serde_json::to_string(&r[0]).unwrap();
        assert_eq!(
            json,
            r#"{"game":0,"fen":"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3","status":"checkmate","winner":"black","claimable":[],"san":["f3","e5","g4","Qh4#"],"plies":4}"#
        );
    }

    #[test]
    fn failure_names_the_ply_and_token() {
        let r = replay("e4 e5 Nf4", &Position::new(), Lang::En);
        assert_eq!(
            r[0],
            GameReport::Failed {
                game: 0,
                error: "No knight can reach f4. Did you mean Nf3, Ne2 or Nh3?".into(),
                ply: 2,
                input: "Nf4".into(),
            }
        );
    }
}
