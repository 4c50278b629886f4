//! Puzzles found in games with the real engine (Stockfish, found as the bot finds it): a
//! known tactic gives its puzzle, a quiet game none, the only-move check refuses a position
//! with two winning moves, and `cajitas puzzles generate` writes rows that the puzzle loader
//! reads and that their own lines solve. On a machine without an engine each test says it was
//! skipped, and why, and passes (and fails with `CAJITAS_REQUIRE_ENGINE` set).
//!
//! The searches are of a fixed number of nodes, from an empty hash on one thread, so the
//! answers are the same on every run; the engine runs at normal priority so that the tests
//! take seconds on a busy machine.

#[path = "support/skip.rs"]
mod skip;

use std::process::Command;
use std::time::Duration;

use cajitas::commands::puzzles::rows;
use cajitas::config::EngineSettings;
use cajitas::engine::puzzler::{Ending, Finder, Search, find_puzzles};
use cajitas::engine::{EngineCommand, Pool, PoolConfig};
use cajitas::puzzles::{Attempt, AttemptState, HEADER, PuzzleSet};
use cajitas_rules::{Lang, Position, Uci, pgn};

/// Nodes per search: enough for these short tactics, a fraction of a second each.
const NODES: u64 = 50_000;

/// One engine process at normal priority, or `None` (with the reason printed).
fn engine(test: &str) -> Option<Pool> {
    let settings = match EngineSettings::from_env() {
        Ok(s) => s,
        Err(e) => {
            skip::no_engine(test, &format!("the engine settings are not valid: {e}"));
            return None;
        }
    };
    let Some(program) = settings.program else {
        skip::no_engine(test, skip::NO_ENGINE);
        return None;
    };
    Some(Pool::new(PoolConfig {
        command: EngineCommand {
            program,
            args: Vec::new(),
            nice: false,
        },
        processes: 1,
        hash_mb: 16,
        threads: 1,
        margin: Duration::from_secs(30),
    }))
}

const SCHOLAR: &str = "[Event \"Scholar's mate\"]\n[Site \"https://example.org/g/1\"]\n\n\
    1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n";

const QUIET: &str = "[Event \"A quiet Ruy Lopez\"]\n\n\
    1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O *\n";

/// Plays each row's line as a solver would; every row must be solved by it.
fn solved_by_own_line(set: &PuzzleSet) {
    for p in set.all() {
        let mut attempt = Attempt::start(p);
        for &m in p.moves.iter().skip(1).step_by(2) {
            attempt.answer(m).unwrap();
        }
        assert_eq!(attempt.state(), AttemptState::Solved, "{}", p.id);
    }
}

#[test]
fn a_known_tactic_gives_its_puzzle_and_the_row_solves_itself() {
    let Some(pool) = engine("a_known_tactic_gives_its_puzzle") else {
        return;
    };
    let game = pgn::read_game(SCHOLAR, Lang::En).unwrap();
    let search = Search {
        nodes: NODES,
        person: 0,
    };
    let found = find_puzzles(&pool, &game.game, search, |_, _| {}).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    let p = &found[0];
    // 3...Nf6?? lets 4. Qxf7# in: the row starts before Black's mistake.
    assert_eq!(p.ply, 5);
    assert_eq!(
        p.before.fen(),
        "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3"
    );
    assert_eq!(p.moves_uci(), "g8f6 h5f7");
    assert_eq!(p.ending, Ending::Mate);
    assert_eq!(p.themes, ["mate", "mateIn1", "oneMove", "opening"]);
    let rows = rows(&game, &found);
    let csv = format!("{HEADER}\n{}\n", rows[0].1);
    let (set, bad) = PuzzleSet::parse(&csv);
    assert_eq!(bad, []);
    let loaded = set.get(&rows[0].0).unwrap();
    assert_eq!((loaded.rating, loaded.deviation), (1500, 500));
    assert!(rows[0].1.contains(",https://example.org/g/1,"));
    solved_by_own_line(&set);
}

#[test]
fn a_quiet_game_gives_no_puzzle() {
    let Some(pool) = engine("a_quiet_game_gives_no_puzzle") else {
        return;
    };
    let game = pgn::read_game(QUIET, Lang::En).unwrap();
    let search = Search {
        nodes: NODES,
        person: 0,
    };
    let found = find_puzzles(&pool, &game.game, search, |_, _| {}).unwrap();
    assert_eq!(found, []);
}

#[test]
fn the_only_move_check_refuses_two_winning_moves() {
    let Some(pool) = engine("the_only_move_check_refuses_two_winning_moves") else {
        return;
    };
    let finder = Finder::new(
        &pool,
        Search {
            nodes: NODES,
            person: 0,
        },
    );
    // Black's queen on d4 hangs to the rook alone: one winning move (+6 against -3.5).
    let one = Position::from_fen("6k1/5ppp/8/8/3q4/8/5PPP/3R2K1 w - - 0 1").unwrap();
    let only = finder.only_move_in(&one).unwrap();
    assert_eq!(
        only.map(|m| Uci::from_move(m).to_string()),
        Some("d1d4".into())
    );
    // The same with a knight on f3: Rxd4 and Nxd4 both win the queen (+5 each).
    let two = Position::from_fen("6k1/5ppp/8/8/3q4/5N2/5PPP/3R2K1 w - - 0 1").unwrap();
    assert_eq!(finder.only_move_in(&two).unwrap(), None);
}

#[test]
fn the_command_writes_rows_the_loader_reads_and_names_a_bad_game() {
    let Some(_pool) = engine("the_command_writes_rows_the_loader_reads") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("cajitas-puzzles-gen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn_path = dir.join("games.pgn");
    let csv_path = dir.join("found.csv");
    let bad = "[Event \"Broken\"]\n\n1. e4 e5 2. Ke3 *\n";
    std::fs::write(&pgn_path, format!("{SCHOLAR}\n{bad}\n{QUIET}")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cajitas"))
        .args(["puzzles", "generate"])
        .arg(&pgn_path)
        .arg("--out")
        .arg(&csv_path)
        .args(["--nodes", &NODES.to_string()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The bad game is named and skipped; the others are searched; the status says so.
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("game 2 skipped: line 8: 2. Ke3"),
        "{stderr}"
    );
    assert!(
        stderr.contains("2 games searched, 1 puzzles found"),
        "{stderr}"
    );
    let csv = std::fs::read_to_string(&csv_path).unwrap();
    assert!(csv.starts_with(&format!("{HEADER}\n")), "{csv}");
    let (set, bad) = PuzzleSet::parse(&csv);
    assert_eq!(bad, []);
    assert_eq!(set.len(), 1);
    solved_by_own_line(&set);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Opera game (Morphy, Paris 1858), 33 plies ending in mate.
const OPERA: &[&str] = &[
    "e4", "e5", "Nf3", "d6", "d4", "Bg4", "dxe5", "Bxf3", "Qxf3", "dxe5", "Bc4", "Nf6", "Qb3",
    "Qe7", "Nc3", "c6", "Bg5", "b5", "Nxb5", "cxb5", "Bxb5+", "Nbd7", "O-O-O", "Rd8", "Rxd7",
    "Rxd7", "Rd1", "Qe6", "Bxd7+", "Nxd7", "Qb8+", "Nxb8", "Rd8#",
];

#[test]
fn a_finished_game_is_searched_on_the_idle_lane_and_its_puzzles_stored_once() {
    use cajitas::engine::searcher::{Searched, search_once};
    use cajitas::game::{ChannelRef, ColourChoice, GameService, ServiceOptions, UserRef};
    let Some(pool) = engine("a_finished_game_is_searched_on_the_idle_lane") else {
        return;
    };
    let g = GameService::open_in_memory(ServiceOptions::default()).unwrap();
    let (alice, bob) = (
        UserRef::new(1, "alice", false),
        UserRef::new(2, "bob", false),
    );
    let ch = ChannelRef {
        guild: Some(5),
        channel: 50,
    };
    g.challenges()
        .challenge_rated(&alice, ch, Some(&bob), ColourChoice::White, false)
        .unwrap();
    let id = g.challenges().accept(&bob, ch).unwrap().game_id;
    for m in OPERA {
        let who = g.queries().board(ch).unwrap().player_to_move().clone();
        g.play().play_move(&who, ch, m, Lang::En, false).unwrap();
    }
    // A game's move asked for while the search runs is served beside it, never behind it.
    let searched = std::thread::scope(|s| {
        let search = s.spawn(|| search_once(&g, &pool, 42, NODES).unwrap());
        while pool.idle_load() == (0, false) && !search.is_finished() {
            std::thread::sleep(Duration::from_millis(5));
        }
        let start = std::time::Instant::now();
        let pos = Position::new();
        let answer = pool.search(cajitas::engine::SearchRequest {
            person: 1,
            requester: 1,
            start_fen: pos.fen(),
            moves: Vec::new(),
            position: pos,
            limits: cajitas::engine::Limits {
                movetime: Duration::from_secs(1),
                nodes: Some(NODES),
                depth: None,
                skill: None,
                fresh: true,
            },
            deadline: start + Duration::from_secs(30),
        });
        assert!(answer.is_ok(), "{answer:?}");
        search.join().unwrap()
    });
    let Searched::Stored { game_id, ids } = searched else {
        panic!("{searched:?}");
    };
    assert_eq!(game_id, id);
    assert!(!ids.is_empty(), "the Opera game's finish is a puzzle");
    let stored = g.server_puzzles().of_pool(5).unwrap();
    assert_eq!(stored.len(), ids.len());
    let csv: String = std::iter::once(HEADER.to_owned())
        .chain(stored.iter().map(|p| {
            assert_eq!((p.game_id, p.white.id, p.black.id), (id, 1, 2));
            assert_eq!((p.rating, p.deviation, p.plays), (1500.0, 500.0, 0));
            assert!(ids.contains(&p.id));
            format!(
                "{},{},{},1500,500,0,0,{},,,",
                p.id, p.fen, p.moves, p.themes
            )
        }))
        .collect::<Vec<_>>()
        .join("\n");
    let (set, bad) = PuzzleSet::parse(&csv);
    assert_eq!(bad, []);
    solved_by_own_line(&set);
    // The mate that ends the game is among them (17. Rd8#, after 16...Nxb8).
    assert!(
        stored
            .iter()
            .any(|p| p.moves.ends_with("d7b8 d1d8") && p.ply == 31),
        "{stored:?}"
    );
    // Searched once: nothing is left.
    assert_eq!(
        search_once(&g, &pool, 43, NODES).unwrap(),
        Searched::Nothing
    );
    let s = g.server_puzzles().search_of(id).unwrap().unwrap();
    assert_eq!((s.status, s.found), ("done", Some(ids.len() as u32)));
}
