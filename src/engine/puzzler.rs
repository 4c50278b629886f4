//! Puzzles found in a game, with lichess-puzzler's idea (its code is AGPL and was read, not
//! copied): after a mistake, a position where the side to move (the solver) has exactly one
//! winning continuation, checked at each of the solver's steps by the gap in winning chances
//! between the engine's best and second-best moves (a MultiPV 2 search), the line ending in
//! a mate or a decisive gain.
//!
//! 1. Every position of the game is evaluated ([`analyse`], the node budget per position).
//! 2. A position after a move is a candidate when the solver is not already ahead in
//!    material and was not already winning before the move ([`TOO_WINNING_BEFORE_CP`]), and
//!    the move gave them a mate within [`MATE_SOON`] moves, or a gain of [`SWING`] in
//!    winning chances up to at least [`WINNING_CP`] ([`CLEARLY_WINNING_CP`] unless the solver
//!    is down in material).
//! 3. From a candidate the line is followed: at each solver step a MultiPV 2 search must show
//!    an only move ([`only_move`]: [`ONLY_MOVE_GAP`] in winning chances, or a mate in one
//!    whose best non-mating alternative is below [`MATE_IN_ONE_ALTERNATIVE`]); the opponent
//!    answers with the engine's best move. A mate must be followed to the mate, every step an
//!    only move; an advantage line must stay at [`WINNING_CP`] or more at every step, and
//!    ends at the first solver step without an only move, cut back to its last solver move
//!    that had an alternative (a forced move is no step to find). An advantage line needs
//!    two solver moves at least.
//!
//! Thresholds are the constants below, written in the README ("Puzzles from games").

use std::collections::HashSet;

use cajitas_rules::{Color, Game, Move, Position, PositionKey, Role, Uci};

use super::analysis::{Budget, Eval, analyse, winning_chances};
use super::pool::{EngineError, Pool, PvLine, SearchRequest};
use super::uci::{Limits, Score};

/// The nodes of each search unless told otherwise (the positions of the game, and every
/// step of a line): the analysis's default.
pub const DEFAULT_NODES: u64 = 100_000;

/// The least gap in winning chances (−1…+1, lichess's curve, a mate counting as ±1) between
/// the best and the second-best move for the best to be the only move (lichess-puzzler's).
pub const ONLY_MOVE_GAP: f64 = 0.7;

/// A mate in one is an only move when every non-mating move leaves at most these winning
/// chances (any mate solves a puzzle, so other mates do not count). lichess-puzzler's is 0.6;
/// ours keeps a margin below it, since a deeper search sees a non-mating move's chances
/// higher: one of the eight puzzles of `benches/data/classics-32.pgn` had a non-mating move at
/// +2.82 (0.48) at 100,000 nodes, and at 0.62 in the ten times deeper check.
pub const MATE_IN_ONE_ALTERNATIVE: f64 = 0.4;

/// The least gain in the solver's winning chances that the opponent's mistake must give.
pub const SWING: f64 = 0.6;

/// The least evaluation, in centipawns for the solver, after the mistake and at every step of
/// an advantage line: a decisive gain.
pub const WINNING_CP: i32 = 200;

/// The least evaluation after the mistake when the solver is not down in material (a gain
/// from a material deficit may be smaller).
pub const CLEARLY_WINNING_CP: i32 = 400;

/// A solver already this far ahead before the mistake (centipawns) gets no advantage puzzle:
/// only a mate then.
pub const TOO_WINNING_BEFORE_CP: i32 = 300;

/// The longest mate followed, in the solver's moves.
pub const MATE_SOON: i32 = 15;

/// The most solver moves of an advantage line: beyond them the line is cut.
pub const MAX_SOLVER_MOVES: usize = 10;

/// A final evaluation of this many centipawns or more makes an advantage puzzle `crushing`.
pub const CRUSHING_CP: i32 = 600;

/// How a found line ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// In checkmate.
    Mate,
    /// In a decisive gain: the engine's evaluation for the solver after their last move.
    Advantage {
        /// In centipawns (a mate the line does not reach counts as [`CRUSHING_CP`]).
        cp: i32,
    },
}

/// A puzzle found in a game.
#[derive(Debug, Clone, PartialEq)]
pub struct FoundPuzzle {
    /// The mistake's index in the game's moves (0: White's first move).
    pub ply: usize,
    /// The position before the mistake (the row's FEN).
    pub before: Position,
    /// The mistake, then the solver's moves and the replies in turn, the solver's last.
    pub line: Vec<Move>,
    /// How the line ends.
    pub ending: Ending,
    /// Its themes, lichess's ids, sorted.
    pub themes: Vec<&'static str>,
}

impl FoundPuzzle {
    /// How many moves the solver must find.
    pub fn solver_moves(&self) -> usize {
        self.line.len() / 2
    }

    /// The line in UCI, space-separated (the row's `Moves`).
    pub fn moves_uci(&self) -> String {
        self.line
            .iter()
            .map(|&m| Uci::from_move(m).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The puzzle as a row of lichess's CSV ([`crate::puzzles::HEADER`]): rating 1500,
    /// deviation 500, no plays yet, `game_url` as given (commas left out: the file has no
    /// quoting), no opening tags, no daily date.
    pub fn row(&self, id: &str, game_url: &str) -> String {
        let url: String = game_url
            .chars()
            .filter(|c| *c != ',' && !c.is_control())
            .collect();
        format!(
            "{id},{},{},{START_RATING},{START_DEVIATION},0,0,{},{url},,",
            self.before.fen(),
            self.moves_uci(),
            self.themes.join(" ")
        )
    }
}

/// A found puzzle's first rating, as lichess starts a player.
pub const START_RATING: i32 = 1500;
/// A found puzzle's first rating deviation.
pub const START_DEVIATION: i32 = 500;

/// A puzzle's id, the same for the same game and ply: `c` and seven base-62 digits of a
/// 64-bit FNV-1a hash of `game` (anything naming the game: its id, or its moves) and `ply`.
/// Eight characters, so never one of lichess's five-character ids.
pub fn puzzle_id(game: &str, ply: usize) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in game.bytes().chain([0xff]).chain(ply.to_le_bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    const DIGITS: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut id = String::from("c");
    for _ in 0..7 {
        id.push(char::from(DIGITS[(h % 62) as usize]));
        h /= 62;
    }
    id
}

/// What the finder searches with, and for whom in the pool's fair queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Search {
    /// Nodes per search, from an empty hash on one thread (the same answers every time).
    pub nodes: u64,
    /// The person the searches are for in the pool's queue.
    pub person: u64,
}

impl Default for Search {
    fn default() -> Self {
        Search {
            nodes: DEFAULT_NODES,
            person: 0,
        }
    }
}

/// The puzzles of `game`: its positions evaluated at `search.nodes` each, then every
/// candidate followed ([`Finder`]). `progress(done, total)` counts the evaluated positions.
/// Blocking: call it from a thread of its own.
pub fn find_puzzles(
    pool: &Pool,
    game: &Game,
    search: Search,
    progress: impl FnMut(usize, usize),
) -> Result<Vec<FoundPuzzle>, EngineError> {
    let analysis = analyse(
        pool,
        game,
        Budget::nodes(search.nodes),
        search.person,
        progress,
    )?;
    Finder::new(pool, search).find(game.start(), game.moves(), &analysis.evals)
}

/// The search for puzzles in one game, given its evaluations.
pub struct Finder<'a> {
    pool: &'a Pool,
    search: Search,
    requester: u64,
}

/// Searches of the finder are requesters of their own in the pool's queue.
static NEXT_FINDER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// The material of `side` in pawns (1, 3, 3, 5, 9).
fn material(pos: &Position, side: Color) -> i32 {
    let board = pos.board();
    [
        (Role::Pawn, 1),
        (Role::Knight, 3),
        (Role::Bishop, 3),
        (Role::Rook, 5),
        (Role::Queen, 9),
    ]
    .iter()
    .map(|&(role, value)| {
        let n = (board.by_role(role) & board.by_color(side)).count();
        value * i32::try_from(n).unwrap_or(0)
    })
    .sum()
}

/// The solver's material less the opponent's.
fn material_diff(pos: &Position, side: Color) -> i32 {
    material(pos, side) - material(pos, !side)
}

/// Winning chances for the side a score is from, a mate counting as ±1.
pub fn chances(score: Score) -> f64 {
    match score {
        Score::Cp(cp) => winning_chances(cp),
        Score::Mate(m) if m > 0 => 1.0,
        Score::Mate(_) => -1.0,
    }
}

/// Whether `score` is at least `cp` centipawns (a mate for that side always is).
fn at_least(score: Score, cp: i32) -> bool {
    match score {
        Score::Cp(c) => c >= cp,
        Score::Mate(m) => m > 0,
    }
}

/// A mate for that side within [`MATE_SOON`] moves.
fn mate_soon(score: Score) -> bool {
    matches!(score, Score::Mate(m) if m > 0 && m <= MATE_SOON)
}

fn to_score(e: Eval, side: Color) -> Score {
    let s = match e {
        Eval::Cp(cp) => Score::Cp(cp),
        Eval::Mate(m) => Score::Mate(m),
    };
    if side == Color::White { s } else { s.flip() }
}

/// Whether the best of `lines` (a MultiPV search, best first) is the only move: no second
/// move, or [`ONLY_MOVE_GAP`] between them; a mate in one is the only move when the best
/// non-mating move, `best_non_mate` (asked only then), leaves at most
/// [`MATE_IN_ONE_ALTERNATIVE`].
pub fn only_move(lines: &[PvLine], best_non_mate: impl FnOnce() -> Option<Score>) -> bool {
    let Some(best) = lines.first() else {
        return false;
    };
    let Some(second) = lines.get(1) else {
        return true;
    };
    if best.score == Score::Mate(1) {
        if second.score != Score::Mate(1) {
            return chances(second.score) <= MATE_IN_ONE_ALTERNATIVE;
        }
        return best_non_mate().is_none_or(|s| chances(s) <= MATE_IN_ONE_ALTERNATIVE);
    }
    chances(best.score) > chances(second.score) + ONLY_MOVE_GAP
}

/// One step of a line: the move, and whether its position had another move.
struct Step {
    mv: Move,
    had_alternative: bool,
    score: Score,
}

impl<'a> Finder<'a> {
    /// A finder asking `pool`.
    pub fn new(pool: &'a Pool, search: Search) -> Finder<'a> {
        Finder {
            pool,
            search,
            requester: (1 << 61) | NEXT_FINDER.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// The puzzles of the game from `start` with `moves`, given `evals`, one per position
    /// (White's view, as [`analyse`] gives them). A position inside a puzzle already found
    /// (the game followed its line) gives no second one.
    pub fn find(
        &self,
        start: &Position,
        moves: &[Move],
        evals: &[Eval],
    ) -> Result<Vec<FoundPuzzle>, EngineError> {
        let mut found: Vec<FoundPuzzle> = Vec::new();
        let mut covered: HashSet<PositionKey> = HashSet::new();
        let mut history: Vec<PositionKey> = vec![start.fide_key()];
        let mut before = start.clone();
        for (ply, &mistake) in moves.iter().enumerate() {
            let mut after = before.clone();
            after.play(mistake);
            history.push(after.fide_key());
            if let (Some(&prev), Some(&now)) = (evals.get(ply), evals.get(ply + 1))
                && !covered.contains(&after.fide_key())
                && let Some(p) = self.at(ply, &before, mistake, (prev, now), &history)?
            {
                let mut pos = before.clone();
                for &m in &p.line {
                    pos.play(m);
                    covered.insert(pos.fide_key());
                }
                found.push(p);
            }
            before = after;
        }
        Ok(found)
    }

    /// The puzzle after `mistake`, played in `before` (evaluated `prev`, then `now`), if
    /// there is one; `history` holds the game's positions up to the one after it.
    fn at(
        &self,
        ply: usize,
        before: &Position,
        mistake: Move,
        (prev, now): (Eval, Eval),
        history: &[PositionKey],
    ) -> Result<Option<FoundPuzzle>, EngineError> {
        let mut after = before.clone();
        after.play(mistake);
        let after = &after;
        let solver = after.turn();
        let (prev, score) = (to_score(prev, solver), to_score(now, solver));
        if after.legal_moves().len() < 2 {
            return Ok(None);
        }
        if at_least(prev, TOO_WINNING_BEFORE_CP) && !mate_soon(score) {
            return Ok(None);
        }
        if material_diff(after, solver) > 0 {
            return Ok(None);
        }
        let steps = if mate_soon(score) {
            self.cook(after, history, true)?
        } else if at_least(score, WINNING_CP) && chances(score) > chances(prev) + SWING {
            if !at_least(score, CLEARLY_WINNING_CP) && material_diff(after, solver) > -1 {
                return Ok(None);
            }
            self.cook(after, history, false)?
        } else {
            None
        };
        let Some((steps, ending)) = steps else {
            return Ok(None);
        };
        let mut line = vec![mistake];
        line.extend(steps.iter().map(|s| s.mv));
        let themes = themes(ply, after, &line, ending);
        Ok(Some(FoundPuzzle {
            ply,
            before: before.clone(),
            line,
            ending,
            themes,
        }))
    }

    /// The line from `start` (the solver to move): a mate (`mate`), else an advantage.
    fn cook(
        &self,
        start: &Position,
        history: &[PositionKey],
        mate: bool,
    ) -> Result<Option<(Vec<Step>, Ending)>, EngineError> {
        let solver = start.turn();
        let mut pos = start.clone();
        let mut played: Vec<Move> = Vec::new();
        let mut keys: Vec<PositionKey> = history.to_vec();
        let mut steps: Vec<Step> = Vec::new();
        loop {
            if pos.is_checkmate() {
                return Ok(mate.then_some((steps, Ending::Mate)));
            }
            if pos.legal_moves().is_empty() || pos.has_insufficient_material() {
                return Ok(None);
            }
            let solvers_turn = pos.turn() == solver;
            if solvers_turn && !mate && steps.len() / 2 >= MAX_SOLVER_MOVES {
                break;
            }
            if solvers_turn && mate && steps.len() / 2 >= MATE_SOON as usize {
                return Ok(None);
            }
            let lines = self.lines(start, &played, &pos, if solvers_turn { 2 } else { 1 })?;
            let Some(best) = lines.first().copied() else {
                return Ok(None);
            };
            let for_solver = if solvers_turn {
                best.score
            } else {
                best.score.flip()
            };
            if mate && !mate_soon(for_solver) {
                return Ok(None);
            }
            if !mate && !at_least(for_solver, WINNING_CP) {
                return Ok(None);
            }
            if solvers_turn {
                let non_mate = self.non_mate_if_needed(&lines, start, &played, &pos)?;
                if !only_move(&lines, || non_mate) {
                    if mate {
                        return Ok(None);
                    }
                    break;
                }
            }
            steps.push(Step {
                mv: best.first,
                had_alternative: pos.legal_moves().len() > 1,
                score: for_solver,
            });
            pos.play(best.first);
            played.push(best.first);
            let key = pos.fide_key();
            if keys.contains(&key) {
                return Ok(None);
            }
            keys.push(key);
        }
        // An advantage line: cut back to a solver move that had an alternative.
        while let Some(last) = steps.last() {
            if steps.len().is_multiple_of(2) || !last.had_alternative {
                steps.pop();
            } else {
                break;
            }
        }
        if steps.len() < 3 {
            return Ok(None);
        }
        let cp = match steps.last().map(|s| s.score) {
            Some(Score::Cp(cp)) => cp,
            _ => CRUSHING_CP,
        };
        Ok(Some((steps, Ending::Advantage { cp })))
    }

    /// The only move of the side to move in `pos`, by [`only_move`] at this finder's budget;
    /// `None` when it has two good moves or none.
    pub fn only_move_in(&self, pos: &Position) -> Result<Option<Move>, EngineError> {
        let lines = self.lines(pos, &[], pos, 2)?;
        let non_mate = self.non_mate_if_needed(&lines, pos, &[], pos)?;
        let only = only_move(&lines, || non_mate);
        Ok(lines.first().filter(|_| only).map(|l| l.first))
    }

    /// [`Finder::best_non_mate`] when [`only_move`] needs it (two mates in one among
    /// `lines`), asked before the check so that an engine failure is an error, never a
    /// verdict.
    fn non_mate_if_needed(
        &self,
        lines: &[PvLine],
        start: &Position,
        played: &[Move],
        pos: &Position,
    ) -> Result<Option<Score>, EngineError> {
        let two_mates = lines.len() > 1 && lines.iter().take(2).all(|l| l.score == Score::Mate(1));
        if two_mates {
            self.best_non_mate(start, played, pos)
        } else {
            Ok(None)
        }
    }

    /// A MultiPV search of `pos`, reached from `start` by `played`.
    fn lines(
        &self,
        start: &Position,
        played: &[Move],
        pos: &Position,
        multipv: u32,
    ) -> Result<Vec<PvLine>, EngineError> {
        let found = self.pool.search_lines(
            SearchRequest {
                person: self.search.person,
                requester: self.requester,
                start_fen: start.fen(),
                moves: played
                    .iter()
                    .map(|&m| Uci::from_move(m).to_string())
                    .collect(),
                position: pos.clone(),
                limits: Limits::fresh_nodes(self.search.nodes, None),
                deadline: std::time::Instant::now() + super::analysis::POSITION_WAIT,
            },
            multipv,
        )?;
        Ok(found.lines)
    }

    /// The score of the best move of `pos` that does not mate at once (a search of one line
    /// more than it has mates in one), `None` when every move mates.
    fn best_non_mate(
        &self,
        start: &Position,
        played: &[Move],
        pos: &Position,
    ) -> Result<Option<Score>, EngineError> {
        let mates = pos
            .legal_moves()
            .iter()
            .filter(|&&m| {
                let mut p = pos.clone();
                p.play(m);
                p.is_checkmate()
            })
            .count();
        let lines = self.lines(start, played, pos, mates as u32 + 1)?;
        Ok(lines
            .iter()
            .find(|l| l.score != Score::Mate(1))
            .map(|l| l.score))
    }
}

/// The themes of a line from `after` (the solver to move, `ply` the mistake's index), sorted:
/// `mate` and `mateInN` (N the solver's moves; `mateIn5` is five or more, as lichess's), or
/// `crushing`/`advantage`; `oneMove`, `short` (2), `long` (3) or `veryLong` (4 or more);
/// the phase of `after` ([`phase`]).
pub fn themes(ply: usize, after: &Position, line: &[Move], ending: Ending) -> Vec<&'static str> {
    let solver_moves = line.len() / 2;
    let mut t = Vec::new();
    match ending {
        Ending::Mate => {
            t.push("mate");
            t.push(match solver_moves {
                0 | 1 => "mateIn1",
                2 => "mateIn2",
                3 => "mateIn3",
                4 => "mateIn4",
                _ => "mateIn5",
            });
        }
        Ending::Advantage { cp } if cp >= CRUSHING_CP => t.push("crushing"),
        Ending::Advantage { .. } => t.push("advantage"),
    }
    t.push(match solver_moves {
        0 | 1 => "oneMove",
        2 => "short",
        3 => "long",
        _ => "veryLong",
    });
    t.push(phase(ply, after));
    t.sort_unstable();
    t
}

/// The phase of a position, with the two simple tests of lila's `Divider` (not its
/// mixedness score): `endgame` with six knights, bishops, rooks and queens or fewer;
/// `middlegame` with ten or fewer, or a back rank with fewer than four of its side's pieces,
/// or after move 20 (ply 40); else `opening`.
pub fn phase(ply: usize, pos: &Position) -> &'static str {
    let board = pos.board();
    let majors_minors = (board.occupied() & !board.pawns() & !board.kings()).count();
    if majors_minors <= 6 {
        return "endgame";
    }
    let sparse = |side: Color, rank: u32| {
        board
            .by_color(side)
            .into_iter()
            .filter(|sq| sq.rank() as u32 == rank)
            .count()
            < 4
    };
    if majors_minors <= 10 || sparse(Color::White, 0) || sparse(Color::Black, 7) || ply >= 40 {
        "middlegame"
    } else {
        "opening"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(score: Score) -> PvLine {
        PvLine {
            first: Position::new().legal_moves()[0],
            score,
            depth: 10,
        }
    }

    #[test]
    fn the_only_move_needs_the_gap_in_winning_chances() {
        let never = || -> Option<Score> { panic!("not asked") };
        // +8 against +0.5: a gap of 0.90 - 0.09 > 0.7; +5 against +0.5 only 0.73 - 0.09.
        assert!(only_move(
            &[line(Score::Cp(800)), line(Score::Cp(50))],
            never
        ));
        assert!(!only_move(
            &[line(Score::Cp(500)), line(Score::Cp(50))],
            never
        ));
        // Two winning moves: +5 and +3 (0.73 and 0.50).
        assert!(!only_move(
            &[line(Score::Cp(500)), line(Score::Cp(300))],
            never
        ));
        // Two mates, however far apart, are two winning moves.
        assert!(!only_move(
            &[line(Score::Mate(2)), line(Score::Mate(5))],
            never
        ));
        assert!(only_move(
            &[line(Score::Mate(3)), line(Score::Cp(-100))],
            never
        ));
        // One legal move is the only one; no line is none.
        assert!(only_move(&[line(Score::Cp(900))], never));
        assert!(!only_move(&[], never));
        // A mate in one: another mate is fine, a winning non-mate is not.
        assert!(only_move(
            &[line(Score::Mate(1)), line(Score::Cp(150))],
            never
        ));
        assert!(!only_move(
            &[line(Score::Mate(1)), line(Score::Cp(800))],
            never
        ));
        assert!(only_move(
            &[line(Score::Mate(1)), line(Score::Mate(1))],
            || Some(Score::Cp(0))
        ));
        assert!(!only_move(
            &[line(Score::Mate(1)), line(Score::Mate(1))],
            || Some(Score::Mate(2))
        ));
    }

    #[test]
    fn ids_are_eight_characters_the_same_for_the_same_game_and_ply() {
        let a = puzzle_id("e2e4 e7e5", 3);
        assert_eq!(a.len(), 8);
        assert!(a.starts_with('c') && a.chars().all(|c| c.is_ascii_alphanumeric()));
        assert_eq!(a, puzzle_id("e2e4 e7e5", 3));
        assert_ne!(a, puzzle_id("e2e4 e7e5", 4));
        assert_ne!(a, puzzle_id("e2e4 e7e6", 3));
    }

    #[test]
    fn themes_say_the_ending_the_length_and_the_phase() {
        let start = Position::new();
        let m = start.legal_moves()[0];
        assert_eq!(
            themes(3, &start, &[m, m], Ending::Mate),
            ["mate", "mateIn1", "oneMove", "opening"]
        );
        assert_eq!(
            themes(50, &start, &[m; 6], Ending::Advantage { cp: 700 }),
            ["crushing", "long", "middlegame"]
        );
        let ending = Position::from_fen("4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1").unwrap();
        assert_eq!(
            themes(80, &ending, &[m; 4], Ending::Advantage { cp: 250 }),
            ["advantage", "endgame", "short"]
        );
        assert_eq!(themes(9, &start, &[m; 14], Ending::Mate)[1], "mateIn5");
    }
}
