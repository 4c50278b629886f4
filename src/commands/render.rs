//! `cajitas render`: FEN positions to PNG files, or a game to an animated GIF
//! (`--gif FILE` with `--pgn FILE` or `--moves "…"`).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::str::FromStr;

use cajitas_rules::{Color, Game, Lang, Position, Square, pgn, read_move};

use crate::files::{read_file_capped, write_replacing};

use crate::render::gif::{GifCaption, GifOptions};
use crate::render::{
    DEFAULT_SIZE, DEFAULT_THEME, Highlights, Orientation, PieceSource, RenderOptions, Renderer,
    clamp_size, view::check_square,
};

/// Longest FEN accepted (a real one is under 100 characters).
const MAX_FEN_LEN: usize = 256;
/// Largest `--fens` file accepted.
const MAX_FENS_FILE: u64 = 64 << 20;

/// Which side is at the bottom: `auto` is the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OrientationArg {
    /// White at the bottom.
    White,
    /// Black at the bottom.
    Black,
    /// The side to move at the bottom (what the bot shows).
    Auto,
}

/// Flags of `cajitas render`.
#[derive(Debug, Clone, clap::Args)]
#[command(group(clap::ArgGroup::new("dest").required(true).args(["output", "out", "gif"])))]
#[command(group(clap::ArgGroup::new("game").args(["pgn", "moves"]).requires("gif")))]
pub struct RenderArgs {
    /// A position in FEN (quote it); repeat the flag for several boards. Without --fen and
    /// --fens, the initial position is drawn.
    #[arg(long = "fen", value_name = "FEN")]
    pub fens: Vec<String>,
    /// A file with one FEN per line; blank lines are skipped.
    #[arg(long = "fens", value_name = "FILE")]
    pub fens_file: Option<PathBuf>,
    /// Tint the two squares of this move, in UCI (e.g. e2e4, e7e8q); applies to every board.
    #[arg(long, value_name = "UCI")]
    pub last_move: Option<String>,
    /// Which side is at the bottom; `auto` is the side to move.
    #[arg(long, value_enum, default_value = "white")]
    pub orientation: OrientationArg,
    /// Board side in pixels, 128 to 1024 (other values are clamped, with a note).
    #[arg(long, default_value_t = u64::from(DEFAULT_SIZE))]
    pub size: u64,
    /// Board theme: brown, blue or green.
    #[arg(long, default_value = DEFAULT_THEME)]
    pub theme: String,
    /// The pieces: a built-in set, cajitas (our own drawings) or dejavu (the DejaVu Sans
    /// glyphs), or a folder with 12 piece SVGs (wK.svg … bP.svg); write ./dejavu for a folder
    /// of that name [default: CAJITAS_PIECES when set and not empty, else cajitas].
    #[arg(long, value_name = "SET|DIR")]
    pub pieces: Option<PathBuf>,
    /// Write the (single) board to this PNG file.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write the boards to this folder as 0000.png, 0001.png, …
    #[arg(long = "out", value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Write the game given by --pgn or --moves to this file as an animated GIF: one frame
    /// per position, from White's side, the names and the result on the last frame.
    #[arg(long, value_name = "FILE", requires = "game")]
    pub gif: Option<PathBuf>,
    /// With --gif: a PGN file; its first game is drawn.
    #[arg(long, value_name = "FILE", requires = "gif")]
    pub pgn: Option<PathBuf>,
    /// With --gif: the moves from the initial position, in any notation the bot reads
    /// (e.g. "e4 e5 Nf3"), separated by spaces.
    #[arg(long, value_name = "MOVES", requires = "gif")]
    pub moves: Option<String>,
    /// With --gif: the language of the names and result line, of the error messages, and of
    /// the piece letters of --moves (`R` is a rook in English, a king in Spanish). A --pgn
    /// file is always read as standard (English) SAN.
    #[arg(long, value_enum, default_value_t = crate::commands::replay::LangArg::En)]
    pub lang: crate::commands::replay::LangArg,
}

/// A user error: the message, and exit code 2.
struct Usage(String);

/// Runs `cajitas render`; exit code 0, 1 (cannot write) or 2 (bad input). `settings` gives
/// the default of `--pieces` (`CAJITAS_PIECES`).
pub fn run(args: RenderArgs, settings: &crate::config::Settings) -> ExitCode {
    match run_inner(&args, settings.pieces.as_deref()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Io(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}

enum Failure {
    Usage(String),
    Io(String),
}

impl From<Usage> for Failure {
    fn from(u: Usage) -> Self {
        Failure::Usage(u.0)
    }
}

/// One position to draw, with where it came from (for messages).
struct Input {
    origin: String,
    fen: String,
}

fn run_inner(args: &RenderArgs, env_pieces: Option<&OsStr>) -> Result<(), Failure> {
    if let Some(path) = &args.gif {
        return run_gif(args, path, env_pieces);
    }
    if args.pgn.is_some() || args.moves.is_some() {
        return Err(Failure::Usage(
            "--pgn and --moves draw a game: give --gif FILE to write it".to_string(),
        ));
    }
    let inputs = collect_inputs(args)?;
    // Check everything before drawing anything: a bad line writes no file.
    let positions = inputs
        .iter()
        .map(|i| parse_fen(i).map_err(Failure::from))
        .collect::<Result<Vec<Position>, Failure>>()?;
    let last_move = args
        .last_move
        .as_deref()
        .map(parse_uci_squares)
        .transpose()?;
    let clamped = clamp_size(args.size);
    if let Some(note) = &clamped.note {
        eprintln!("note: {note}");
    }
    let renderer = renderer_for(args, env_pieces)?;
    renderer
        .theme(&args.theme)
        .map_err(|e| Usage(e.to_string()))?;
    let targets = output_paths(args, positions.len())?;
    for (pos, path) in positions.iter().zip(&targets) {
        let orientation = match args.orientation {
            OrientationArg::White => Orientation::White,
            OrientationArg::Black => Orientation::Black,
            OrientationArg::Auto => match pos.turn() {
                Color::White => Orientation::White,
                Color::Black => Orientation::Black,
            },
        };
        let options = RenderOptions {
            size: clamped.size,
            orientation,
            theme: args.theme.clone(),
        };
        let highlights = Highlights {
            last_move,
            castle_rook: None,
            check: check_square(pos),
        };
        let png = renderer
            .render(&pos.into(), &highlights, &options)
            .map_err(|e| Failure::Usage(e.to_string()))?;
        // In --out DIR the names are ours: replace them (never write through a symlink planted
        // there). -o FILE is the user's own path, `-o /dev/stdout` included: write to it.
        let written = if args.out.is_some() {
            write_replacing(path, &png)
        } else {
            std::fs::write(path, png)
        };
        match written {
            Ok(()) => {}
            // `-o /dev/stdout` (or a FIFO) whose reader went away: end quietly, as every
            // command does on a closed pipe.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => super::stdout_failed(&e),
            Err(e) => {
                return Err(Failure::Io(format!("cannot write {}: {e}", path.display())));
            }
        }
    }
    match (&args.output, &args.out) {
        (Some(file), _) => eprintln!("wrote {}", file.display()),
        (None, Some(dir)) => eprintln!("wrote {} boards to {}", targets.len(), dir.display()),
        (None, None) => {}
    }
    Ok(())
}

/// The renderer with the pieces of `--pieces`, else of `CAJITAS_PIECES` (`env_pieces`), else
/// the default set.
fn renderer_for(args: &RenderArgs, env_pieces: Option<&OsStr>) -> Result<Renderer, Usage> {
    let (source, origin) = match &args.pieces {
        Some(p) => (PieceSource::from_setting(Some(p.as_os_str())), "--pieces"),
        None => (
            PieceSource::from_setting(env_pieces),
            crate::config::PIECES_VAR,
        ),
    };
    Renderer::with_pieces(&source).map_err(|e| Usage(format!("{origin}: {e}")))
}

/// Largest `--pgn` file accepted.
const MAX_PGN_FILE: u64 = 16 << 20;

/// `--gif FILE`: the game from `--pgn` (first game) or `--moves`, drawn and written.
fn run_gif(args: &RenderArgs, path: &Path, env_pieces: Option<&OsStr>) -> Result<(), Failure> {
    let lang = Lang::from(args.lang);
    let unnamed = |side| crate::i18n::cli::default_name(lang, side);
    let (game, outcome, white, black) = if let Some(pgn_path) = &args.pgn {
        let cannot =
            |e: &dyn std::fmt::Display| Usage(format!("cannot read {}: {e}", pgn_path.display()));
        let bytes = read_file_capped(pgn_path, MAX_PGN_FILE).map_err(|e| cannot(&e))?;
        let text = pgn::decode(&bytes);
        // A PGN file's movetext is standard (English) SAN, whatever --lang says: `R` is a
        // rook there. --lang is the language of what is printed.
        let read = pgn::read_game(&text, Lang::En).map_err(|e| {
            Usage(format!(
                "{}: {}",
                pgn_path.display(),
                crate::i18n::cli::pgn_error(lang, &e)
            ))
        })?;
        let name = |tag: &str, side: Color| {
            read.tag(tag)
                .filter(|n| !n.trim().is_empty() && *n != "?")
                .map_or_else(|| unnamed(side), str::to_string)
        };
        let (white, black) = (name("White", Color::White), name("Black", Color::Black));
        (read.game.clone(), read.outcome(), white, black)
    } else if let Some(text) = &args.moves {
        let mut game = Game::new();
        for (i, word) in text.split_whitespace().enumerate() {
            // Move numbers ("1.", "12...") are skipped.
            if word
                .trim_end_matches('.')
                .chars()
                .all(|c| c.is_ascii_digit())
            {
                continue;
            }
            let refused = |reason: String| {
                Usage(crate::tr!(
                    lang,
                    "cli-moves-error",
                    number = (i + 1).to_string(),
                    input = cajitas_rules::pgn::echo(word),
                    reason = reason
                ))
            };
            // After the game ended by itself (mate, stalemate, a fivefold repetition, the
            // 75-move rule, a dead position) no move is played: said, not a panic.
            if let Some(o) = game.outcome() {
                return Err(refused(crate::i18n::cli::game_over(lang, o)).into());
            }
            let m = read_move(game.position(), word, lang)
                .map_err(|e| refused(crate::i18n::read_error(lang, &e)))?;
            game.try_play(m)
                .map_err(|e| refused(crate::i18n::cli::play_error(lang, &e)))?;
        }
        let outcome = game.outcome();
        (game, outcome, unnamed(Color::White), unnamed(Color::Black))
    } else {
        return Err(Failure::Usage(
            "--gif needs a game: give --pgn FILE or --moves \"…\"".to_string(),
        ));
    };
    let clamped = clamp_size(args.size);
    if let Some(note) = &clamped.note {
        eprintln!("note: {note}");
    }
    let renderer = renderer_for(args, env_pieces)?;
    let options = GifOptions {
        size: clamped.size,
        theme: args.theme.clone(),
        ..GifOptions::default()
    };
    let caption = GifCaption {
        white,
        black,
        outcome,
        lang,
        opening: crate::openings::of_game(game.start(), game.moves())
            .map(|found| found.opening.name.to_owned()),
    };
    let bytes = renderer
        .game_gif(&game, &caption, &options)
        .map_err(|e| Failure::Usage(e.to_string()))?;
    write_replacing(path, &bytes)
        .map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))?;
    eprintln!(
        "wrote {} ({} frames, {} bytes)",
        path.display(),
        game.moves().len() + 1,
        bytes.len()
    );
    Ok(())
}

fn collect_inputs(args: &RenderArgs) -> Result<Vec<Input>, Usage> {
    let mut inputs: Vec<Input> = args
        .fens
        .iter()
        .enumerate()
        .map(|(i, fen)| Input {
            origin: format!("--fen #{}", i + 1),
            fen: fen.clone(),
        })
        .collect();
    if let Some(path) = &args.fens_file {
        inputs.extend(read_fens_file(path)?);
    }
    match &args.fens_file {
        // Neither --fen nor --fens: the initial position, as `perft` and `replay` start from.
        None if inputs.is_empty() => Ok(vec![Input {
            origin: "the initial position".to_string(),
            fen: Position::new().fen(),
        }]),
        Some(path) if inputs.is_empty() => Err(Usage(format!(
            "nothing to render: {} has no FEN line",
            path.display()
        ))),
        _ => Ok(inputs),
    }
}

fn read_fens_file(path: &Path) -> Result<Vec<Input>, Usage> {
    let cannot = |e: &dyn std::fmt::Display| Usage(format!("cannot read {}: {e}", path.display()));
    // Capped while reading: metadata says 0 bytes for a FIFO or /dev/zero.
    let bytes = read_file_capped(path, MAX_FENS_FILE).map_err(|e| cannot(&e))?;
    let text = String::from_utf8(bytes).map_err(|_| cannot(&"it is not UTF-8 text"))?;
    Ok(text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(n, line)| Input {
            origin: format!("{} line {}", path.display(), n + 1),
            fen: line.trim().to_string(),
        })
        .collect())
}

fn parse_fen(input: &Input) -> Result<Position, Usage> {
    if input.fen.chars().count() > MAX_FEN_LEN {
        return Err(Usage(format!(
            "{}: not a FEN (longer than {MAX_FEN_LEN} characters)",
            input.origin
        )));
    }
    Position::from_fen(&input.fen).map_err(|e| {
        Usage(format!(
            "{}: bad FEN {:?}: {e}",
            input.origin,
            input.fen.as_str()
        ))
    })
}

/// The two squares of a UCI move (`e2e4`, `e7e8q`); the promotion letter is checked but
/// not needed to draw the tint.
fn parse_uci_squares(text: &str) -> Result<(Square, Square), Usage> {
    let bad = |why: &str| {
        let shown: String = text.chars().take(16).collect();
        Usage(format!(
            "--last-move {shown:?}: {why} (expected UCI like e2e4 or e7e8q)"
        ))
    };
    if !text.is_ascii() || !(4..=5).contains(&text.len()) {
        return Err(bad("wrong length"));
    }
    let from = Square::from_str(&text[0..2]).map_err(|_| bad("bad origin square"))?;
    let to = Square::from_str(&text[2..4]).map_err(|_| bad("bad destination square"))?;
    if text.len() == 5 && !matches!(&text[4..], "q" | "r" | "b" | "n") {
        return Err(bad("bad promotion letter"));
    }
    if from == to {
        return Err(bad("origin and destination are the same square"));
    }
    Ok((from, to))
}

fn output_paths(args: &RenderArgs, n: usize) -> Result<Vec<PathBuf>, Failure> {
    match (&args.output, &args.out) {
        (Some(file), None) => {
            if n != 1 {
                return Err(Failure::Usage(format!(
                    "-o writes one board but {n} positions were given; use --out DIR"
                )));
            }
            Ok(vec![file.clone()])
        }
        (None, Some(dir)) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| Failure::Io(format!("cannot create {}: {e}", dir.display())))?;
            Ok((0..n).map(|i| dir.join(format!("{i:04}.png"))).collect())
        }
        // clap's "dest" group makes exactly one of them present.
        _ => Err(Failure::Usage(
            "give exactly one of -o FILE and --out DIR".to_string(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_squares_are_parsed_and_checked() {
        assert_eq!(
            parse_uci_squares("e2e4").ok(),
            Some((Square::E2, Square::E4))
        );
        assert_eq!(
            parse_uci_squares("a7a8q").ok(),
            Some((Square::A7, Square::A8))
        );
        for bad in ["e2", "e2e9", "i2e4", "e2e4k", "e2e2", "é2e4", "e2e4qq"] {
            assert!(parse_uci_squares(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_bad_fen_line_is_named() {
        let input = Input {
            origin: "fens.txt line 3".to_string(),
            fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1".to_string(),
        };
        let err = parse_fen(&input).unwrap_err().0;
        assert!(err.starts_with("fens.txt line 3: bad FEN"), "{err}");
    }
}
