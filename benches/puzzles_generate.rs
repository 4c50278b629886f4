//! `cargo bench --bench puzzles_generate [-- FILE.pgn]`: the puzzle finder on 50 real games
//! of about 80 plies (`benches/data/tata-steel-2022-50.pgn`, or the games of FILE, e.g.
//! `benches/data/classics-32.pgn`, tactical classics) at the default node budget, one engine
//! process on one thread: games a minute and puzzles found. The rows are written to
//! `target/puzzles_generate.csv` (or the file `CAJITAS_BENCH_PUZZLES_OUT` names) for
//! `scripts/confirm_puzzles.py`, which checks them with a deeper search.
//!
//! The engine runs at normal priority here (the bot runs it at idle priority): the figure is
//! the finder's own pace, not what a busy machine leaves it. Nearly all the time is the
//! engine's, so the profile the bench is built with changes little.

use std::time::{Duration, Instant};

use cajitas::commands::puzzles::rows;
use cajitas::config::EngineSettings;
use cajitas::engine::puzzler::{self, Search, find_puzzles};
use cajitas::engine::{EngineCommand, Pool, PoolConfig};
use cajitas_rules::{Lang, pgn};

const GAMES: &str = include_str!("data/tata-steel-2022-50.pgn");

fn main() {
    let settings = EngineSettings::from_env().expect("the engine settings");
    let Some(program) = settings.program else {
        eprintln!("SKIPPED puzzles_generate: no chess engine on this machine");
        return;
    };
    let pool = Pool::new(PoolConfig {
        command: EngineCommand {
            program,
            args: Vec::new(),
            nice: false,
        },
        processes: 1,
        hash_mb: 16,
        threads: 1,
        margin: Duration::from_secs(30),
    });
    let file = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(|path| std::fs::read_to_string(&path).expect("the PGN file"));
    let games: Vec<pgn::PgnGame> = pgn::read_games(file.as_deref().unwrap_or(GAMES), Lang::En)
        .expect("the games")
        .collect::<Result<_, _>>()
        .expect("every game reads");
    let search = Search {
        nodes: puzzler::DEFAULT_NODES,
        person: 0,
    };
    let mut csv = vec![cajitas::puzzles::HEADER.to_string()];
    let plies: usize = games.iter().map(|g| g.game.moves().len()).sum();
    let t0 = Instant::now();
    let mut found_total = 0;
    for (i, game) in games.iter().enumerate() {
        let t = Instant::now();
        let found = find_puzzles(&pool, &game.game, search, |_, _| {}).expect("a search");
        eprintln!(
            "game {:>2}/{}: {:>3} plies, {} puzzles, {:.1} s",
            i + 1,
            games.len(),
            game.game.moves().len(),
            found.len(),
            t.elapsed().as_secs_f64()
        );
        found_total += found.len();
        csv.extend(rows(game, &found).into_iter().map(|(_, row)| row));
    }
    let secs = t0.elapsed().as_secs_f64();
    println!(
        "puzzles_generate: {} games ({} plies, {:.1} a game), nodes {} per search: {:.1} s, \
         {:.2} games a minute, {} puzzles found",
        games.len(),
        plies,
        plies as f64 / games.len() as f64,
        search.nodes,
        secs,
        games.len() as f64 * 60.0 / secs,
        found_total
    );
    let out = std::env::var_os("CAJITAS_BENCH_PUZZLES_OUT")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/puzzles_generate.csv")
        });
    std::fs::write(&out, csv.join("\n") + "\n").expect("write the rows");
    println!("rows written to {}", out.display());
}
