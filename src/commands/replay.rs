//! `cajitas replay [FILE] [--fen FEN] [--chess960] [--lang en|es]`: plays PGN (one game or many) or bare
//! move text (one game) and prints one JSON line per game describing how it stands (the
//! FIDE draw statuses and the draws the player to move could claim included), or where and
//! why a move failed.
//!
//! The work is a function from input text to per-game results ([`replay_each`], [`replay`]),
//! then printing ([`run`]), one line as soon as each game is done.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use cajitas_rules::{Game, Lang, Outcome, Position, pgn, read_move};
use serde::Serialize;

use crate::files::{read_capped, read_file_capped};

/// The largest input read, in bytes.
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// Flags of `cajitas replay`.
#[derive(Debug, Clone, clap::Args)]
pub struct ReplayArgs {
    /// The move text to read; standard input when omitted.
    pub file: Option<PathBuf>,
    /// Start from this FEN instead of the initial position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Play Chess960: the start position (`--fen`, or the initial one) read in Chess960
    /// mode, castling by the 960 rule (`O-O`, or the king onto its own rook). Implied by
    /// Shredder-FEN castling letters; a PGN game's `[Variant "Chess960"]` says it by itself.
    #[arg(long)]
    pub chess960: bool,
    /// The language of the error messages, and which piece letters come first in bare move
    /// text (`R` is a rook in English, a king in Spanish). PGN is always read as standard
    /// (English) SAN.
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
        /// `ongoing`, `checkmate`, `stalemate`, `dead-position`, `fivefold-repetition` or
        /// `seventy-five-moves`.
        status: &'static str,
        /// `white` or `black` after a checkmate.
        winner: Option<&'static str>,
        /// What the player to move could claim now or with one of their legal moves:
        /// `threefold-repetition`, `fifty-moves`.
        claimable: Vec<&'static str>,
        /// Every move in standard SAN, with `+` and `#`.
        san: Vec<String>,
        /// How many plies were played.
        plies: usize,
        /// The opening in lichess's table (`{"eco":"C50","name":"Italian Game"}`), or
        /// `null`: a game from a setup, or one that never reached a named position.
        opening: Option<crate::openings::Opening>,
    },
    /// A move could not be played.
    Failed {
        /// The game's index in the input, from 0.
        game: usize,
        /// Why, as a player would be told.
        error: String,
        /// How many plies were played before the failing move.
        ply: usize,
        /// The token that failed, capped as error messages cap it ([`pgn::echo`]).
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
    if is_result(token) {
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

/// The report of a game that replayed: its automatic ending (if any) and its claims.
fn played(index: usize, game: &Game) -> GameReport {
    let (status, winner) = match game.outcome() {
        None => ("ongoing", None),
        Some(Outcome::Decisive { winner, reason }) => (reason.as_str(), Some(winner.name())),
        Some(Outcome::Draw { reason }) => (reason.as_str(), None),
    };
    GameReport::Played {
        game: index,
        fen: game.position().fen(),
        status,
        winner,
        claimable: game.claimable().iter().map(|c| c.as_str()).collect(),
        san: game.sans().iter().map(ToString::to_string).collect(),
        plies: game.ply(),
        opening: crate::openings::of_game(game.start(), game.moves()).map(|f| f.opening),
    }
}

/// Plays bare move text (one game) from `start`. A move after the game ended by itself
/// (mate, stalemate, dead position, fivefold repetition, 75 moves) fails.
pub fn replay_moves(index: usize, text: &str, start: &Position, lang: Lang) -> GameReport {
    let mut game = Game::from_position(start.clone());
    for token in text.split_whitespace().filter_map(move_token) {
        let played = match game.outcome() {
            Some(o) => Err(crate::i18n::cli::game_over(lang, o)),
            None => read_move(game.position(), token, lang)
                .map_err(|e| crate::i18n::read_error(lang, &e))
                .and_then(|m| {
                    game.try_play(m)
                        .map_err(|e| crate::i18n::cli::play_error(lang, &e))
                }),
        };
        if let Err(error) = played {
            return GameReport::Failed {
                game: index,
                error,
                ply: game.ply(),
                input: pgn::echo(token),
            };
        }
    }
    played(index, &game)
}

/// Whether a token is a game termination marker.
fn is_result(token: &str) -> bool {
    matches!(token, "1-0" | "0-1" | "1/2-1/2" | "\u{00BD}-\u{00BD}" | "*")
}

/// Whether the input is PGN rather than bare move text: it has a tag pair, a comment, a
/// variation, a NAG or an escape line, none of which bare move text has, or a result
/// followed by more movetext (PGN games without tag pairs, one after the other).
fn looks_like_pgn(text: &str) -> bool {
    text.lines().any(|line| {
        let line = line.trim_start_matches('\u{feff}').trim_start();
        line.starts_with('[') || line.starts_with('%')
    }) || text.contains(['{', '}', '(', ')', ';', '$'])
        || text
            .split_whitespace()
            .skip_while(|t| !is_result(t))
            .skip(1)
            .any(|t| !is_result(t))
}

/// Replays the whole input, handing each game's report to `each` as soon as it is done:
/// every game of a PGN text (games without a FEN tag start from `start`), or bare move text
/// as one game. A failing game does not stop the next ones. PGN movetext is standard SAN,
/// read in English whatever `lang` is; `lang` is the language of the errors, and of the
/// piece letters of bare move text.
pub fn replay_each(input: &str, start: &Position, lang: Lang, mut each: impl FnMut(GameReport)) {
    let input = input.strip_prefix('\u{feff}').unwrap_or(input);
    if !looks_like_pgn(input) {
        each(replay_moves(0, input, start, lang));
        return;
    }
    let games = match pgn::read_games(input, Lang::En) {
        Ok(games) => games,
        Err(e) => {
            each(GameReport::Failed {
                game: 0,
                error: crate::i18n::cli::pgn_error(lang, &e),
                ply: e.ply,
                input: pgn::echo(&e.input),
            });
            return;
        }
    };
    let mut count = 0;
    for (index, read) in games.starting_from(start.clone()).enumerate() {
        count += 1;
        each(match read {
            Ok(g) => played(index, &g.game),
            Err(e) => GameReport::Failed {
                game: index,
                error: crate::i18n::cli::pgn_error(lang, &e),
                ply: e.ply,
                input: pgn::echo(&e.input),
            },
        });
    }
    if count == 0 {
        // Only comments or tags with nothing else: the start position, as for empty text.
        each(played(0, &Game::from_position(start.clone())));
    }
}

/// Replays the whole input and collects the reports (see [`replay_each`]).
pub fn replay(input: &str, start: &Position, lang: Lang) -> Vec<GameReport> {
    let mut reports = Vec::new();
    replay_each(input, start, lang, |r| reports.push(r));
    reports
}

fn read_input(file: Option<&PathBuf>) -> Result<String, String> {
    let bytes = match file {
        Some(path) => read_file_capped(path, MAX_INPUT_BYTES)
            .map_err(|e| format!("cannot read {}: {e}", path.display())),
        None => read_capped(std::io::stdin().lock(), MAX_INPUT_BYTES)
            .map_err(|e| format!("cannot read standard input: {e}")),
    }?;
    // UTF-8, or Latin-1 as older PGN files are.
    Ok(pgn::decode(&bytes).into_owned())
}

/// Runs `cajitas replay`: exit 0 when every game replayed, 1 when a game failed (the other
/// games are still replayed and printed), 2 when the input or the FEN cannot be read.
pub fn run(args: &ReplayArgs) -> ExitCode {
    let start = match super::start_position(args.fen.as_deref(), args.chess960) {
        Ok(pos) => pos,
        Err(code) => return code,
    };
    let input = match read_input(args.file.as_ref()) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut all_ok = true;
    replay_each(&input, &start, args.lang.into(), |report| {
        all_ok &= report.is_ok();
        // A report always serializes (strings and numbers only); a write that fails ends
        // the process, quietly when the reader went away (`| head -1`).
        let line = serde_json::to_string(&report).unwrap_or_default();
        if let Err(e) = writeln!(out, "{line}") {
            super::stdout_failed(&e);
        }
    });
    if let Err(e) = out.flush() {
        super::stdout_failed(&e);
    }
    if all_ok {
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
            r#"{"game":0,"fen":"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3","status":"checkmate","winner":"black","claimable":[],"san":["f3","e5","g4","Qh4#"],"plies":4,"opening":{"eco":"A00","name":"Barnes Opening: Fool's Mate"}}"#
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

    #[test]
    fn pgn_or_bare_text() {
        assert!(looks_like_pgn("[Event \"x\"]\n1. e4 *"));
        assert!(looks_like_pgn("\u{feff}[Event \"x\"]"));
        assert!(looks_like_pgn("1. e4 {comment} e5"));
        assert!(looks_like_pgn("1. e4 (1. d4) e5"));
        assert!(looks_like_pgn("1. e4 $1 e5"));
        assert!(!looks_like_pgn("1. e4 e5 2. Nf3 1-0"));
        assert!(!looks_like_pgn("e2e4 e7e5 exd6 e.p."));
        assert!(looks_like_pgn("1. e4 e5 *\n\n1. d4 d5 *"));
        assert!(!looks_like_pgn("1. e4 e5 * "));
        assert!(!looks_like_pgn("1. e4 e5 1-0 *"));
    }

    #[test]
    fn several_pgn_games_and_claims() {
        let text = "[Event \"a\"]\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 *\n\n\
                    [Event \"b\"]\n1. e4 e5 2. Ke3 *\n";
        let r = replay(text, &Position::new(), Lang::En);
        assert_eq!(r.len(), 2);
        match &r[0] {
            GameReport::Played {
                claimable, plies, ..
            } => {
                assert_eq!(claimable, &["threefold-repetition"]);
                assert_eq!(*plies, 7);
            }
            other => panic!("{other:?}"),
        }
        match &r[1] {
            GameReport::Failed {
                game, ply, input, ..
            } => assert_eq!((*game, *ply, input.as_str()), (1, 2, "Ke3")),
            other => panic!("{other:?}"),
        }
    }
}
