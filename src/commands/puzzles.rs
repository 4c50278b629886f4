//! `cajitas puzzles generate FILE.pgn [--out FILE.csv] [--nodes N]`: the puzzles of every
//! game of a PGN file ([`crate::engine::puzzler`]), printed as rows of lichess's CSV (its
//! header first) or written to `--out`, with a progress bar on standard error. A game that
//! cannot be read is named (its number and line) and skipped; the others go on.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use cajitas_rules::pgn::{self, PgnGame};
use cajitas_rules::{Lang, Uci};

use super::replay::LangArg;
use crate::config::{EngineSettings, Settings};
use crate::engine::pool_from;
use crate::engine::puzzler::{self, FoundPuzzle, Search, find_puzzles};
use crate::files::{read_file_capped, write_replacing};
use crate::tr;

/// The largest PGN read, in bytes (the rules crate's own limit on a PGN text).
pub const MAX_PGN_BYTES: u64 = pgn::MAX_FILE_BYTES as u64;

/// Flags of `cajitas puzzles`.
#[derive(Debug, Clone, clap::Args)]
pub struct PuzzlesArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: PuzzlesCommand,
}

/// The subcommands of `cajitas puzzles`.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum PuzzlesCommand {
    /// Find puzzles in the games of a PGN file with the chess engine; print them as lichess's
    /// CSV.
    Generate(GenerateArgs),
}

/// Flags of `cajitas puzzles generate`.
#[derive(Debug, Clone, clap::Args)]
pub struct GenerateArgs {
    /// The PGN file (every game in it).
    pub file: PathBuf,
    /// Where to write the CSV (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The nodes of each engine search (default 100000): the same puzzles on any machine.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1_000..=1_000_000_000))]
    pub nodes: Option<u64>,
    /// The language of the messages. The PGN's moves are always read as standard SAN.
    #[arg(long, value_enum, default_value_t = LangArg::En)]
    pub lang: LangArg,
}

/// Runs `cajitas puzzles`.
pub fn run(args: &PuzzlesArgs, settings: &Settings) -> ExitCode {
    match &args.command {
        PuzzlesCommand::Generate(g) => generate(g, settings),
    }
}

/// Something naming the game for its puzzles' ids: its start and its moves.
pub fn game_key(game: &cajitas_rules::Game) -> String {
    let mut key = game.start().fen();
    for &m in game.moves() {
        key.push(' ');
        key.push_str(&Uci::from_move(m).to_string());
    }
    key
}

/// The rows of one game's puzzles, the game's `Site` tag as their URL when it is one.
pub fn rows(game: &PgnGame, found: &[FoundPuzzle]) -> Vec<(String, String)> {
    let key = game_key(&game.game);
    let url = game
        .tag("Site")
        .filter(|s| s.starts_with("https://") || s.starts_with("http://"))
        .unwrap_or("");
    found
        .iter()
        .map(|p| {
            let id = puzzler::puzzle_id(&key, p.ply);
            let row = p.row(&id, url);
            (id, row)
        })
        .collect()
}

fn generate(args: &GenerateArgs, settings: &Settings) -> ExitCode {
    let lang: Lang = args.lang.into();
    let settings = match EngineSettings::try_from(settings) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // One process: the searches of a line follow one another.
    let Some(pool) = pool_from(&EngineSettings {
        processes: 1,
        ..settings
    }) else {
        eprintln!("{}", tr!(lang, "analyse-no-engine"));
        return ExitCode::from(2);
    };
    let bytes = match read_file_capped(&args.file, MAX_PGN_BYTES) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {}: {e}", args.file.display());
            return ExitCode::from(2);
        }
    };
    let text = pgn::decode(&bytes);
    let games: Vec<Result<PgnGame, pgn::PgnError>> = match pgn::read_games(&text, Lang::En) {
        Ok(g) => g.collect(),
        Err(e) => {
            eprintln!(
                "error: {}: {}",
                args.file.display(),
                crate::i18n::cli::pgn_error(lang, &e)
            );
            return ExitCode::from(2);
        }
    };
    let search = Search {
        nodes: args.nodes.unwrap_or(puzzler::DEFAULT_NODES),
        person: 0,
    };
    let bar = indicatif::ProgressBar::new(games.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    let t0 = Instant::now();
    let mut out = vec![csv_header()];
    if args.out.is_none() {
        super::print_line(&out[0]);
    }
    let mut seen: HashSet<String> = HashSet::new();
    let mut bad = 0usize;
    let mut found_count = 0usize;
    for (i, game) in games.iter().enumerate() {
        let number = i + 1;
        let game = match game {
            Ok(g) => g,
            Err(e) => {
                bad += 1;
                bar.suspend(|| {
                    eprintln!(
                        "{}",
                        tr!(
                            lang,
                            "puzzles-generate-bad-game",
                            number = number.to_string(),
                            file = args.file.display().to_string(),
                            error = crate::i18n::cli::pgn_error(lang, e)
                        )
                    )
                });
                bar.inc(1);
                continue;
            }
        };
        let found = match find_puzzles(&pool, &game.game, search, |_, _| {}) {
            Ok(f) => f,
            Err(e) => {
                bar.finish_and_clear();
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        };
        for (id, row) in rows(game, &found) {
            // The same game twice in a file gives the same ids: each puzzle once.
            if seen.insert(id) {
                found_count += 1;
                if args.out.is_none() {
                    bar.suspend(|| super::print_line(&row));
                }
                out.push(row);
            }
        }
        bar.set_message(tr!(
            lang,
            "puzzles-generate-found",
            puzzles = found_count.to_string()
        ));
        bar.inc(1);
    }
    bar.finish_and_clear();
    if let Some(path) = &args.out {
        let mut text = out.join("\n");
        text.push('\n');
        if let Err(e) = write_replacing(path, text.as_bytes()) {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    eprintln!(
        "{}",
        tr!(
            lang,
            "puzzles-generate-done",
            games = (games.len() - bad).to_string(),
            puzzles = found_count.to_string(),
            seconds = format!("{:.1}", t0.elapsed().as_secs_f64())
        )
    );
    if bad > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The CSV's header line: the puzzle loader's, lichess's.
fn csv_header() -> String {
    crate::puzzles::HEADER.to_string()
}
