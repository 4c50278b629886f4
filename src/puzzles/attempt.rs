//! One attempt at a puzzle, as lichess plays it: a pure state machine over the puzzle's line.
//!
//! - The opponent's move (`moves[0]`) is played for the solver when the attempt starts.
//! - The solver must play `moves[1]`, `moves[3]`, …; each right move is answered with the
//!   next move of the line, and the last one solves the puzzle.
//! - A move that checkmates is always right, even when the line has another, and it solves
//!   the puzzle at once.
//! - Any other move fails the attempt; the rest of the line is its solution.
//! - A hint names the piece to move (its role and square) and marks the attempt hinted,
//!   which the service does not rate; asking for the solution fails it.
//!
//! The state an attempt needs besides its puzzle is how many moves of the line were played,
//! whether a hint was given, and whether it is over: a stored attempt still being played is
//! [`Attempt::resume`]d from those.

use cajitas_rules::{Color, Move, Position, Role, Square};

use super::Puzzle;

/// Where an attempt stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AttemptState {
    /// The solver is to move.
    Playing,
    /// Every move found, or a mate.
    Solved,
    /// A wrong move, or the solution asked for.
    Failed,
}

/// What a solver's move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Right; the opponent replied with `reply`, and the solver is to move again.
    Continue {
        /// The solver's move.
        played: Move,
        /// The line's next move, played for the opponent.
        reply: Move,
    },
    /// Right, and the puzzle is solved.
    Solved {
        /// The solver's move.
        played: Move,
    },
    /// Wrong: the attempt failed; `expected` was the line's move.
    Failed {
        /// The solver's move, not played on the board.
        played: Move,
        /// The line's move.
        expected: Move,
    },
}

/// The attempt is over: nothing more can be played, hinted or given up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotPlaying(pub AttemptState);

/// The hint: the piece the line moves next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hint {
    /// Its role.
    pub role: Role,
    /// Its square.
    pub from: Square,
}

/// One attempt at a puzzle.
#[derive(Clone, Debug)]
pub struct Attempt<'p> {
    puzzle: &'p Puzzle,
    position: Position,
    played: usize,
    last: Move,
    hinted: bool,
    state: AttemptState,
}

impl<'p> Attempt<'p> {
    /// Starts an attempt: the opponent's first move is played.
    pub fn start(puzzle: &'p Puzzle) -> Attempt<'p> {
        let mut position = puzzle.start.clone();
        let first = puzzle.moves[0];
        position.play(first);
        Attempt {
            puzzle,
            position,
            played: 1,
            last: first,
            hinted: false,
            state: AttemptState::Playing,
        }
    }

    /// An attempt still being played, from its stored state: `played` moves of the line on
    /// the board (an odd number below the line's length: the solver to move). `None` for a
    /// state no attempt in progress can have.
    pub fn resume(puzzle: &'p Puzzle, played: usize, hinted: bool) -> Option<Attempt<'p>> {
        if played % 2 != 1 || played >= puzzle.moves.len() {
            return None;
        }
        let mut position = puzzle.start.clone();
        for &m in &puzzle.moves[..played] {
            position.play(m);
        }
        Some(Attempt {
            puzzle,
            position,
            played,
            last: puzzle.moves[played - 1],
            hinted,
            state: AttemptState::Playing,
        })
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &'p Puzzle {
        self.puzzle
    }

    /// The position on the board (after a failure, before the wrong move).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The last move played on the board.
    pub fn last_move(&self) -> Move {
        self.last
    }

    /// How many moves of the line were played (the opponent's first included; a mate off the
    /// line counts as the line's move it replaced).
    pub fn played(&self) -> usize {
        self.played
    }

    /// Whether a hint was given.
    pub fn hinted(&self) -> bool {
        self.hinted
    }

    /// Where it stands.
    pub fn state(&self) -> AttemptState {
        self.state
    }

    /// The solver's colour.
    pub fn solver(&self) -> Color {
        self.puzzle.solver()
    }

    /// The rest of the line from the solver's next (or failed) move: what the solution shows.
    pub fn solution(&self) -> &'p [Move] {
        let from = self.played.min(self.puzzle.moves.len());
        &self.puzzle.moves[from..]
    }

    fn playing(&self) -> Result<(), NotPlaying> {
        match self.state {
            AttemptState::Playing => Ok(()),
            s => Err(NotPlaying(s)),
        }
    }

    /// The solver plays `m` (a legal move of [`Attempt::position`]; an illegal one fails
    /// like any wrong move).
    pub fn answer(&mut self, m: Move) -> Result<Answer, NotPlaying> {
        self.playing()?;
        let expected = self.puzzle.moves[self.played];
        let mates = self.position.is_legal(m) && {
            let mut after = self.position.clone();
            after.play(m);
            after.is_checkmate()
        };
        if m != expected && !mates {
            self.state = AttemptState::Failed;
            return Ok(Answer::Failed {
                played: m,
                expected,
            });
        }
        self.position.play(m);
        self.played += 1;
        self.last = m;
        if mates || self.played == self.puzzle.moves.len() {
            self.state = AttemptState::Solved;
            return Ok(Answer::Solved { played: m });
        }
        let reply = self.puzzle.moves[self.played];
        self.position.play(reply);
        self.played += 1;
        self.last = reply;
        Ok(Answer::Continue { played: m, reply })
    }

    /// The piece to move; the attempt is hinted from now on.
    pub fn hint(&mut self) -> Result<Hint, NotPlaying> {
        self.playing()?;
        self.hinted = true;
        let m = self.puzzle.moves[self.played];
        Ok(Hint {
            role: m.role(),
            from: m.from(),
        })
    }

    /// The solver gives up: the attempt fails, and the solution is the rest of the line.
    pub fn give_up(&mut self) -> Result<&'p [Move], NotPlaying> {
        self.playing()?;
        self.state = AttemptState::Failed;
        Ok(self.solution())
    }
}

#[cfg(test)]
mod tests {
    use cajitas_rules::{Lang, Uci, read_move};

    use super::super::{HEADER, PuzzleSet, shared};
    use super::*;

    fn uci(pos: &Position, text: &str) -> Move {
        text.parse::<Uci>().unwrap().to_move(pos).unwrap()
    }

    #[test]
    fn every_shipped_puzzle_is_solved_by_its_own_line() {
        let mut mates = 0;
        for p in shared().all() {
            let mut a = Attempt::start(p);
            assert_eq!(a.position().turn(), p.solver(), "{}", p.id);
            let mut i = 1;
            loop {
                match a.answer(p.moves[i]).unwrap() {
                    Answer::Continue { played, reply } => {
                        assert_eq!((played, reply), (p.moves[i], p.moves[i + 1]), "{}", p.id);
                        i += 2;
                    }
                    Answer::Solved { played } => {
                        assert_eq!(played, p.moves[i], "{}", p.id);
                        break;
                    }
                    Answer::Failed { .. } => panic!("{} failed its own line at {i}", p.id),
                }
            }
            assert_eq!(a.state(), AttemptState::Solved);
            // Only a mate ends a line early; a line solved by its own moves is played whole.
            if a.played() < p.moves.len() {
                assert!(a.position().is_checkmate(), "{}", p.id);
            }
            if p.has_theme("mate") {
                assert!(a.position().is_checkmate(), "{} is a mate", p.id);
                mates += 1;
            }
            assert_eq!(a.answer(p.moves[1]), Err(NotPlaying(AttemptState::Solved)));
        }
        assert_eq!(mates, 892);
    }

    #[test]
    fn a_mate_in_one_with_two_mates_accepts_both() {
        // After ...c6, Ra8# and Rb8# both mate; the line lists Ra8.
        let csv = format!(
            "{HEADER}\ntwo01,7k/2p3pp/8/8/8/8/8/RR4K1 b - - 0 1,c7c6 a1a8,900,80,90,10,mate mateIn1,,,\n"
        );
        let (set, bad) = PuzzleSet::parse(&csv);
        assert_eq!(bad, []);
        let p = set.get("two01").unwrap();
        for text in ["Ra8", "Rb8#", "b1b8", "Tb8"] {
            let mut a = Attempt::start(p);
            let lang = if text.starts_with('T') {
                Lang::Es
            } else {
                Lang::En
            };
            let m = read_move(a.position(), text, lang).unwrap();
            assert_eq!(a.answer(m).unwrap(), Answer::Solved { played: m }, "{text}");
            assert!(a.position().is_checkmate());
            assert_eq!(a.last_move(), m);
        }
        // A rook move that does not mate fails.
        let mut a = Attempt::start(p);
        let wrong = uci(a.position(), "b1b7");
        assert_eq!(
            a.answer(wrong).unwrap(),
            Answer::Failed {
                played: wrong,
                expected: p.moves[1]
            }
        );
    }

    #[test]
    fn a_mate_off_a_longer_line_solves_it_at_once() {
        // The line mates in two (Rb7, then Rb8#), but Ra8# mates at once.
        let csv = format!(
            "{HEADER}\nlong1,7k/2p3pp/8/8/8/8/8/RR4K1 b - - 0 1,c7c6 b1b7 c6c5 b7b8,900,80,90,10,mate mateIn2,,,\n"
        );
        let (set, bad) = PuzzleSet::parse(&csv);
        assert_eq!(bad, []);
        let p = set.get("long1").unwrap();
        let mut a = Attempt::start(p);
        let mate = uci(a.position(), "a1a8");
        assert_eq!(a.answer(mate).unwrap(), Answer::Solved { played: mate });
        assert_eq!(a.played(), 2);
        assert!(a.position().is_checkmate());
        // The line itself solves it too, in two.
        let mut b = Attempt::start(p);
        assert!(matches!(
            b.answer(p.moves[1]).unwrap(),
            Answer::Continue { .. }
        ));
        assert_eq!(
            b.answer(p.moves[3]).unwrap(),
            Answer::Solved { played: p.moves[3] }
        );
    }

    #[test]
    fn a_wrong_move_fails_and_shows_the_solution() {
        let p = shared().get("002X3").unwrap(); // mate in 2: g2a8 c7b8 a8b8
        let mut a = Attempt::start(p);
        let wrong = uci(a.position(), "g2g4");
        assert_eq!(
            a.answer(wrong).unwrap(),
            Answer::Failed {
                played: wrong,
                expected: p.moves[1]
            }
        );
        assert_eq!(a.state(), AttemptState::Failed);
        assert_eq!(a.solution(), &p.moves[1..]);
        // The board stays before the wrong move, and nothing more can be done.
        assert_eq!(a.last_move(), p.moves[0]);
        assert_eq!(a.answer(p.moves[1]), Err(NotPlaying(AttemptState::Failed)));
        assert_eq!(a.hint(), Err(NotPlaying(AttemptState::Failed)));
        assert_eq!(a.give_up(), Err(NotPlaying(AttemptState::Failed)));
    }

    #[test]
    fn a_hint_names_the_piece_and_marks_the_attempt() {
        let p = shared().get("002X3").unwrap();
        let mut a = Attempt::start(p);
        assert!(!a.hinted());
        let h = a.hint().unwrap();
        assert_eq!((h.role, h.from), (Role::Queen, Square::G2));
        assert!(a.hinted());
        // Right moves still count after a hint; the second step's hint names its piece.
        assert!(matches!(
            a.answer(p.moves[1]).unwrap(),
            Answer::Continue { .. }
        ));
        assert_eq!(a.hint().unwrap().from, Square::A8);
        assert_eq!(a.played(), 3);
        // Resumed from its stored state, it is the same attempt.
        let b = Attempt::resume(p, 3, true).unwrap();
        assert_eq!(b.position(), a.position());
        assert_eq!(b.last_move(), a.last_move());
        assert!(b.hinted());
        assert!(Attempt::resume(p, 2, false).is_none());
        assert!(Attempt::resume(p, 4, false).is_none());
        assert!(Attempt::resume(p, 5, false).is_none());
        // Giving up fails it and shows the rest of the line.
        let mut c = Attempt::resume(p, 3, false).unwrap();
        assert_eq!(c.give_up().unwrap(), &p.moves[3..]);
        assert_eq!(c.state(), AttemptState::Failed);
    }
}
