//! `cajitas analyse FILE.pgn [--out CHART.png] [--lang en|es]`: the engine's analysis of a
//! game in the terminal, like `/analysis`: a progress bar while the engine works (on its
//! pool's threads), then each side's inaccuracies, mistakes and blunders and the worst moves
//! with the engine's best move, and the evaluation chart written as a PNG.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use cajitas_rules::pgn::{self, PgnResult};
use cajitas_rules::{Color, Lang, Outcome};

use super::replay::LangArg;
use crate::config::{EngineSettings, Settings};
use crate::engine::{Budget, analyse, pool_from, report};
use crate::files::{read_file_capped, write_replacing};
use crate::tr;

/// The largest PGN read, in bytes.
pub const MAX_PGN_BYTES: u64 = 16 * 1024 * 1024;

/// Flags of `cajitas analyse`.
#[derive(Debug, Clone, clap::Args)]
pub struct AnalyseArgs {
    /// The PGN file (its first game is analysed).
    pub file: PathBuf,
    /// Where to write the evaluation chart.
    #[arg(long, default_value = "analysis.png")]
    pub out: PathBuf,
    /// The language of the report and of the error messages. The PGN's moves are always
    /// read as standard (English) SAN.
    #[arg(long, value_enum, default_value_t = LangArg::En)]
    pub lang: LangArg,
    /// The nodes searched per position (default: `CAJITAS_ANALYSIS_NODES`, else 100000):
    /// the same report on any machine at any load.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1_000..=1_000_000_000))]
    pub nodes: Option<u64>,
    /// Search each position for this many milliseconds instead of a node budget (the
    /// report then depends on the machine's speed and load).
    #[arg(long, conflicts_with = "nodes",
          value_parser = clap::value_parser!(u64).range(1..=60_000))]
    pub movetime: Option<u64>,
    /// The deepest depth per position (no cap by default).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=99))]
    pub depth: Option<u32>,
}

/// Runs `cajitas analyse` with the engine of `settings` (`CAJITAS_ENGINE` and the others).
pub fn run(args: &AnalyseArgs, settings: &Settings) -> ExitCode {
    let lang: Lang = args.lang.into();
    let settings = match EngineSettings::try_from(settings) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(pool) = pool_from(&settings) else {
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
    // A PGN file's movetext is standard (English) SAN, whatever --lang says: `R` is a rook.
    let game = match pgn::read_game(&pgn::decode(&bytes), Lang::En) {
        Ok(g) => g,
        Err(e) => {
            eprintln!(
                "error: {}: {}",
                args.file.display(),
                crate::i18n::cli::pgn_error(lang, &e)
            );
            return ExitCode::from(2);
        }
    };
    let total = game.game.moves().len() as u64 + 1;
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    let budget = match args.movetime {
        Some(ms) => Budget {
            nodes: None,
            depth: args.depth,
            movetime: Duration::from_millis(ms),
        },
        None => Budget {
            depth: args.depth,
            ..Budget::nodes(args.nodes.unwrap_or(settings.analysis_nodes))
        },
    };
    let t0 = Instant::now();
    let analysis = analyse(&pool, &game.game, budget, 0, |done, _| {
        bar.set_position(done as u64)
    });
    bar.finish_and_clear();
    let analysis = match analysis {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Tags are the file's text: no control characters reach the terminal, and names are capped.
    let name = |tag: &str, side: Color| -> String {
        match game
            .tag(tag)
            .map(str::trim)
            .filter(|n| !n.is_empty() && *n != "?")
        {
            Some(n) => n
                .chars()
                .filter(|c| !c.is_control())
                .take(crate::game::MAX_NAME_CHARS)
                .collect(),
            None => crate::i18n::cli::default_name(lang, side),
        }
    };
    // The result the moves reached (a mate, a fivefold repetition), else the file's marker
    // or Result tag, else `*`.
    let result = match game.outcome() {
        Some(Outcome::Decisive {
            winner: Color::White,
            ..
        }) => PgnResult::WhiteWins,
        Some(Outcome::Decisive { .. }) => PgnResult::BlackWins,
        Some(Outcome::Draw { .. }) => PgnResult::Draw,
        None => PgnResult::Unknown,
    }
    .to_string();
    let words = report::report(
        &analysis,
        &name("White", Color::White),
        &name("Black", Color::Black),
        &result,
        lang,
    );
    super::print_line(format_args!("{}", words.title));
    for s in words.lines() {
        super::print_line(format_args!("  {s}"));
    }
    super::print_line(format_args!("{}", words.worst_title));
    for w in &words.worst {
        super::print_line(format_args!("  {w}"));
    }
    if let Err(e) = write_replacing(&args.out, &report::chart(&analysis)) {
        eprintln!("error: {}: {e}", args.out.display());
        return ExitCode::FAILURE;
    }
    super::print_line(format_args!(
        "{}",
        tr!(
            lang,
            "analyse-done",
            positions = crate::i18n::num(total as f64),
            seconds = format!("{:.1}", t0.elapsed().as_secs_f64()),
            path = args.out.display().to_string()
        )
    ));
    ExitCode::SUCCESS
}
