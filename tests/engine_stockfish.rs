//! The real engine (Stockfish, found like the bot finds it): whole games against levels 1
//! and 8 with a scripted person making random legal moves, and the analysis of a known game
//! with a planted blunder. On a machine without an engine each test says it was skipped, and
//! why, and passes (and fails with `CAJITAS_REQUIRE_ENGINE` set, as `.ci/run` does).

#[path = "support/serial.rs"]
mod serial;
#[path = "support/skip.rs"]
mod skip;

use std::sync::Arc;
use std::time::{Duration, Instant};

use cajitas::config::EngineSettings;
use cajitas::engine::analysis::Reason;
use cajitas::engine::{Budget, EnginePlayer, Judgement, Pool, analyse, pool_from, report};
use cajitas::game::{
    ChannelRef, ColourChoice, GameService, Lang, NoticeKind, RecordingNotifier, ServiceOptions,
    UserRef, engine_level_of,
};
use cajitas_rules::{Color, Game, Position, Uci};

/// The engine pool, or `None` (with the reason printed) when this machine has no engine.
fn engine(test: &str) -> Option<Pool> {
    let settings = match EngineSettings::from_env() {
        Ok(s) => s,
        Err(e) => {
            skip::no_engine(test, &format!("the engine settings are not valid: {e}"));
            return None;
        }
    };
    if settings.program.is_none() {
        skip::no_engine(test, skip::NO_ENGINE);
        return None;
    }
    pool_from(&EngineSettings {
        processes: 1,
        ..settings
    })
}

/// A game against `level`: the person plays random legal moves (seeded) until the game ends
/// or 40 plies; every engine move is checked against the rules' legal moves.
fn game_against(level: u8, colour: ColourChoice) {
    let Some(pool) = engine(&format!("game_against_level_{level}")) else {
        return;
    };
    let _serial = serial::time_window();
    let notes = Arc::new(RecordingNotifier::default());
    let player = EnginePlayer::prepare();
    let service = GameService::open_in_memory(ServiceOptions {
        notifier: notes.clone(),
        engine_turns: Some(player.turns()),
        ..ServiceOptions::default()
    })
    .unwrap();
    let _player = player.start(service.clone(), pool, Duration::from_secs(60));
    let human = UserRef::new(5, "Ana", false);
    let ch = ChannelRef {
        guild: None,
        channel: 9,
    };
    let mut rng = fastrand::Rng::with_seed(u64::from(level));
    let v = service
        .engine()
        .play_engine(&human, ch, level, colour, Lang::En)
        .unwrap();
    let id = v.game_id;
    let human_colour = if v.white.id == human.id {
        Color::White
    } else {
        Color::Black
    };
    assert_eq!(v.player(!human_colour).engine_level(), Some(level));
    loop {
        let v = service.queries().game(id).unwrap();
        if v.finished || v.ply >= 40 {
            break;
        }
        if v.to_move == human_colour {
            let moves = v.position.legal_moves();
            let m = moves[rng.usize(..moves.len())];
            service
                .play()
                .play_move(&human, ch, &Uci::from_move(m).to_string(), Lang::En, false)
                .unwrap();
        } else {
            // The engine's turn: it moves within its time cap plus the margin (level 8: 10 s
            // and 5 s), twice if a starved process is taken for hung and restarted, plus the
            // start of a process (the network loaded) on a busy machine.
            let end = Instant::now() + Duration::from_secs(60);
            while service.queries().game(id).unwrap().ply == v.ply {
                assert!(
                    Instant::now() < end,
                    "level {level}: no engine move at ply {}",
                    v.ply
                );
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }
    // Replay the stored game: every engine move was legal where it was played.
    let mut pos = Position::new();
    let engine_id = cajitas::game::engine_user_id(level);
    let history = service.queries().moves_uci(id).unwrap();
    let mut engine_moves = 0;
    for uci in &history {
        let m = uci
            .parse::<Uci>()
            .unwrap()
            .to_move(&pos)
            .expect("a legal stored move");
        assert!(pos.legal_moves().contains(&m));
        if pos.turn() != human_colour {
            engine_moves += 1;
        }
        pos.play(m);
    }
    assert!(
        engine_moves >= 10 || service.queries().game(id).unwrap().finished,
        "{engine_moves}"
    );
    // Each engine move was posted (the last post may still be on its way).
    let posted = || {
        notes
            .posts()
            .iter()
            .filter(|n| n.kind == NoticeKind::GameState)
            .count()
    };
    let end = Instant::now() + Duration::from_secs(5);
    while posted() < engine_moves && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(
        posted() >= engine_moves,
        "{} posts for {engine_moves} moves",
        posted()
    );
    assert!(engine_level_of(engine_id) == Some(level));
    println!(
        "level {level}: {} plies, {engine_moves} engine moves",
        history.len()
    );
}

#[test]
fn a_whole_game_against_level_1() {
    game_against(1, ColourChoice::White);
}

#[test]
fn a_whole_game_against_level_8() {
    game_against(8, ColourChoice::Black);
}

#[test]
fn the_analysis_finds_the_planted_blunder() {
    let Some(pool) = engine("the_analysis_finds_the_planted_blunder") else {
        return;
    };
    let _serial = serial::time_window();
    // A quiet opening, then Black's 6...Nxe4?? drops the knight to a pin (a blunder of
    // about three pawns), and the game goes on.
    let service = GameService::open_in_memory(ServiceOptions::default()).unwrap();
    let (a, b) = (UserRef::new(1, "Ana", false), UserRef::new(2, "Bea", false));
    let ch = ChannelRef {
        guild: None,
        channel: 3,
    };
    service
        .challenges()
        .start_game(&a, &b, ch, &Position::new())
        .unwrap();
    let moves = [
        "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "Nf6", "d3", "d6", "O-O", "O-O", "Re1",
        "Nxe4", "dxe4",
    ];
    for (i, m) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { &a } else { &b };
        service
            .play()
            .play_move(who, ch, m, Lang::En, false)
            .unwrap();
    }
    service.play().resign(&b, ch, None).unwrap();
    let game = service.engine().last_finished_game(ch).unwrap();
    let mut seen = Vec::new();
    let t0 = Instant::now();
    let analysis = analyse(&pool, &game.game, Budget::default(), 2, |d, t| {
        seen.push((d, t))
    })
    .unwrap();
    println!("{} positions in {:?}", moves.len() + 1, t0.elapsed());
    assert_eq!(analysis.evals.len(), moves.len() + 1);
    assert_eq!(seen.last(), Some(&(moves.len() + 1, moves.len() + 1)));
    let worst = analysis.worst(3);
    println!("{worst:?}");
    assert_eq!(worst[0].ply, 13, "6...Nxe4 is the worst move: {worst:?}");
    assert_eq!(worst[0].mover, Color::Black);
    assert_eq!(worst[0].judgement, Judgement::Blunder);
    assert_eq!(worst[0].reason, Reason::Chances);
    assert!(analysis.counts(Color::Black)[2] >= 1);
    // White's sound moves are not blunders.
    assert_eq!(
        analysis.counts(Color::White)[2],
        0,
        "{:?}",
        analysis.advices
    );
    // The report names the move and the engine's better one, in each language.
    let en = report::report(&analysis, "Ana", "Bea", "1-0", Lang::En);
    assert!(
        en.worst[0].contains("Nxe4") && en.worst[0].contains("blunder"),
        "{en:?}"
    );
    let es = report::report(&analysis, "Ana", "Bea", "1-0", Lang::Es);
    assert!(
        es.worst[0].contains("Cxe4") && es.worst[0].contains("error grave"),
        "{es:?}"
    );
    // And the chart is a PNG.
    assert!(report::chart(&analysis).starts_with(b"\x89PNG"));
    let _ = Game::new();
}

#[test]
fn cajitas_analyse_prints_the_report_and_writes_the_chart() {
    let dir = std::env::temp_dir().join(format!("cajitas-analyse-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("game.pgn");
    std::fs::write(
        &pgn,
        "[White \"Ana\x1b[31m\"]\n[Black \"Bea\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 \
         4. c3 Nf6 5. d3 d6 6. O-O O-O 7. Re1 Nxe4 8. dxe4 1-0\n",
    )
    .unwrap();
    let out = dir.join("chart.png");
    let bin = env!("CARGO_BIN_EXE_cajitas");
    // Without an engine: how to install one, exit 2.
    let off = std::process::Command::new(bin)
        .args(["analyse", pgn.to_str().unwrap()])
        .env("CAJITAS_ENGINE", "off")
        .output()
        .unwrap();
    assert_eq!(off.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&off.stderr).contains("apt install stockfish"));
    if engine("cajitas_analyse_prints_the_report_and_writes_the_chart").is_none() {
        return;
    }
    let _serial = serial::time_window();
    let run = std::process::Command::new(bin)
        .args([
            "analyse",
            pgn.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        text.contains("Black (Bea): 0 inaccuracies, 0 mistakes, 1 blunder"),
        "{text}"
    );
    assert!(text.contains("7… Nxe4: blunder"), "{text}");
    assert!(
        !text.contains('\x1b'),
        "no escape from a PGN tag reaches the terminal"
    );
    assert!(std::fs::read(&out).unwrap().starts_with(b"\x89PNG"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Morphy's Opera Game (Paris 1858): rook moves all through it, and a mate at the end.
const OPERA_MOVES: &str = "1.e4 e5 2.Nf3 d6 3.d4 Bg4 4.dxe5 Bxf3 5.Qxf3 dxe5 6.Bc4 Nf6 \
    7.Qb3 Qe7 8.Nc3 c6 9.Bg5 b5 10.Nxb5 cxb5 11.Bxb5+ Nbd7 12.O-O-O Rd8 13.Rxd7 Rxd7 \
    14.Rd1 Qe6 15.Bxd7+ Nxd7 16.Qb8+ Nxb8 17.Rd8#";

/// Issues 25 and 26: `cajitas analyse --lang es` reads the PGN as standard SAN (`R` is a
/// rook: 12...Rd8 is not the king), names untagged players "Blancas" and "Negras", takes the
/// result from the mate on the board rather than printing "(*)", and says a PGN error in
/// Spanish. The engine is named by its bare name, found on PATH (issue 26). Its report goes
/// quietly nowhere when stdout is closed.
#[test]
fn cajitas_analyse_in_spanish_reads_standard_san_and_names_what_the_pgn_does_not() {
    const TEST: &str =
        "cajitas_analyse_in_spanish_reads_standard_san_and_names_what_the_pgn_does_not";
    let dir = std::env::temp_dir().join(format!("cajitas-analyse-es-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let untagged = dir.join("opera.pgn");
    // No tags and no result marker: everything the title says comes from the moves.
    std::fs::write(&untagged, format!("{OPERA_MOVES} *\n")).unwrap();
    let bad = dir.join("bad.pgn");
    std::fs::write(&bad, "[Event \"x\"]\n\n1. e4 e5 2. Nf4 *\n").unwrap();
    let Some(settings) = engine(TEST).map(|_| EngineSettings::from_env().unwrap()) else {
        return;
    };
    let program = settings.program.unwrap();
    // CAJITAS_ENGINE=<bare name>, with the engine's folder on PATH.
    let path = std::env::join_paths(
        std::iter::once(program.parent().unwrap().to_path_buf()).chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )),
    )
    .unwrap();
    let bin = env!("CARGO_BIN_EXE_cajitas");
    let analyse = |file: &std::path::Path, lang: &str| {
        std::process::Command::new(bin)
            .args(["analyse", file.to_str().unwrap(), "--lang", lang])
            .args(["--depth", "6", "--movetime", "20", "--out"])
            .arg(dir.join(format!("chart-{lang}.png")))
            .env("CAJITAS_ENGINE", program.file_name().unwrap())
            .env("PATH", &path)
            .env("CAJITAS_ENGINE_PROCESSES", "1")
            .output()
            .unwrap()
    };
    let _serial = serial::time_window();
    for (lang, title) in [
        ("es", "Análisis: Blancas contra Negras (1-0)"),
        ("en", "Analysis: White vs Black (1-0)"),
    ] {
        let run = analyse(&untagged, lang);
        let (out, err) = (
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr),
        );
        assert!(run.status.success(), "{lang}: {out}\n{err}");
        assert_eq!(out.lines().next(), Some(title), "{lang}: {out}");
    }
    let run = analyse(&bad, "es");
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(
        err.contains("línea 3: 2. Nf4: Ningún caballo puede llegar a f4."),
        "{err}"
    );
    // A closed stdout: quiet, status 0.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let run = std::process::Command::new(bin)
        .args([
            "analyse",
            untagged.to_str().unwrap(),
            "--depth",
            "1",
            "--out",
        ])
        .arg(dir.join("chart.png"))
        .env("CAJITAS_ENGINE", &program)
        .env("CAJITAS_ENGINE_PROCESSES", "1")
        .stdout(writer)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The same game analysed again and again gets the same evaluations, best moves and
/// verdicts: a node budget, from an empty hash, on one thread (even where the pool's
/// processes run two threads), whatever the process searched in between.
#[test]
fn the_same_game_gets_the_same_report_every_time() {
    let Some(settings) = EngineSettings::from_env()
        .ok()
        .filter(|s| s.program.is_some())
    else {
        skip::skipped(
            "the_same_game_gets_the_same_report_every_time",
            skip::NO_ENGINE,
        );
        return;
    };
    let _serial = serial::time_window();
    let pool = pool_from(&EngineSettings {
        processes: 1,
        threads: 2,
        ..settings
    })
    .unwrap();
    let game = cajitas_rules::pgn::read_game(
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0",
        cajitas_rules::Lang::En,
    )
    .unwrap()
    .game;
    let other = cajitas_rules::pgn::read_game(
        "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 *",
        cajitas_rules::Lang::En,
    )
    .unwrap()
    .game;
    let budget = Budget::nodes(30_000);
    let first = analyse(&pool, &game, budget, 1, |_, _| {}).unwrap();
    for round in 0..3 {
        // Another game in between fills the hash table with other positions.
        analyse(&pool, &other, Budget::nodes(50_000), 2, |_, _| {}).unwrap();
        let again = analyse(&pool, &game, budget, 1, |_, _| {}).unwrap();
        assert_eq!(again.evals, first.evals, "round {round}");
        assert_eq!(again.best, first.best, "round {round}");
        assert_eq!(again.advices, first.advices, "round {round}");
    }
    // No move is judged when the engine itself chose it.
    for a in &first.advices {
        assert_ne!(first.best[a.ply], Some(first.moves[a.ply]), "{a:?}");
    }
    // The mate is on the board: White's last move is a mate, the final position mated.
    assert_eq!(first.evals.last(), Some(&cajitas::engine::Eval::Mate(1)));
}

#[test]
fn a_chess960_game_against_level_1_with_a_castling() {
    // Chess960 #100 (qbbnrnkr): the person castles as soon as they may (the king onto its
    // own rook, `g1h1` or `g1e1`), moving the f1 knight out of the way first; the engine
    // gets the start FEN and the moves in Chess960 UCI with UCI_Chess960 on, and each of its
    // moves must be legal in Chess960.
    let Some(pool) = engine("a_chess960_game_against_level_1_with_a_castling") else {
        return;
    };
    let _serial = serial::time_window();
    let player = EnginePlayer::prepare();
    let service = GameService::open_in_memory(ServiceOptions {
        engine_turns: Some(player.turns()),
        ..ServiceOptions::default()
    })
    .unwrap();
    let _player = player.start(service.clone(), pool, Duration::from_secs(60));
    let human = UserRef::new(5, "Ana", false);
    let ch = ChannelRef {
        guild: None,
        channel: 9,
    };
    let variant = cajitas::game::Variant::chess960(100).unwrap();
    let v = service
        .engine()
        .play_engine_with(
            &human,
            ch,
            (1, ColourChoice::White, variant),
            Lang::En,
            None,
        )
        .unwrap();
    let id = v.game_id;
    assert_eq!(v.variant, variant);
    let mut rng = fastrand::Rng::with_seed(960);
    let mut castled = false;
    loop {
        let v = service.queries().game(id).unwrap();
        if v.finished || (castled && v.ply >= 16) || v.ply >= 40 {
            break;
        }
        if v.to_move == Color::White {
            let moves = v.position.legal_moves();
            let castle = moves.iter().copied().find(|m| m.is_castle());
            let knight = moves
                .iter()
                .copied()
                .find(|m| m.from() == cajitas_rules::Square::F1);
            let m = castle.or(knight).unwrap_or(moves[rng.usize(..moves.len())]);
            castled |= m.is_castle();
            service
                .play()
                .play_move(&human, ch, &v.position.uci(m).to_string(), Lang::En, false)
                .unwrap();
        } else {
            let end = Instant::now() + Duration::from_secs(60);
            while service.queries().game(id).unwrap().ply == v.ply {
                assert!(Instant::now() < end, "no engine move at ply {}", v.ply);
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }
    assert!(castled, "the person never could castle");
    let history = service.queries().moves_uci(id).unwrap();
    assert!(
        history.iter().any(|u| u == "g1h1" || u == "g1e1"),
        "{history:?}"
    );
    let mut pos = variant.start();
    for uci in &history {
        let m = uci
            .parse::<Uci>()
            .unwrap()
            .to_move(&pos)
            .expect("a legal stored move");
        pos.play(m);
    }
    let pgn = service.queries().replay(id).unwrap();
    assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
    let back = cajitas_rules::pgn::read_game(&pgn, Lang::En).unwrap();
    assert_eq!(back.game.position().fen(), pos.fen());
    println!("Chess960 #100 against level 1: {} plies", history.len());
}
