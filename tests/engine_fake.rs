//! The engine room against a scripted fake UCI engine (`tests/fake_uci/fake_uci.rs`): a
//! crash mid-search, a hang, an illegal move, a 1 MB line, two failures in a row, and a
//! request left in the queue past its deadline. Each is recovered, and no game is stuck.

#[path = "support/serial.rs"]
mod serial;
#[path = "support/skip.rs"]
mod skip;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cajitas::engine::{
    EngineCommand, EngineError, EnginePlayer, Limits, Pool, PoolConfig, SearchRequest,
};
use cajitas::game::{
    ChannelRef, ColourChoice, GameError, GameService, Lang, NoticeKind, RecordingNotifier,
    ServiceOptions, UserRef,
};
use cajitas_rules::Position;

const FAKE: &str = env!("CARGO_BIN_EXE_cajitas-fake-uci");

/// A fresh script file in its own folder.
fn script(tag: &str, lines: &[&str]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cajitas-fake-uci-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("script");
    std::fs::write(&path, lines.join("\n")).unwrap();
    path
}

fn pool(script: &std::path::Path, margin: Duration) -> Pool {
    Pool::new(PoolConfig {
        command: EngineCommand {
            program: FAKE.into(),
            args: vec![script.display().to_string()],
            nice: true,
        },
        processes: 1,
        hash_mb: 16,
        threads: 1,
        margin,
    })
}

struct Setup {
    service: GameService,
    notes: Arc<RecordingNotifier>,
    player: EnginePlayer,
    pool: Pool,
    human: UserRef,
    ch: ChannelRef,
}

fn setup(tag: &str, lines: &[&str], retry_every: Duration) -> Setup {
    let notes = Arc::new(RecordingNotifier::default());
    let player = EnginePlayer::prepare();
    let service = GameService::open_in_memory(ServiceOptions {
        notifier: notes.clone(),
        engine_turns: Some(player.turns()),
        ..ServiceOptions::default()
    })
    .unwrap();
    let pool = pool(&script(tag, lines), Duration::from_millis(400));
    let player = player.start(service.clone(), pool.clone(), retry_every);
    Setup {
        service,
        notes,
        player,
        pool,
        human: UserRef::new(11, "Ana", false),
        ch: ChannelRef {
            guild: Some(1),
            channel: 77,
        },
    }
}

/// Waits until game `id` reaches `ply` plies (the engine moved), at most `within`.
fn wait_ply(s: &Setup, id: i64, ply: u32, within: Duration) -> bool {
    eventually(within, || s.service.queries().game(id).unwrap().ply >= ply)
}

/// Whether `cond` holds within `within`: what the engine's thread does after it stores a
/// move (posting it, clearing the wait) lands a moment after the game's ply is seen.
fn eventually(within: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + within;
    loop {
        if cond() {
            return true;
        }
        if Instant::now() >= end {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A game against level 4 (no random moves: every move is the engine's), the person
/// White, after 1. e4: returns the game id.
fn human_opens(s: &Setup) -> i64 {
    let v = s
        .service
        .engine()
        .play_engine(&s.human, s.ch, 4, ColourChoice::White, Lang::En)
        .unwrap();
    s.service
        .play()
        .play_move(&s.human, s.ch, "e4", Lang::En, false)
        .unwrap();
    v.game_id
}

fn recovered_after_one_failure(tag: &str, first: &str) {
    let _serial = serial::time_window();
    let s = setup(tag, &[first, "ok"], Duration::from_secs(60));
    let id = human_opens(&s);
    assert!(
        wait_ply(&s, id, 2, Duration::from_secs(10)),
        "{first}: the engine never moved"
    );
    let stats = s.pool.stats();
    assert_eq!(
        stats.failures.load(std::sync::atomic::Ordering::Relaxed),
        1,
        "{first}"
    );
    assert_eq!(
        stats.started.load(std::sync::atomic::Ordering::Relaxed),
        2,
        "{first}: restarted"
    );
    // The engine's move was posted, the game goes on, nothing waits.
    assert!(
        eventually(Duration::from_secs(10), || s
            .notes
            .posts()
            .iter()
            .any(|n| n.kind == NoticeKind::GameState && n.game.ply == 2)),
        "{first}: the engine's move was never posted"
    );
    assert!(
        s.notes
            .posts()
            .iter()
            .all(|n| n.kind != NoticeKind::EngineUnavailable)
    );
    assert!(!s.player.is_waiting(id));
    s.service
        .play()
        .play_move(&s.human, s.ch, "d4", Lang::En, false)
        .unwrap();
    assert!(wait_ply(&s, id, 4, Duration::from_secs(10)));
}

#[test]
fn a_crash_mid_search_is_restarted_and_retried() {
    recovered_after_one_failure("crash", "crash");
}

#[test]
fn a_hang_is_killed_after_the_budget_and_retried() {
    let t0 = Instant::now();
    recovered_after_one_failure("hang", "hang");
    // Level 4 thinks 200 ms; the margin is 400 ms: the hang costs well under 10 s.
    assert!(t0.elapsed() < Duration::from_secs(10));
}

#[test]
fn an_illegal_move_counts_as_a_failure() {
    recovered_after_one_failure("illegal", "illegal");
    recovered_after_one_failure("garbage", "garbage");
}

#[test]
fn a_megabyte_line_is_skipped_without_a_failure() {
    let _serial = serial::time_window();
    let s = setup("long", &["long", "long"], Duration::from_secs(60));
    let id = human_opens(&s);
    assert!(wait_ply(&s, id, 2, Duration::from_secs(10)));
    assert_eq!(
        s.pool
            .stats()
            .failures
            .load(std::sync::atomic::Ordering::Relaxed),
        0
    );
    s.service
        .play()
        .play_move(&s.human, s.ch, "d4", Lang::En, false)
        .unwrap();
    assert!(wait_ply(&s, id, 4, Duration::from_secs(10)));
}

#[test]
fn after_two_failures_the_game_waits_announced_and_the_next_command_retries() {
    let _serial = serial::time_window();
    // Retries by the timer are far away: only the person's command can bring the move.
    let s = setup(
        "twice",
        &["crash", "illegal", "ok"],
        Duration::from_secs(3600),
    );
    let id = human_opens(&s);
    eventually(Duration::from_secs(10), || s.player.is_waiting(id));
    assert!(
        s.player.is_waiting(id),
        "the game should wait for the engine"
    );
    // The wait is marked before it is announced.
    assert!(
        eventually(Duration::from_secs(10), || s
            .notes
            .posts()
            .iter()
            .any(|n| n.kind == NoticeKind::EngineUnavailable)),
        "the wait was never announced"
    );
    let posts = s.notes.posts();
    let waits: Vec<_> = posts
        .iter()
        .filter(|n| n.kind == NoticeKind::EngineUnavailable)
        .collect();
    assert_eq!(waits.len(), 1, "announced once");
    assert_eq!(
        waits[0].mentions,
        vec![11],
        "the person is told, the engine is not pinged"
    );
    assert_eq!(
        s.service.queries().game(id).unwrap().ply,
        1,
        "the person's move stands"
    );
    // The person's next command (refused: not their turn) makes the engine try again.
    let err = s
        .service
        .play()
        .play_move(&s.human, s.ch, "d4", Lang::En, false)
        .unwrap_err();
    assert!(matches!(err, GameError::NotYourTurn), "{err:?}");
    assert!(
        wait_ply(&s, id, 2, Duration::from_secs(10)),
        "the retry played"
    );
    // The wait is cleared just after the move is stored.
    assert!(eventually(Duration::from_secs(10), || !s
        .player
        .is_waiting(id)));
}

#[test]
fn a_waiting_game_is_retried_by_the_timer_and_can_be_resigned() {
    let _serial = serial::time_window();
    let s = setup(
        "timer",
        &["crash", "crash", "ok"],
        Duration::from_millis(500),
    );
    let id = human_opens(&s);
    assert!(
        wait_ply(&s, id, 2, Duration::from_secs(10)),
        "the timer's retry played"
    );
    // An engine that keeps failing never holds the person: they resign (or abort).
    let s = setup("resign", &["crash"], Duration::from_secs(3600));
    let id = human_opens(&s);
    eventually(Duration::from_secs(10), || s.player.is_waiting(id));
    assert!(s.player.is_waiting(id));
    let v = s.service.play().resign(&s.human, s.ch, None).unwrap().view;
    assert!(v.finished);
    assert_eq!(v.result, "0-1");
}

#[test]
fn a_queued_request_past_its_deadline_gets_an_error_at_its_deadline() {
    let _serial = serial::time_window();
    let pool = pool(&script("deadline", &["hang", "ok"]), Duration::from_secs(3));
    let req = |deadline: Duration| SearchRequest {
        person: 1,
        requester: 1,
        start_fen: Position::new().fen(),
        moves: Vec::new(),
        position: Position::new(),
        limits: Limits {
            movetime: Duration::from_millis(100),
            nodes: None,
            depth: None,
            skill: None,
            fresh: false,
        },
        deadline: Instant::now() + deadline,
    };
    // The only process hangs on the first request for its budget (3.1 s) ...
    let (tx, first) = std::sync::mpsc::channel();
    pool.submit(req(Duration::from_secs(30)), move |r| {
        let _ = tx.send(r);
    });
    std::thread::sleep(Duration::from_millis(100));
    // ... so a second request with a 300 ms deadline is answered with an error at once.
    let t0 = Instant::now();
    let r = pool.search(SearchRequest {
        requester: 2,
        ..req(Duration::from_millis(300))
    });
    assert_eq!(r, Err(EngineError::Expired));
    assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
    // The first request recovers (kill, restart, retry) and gets its move.
    let got = first.recv_timeout(Duration::from_secs(15)).unwrap();
    assert!(got.is_ok(), "{got:?}");
}

/// Fields of `/proc/PID/stat` after the command name: (nice, scheduling policy).
fn nice_and_policy(pid: u32) -> (i64, u32) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let rest: Vec<&str> = stat
        .rsplit_once(')')
        .unwrap()
        .1
        .split_whitespace()
        .collect();
    // Field 19 is the nice value, field 41 the policy (the state, field 3, is rest[0]).
    (rest[19 - 3].parse().unwrap(), rest[41 - 3].parse().unwrap())
}

#[test]
fn an_engine_runs_at_the_lowest_priority_in_a_session_of_its_own() {
    if !std::path::Path::new("/proc/self/stat").exists() {
        skip::skipped(
            "an_engine_runs_at_the_lowest_priority_in_a_session_of_its_own",
            "no /proc",
        );
        return;
    }
    let path = script("priority", &["ok"]);
    let before = std::fs::read_to_string("/proc/self/autogroup").ok();
    let p = cajitas::engine::uci::Process::start(
        &EngineCommand {
            program: FAKE.into(),
            args: vec![path.display().to_string()],
            nice: true,
        },
        &[],
    )
    .unwrap();
    let pid = p.pid();
    let (nice, policy) = nice_and_policy(pid);
    assert_eq!(nice, 19, "nice -n 19");
    const SCHED_IDLE: u32 = 5;
    let chrt = std::process::Command::new("chrt").arg("--help").output();
    if chrt.is_ok() {
        assert_eq!(policy, SCHED_IDLE, "chrt --idle 0");
    }
    // A session of its own (setsid), so an autogroup of its own, at nice 19; never the
    // test's own autogroup.
    let sid = |pid: &str| -> String {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        stat.rsplit_once(')')
            .unwrap()
            .1
            .split_whitespace()
            .nth(3)
            .unwrap()
            .to_owned()
    };
    let setsid = std::process::Command::new("setsid").arg("--help").output();
    if setsid.is_ok() {
        assert_eq!(
            sid(&pid.to_string()),
            pid.to_string(),
            "it leads its session"
        );
    }
    let mine = std::fs::read_to_string("/proc/self/autogroup");
    match (
        mine,
        std::fs::read_to_string(format!("/proc/{pid}/autogroup")),
    ) {
        // An empty file is the root autogroup (a session that never called setsid, as CI's
        // may be): the engine's own group differs from it all the same.
        (Ok(mine), Ok(theirs)) if setsid.is_ok() && !theirs.trim().is_empty() => {
            let theirs = theirs.trim_end();
            assert_ne!(
                mine.split_whitespace().next(),
                theirs.split_whitespace().next()
            );
            // The start says what became of the write; a write the kernel took must show.
            use cajitas::engine::uci::Autogroup;
            match p.autogroup() {
                Autogroup::Lowered => assert!(
                    theirs.ends_with("nice 19"),
                    "the start lowered the engine's autogroup, yet it reads {theirs}"
                ),
                Autogroup::NotApplicable => {
                    panic!("the engine has an autogroup of its own ({theirs}), left untried")
                }
                // Environments, not the code: the machine-wide rate limit held for the whole
                // second the start waits, or the kernel refuses the change outright.
                Autogroup::Busy => println!(
                    "the kernel's rate limit kept the engine's autogroup for 1 s: not checked"
                ),
                Autogroup::Refused(e) => {
                    println!("the kernel refuses autogroup changes here ({e}): not checked")
                }
            }
            assert_eq!(Some(mine), before, "ours untouched");
        }
        _ => println!("no autogroups here (or no setsid): only nice and SCHED_IDLE checked"),
    }
    drop(p);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn a_chess960_search_turns_uci_chess960_on_and_off_for_the_same_process() {
    // The fake reads a Chess960 FEN only with UCI_Chess960 on, as real engines do; without
    // it, it would answer from the position it had (the initial one: a2a3, illegal here).
    let _serial = serial::time_window();
    let pool = pool(&script("c960", &["ok"]), Duration::from_secs(3));
    let start = cajitas_rules::Chess960::position(100).unwrap();
    let mut position = start.clone();
    let mut moves = Vec::new();
    for uci in ["a2a4", "a7a5"] {
        let m = uci.parse::<cajitas_rules::Uci>().unwrap();
        let m = m.to_move(&position).unwrap();
        moves.push(position.uci(m).to_string());
        position.play(m);
    }
    let req = |start_fen: String, moves: Vec<String>, position: Position| SearchRequest {
        person: 1,
        requester: 1,
        start_fen,
        moves,
        position,
        limits: Limits {
            movetime: Duration::from_millis(50),
            nodes: None,
            depth: None,
            skill: None,
            fresh: false,
        },
        deadline: Instant::now() + Duration::from_secs(30),
    };
    let got = pool.search(req(start.fen(), moves.clone(), position.clone()));
    let got = got.expect("a legal Chess960 answer");
    assert!(position.legal_moves().contains(&got.best));
    // The same process, a standard game next: the option goes off again.
    let standard = pool.search(req(Position::new().fen(), Vec::new(), Position::new()));
    assert!(standard.is_ok(), "{standard:?}");
    // And on again for a Chess960 game whose only castling is the king onto its rook.
    let castle_fen = "qbbnrnkr/pppppppp/8/8/8/8/8/4R1KR w KQkq - 0 1";
    let castle_pos =
        Position::from_fen_with(castle_fen, cajitas_rules::CastlingMode::Chess960).unwrap();
    let got = pool
        .search(req(castle_fen.into(), Vec::new(), castle_pos.clone()))
        .expect("a legal answer");
    assert!(castle_pos.legal_moves().contains(&got.best));
}
