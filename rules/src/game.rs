//! The game layer: a start position and the moves played, and everything the FIDE Laws say
//! about how the game stands (articles 5, 6.9 and 9).
//!
//! Repetition is tracked cheaply: each position gets its [`PositionKey`] (placement, side to
//! move, castling rights, and the en passant square *only when an en passant capture is
//! really legal*, FIDE 9.2.3), whose placement hash is kept up to date move by move, and a
//! new position is compared, hash first and then exactly, only with the positions since the
//! last capture or pawn move, the only ones it can repeat.

use std::fmt;

use crate::key::{PositionKey, placement_delta, placement_key};
use crate::outcome::{DrawClaim, DrawReason, Outcome, WinReason};
use crate::{Color, Move, MoveList, Position, SanPlus};

/// One position of the current reversible stretch.
#[derive(Debug, Clone)]
struct Seen {
    key: PositionKey,
    /// How many times this position had appeared, this occurrence included.
    count: u32,
}

/// A game: the start position, the moves played, and how it stands.
///
/// ```
/// use cajitas_rules::{Game, Outcome, WinReason, Color, Square, Move, Role};
///
/// // Fool's mate.
/// let mut game = Game::new();
/// for (from, to) in [(Square::F2, Square::F3), (Square::E7, Square::E5),
///                    (Square::G2, Square::G4), (Square::D8, Square::H4)] {
///     let m = game.position().legal_moves().iter().copied()
///         .find(|m| m.from() == from && m.to() == to).unwrap();
///     game.play(m);
/// }
/// assert_eq!(game.outcome(),
///            Some(Outcome::Decisive { winner: Color::Black, reason: WinReason::Checkmate }));
/// assert_eq!(game.moves().len(), 4);
/// ```
#[derive(Debug, Clone)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    /// The positions since the last irreversible move (capture or pawn move), the current
    /// one last.
    window: Vec<Seen>,
    /// The placement part of the current position's key hash, kept up to date move by move.
    placement: u64,
    /// The legal moves of the current position (worked out once per move, for both the
    /// legality check of the next move and the automatic endings).
    legal: MoveList,
    /// The automatic ending of the current position, if any.
    automatic: Option<Outcome>,
    /// An ending decided by a player or the application (claim, resignation, agreement,
    /// timeout).
    decided: Option<Outcome>,
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

/// Why a move could not be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayError {
    /// The game is already over.
    GameOver(Outcome),
    /// The move is not legal in the current position.
    IllegalMove(Move),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver(o) => write!(f, "the game is already over: {o}"),
            PlayError::IllegalMove(_) => f.write_str("that move is not legal in this position"),
        }
    }
}

impl std::error::Error for PlayError {}

/// Why a draw claim was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaimError {
    /// The game is already over.
    GameOver(Outcome),
    /// The move written with the claim is not legal.
    IllegalMove(Move),
    /// Threefold repetition claimed, but the position (now, or after the move written with
    /// the claim) has appeared only `occurrences` times.
    NotRepeated {
        /// How many times it has appeared (or would have, with the move).
        occurrences: u32,
    },
    /// 50-move rule claimed, but only `halfmoves` plies (now, or after the move written with
    /// the claim) were made without a pawn move or a capture; 100 are needed.
    NotFiftyMoves {
        /// Plies without a pawn move or capture.
        halfmoves: u32,
    },
}

impl fmt::Display for ClaimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ClaimError::GameOver(o) => write!(f, "the game is already over: {o}"),
            ClaimError::IllegalMove(_) => {
                f.write_str("the move written with the claim is not legal")
            }
            ClaimError::NotRepeated { occurrences } => write!(
                f,
                "no threefold repetition: the position has appeared {occurrences} time{}, \
                 it must appear three times",
                if occurrences == 1 { "" } else { "s" }
            ),
            ClaimError::NotFiftyMoves { halfmoves } => write!(
                f,
                "no 50-move draw: {} move{} by each player without a pawn move or a capture \
                 ({halfmoves} plies), 50 are needed",
                halfmoves / 2,
                if halfmoves / 2 == 1 { "" } else { "s" }
            ),
        }
    }
}

impl std::error::Error for ClaimError {}

impl Game {
    /// A game from the standard initial position.
    ///
    /// ```
    /// let game = cajitas_rules::Game::new();
    /// assert_eq!(game.position(), &cajitas_rules::Position::new());
    /// assert!(game.outcome().is_none());
    /// ```
    pub fn new() -> Game {
        Game::from_position(Position::new())
    }

    /// A game from any position (e.g. one read from a FEN). The position's halfmove clock
    /// counts toward the 50- and 75-move rules; repetitions count from this position on.
    /// A start position that is already mate, stalemate, dead or past 75 moves is a game
    /// already over.
    ///
    /// ```
    /// use cajitas_rules::{Game, Position, Outcome, DrawReason};
    /// let pos = Position::from_fen("8/8/4k3/8/8/3K4/8/8 w - - 0 1").unwrap();
    /// let game = Game::from_position(pos);
    /// assert_eq!(game.outcome(), Some(Outcome::Draw { reason: DrawReason::DeadPosition }));
    /// ```
    pub fn from_position(position: Position) -> Game {
        let mut game = Game {
            placement: placement_key(position.board()),
            start: position.clone(),
            position,
            moves: Vec::new(),
            window: Vec::new(),
            legal: MoveList::new(),
            automatic: None,
            decided: None,
        };
        game.record_current();
        game
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.moves.last().copied()
    }

    /// The moves played, each in standard SAN (with `+` and `#`): English with `Display`,
    /// Spanish letters or figurines with [`SanPlus::display`](crate::SanPlus::display).
    ///
    /// ```
    /// use cajitas_rules::{Game, Lang, Notation, read_move};
    /// let mut game = Game::new();
    /// for text in ["e4", "e5", "Nf3", "Nc6", "Bb5"] {
    ///     let m = read_move(game.position(), text, Lang::En).unwrap();
    ///     game.play(m);
    /// }
    /// assert_eq!(game.sans(), ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
    /// let spanish: Vec<String> =
    ///     game.sans().iter().map(|s| s.display(Notation::Spanish).to_string()).collect();
    /// assert_eq!(spanish, ["e4", "e5", "Cf3", "Cc6", "Ab5"]);
    /// ```
    pub fn sans(&self) -> Vec<SanPlus> {
        let mut pos = self.start.clone();
        self.moves
            .iter()
            .map(|&m| {
                let san = SanPlus::from_move(&pos, m);
                pos.play_unchecked(m);
                san
            })
            .collect()
    }

    /// How many plies (half-moves) were played.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// How many times the current position has appeared in this game, this time included
    /// (at least 1). Positions compare as FIDE 9.2.3 says: placement, side to move, castling
    /// rights, and whether an en passant capture is possible (their
    /// [`Position::fide_key`]).
    pub fn repetitions(&self) -> u32 {
        self.window.last().map_or(1, |s| s.count)
    }

    /// How the game ended, if it did: an automatic ending of the current position
    /// (checkmate, stalemate, dead position, fivefold repetition, 75-move rule), or one
    /// decided by a claim, a resignation, an agreement or a timeout.
    pub fn outcome(&self) -> Option<Outcome> {
        self.decided.or(self.automatic)
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Plays a legal move, as [`Position::play`] does: for moves the program itself made
    /// legal (taken from [`Position::legal_moves`], or read by [`crate::read_move`] in the
    /// current position) while the game goes on.
    ///
    /// # Panics
    /// When the game is over or `m` is not legal here; use [`Game::try_play`] for moves
    /// from outside.
    ///
    /// ```
    /// use cajitas_rules::Game;
    /// let mut game = Game::new();
    /// let first = game.position().legal_moves()[0];
    /// game.play(first);
    /// assert_eq!(game.ply(), 1);
    /// ```
    pub fn play(&mut self, m: Move) {
        if let Err(e) = self.try_play(m) {
            panic!("{e}: {m} in {}", self.position.fen());
        }
    }

    /// Plays `m` if the game goes on and `m` is legal; otherwise leaves the game as it was.
    ///
    /// # Errors
    /// [`PlayError::GameOver`] once the game has ended (no move is played after checkmate,
    /// a fivefold repetition, a resignation, ...), [`PlayError::IllegalMove`] for a move that
    /// is not legal; the game is then unchanged.
    ///
    /// ```
    /// use cajitas_rules::{Game, Move, PlayError, Role, Square};
    /// let mut game = Game::new();
    /// let bad = Move::Normal { role: Role::Pawn, from: Square::E2, capture: None, to: Square::E5, promotion: None };
    /// assert_eq!(game.try_play(bad), Err(PlayError::IllegalMove(bad)));
    /// assert_eq!(game.ply(), 0);
    /// ```
    pub fn try_play(&mut self, m: Move) -> Result<(), PlayError> {
        if let Some(o) = self.outcome() {
            return Err(PlayError::GameOver(o));
        }
        if !self.legal.contains(&m) {
            return Err(PlayError::IllegalMove(m));
        }
        self.placement ^= placement_delta(self.position.turn(), m);
        self.position.play_unchecked(m);
        self.moves.push(m);
        if self.position.halfmoves() == 0 {
            // A capture or a pawn move: no earlier position can ever appear again.
            self.window.clear();
        }
        self.record_current();
        Ok(())
    }

    /// How many times a position that would follow the current one (the side to move of
    /// the one before it) appeared in the reversible stretch: the count of the latest equal
    /// one. Only every other position can be equal, the ones with the same side to move.
    fn earlier_count(&self, key: &PositionKey) -> u32 {
        self.window
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .find(|s| s.key == *key)
            .map_or(0, |s| s.count)
    }

    /// Records the current position and works out its automatic ending.
    fn record_current(&mut self) {
        let key = self.position.fide_key_with(self.placement);
        let count = self.earlier_count(&key) + 1;
        self.window.push(Seen { key, count });
        self.legal = self.position.legal_moves();
        let pos = &self.position;
        self.automatic = if self.legal.is_empty() {
            Some(if pos.is_check() {
                Outcome::Decisive {
                    winner: !pos.turn(),
                    reason: WinReason::Checkmate,
                }
            } else {
                Outcome::Draw {
                    reason: DrawReason::Stalemate,
                }
            })
        } else if pos.has_insufficient_material() {
            Some(Outcome::Draw {
                reason: DrawReason::DeadPosition,
            })
        } else if count >= 5 {
            Some(Outcome::Draw {
                reason: DrawReason::Fivefold,
            })
        } else if pos.halfmoves() >= 150 {
            // Checked after mate: a mate on the move that reaches 75 moves stands (9.6.2).
            Some(Outcome::Draw {
                reason: DrawReason::SeventyFiveMoves,
            })
        } else {
            None
        };
    }

    /// The draws the player to move may claim now, without a move (FIDE 9.2.2, 9.3.2).
    /// Empty once the game is over.
    ///
    /// ```
    /// use cajitas_rules::{Game, Position, DrawClaim};
    /// let pos = Position::from_fen("8/8/4k3/8/8/3K4/8/R7 w - - 100 80").unwrap();
    /// assert_eq!(Game::from_position(pos).claimable_now(), vec![DrawClaim::FiftyMoves]);
    /// ```
    pub fn claimable_now(&self) -> Vec<DrawClaim> {
        let mut claims = Vec::new();
        if self.is_over() {
            return claims;
        }
        if self.repetitions() >= 3 {
            claims.push(DrawClaim::ThreefoldRepetition);
        }
        if self.position.halfmoves() >= 100 {
            claims.push(DrawClaim::FiftyMoves);
        }
        claims
    }

    /// What playing `m` would give: the plies without progress and the occurrences of the
    /// resulting position.
    fn after(&self, m: Move) -> (u32, u32) {
        let mut next = self.position.clone();
        next.play_unchecked(m);
        let halfmoves = next.halfmoves();
        let occurrences = if halfmoves == 0 {
            1
        } else {
            let placement = self.placement ^ placement_delta(self.position.turn(), m);
            self.earlier_count(&next.fide_key_with(placement)) + 1
        };
        (halfmoves, occurrences)
    }

    /// The draws the player to move could claim by writing `m` and declaring that it will
    /// make the claim correct (FIDE 9.2.1, 9.3.1). Empty for an illegal move or once the
    /// game is over. Claims already valid without a move are not repeated here unless `m`
    /// keeps them valid.
    pub fn claimable_with(&self, m: Move) -> Vec<DrawClaim> {
        let mut claims = Vec::new();
        if self.is_over() || !self.legal.contains(&m) {
            return claims;
        }
        let (halfmoves, occurrences) = self.after(m);
        if occurrences >= 3 {
            claims.push(DrawClaim::ThreefoldRepetition);
        }
        if halfmoves >= 100 {
            claims.push(DrawClaim::FiftyMoves);
        }
        claims
    }

    /// Every draw the player to move could claim now or together with one of their legal
    /// moves, each once, in [`DrawClaim::ALL`] order.
    pub fn claimable(&self) -> Vec<DrawClaim> {
        let mut threefold = false;
        let mut fifty = false;
        for c in self.claimable_now() {
            match c {
                DrawClaim::ThreefoldRepetition => threefold = true,
                DrawClaim::FiftyMoves => fifty = true,
            }
        }
        // Only a reversible move (no capture, no pawn move) can repeat a position or keep
        // the 50-move count going; look at those only when they could matter.
        let look_fifty = !fifty && self.position.halfmoves() >= 99;
        let look_threefold = !threefold && self.window.len() >= 4;
        if !self.is_over() && (look_fifty || look_threefold) {
            for &m in self.legal.iter() {
                if m.is_zeroing() {
                    continue;
                }
                fifty |= look_fifty;
                if look_threefold && !threefold {
                    threefold = self.after(m).1 >= 3;
                }
                if (fifty || !look_fifty) && (threefold || !look_threefold) {
                    break;
                }
            }
        }
        let mut claims = Vec::new();
        if threefold {
            claims.push(DrawClaim::ThreefoldRepetition);
        }
        if fifty {
            claims.push(DrawClaim::FiftyMoves);
        }
        claims
    }

    /// Claims a draw in the current position (FIDE 9.2.2, 9.3.2). A correct claim ends
    /// the game.
    ///
    /// # Errors
    /// [`ClaimError::GameOver`], or why the claim is not correct; the game is then unchanged.
    pub fn claim_draw(&mut self, claim: DrawClaim) -> Result<Outcome, ClaimError> {
        if let Some(o) = self.outcome() {
            return Err(ClaimError::GameOver(o));
        }
        match claim {
            DrawClaim::ThreefoldRepetition if self.repetitions() < 3 => {
                return Err(ClaimError::NotRepeated {
                    occurrences: self.repetitions(),
                });
            }
            DrawClaim::FiftyMoves if self.position.halfmoves() < 100 => {
                return Err(ClaimError::NotFiftyMoves {
                    halfmoves: self.position.halfmoves(),
                });
            }
            _ => {}
        }
        Ok(self.decide(Outcome::Draw {
            reason: claim.reason(),
        }))
    }

    /// Claims a draw with the move about to be played (FIDE 9.2.1, 9.3.1): the claim is
    /// correct when `m` would make it so. A correct claim ends the game and `m` is NOT
    /// played on the board.
    ///
    /// An incorrect claim changes nothing here; FIDE 9.5.1 then has the written move played,
    /// which the application does with [`Game::try_play`] if it follows that rule.
    ///
    /// # Errors
    /// [`ClaimError::GameOver`], [`ClaimError::IllegalMove`], or why the claim is not correct.
    pub fn claim_draw_with(&mut self, m: Move, claim: DrawClaim) -> Result<Outcome, ClaimError> {
        if let Some(o) = self.outcome() {
            return Err(ClaimError::GameOver(o));
        }
        if !self.legal.contains(&m) {
            return Err(ClaimError::IllegalMove(m));
        }
        let (halfmoves, occurrences) = self.after(m);
        match claim {
            DrawClaim::ThreefoldRepetition if occurrences < 3 => {
                Err(ClaimError::NotRepeated { occurrences })
            }
            DrawClaim::FiftyMoves if halfmoves < 100 => {
                Err(ClaimError::NotFiftyMoves { halfmoves })
            }
            _ => Ok(self.decide(Outcome::Draw {
                reason: claim.reason(),
            })),
        }
    }

    fn decide(&mut self, outcome: Outcome) -> Outcome {
        self.decided = Some(outcome);
        outcome
    }

    /// `loser` resigns (FIDE 5.1.2): the other side wins.
    ///
    /// # Errors
    /// [`PlayError::GameOver`] if the game had already ended.
    ///
    /// ```
    /// use cajitas_rules::{Game, Color, Outcome, WinReason};
    /// let mut game = Game::new();
    /// let o = game.resign(Color::White).unwrap();
    /// assert_eq!(o, Outcome::Decisive { winner: Color::Black, reason: WinReason::Resignation });
    /// assert!(game.resign(Color::Black).is_err());
    /// ```
    pub fn resign(&mut self, loser: Color) -> Result<Outcome, PlayError> {
        self.end(Outcome::Decisive {
            winner: !loser,
            reason: WinReason::Resignation,
        })
    }

    /// The players agree to a draw (FIDE 5.2.3).
    ///
    /// # Errors
    /// [`PlayError::GameOver`] if the game had already ended.
    pub fn agree_draw(&mut self) -> Result<Outcome, PlayError> {
        self.end(Outcome::Draw {
            reason: DrawReason::Agreement,
        })
    }

    /// `loser`'s time ran out (FIDE 6.9): the other side wins, unless it cannot checkmate,
    /// which this crate decides by lichess's rule,
    /// [`Position::insufficient_mating_material`] (then
    /// [`DrawReason::TimeoutVsInsufficientMaterial`]). Positions where neither side can mate
    /// were already drawn as dead positions.
    ///
    /// # Errors
    /// [`PlayError::GameOver`] if the game had already ended.
    ///
    /// ```
    /// use cajitas_rules::{Game, Position, Color, Outcome, DrawReason};
    /// // White has only the king; Black's flag falls: a draw.
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/q7/4K3 b - - 0 1").unwrap();
    /// let mut game = Game::from_position(pos);
    /// assert_eq!(game.timeout(Color::Black).unwrap(),
    ///            Outcome::Draw { reason: DrawReason::TimeoutVsInsufficientMaterial });
    /// ```
    pub fn timeout(&mut self, loser: Color) -> Result<Outcome, PlayError> {
        let winner = !loser;
        self.end(if self.position.insufficient_mating_material(winner) {
            Outcome::Draw {
                reason: DrawReason::TimeoutVsInsufficientMaterial,
            }
        } else {
            Outcome::Decisive {
                winner,
                reason: WinReason::Timeout,
            }
        })
    }

    fn end(&mut self, outcome: Outcome) -> Result<Outcome, PlayError> {
        match self.outcome() {
            Some(o) => Err(PlayError::GameOver(o)),
            None => Ok(self.decide(outcome)),
        }
    }
}
