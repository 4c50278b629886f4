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

/// The budget per position, unless configured otherwise: depth 14 or 100 ms, whichever
/// comes first.
pub const DEFAULT_DEPTH: u32 = 14;
/// See [`DEFAULT_DEPTH`].
pub const DEFAULT_MOVETIME: Duration = Duration::from_millis(100);

/// How long one position may wait in the pool's queue.
pub const POSITION_WAIT: Duration = Duration::from_secs(300);

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
/// one), `start_turn` is the side to move in the first.
pub fn judge(evals: &[Eval], start_turn: Color) -> Vec<Advice> {
    let mut mover = start_turn;
    let mut out = Vec::new();
    for (ply, pair) in evals.windows(2).enumerate() {
        if let Some((judgement, reason)) = advice(pair[0], pair[1], mover) {
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

/// The budget per position.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// The deepest depth.
    pub depth: u32,
    /// The longest time.
    pub movetime: Duration,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            depth: DEFAULT_DEPTH,
            movetime: DEFAULT_MOVETIME,
        }
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

/// Analyses `game` with `pool` at `budget`, calling `progress(done, total)` as positions
/// come back (blocking: call it from a thread of its own, never an async runtime worker).
pub fn analyse(
    pool: &Pool,
    game: &Game,
    budget: Budget,
    mut progress: impl FnMut(usize, usize),
) -> Result<Analysis, EngineError> {
    let start = game.start().clone();
    let moves = game.moves().to_vec();
    let start_fen = start.fen();
    let total = moves.len() + 1;
    let requester = (1 << 62) | NEXT_ANALYSIS.fetch_add(1, Ordering::Relaxed);
    let mut evals: Vec<Option<Eval>> = vec![None; total];
    let mut best: Vec<Option<Move>> = vec![None; total];
    let (tx, rx) = channel();
    let mut pos = start.clone();
    let mut ucis: Vec<String> = Vec::with_capacity(moves.len());
    let mut asked = 0;
    for (i, eval) in evals.iter_mut().enumerate() {
        if let Some(e) = decided(&pos) {
            *eval = Some(e);
        } else {
            let turn = pos.turn();
            let tx = tx.clone();
            asked += 1;
            pool.submit(
                SearchRequest {
                    requester,
                    start_fen: start_fen.clone(),
                    moves: ucis.clone(),
                    position: pos.clone(),
                    limits: Limits {
                        movetime: budget.movetime,
                        depth: Some(budget.depth),
                        skill: None,
                    },
                    deadline: Instant::now() + POSITION_WAIT,
                },
                move |r| {
                    let _ = tx.send((i, turn, r));
                },
            );
        }
        if let Some(&m) = moves.get(i) {
            ucis.push(Uci::from_move(m).to_string());
            pos.play(m);
        }
    }
    drop(tx);
    let mut done = total - asked;
    progress(done, total);
    for (i, turn, r) in rx {
        let found = r?;
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
    let advices = judge(&evals, start.turn());
    Ok(Analysis {
        start,
        moves,
        evals,
        best,
        advices,
    })
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
        let advices = judge(&evals, Color::White);
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
}
