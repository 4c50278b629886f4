//! The engine as a shared resource, with the real Stockfish at the shipped defaults (one
//! process per core less one, 16 MB hash, one thread; 100,000 nodes per analysed position):
//!
//! 1. **Fair per person.** One engine process. Person A keeps 20 games against level 8 waiting
//!    for a move (each answered search is asked again at once, as a game whose person answers
//!    at once would), person B plays one game against level 8: B's waits for the engine's move,
//!    p99 of `FAIR_SAMPLES` (default 10), against 2 × the per-move budget (level 8's million
//!    nodes, timed alone first). The pool serves people in turn, so B waits for at most one of
//!    A's searches besides its own.
//! 2. **Analyses survive load.** Ten people analyse ten 80-ply games at once through the
//!    analysis queue (`CAJITAS_ANALYSES`: the processes): all finish, each with the report the
//!    same game got alone, and an eleventh person is told their place.
//! 3. **The same verdicts every time.** One game analysed `DETERMINISM_RUNS` times (default 20)
//!    on a quiet machine, then as many times beside two busy loops (one per core, at normal
//!    priority, so the `SCHED_IDLE` engine gets what they leave): identical evaluations, best
//!    moves and verdicts every time.
//!
//! Human moves' latency while the engine works is `engine_load`'s measure. Run with
//! `cargo bench --bench engine_fair` (without an engine it says it was skipped and exits 0).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use cajitas::config::EngineSettings;
use cajitas::engine::{Analysis, AnalysisQueue, Budget, Level, SearchRequest, analyse, pool_from};
use cajitas_rules::{Game, Lang, Position, Uci};

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn level8(person: u64, requester: u64, pos: &Position, moves: &[String]) -> SearchRequest {
    SearchRequest {
        person,
        requester,
        start_fen: Position::new().fen(),
        moves: moves.to_vec(),
        position: pos.clone(),
        limits: Level::get(8).limits(),
        deadline: Instant::now() + Duration::from_secs(600),
    }
}

/// An 80-ply game of random legal moves (seeded), or shorter if the rules end it first.
fn random_game(seed: u64) -> Game {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut game = Game::new();
    while game.moves().len() < 80 {
        let legal = game.position().legal_moves();
        if legal.is_empty() || game.try_play(legal[rng.usize(..legal.len())]).is_err() {
            break;
        }
    }
    game
}

fn fairness(settings: &EngineSettings) {
    let pool = pool_from(&EngineSettings {
        processes: 1,
        ..settings.clone()
    })
    .unwrap();
    let samples = env_usize("FAIR_SAMPLES", 10);
    let start = Position::new();
    let opening: Vec<String> = vec!["e2e4".into(), "e7e5".into(), "g1f3".into()];
    let mut pos = start.clone();
    for m in &opening {
        let mv = m.parse::<Uci>().unwrap().to_move(&pos).unwrap();
        pos.play(mv);
    }
    // The per-move budget: one level-8 search alone.
    let t0 = Instant::now();
    pool.search(level8(2, 1, &pos, &opening)).unwrap();
    let budget = t0.elapsed();
    // A's twenty games, each asking again as soon as it is answered.
    let stop = Arc::new(AtomicBool::new(false));
    let (again_tx, again_rx) = mpsc::channel::<u64>();
    for game in 0..20u64 {
        again_tx.send(game).unwrap();
    }
    let a_pool = pool.clone();
    let a_stop = Arc::clone(&stop);
    let (a_pos, a_moves) = (pos.clone(), opening.clone());
    let driver = std::thread::spawn(move || {
        let mut asked = 0u64;
        while !a_stop.load(Ordering::Relaxed) {
            let Ok(game) = again_rx.recv_timeout(Duration::from_millis(100)) else {
                continue;
            };
            let tx = again_tx.clone();
            asked += 1;
            a_pool.submit(level8(0xA, 100 + game, &a_pos, &a_moves), move |_| {
                let _ = tx.send(game);
            });
        }
        asked
    });
    std::thread::sleep(Duration::from_millis(200));
    let mut waits = Vec::new();
    for _ in 0..samples {
        let t0 = Instant::now();
        pool.search(level8(0xB, 1, &pos, &opening)).unwrap();
        waits.push(t0.elapsed());
    }
    stop.store(true, Ordering::Relaxed);
    let a_asked = driver.join().unwrap();
    waits.sort();
    let p99 = waits[((waits.len() * 99).div_ceil(100)).saturating_sub(1)];
    let p50 = waits[waits.len() / 2];
    println!(
        "1. fairness, one process: level 8 alone {:.2} s; B's move while A keeps 20 games \
         waiting ({a_asked} searches asked): p50 {:.2} s, p99 {:.2} s of {samples} = {:.2} × \
         the budget (target <= 2: {})",
        budget.as_secs_f64(),
        p50.as_secs_f64(),
        p99.as_secs_f64(),
        p99.as_secs_f64() / budget.as_secs_f64(),
        if p99 <= budget * 2 { "met" } else { "NOT met" }
    );
}

fn analyses(settings: &EngineSettings) {
    let pool = pool_from(settings).unwrap();
    let budget = Budget::nodes(settings.analysis_nodes);
    let games: Vec<Game> = (0..10).map(|i| random_game(1000 + i)).collect();
    let t0 = Instant::now();
    let alone: Vec<Analysis> = games
        .iter()
        .enumerate()
        .map(|(i, g)| analyse(&pool, g, budget, i as u64, |_, _| {}).unwrap())
        .collect();
    let alone_secs = t0.elapsed().as_secs_f64();
    let queue = AnalysisQueue::new(settings.analyses);
    let t0 = Instant::now();
    let mut tickets: Vec<_> = (0..10u64)
        .map(|person| queue.enter(person).unwrap())
        .collect();
    let eleventh = queue.enter(10).unwrap();
    let place = eleventh.ahead();
    let handles: Vec<_> = tickets
        .drain(..)
        .zip(games.iter().cloned())
        .enumerate()
        .map(|(i, (mut ticket, game))| {
            let pool = pool.clone();
            std::thread::spawn(move || {
                ticket.wait_turn(|_| {});
                let a = analyse(&pool, &game, budget, i as u64, |_, _| {});
                drop(ticket);
                a
            })
        })
        .collect();
    let mut same = 0;
    let mut finished = 0;
    for (h, a) in handles.into_iter().zip(&alone) {
        if let Ok(Ok(b)) = h.join() {
            finished += 1;
            if b.evals == a.evals && b.best == a.best && b.advices == a.advices {
                same += 1;
            }
        }
    }
    drop(eleventh);
    let plies: usize = games.iter().map(|g| g.moves().len()).sum();
    println!(
        "2. ten analyses of {plies} plies in all, {} at once, {} nodes a position: alone one \
         after the other {alone_secs:.1} s; at once {:.1} s; {finished}/10 finished, {same}/10 \
         with the report they had alone; the eleventh person was told {place} waiting ahead, \
         besides the {} running (target: 10/10, 10/10, 10 ahead in all: {})",
        settings.analyses,
        settings.analysis_nodes,
        t0.elapsed().as_secs_f64(),
        settings.analyses,
        if finished == 10 && same == 10 && place + settings.analyses >= 10 {
            "met"
        } else {
            "NOT met"
        }
    );
}

fn determinism(settings: &EngineSettings) {
    let pool = pool_from(settings).unwrap();
    let runs = env_usize("DETERMINISM_RUNS", 20);
    let game =
        cajitas_rules::pgn::read_game("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0", Lang::En)
            .unwrap()
            .game;
    let budget = Budget::nodes(settings.analysis_nodes);
    let verdicts = |a: &Analysis| -> Vec<String> {
        a.advices
            .iter()
            .map(|v| format!("{}:{}", v.ply, v.judgement.as_str()))
            .collect()
    };
    let first = analyse(&pool, &game, budget, 1, |_, _| {}).unwrap();
    let mut same = 0;
    let t0 = Instant::now();
    for _ in 0..runs {
        let a = analyse(&pool, &game, budget, 1, |_, _| {}).unwrap();
        same += usize::from(a.evals == first.evals && a.best == first.best);
    }
    let quiet = t0.elapsed().as_secs_f64();
    let stop = Arc::new(AtomicBool::new(false));
    let loops: Vec<_> = (0..2)
        .map(|_| {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
            })
        })
        .collect();
    let t0 = Instant::now();
    let mut busy_same = 0;
    for _ in 0..runs {
        let a = analyse(&pool, &game, budget, 1, |_, _| {}).unwrap();
        busy_same += usize::from(a.evals == first.evals && a.best == first.best);
    }
    let busy = t0.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    for l in loops {
        let _ = l.join();
    }
    println!(
        "3. 1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Qxf7# at {} nodes: verdicts {:?}; identical in \
         {same}/{runs} quiet runs ({quiet:.1} s) and {busy_same}/{runs} beside two busy loops \
         ({busy:.1} s) (target: all: {})",
        settings.analysis_nodes,
        verdicts(&first),
        if same == runs && busy_same == runs {
            "met"
        } else {
            "NOT met"
        }
    );
}

fn main() {
    let settings = match EngineSettings::from_env() {
        Ok(s) if s.program.is_some() => s,
        _ => {
            println!(
                "engine_fair: SKIPPED, no chess engine on this machine (apt-get install stockfish)"
            );
            return;
        }
    };
    let only = std::env::var("ENGINE_FAIR_ONLY").unwrap_or_default();
    if only.is_empty() || only.contains('1') {
        fairness(&settings);
    }
    if only.is_empty() || only.contains('2') {
        analyses(&settings);
    }
    if only.is_empty() || only.contains('3') {
        determinism(&settings);
    }
}
