//! Analysing a finished game: the engine evaluates every position at a fixed budget, and
//! each move is judged by lichess's rule (lila's `Advice`): the drop in the mover's winning
//! chances, `2 / (1 + exp(−0.00368208 · cp)) − 1`, of 0.1, 0.2 or 0.3 is an inaccuracy, a
//! mistake or a blunder; a move where a mate for the opponent appears, or the mover's own
//! forced mate disappears, is judged by the evaluation on the other side of it.
//!
//! [`judge`] is a pure function of the evaluations; [`analyse`] asks the pool.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use cajitas_rules::{Color, Game, Move, Position, Uci};

use super::pool::{EngineError, Pool, SearchRequest};
use super::uci::{Limits, Score};

/// The node budget per position unless configured otherwise (`CAJITAS_ANALYSIS_NODES`):
/// see the README for why. Searched from an empty hash on one thread, the same game gets the
/// same report on a quiet or a loaded machine.
pub const DEFAULT_NODES: u64 = crate::config::DEFAULT_ANALYSIS_NODES;

/// How long one position may wait in the pool's queue, counted from when it is sent to the
/// pool (an analysis sends its positions as the pool drains, a few at a time); a position
/// that waited longer is sent again, keeping the work already done.
pub const POSITION_WAIT: Duration = Duration::from_secs(300);

/// How often one position is sent again, after waiting [`POSITION_WAIT`] in vain or after the
/// engine failed on it twice (killed and restarted each time), before the analysis gives up.
pub const POSITION_RESENDS: u32 = 3;

/// An evaluation from White's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns, positive when White is better.
    Cp(i32),
    /// Mate in this many moves, positive for White; a position already mated is ±1 (the
    /// mate is on the board).
    Mate(i32),
}

impl Eval {
    /// The evaluation in pawns, clamped at ±`clamp`, a mate counting as the clamp.
    pub fn pawns(self, clamp: f32) -> f32 {
        match self {
            Eval::Cp(cp) => (cp as f32 / 100.0).clamp(-clamp, clamp),
            Eval::Mate(m) if m >= 0 => clamp,
            Eval::Mate(_) => -clamp,
        }
    }

    fn for_side(self, side: Color) -> Eval {
        match (self, side) {
            (e, Color::White) => e,
            (Eval::Cp(cp), Color::Black) => Eval::Cp(cp.saturating_neg()),
            (Eval::Mate(m), Color::Black) => Eval::Mate(m.saturating_neg()),
        }
    }

    fn cp(self) -> Option<i32> {
        match self {
            Eval::Cp(cp) => Some(cp),
            Eval::Mate(_) => None,
        }
    }

    fn mate(self) -> Option<i32> {
        match self {
            Eval::Mate(m) => Some(m),
            Eval::Cp(_) => None,
        }
    }
}

/// The centipawn ceiling of lichess's move advice (scalachess's `Cp.CEILING`): both
/// evaluations are capped at ±1000 before their winning chances are compared, so a move
/// from +30 to +4.5 pawns, still winning, is not judged as if it threw the game away.
pub const ADVICE_CEILING: i32 = 1000;

/// [`winning_chances`] of a score capped at [`ADVICE_CEILING`], as the advice compares them.
fn advice_chances(cp: i32) -> f64 {
    winning_chances(cp.clamp(-ADVICE_CEILING, ADVICE_CEILING))
}

/// Winning chances on a −1…+1 scale for a centipawn score (lichess's curve).
pub fn winning_chances(cp: i32) -> f64 {
    (2.0 / (1.0 + (-0.003_682_08 * f64::from(cp)).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// How bad a move was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// A drop of 0.1 in winning chances.
    Inaccuracy,
    /// A drop of 0.2.
    Mistake,
    /// A drop of 0.3.
    Blunder,
}

impl Judgement {
    /// A stable identifier (`inaccuracy`, `mistake`, `blunder`) for texts.
    pub fn as_str(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

/// Why a move was judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// Its winning chances dropped.
    Chances,
    /// A forced mate against the mover appeared.
    MateCreated,
    /// The mover's forced mate was lost.
    MateLost,
}

/// One judged move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Advice {
    /// The move's index (0 for White's first move).
    pub ply: usize,
    /// Who played it.
    pub mover: Color,
    /// How bad.
    pub judgement: Judgement,
    /// Why.
    pub reason: Reason,
    /// The mover's drop in winning chances (0–2), mates counting as ±1: orders the worst.
    pub drop: f64,
}

/// The lichess judgement of the move from `prev` to `next` (both from White's point of
/// view) played by `mover`.
pub fn advice(prev: Eval, next: Eval, mover: Color) -> Option<(Judgement, Reason)> {
    if let (Some(p), Some(n)) = (prev.cp(), next.cp()) {
        let delta = match mover {
            Color::White => advice_chances(p) - advice_chances(n),
            Color::Black => advice_chances(n) - advice_chances(p),
        };
        let j = if delta >= 0.3 {
            Judgement::Blunder
        } else if delta >= 0.2 {
            Judgement::Mistake
        } else if delta >= 0.1 {
            Judgement::Inaccuracy
        } else {
            return None;
        };
        return Some((j, Reason::Chances));
    }
    // Mate advice, from the mover's point of view.
    let (p, n) = (prev.for_side(mover), next.for_side(mover));
    let prev_cp = p.cp().unwrap_or(0);
    let next_cp = n.cp().unwrap_or(0);
    match (p.mate(), n.mate()) {
        (None, Some(m)) if m < 0 => Some((
            if prev_cp < -999 {
                Judgement::Inaccuracy
            } else if prev_cp < -700 {
                Judgement::Mistake
            } else {
                Judgement::Blunder
            },
            Reason::MateCreated,
        )),
        (Some(m), None) if m > 0 => Some((mate_lost(next_cp), Reason::MateLost)),
        (Some(m), Some(k)) if m > 0 && k < 0 => Some((mate_lost(next_cp), Reason::MateLost)),
        _ => None,
    }
}

fn mate_lost(next_cp: i32) -> Judgement {
    if next_cp > 999 {
        Judgement::Inaccuracy
    } else if next_cp > 700 {
        Judgement::Mistake
    } else {
        Judgement::Blunder
    }
}

fn chances(e: Eval, side: Color) -> f64 {
    match e.for_side(side) {
        Eval::Cp(cp) => advice_chances(cp),
        Eval::Mate(m) if m >= 0 => 1.0,
        Eval::Mate(_) => -1.0,
    }
}

/// Judges every move of a game: `evals` has one evaluation per position (the moves plus
/// one), `start_turn` is the side to move in the first. A move the engine itself chose as the
/// best in its position (`best[ply] == moves[ply]`) is never judged: two searches that
/// disagree by a hair must not call the engine's own move an inaccuracy.
pub fn judge(
    evals: &[Eval],
    start_turn: Color,
    moves: &[Move],
    best: &[Option<Move>],
) -> Vec<Advice> {
    let mut mover = start_turn;
    let mut out = Vec::new();
    for (ply, pair) in evals.windows(2).enumerate() {
        let engines_own = matches!(
            (moves.get(ply), best.get(ply)),
            (Some(m), Some(Some(b))) if m == b
        );
        if !engines_own && let Some((judgement, reason)) = advice(pair[0], pair[1], mover) {
            out.push(Advice {
                ply,
                mover,
                judgement,
                reason,
                drop: chances(pair[0], mover) - chances(pair[1], mover),
            });
        }
        mover = !mover;
    }
    out
}

/// A finished analysis.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The game's start position.
    pub start: Position,
    /// The moves.
    pub moves: Vec<Move>,
    /// One evaluation per position (`moves.len() + 1`).
    pub evals: Vec<Eval>,
    /// The engine's best move in each position (none where the game was over).
    pub best: Vec<Option<Move>>,
    /// The judged moves, in order.
    pub advices: Vec<Advice>,
}

impl Analysis {
    /// Inaccuracies, mistakes and blunders of `side`.
    pub fn counts(&self, side: Color) -> [usize; 3] {
        let mut c = [0; 3];
        for a in self.advices.iter().filter(|a| a.mover == side) {
            c[a.judgement as usize] += 1;
        }
        c
    }

    /// The `n` worst moves, worst first (by judgement, then by the drop).
    pub fn worst(&self, n: usize) -> Vec<Advice> {
        let mut all = self.advices.clone();
        all.sort_by(|a, b| {
            b.judgement
                .cmp(&a.judgement)
                .then(b.drop.total_cmp(&a.drop))
                .then(a.ply.cmp(&b.ply))
        });
        all.truncate(n);
        all
    }

    /// The position before move `ply`.
    pub fn position_before(&self, ply: usize) -> Position {
        let mut pos = self.start.clone();
        for &m in self.moves.iter().take(ply) {
            pos.play(m);
        }
        pos
    }

    /// The evaluations in pawns for a chart, clamped at ±`clamp`.
    pub fn pawns(&self, clamp: f32) -> Vec<f32> {
        self.evals.iter().map(|e| e.pawns(clamp)).collect()
    }
}

impl Analysis {
    /// The analysis of the game from `start` with `moves`, given the engine's evaluation
    /// (`evals`, White's view, one per position) and best move of each position: what a stored
    /// report holds. `None` when the lengths do not fit the game.
    pub fn from_evals(
        start: Position,
        moves: Vec<Move>,
        evals: Vec<Eval>,
        best: Vec<Option<Move>>,
    ) -> Option<Analysis> {
        if evals.len() != moves.len() + 1 || best.len() != evals.len() {
            return None;
        }
        let advices = judge(&evals, start.turn(), &moves, &best);
        Some(Analysis {
            start,
            moves,
            evals,
            best,
            advices,
        })
    }

    /// The evaluations and best moves as text, to store: one `cp:N` or `mate:N` per
    /// position, then `|`, then one UCI move (or `-`) per position.
    pub fn to_record(&self) -> String {
        let evals: Vec<String> = self
            .evals
            .iter()
            .map(|e| match e {
                Eval::Cp(cp) => format!("cp:{cp}"),
                Eval::Mate(m) => format!("mate:{m}"),
            })
            .collect();
        let best: Vec<String> = self
            .best
            .iter()
            .map(|b| {
                b.map_or_else(
                    || "-".to_owned(),
                    |m| Uci::from_move_with(m, self.start.castling_mode()).to_string(),
                )
            })
            .collect();
        format!("{}|{}", evals.join(" "), best.join(" "))
    }

    /// The analysis of `game` from a record of [`Analysis::to_record`]; `None` when the
    /// record does not fit the game (a best move that is not legal in its position, a count
    /// that differs).
    pub fn from_record(game: &Game, record: &str) -> Option<Analysis> {
        let (evals, best) = record.split_once('|')?;
        let evals: Vec<Eval> = evals
            .split_ascii_whitespace()
            .map(|w| match w.split_once(':')? {
                ("cp", n) => n.parse().ok().map(Eval::Cp),
                ("mate", n) => n.parse().ok().map(Eval::Mate),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let mut pos = game.start().clone();
        let mut moves_best = Vec::new();
        for (i, w) in best.split_ascii_whitespace().enumerate() {
            moves_best.push(if w == "-" {
                None
            } else {
                Some(w.parse::<Uci>().ok()?.to_move(&pos).ok()?)
            });
            if let Some(&m) = game.moves().get(i) {
                pos.play(m);
            }
        }
        Analysis::from_evals(
            game.start().clone(),
            game.moves().to_vec(),
            evals,
            moves_best,
        )
    }
}

/// The budget per position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// The nodes to search (`go nodes`), the default: the same work on any machine at any
    /// load, so the same report every time.
    pub nodes: Option<u64>,
    /// The deepest depth, if capped.
    pub depth: Option<u32>,
    /// The time per position, used when `nodes` is `None` (`cajitas analyse --movetime`):
    /// the report then depends on the machine's speed.
    pub movetime: Duration,
}

impl Default for Budget {
    fn default() -> Self {
        Budget::nodes(DEFAULT_NODES)
    }
}

impl Budget {
    /// `nodes` nodes per position, no depth cap.
    pub fn nodes(nodes: u64) -> Budget {
        Budget {
            nodes: Some(nodes.max(1)),
            depth: None,
            movetime: Duration::ZERO,
        }
    }

    /// What each position's search is limited by: always from an empty hash, on one thread.
    pub fn limits(&self) -> Limits {
        match self.nodes {
            Some(n) => Limits::fresh_nodes(n, self.depth),
            None => Limits {
                movetime: self.movetime.max(Duration::from_millis(1)),
                nodes: None,
                depth: self.depth,
                skill: None,
                fresh: true,
            },
        }
    }

    /// A name of this budget, to store reports under: only a report of the same budget
    /// answers a request again.
    pub fn key(&self) -> String {
        let mut key = match self.nodes {
            Some(n) => format!("nodes={n}"),
            None => format!("movetime={}", self.movetime.as_millis()),
        };
        if let Some(d) = self.depth {
            key.push_str(&format!(",depth={d}"));
        }
        key
    }
}

/// Analyses are requesters of their own in the pool's fair queue.
static NEXT_ANALYSIS: AtomicU64 = AtomicU64::new(1);

/// The evaluation of a position the rules already decide (mate, stalemate, a dead
/// position), without asking the engine.
fn decided(pos: &Position) -> Option<Eval> {
    if pos.is_checkmate() {
        return Some(Eval::Mate(match pos.turn() {
            Color::White => -1,
            Color::Black => 1,
        }));
    }
    if pos.is_stalemate() || pos.has_insufficient_material() {
        return Some(Eval::Cp(0));
    }
    None
}

/// Analyses `game` with `pool` at `budget` for `person` (whose turn in the pool's fair queue
/// the positions take), calling `progress(done, total)` as positions come back (blocking:
/// call it from a thread of its own, never an async runtime worker).
///
/// The positions go to the pool as it drains, as many at a time as it has processes, so an
/// analysis never fills the queue, and each position's wait is counted from when it is sent.
/// A position that waited [`POSITION_WAIT`] in vain, or on which the engine failed, is sent
/// again (at most [`POSITION_RESENDS`] times), keeping every answer already in: a busy pool
/// slows an analysis down but does not throw its work away.
pub fn analyse(
    pool: &Pool,
    game: &Game,
    budget: Budget,
    person: u64,
    mut progress: impl FnMut(usize, usize),
) -> Result<Analysis, EngineError> {
    let start = game.start().clone();
    let moves = game.moves().to_vec();
    let start_fen = start.fen();
    let total = moves.len() + 1;
    let requester = (1 << 62) | NEXT_ANALYSIS.fetch_add(1, Ordering::Relaxed);
    let mut evals: Vec<Option<Eval>> = vec![None; total];
    let mut best: Vec<Option<Move>> = vec![None; total];
    // The positions the engine must search: (index, moves before it, the position).
    let mut todo: std::collections::VecDeque<(usize, usize, Position)> = Default::default();
    let mut ucis: Vec<String> = Vec::with_capacity(moves.len());
    let mut pos = start.clone();
    for (i, eval) in evals.iter_mut().enumerate() {
        match decided(&pos) {
            Some(e) => *eval = Some(e),
            None => todo.push_back((i, ucis.len(), pos.clone())),
        }
        if let Some(&m) = moves.get(i) {
            ucis.push(pos.uci(m).to_string());
            pos.play(m);
        }
    }
    let limits = budget.limits();
    let window = pool.config().processes.max(1);
    let (tx, rx) = channel();
    let send = |(i, ply, position): (usize, usize, Position)| {
        let turn = position.turn();
        let tx = tx.clone();
        pool.submit(
            SearchRequest {
                person,
                requester,
                start_fen: start_fen.clone(),
                moves: ucis[..ply].to_vec(),
                position: position.clone(),
                limits,
                deadline: Instant::now() + POSITION_WAIT,
            },
            move |r| {
                let _ = tx.send((i, ply, position, turn, r));
            },
        );
    };
    let mut done = total - todo.len();
    progress(done, total);
    let mut in_flight = 0;
    let mut resends = vec![0u32; total];
    while in_flight > 0 || !todo.is_empty() {
        while in_flight < window
            && let Some(next) = todo.pop_front()
        {
            send(next);
            in_flight += 1;
        }
        let Ok((i, ply, position, turn, r)) = rx.recv() else {
            return Err(EngineError::Closed);
        };
        in_flight -= 1;
        let found = match r {
            Ok(found) => found,
            Err(EngineError::Expired | EngineError::Failed(_)) if resends[i] < POSITION_RESENDS => {
                resends[i] += 1;
                todo.push_front((i, ply, position));
                continue;
            }
            Err(e) => return Err(e),
        };
        // The engine speaks for the side to move; the chart and the rule want White's view.
        let e = match found.score {
            Some(Score::Cp(cp)) => Eval::Cp(cp),
            Some(Score::Mate(m)) => Eval::Mate(m),
            None => Eval::Cp(0),
        };
        evals[i] = Some(e.for_side(turn));
        best[i] = Some(found.best);
        done += 1;
        progress(done, total);
    }
    let evals: Vec<Eval> = evals
        .into_iter()
        .map(|e| e.ok_or(EngineError::Closed))
        .collect::<Result<_, _>>()?;
    Analysis::from_evals(start, moves, evals, best).ok_or(EngineError::Closed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winning_chances_follow_lichess() {
        assert_eq!(winning_chances(0), 0.0);
        assert!((winning_chances(100) - 0.1820).abs() < 1e-3);
        assert!((winning_chances(-300) + 0.5023).abs() < 1e-3);
        assert!(winning_chances(100_000) <= 1.0);
    }

    #[test]
    fn drops_are_judged_for_the_mover() {
        use Color::*;
        // White drops from +1 to -1: 0.18 in chances each way, 0.36 in all.
        assert_eq!(
            advice(Eval::Cp(100), Eval::Cp(-100), White),
            Some((Judgement::Blunder, Reason::Chances))
        );
        // The same evaluations are an improvement when Black made the move.
        assert_eq!(advice(Eval::Cp(100), Eval::Cp(-100), Black), None);
        assert_eq!(
            advice(Eval::Cp(0), Eval::Cp(-60), White),
            Some((Judgement::Inaccuracy, Reason::Chances))
        );
        assert_eq!(
            advice(Eval::Cp(0), Eval::Cp(120), Black),
            Some((Judgement::Mistake, Reason::Chances))
        );
        assert_eq!(advice(Eval::Cp(0), Eval::Cp(-20), White), None);
    }

    #[test]
    fn evaluations_are_capped_at_ten_pawns_before_judging_like_lila() {
        use Color::*;
        // +30 to +4.5 pawns: uncapped a drop of 0.32 (a blunder); capped at +10, 0.27.
        assert_eq!(
            advice(Eval::Cp(3000), Eval::Cp(450), White),
            Some((Judgement::Mistake, Reason::Chances))
        );
        // Anything above the ceiling is the same: no judgement between +30 and +12.
        assert_eq!(advice(Eval::Cp(3000), Eval::Cp(1200), White), None);
        assert_eq!(
            advice(Eval::Cp(-2500), Eval::Cp(-450), Black),
            Some((Judgement::Mistake, Reason::Chances))
        );
    }

    #[test]
    fn mates_are_judged_like_lila() {
        use Color::*;
        // White lets Black mate: a blunder unless White was already lost.
        assert_eq!(
            advice(Eval::Cp(0), Eval::Mate(-3), White),
            Some((Judgement::Blunder, Reason::MateCreated))
        );
        assert_eq!(
            advice(Eval::Cp(-800), Eval::Mate(-3), White),
            Some((Judgement::Mistake, Reason::MateCreated))
        );
        assert_eq!(
            advice(Eval::Cp(-1200), Eval::Mate(-3), White),
            Some((Judgement::Inaccuracy, Reason::MateCreated))
        );
        // Black had mate and lost it.
        assert_eq!(
            advice(Eval::Mate(-2), Eval::Cp(-300), Black),
            Some((Judgement::Blunder, Reason::MateLost))
        );
        assert_eq!(
            advice(Eval::Mate(-2), Eval::Cp(-1500), Black),
            Some((Judgement::Inaccuracy, Reason::MateLost))
        );
        assert_eq!(
            advice(Eval::Mate(-2), Eval::Mate(4), Black),
            Some((Judgement::Blunder, Reason::MateLost))
        );
        // A slower mate is not judged.
        assert_eq!(advice(Eval::Mate(2), Eval::Mate(5), White), None);
    }

    #[test]
    fn counts_and_worst_moves() {
        let evals = [
            Eval::Cp(20),
            Eval::Cp(-400),
            Eval::Cp(-380),
            Eval::Mate(-1),
            Eval::Mate(-1),
        ];
        let advices = judge(&evals, Color::White, &[], &[]);
        assert_eq!(advices.len(), 2);
        let a = Analysis {
            start: Position::new(),
            moves: Vec::new(),
            evals: evals.to_vec(),
            best: vec![None; 5],
            advices,
        };
        assert_eq!(a.counts(Color::White), [0, 0, 2]);
        assert_eq!(a.counts(Color::Black), [0, 0, 0]);
        let worst = a.worst(3);
        // Both blunders; the larger drop first.
        assert_eq!((worst[0].ply, worst[1].ply), (0, 2), "{worst:?}");
        assert_eq!(a.pawns(10.0), vec![0.2, -4.0, -3.8, -10.0, -10.0]);
    }

    fn uci(pos: &Position, text: &str) -> Move {
        text.parse::<Uci>().unwrap().to_move(pos).unwrap()
    }

    #[test]
    fn the_engines_own_move_is_never_judged() {
        let pos = Position::new();
        let (e4, d4) = (uci(&pos, "e2e4"), uci(&pos, "d2d4"));
        // +0.3 to -0.4 for White: a drop of 0.13, an inaccuracy ...
        let evals = [Eval::Cp(30), Eval::Cp(-40)];
        assert_eq!(judge(&evals, Color::White, &[e4], &[None]).len(), 1);
        assert_eq!(judge(&evals, Color::White, &[e4], &[Some(d4)]).len(), 1);
        // ... unless the move played is the one the engine chose: "e4, best was e4" never.
        assert!(judge(&evals, Color::White, &[e4], &[Some(e4)]).is_empty());
    }

    #[test]
    fn a_stored_record_gives_back_the_same_analysis_and_refuses_what_does_not_fit() {
        let mut game = Game::new();
        let start = game.position().clone();
        let e4 = uci(&start, "e2e4");
        game.play(e4);
        let e5 = uci(game.position(), "e7e5");
        game.play(e5);
        let after = {
            let mut p = start.clone();
            p.play(e4);
            p
        };
        let a = Analysis::from_evals(
            start.clone(),
            vec![e4, e5],
            vec![Eval::Cp(20), Eval::Cp(-200), Eval::Mate(-3)],
            vec![Some(uci(&start, "d2d4")), Some(uci(&after, "c7c5")), None],
        )
        .unwrap();
        let record = a.to_record();
        assert_eq!(record, "cp:20 cp:-200 mate:-3|d2d4 c7c5 -");
        let back = Analysis::from_record(&game, &record).unwrap();
        assert_eq!(back.evals, a.evals);
        assert_eq!(back.best, a.best);
        assert_eq!(back.advices, a.advices);
        // A record of another game (a best move illegal here, or another length) is refused.
        assert!(Analysis::from_record(&game, "cp:20 cp:-200 mate:-3|e7e5 c7c5 -").is_none());
        assert!(Analysis::from_record(&game, "cp:20 cp:-200|d2d4 c7c5").is_none());
        assert!(Analysis::from_record(&game, "nonsense").is_none());
    }
}
