//! Playing: moves, resignation, draw offers and claims, abort, and the one step every ending
//! goes through.

use cajitas_rules::{Color, DrawReason, Outcome, Uci, WinReason};

use super::load::{ABORTED, Loaded, apply_ending, side};
use super::time_control::{self, ClockState};
use super::{
    ChannelRef, Done, Failure, GameError, GameService, GameView, Lang, MoveResult, Notice,
    NoticeKind, TimeControl, UserRef,
};
use crate::store::{
    DrawOfferRow, Ending, EventKind, GameStatus, MoveRow, OfferStatus, Tx, UserRow,
};

/// How a game ends.
#[derive(Debug, Clone, Copy)]
pub(super) enum GameEnd<'a> {
    /// With a result; `claim_move` is the UCI of a move written with a draw claim but not
    /// played (FIDE 9.2/9.3).
    Over {
        outcome: Outcome,
        claim_move: Option<&'a str>,
    },
    /// Without a result (before both players moved).
    Aborted,
}

/// What [`GameService::in_game`] found: the transaction, the game, the actor and their
/// colour, the time of the operation, and where its notices go (see [`Done`]).
pub(super) struct Turn<'a> {
    pub tx: &'a dyn Tx,
    pub game: Loaded,
    pub me: UserRow,
    pub mine: Color,
    pub now: i64,
    pub out: &'a mut Vec<Notice>,
}

impl Turn<'_> {
    /// Records the actor's current name (after the operation's own checks passed).
    pub(super) fn record_actor(&self) -> Result<(), GameError> {
        Ok(self.tx.upsert_user(&self.me, self.now)?)
    }

    /// Refuses an action made for another position than the game's (a button or move made
    /// at `expected` plies).
    pub(super) fn check_ply(&self, expected: Option<u32>) -> Result<(), GameError> {
        GameService::check_ply(&self.game, expected)
    }

    /// Refuses an action made for another game than the channel's (a button of an earlier
    /// game in the same channel).
    pub(super) fn check_game(&self, expected: Option<i64>) -> Result<(), GameError> {
        match expected {
            Some(id) if id != self.game.row.id => Err(GameError::PositionChanged),
            _ => Ok(()),
        }
    }
}

/// What an action was made against, as the player saw it: the game (a button knows it) and
/// its ply. An action whose game or ply is no longer the channel's is refused with
/// [`GameError::PositionChanged`], in the same transaction as the action.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Seen {
    /// The game's id, when known.
    pub game: Option<i64>,
    /// The game's ply, when known.
    pub ply: Option<u32>,
}

impl Seen {
    /// A button's view: game `game` at ply `ply`.
    pub fn at(game: i64, ply: u32) -> Seen {
        Seen {
            game: Some(game),
            ply: Some(ply),
        }
    }
}

impl From<Option<u32>> for Seen {
    fn from(ply: Option<u32>) -> Seen {
        Seen { game: None, ply }
    }
}

impl GameService {
    /// The opening every operation on a game in progress shares: cap the actor, open a
    /// write, load the game the actor means at `ch` (see [`GameService::locate`]), check
    /// that the actor plays in it, and end it on time when the player to move's deadline has
    /// passed (then the operation is refused with [`GameError::TimeRanOut`], the ending
    /// committed, with its notices). `op` then does the operation's own checks and writes,
    /// in the same transaction; its result comes back with the notices its commit calls for.
    pub(super) fn in_game<T>(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        op: impl FnOnce(Turn<'_>) -> Result<T, GameError>,
    ) -> Result<(T, Vec<Notice>), GameError> {
        self.in_game_at(actor, ch, None, op)
    }

    /// [`in_game`](Self::in_game) for game `game` when given (a button knows its game,
    /// wherever it is clicked): a game no longer in progress is refused as
    /// [`GameError::PositionChanged`].
    pub(super) fn in_game_at<T>(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        game: Option<i64>,
        op: impl FnOnce(Turn<'_>) -> Result<T, GameError>,
    ) -> Result<(T, Vec<Notice>), GameError> {
        let me = actor.capped();
        let mut engine_game = None;
        let mut out = Vec::new();
        let done = self.write(|tx, _| {
            let game = match game {
                Some(id) => match tx.game(id)? {
                    Some(row) if row.status == GameStatus::Active => self.load(tx, row)?,
                    _ => return Err(GameError::PositionChanged),
                },
                None => self.active_for(tx, ch, Some(me.id))?,
            };
            // The operation's time is read once it holds the game (PostgreSQL locks the
            // game's channel when it is looked up; another process's operation on it may have
            // kept this one waiting until now).
            let now = self.now();
            let mine = Self::player(&game, &me)?;
            if Self::has_engine(&game) {
                engine_game = Some(game.row.id);
            }
            let game = match self.flag_if_late(tx, game, now, &mut out)? {
                Ok(game) => game,
                Err(_ended) => return Ok(Err(())),
            };
            op(Turn {
                tx,
                game,
                me,
                mine,
                now,
                out: &mut out,
            })
            .map(Ok)
        });
        // Whatever the person did (or tried), an engine that owes a move, or is waiting
        // for a failed engine, looks again.
        if let Some(id) = engine_game {
            self.poke_engine(id);
        }
        match done? {
            Ok(value) => Ok((value, out)),
            Err(()) => {
                // The timeout's post waits for the scheduler: wake it now.
                self.inner.bell.ring();
                Err(GameError::TimeRanOut { notices: out })
            }
        }
    }

    /// Ends `l` on time when it is timed and the player to move's deadline has passed: the
    /// timeout is recorded as a done event (the scheduler posts it), and the final view
    /// comes back as `Err`. Otherwise gives `l` back.
    pub(super) fn flag_if_late(
        &self,
        tx: &dyn Tx,
        l: Loaded,
        now: i64,
        out: &mut Vec<Notice>,
    ) -> Result<Result<Loaded, GameView>, GameError> {
        let tc = TimeControl::from_row(l.row.tc);
        let deadline = match l.row.clock.deadline {
            Some(d) if tc.is_timed() && now >= d => d,
            _ => return Ok(Ok(l)),
        };
        let (id, channel, seq) = (l.row.id, l.row.channel, l.row.clock.seq);
        // The game's pending event goes with the ending (`Games::finish_game`).
        tx.record_event(id, channel, seq, EventKind::Timeout, deadline, now)?;
        self.flag(tx, l, now, out).map(Err)
    }

    /// The player to move ran out of time: before both sides moved the game is aborted;
    /// otherwise it is drawn when the opponent has a draw offer standing (lila's
    /// `Finisher.outOfTime`) or cannot mate (lichess's insufficient mating material,
    /// [`cajitas_rules::Position::insufficient_mating_material`]), and lost on time when not.
    pub(super) fn flag(
        &self,
        tx: &dyn Tx,
        l: Loaded,
        now: i64,
        out: &mut Vec<Notice>,
    ) -> Result<GameView, GameError> {
        // Before both sides moved the game is aborted; a tournament's game is lost by the
        // player who did not move (lichess's arenas), as any loss on time.
        if l.row.ply < 2 && !Self::in_tournament(tx, l.row.id)? {
            return self.end_game(tx, l, GameEnd::Aborted, now, out);
        }
        let loser = l.game.position().turn();
        if l.offer.as_ref().is_some_and(|o| o.by == side(!loser)) {
            return self.agree_draw(tx, l, now, out);
        }
        let outcome = l
            .game
            .clone()
            .timeout(loser)
            .map_err(|e| Failure::rules("timeout", e))?;
        self.finish(tx, l, outcome, now, out)
    }

    /// Schedules the next event of a game whose clock is `c` at `ply` plies (its `seq` is
    /// `seq`), and rings the scheduler when it falls due before its plan.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn schedule(
        &self,
        tx: &dyn Tx,
        game: i64,
        channel: u64,
        seq: i64,
        tc: TimeControl,
        c: &ClockState,
        ply: u32,
    ) -> Result<(), GameError> {
        match next_event(tc, c, ply) {
            Some((kind, due)) => {
                tx.schedule_event(game, channel, seq, kind, due)?;
                self.inner.bell.ring_if_before(due);
            }
            // An untimed game taken back to before both sides moved: no reminder.
            None => tx.clear_event(game, seq)?,
        }
        Ok(())
    }

    /// The one step every ending goes through (mate and every automatic ending, resignation,
    /// agreement, claims, timeouts, abort): writes it ply-checked, rates a rated game in the
    /// same transaction (see [`super::ratings`]) and returns the final view with the rating
    /// changes, adding to `out` the notices its commit calls for. What must happen when a
    /// game ends (ratings, notifications) belongs here.
    pub(super) fn end_game(
        &self,
        tx: &dyn Tx,
        mut l: Loaded,
        end: GameEnd<'_>,
        now: i64,
        out: &mut Vec<Notice>,
    ) -> Result<GameView, GameError> {
        let (status, result, winner, termination, claim_move) = match end {
            GameEnd::Over {
                outcome,
                claim_move,
            } => (
                GameStatus::Finished,
                outcome.pgn_result().as_str(),
                outcome.winner().map(side),
                outcome.reason_str(),
                claim_move,
            ),
            GameEnd::Aborted => (GameStatus::Aborted, "*", None, ABORTED, None),
        };
        let ending = Ending {
            status,
            result,
            winner,
            termination,
            claim_move,
            now,
        };
        if !tx.finish_game(l.row.id, l.row.ply, &ending)? {
            return Err(GameError::PositionChanged);
        }
        l.row.status = status;
        l.row.result = result.to_owned();
        l.row.winner = winner;
        l.row.termination = Some(termination.to_owned());
        l.row.claim_move = claim_move.map(str::to_owned);
        l.row.finished_at = Some(now);
        l.row.updated_at = now;
        if let GameEnd::Over { outcome, .. } = end {
            let written = claim_move
                .and_then(|text| text.parse::<Uci>().ok())
                .and_then(|u| u.to_move(l.game.position()).ok());
            apply_ending(&mut l.game, outcome, written)
                .map_err(|e| Failure::bad_game(format!("game {}: ending: {e}", l.row.id)))?;
        }
        l.offer = None;
        // After the ply-checked write: only the one ending that landed rates the game, and
        // queues it for a search for puzzles.
        let changes = Self::rate_in(tx, &l.row, now)?;
        let points = Self::score_tournament_game(tx, &l.row, now)?;
        Self::queue_puzzle_search(tx, &l.row, now)?;
        let thread = l.row.thread;
        let mut view = self.view(l)?;
        view.rating_changes = changes;
        view.tournament = points;
        // A game of a thread ends with a line in its channel, once the ending is committed.
        if thread.is_some() {
            out.push(Notice {
                place: view.home(),
                kind: NoticeKind::Summary,
                mentions: Vec::new(),
                nonce: Some(format!("cjs{}", view.game_id)),
                game: view.clone(),
            });
        }
        // A round robin's round that this game completed: the next round opens with it.
        self.tournaments()
            .round_robin_after_game(tx, view.game_id, now, out)?;
        Ok(view)
    }

    /// [`end_game`](Self::end_game) with a result and no claim move.
    pub(super) fn finish(
        &self,
        tx: &dyn Tx,
        l: Loaded,
        outcome: Outcome,
        now: i64,
        out: &mut Vec<Notice>,
    ) -> Result<GameView, GameError> {
        self.end_game(
            tx,
            l,
            GameEnd::Over {
                outcome,
                claim_move: None,
            },
            now,
            out,
        )
    }

    /// The standing offer is accepted: the game is drawn by agreement.
    fn agree_draw(
        &self,
        tx: &dyn Tx,
        l: Loaded,
        now: i64,
        out: &mut Vec<Notice>,
    ) -> Result<GameView, GameError> {
        tx.resolve_draw_offer(l.row.id, None, OfferStatus::Accepted, now)?;
        let outcome = Outcome::Draw {
            reason: DrawReason::Agreement,
        };
        self.finish(tx, l, outcome, now, out)
    }
}

/// Playing a game in progress: moves, resignation, draw offers and claims, abort, an
/// abandoned game claimed, and takebacks (in `takeback.rs`). A move's whole path is here
/// (through the core's `in_game` and `end_game` above) and in the store. From
/// [`GameService::play`].
#[derive(Debug, Clone, Copy)]
pub struct Play<'a> {
    pub(super) svc: &'a GameService,
}

impl Play<'_> {
    /// Plays `text` (any notation the rules' reader knows; `lang` decides what `R` means) for
    /// `actor` in the channel's game. With `claim_draw`, the move comes with a draw claim
    /// (FIDE 9.2/9.3): when the position after the move (or, failing that, the current
    /// position) qualifies for threefold repetition or the 50-move rule, the game ends drawn
    /// and the move is written but not played; otherwise nothing happens and the claim is
    /// refused.
    pub fn play_move(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        text: &str,
        lang: Lang,
        claim_draw: bool,
    ) -> Result<MoveResult, GameError> {
        self.play_move_at(actor, ch, text, lang, claim_draw, None)
    }

    /// [`play_move`](Self::play_move), refused with [`GameError::PositionChanged`] unless
    /// the game is still at `expected_ply` plies (the ply the player saw): of two moves
    /// racing for the same ply, exactly one lands.
    pub fn play_move_at(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        text: &str,
        lang: Lang,
        claim_draw: bool,
        expected_ply: Option<u32>,
    ) -> Result<MoveResult, GameError> {
        let text = super::move_text(text)?;
        let (mut result, notices) = self.svc.in_game(actor, ch, |t| {
            t.check_ply(expected_ply)?;
            let Turn {
                tx,
                game: mut l,
                me,
                mine,
                now,
                out,
            } = t;
            // The commonest refusals (a typo, a move out of turn) write nothing: the game goes
            // back to the cache as it was read, instead of being rebuilt by the next move.
            if l.game.position().turn() != mine {
                self.svc.keep(l);
                return Err(GameError::NotYourTurn);
            }
            let mv = match cajitas_rules::read_move(l.game.position(), text, lang) {
                Ok(mv) => mv,
                Err(e) => {
                    self.svc.keep(l);
                    return Err(GameError::Move(e));
                }
            };
            // Stored and shown as English SAN text.
            let san = cajitas_rules::san(l.game.position(), mv).to_string();
            let uci = l.game.position().uci(mv).to_string();
            tx.upsert_user(&me, now)?;
            if claim_draw {
                let with = l.game.claimable_with(mv);
                let (claim, outcome, written) = if let Some(&c) = with.first() {
                    let o = l
                        .game
                        .claim_draw_with(mv, c)
                        .map_err(|e| Failure::rules("claim with move", e))?;
                    (c, o, Some(uci.as_str()))
                } else if let Some(&c) = l.game.claimable_now().first() {
                    let o = l
                        .game
                        .claim_draw(c)
                        .map_err(|e| Failure::rules("claim", e))?;
                    (c, o, None)
                } else {
                    return Err(GameError::NothingToClaimWith(san));
                };
                let end = GameEnd::Over {
                    outcome,
                    claim_move: written,
                };
                let view = self.svc.end_game(tx, l, end, now, out)?;
                return Ok(MoveResult {
                    view,
                    san,
                    claimed: Some(claim),
                    notices: Vec::new(),
                });
            }
            l.game
                .try_play(mv)
                .map_err(|e| Failure::rules("the reader's move was refused", e))?;
            let row = MoveRow {
                ply: l.row.ply,
                uci,
                san: san.clone(),
                user_id: me.id,
                played_at: now,
            };
            let fen = l.game.position().fen();
            let tc = TimeControl::from_row(l.row.tc);
            let abandon = self.svc.abandon_ms();
            let before = ClockState::from_row(tc, &l.row.clock, l.row.ply, mine, now, abandon);
            let clock = time_control::after_move(
                time_control::for_mover(tc, l.row.berserk, mine),
                before,
                l.row.ply,
                mine,
                now,
                abandon,
            );
            // The next event is written with the move (a move that ends the game leaves it
            // to the ending, which drops it). A game against the engine has none: no
            // reminder pings the engine, and nobody claims a game it abandoned.
            let next = (l.game.outcome().is_none() && !GameService::has_engine(&l))
                .then(|| next_event(tc, &clock, l.row.ply + 1))
                .flatten();
            if !tx.append_move(l.row.id, l.row.ply, &row, &fen, &clock.to_row(), next)? {
                return Err(GameError::PositionChanged);
            }
            if let Some((_, due)) = next {
                self.svc.inner.bell.ring_if_before(due);
            }
            l.row.clock = crate::store::ClockRow {
                seq: l.row.clock.seq + 1,
                ..clock.to_row()
            };
            // The opponent's standing offer lapses when this player moves instead of answering.
            // (`l.offer` is the open offer read in this transaction: without one, no write.)
            if l.offer.as_ref().is_some_and(|o| o.by != side(mine)) {
                tx.resolve_draw_offer(l.row.id, Some(side(!mine)), OfferStatus::Lapsed, now)?;
                l.offer = None;
            }
            l.row.ply += 1;
            l.row.fen = fen;
            // As the store writes it: strictly later than before (see `Games::append_move`).
            l.row.updated_at = now.max(l.row.updated_at + 1);
            l.moves.push(super::load::KeptMove::from(&row));
            let view = match l.game.outcome() {
                Some(outcome) => self.svc.finish(tx, l, outcome, now, out)?,
                None => self.svc.view(l)?,
            };
            Ok(MoveResult {
                view,
                san,
                claimed: None,
                notices: Vec::new(),
            })
        })?;
        result.notices = notices;
        Ok(result)
    }

    /// `actor` resigns; with `expected_ply` (from a confirmation button), only if the game
    /// has not moved on since.
    pub fn resign(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        seen: impl Into<Seen>,
    ) -> Result<Done, GameError> {
        let seen = seen.into();
        self.svc
            .in_game_at(actor, ch, seen.game, |t| {
                t.check_game(seen.game)?;
                t.check_ply(seen.ply)?;
                t.record_actor()?;
                let outcome = Outcome::Decisive {
                    winner: !t.mine,
                    reason: WinReason::Resignation,
                };
                self.svc.finish(t.tx, t.game, outcome, t.now, t.out)
            })
            .map(done)
    }

    /// `actor` offers a draw. The offer stands until the opponent accepts, declines or moves;
    /// a player has one offer at a time. Offering while the opponent's offer stands accepts
    /// it (the game is drawn by agreement).
    pub fn draw_offer(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        expected_ply: Option<u32>,
    ) -> Result<Done, GameError> {
        self.svc
            .in_game(actor, ch, |t| {
                t.check_ply(expected_ply)?;
                t.record_actor()?;
                let Turn {
                    tx,
                    game: mut l,
                    me,
                    mine,
                    now,
                    out,
                } = t;
                match &l.offer {
                    Some(o) if o.by == side(mine) => Err(GameError::DrawAlreadyOffered),
                    Some(_) => self.svc.agree_draw(tx, l, now, out),
                    None => {
                        let opponent = l.player_id(!mine);
                        GameService::ping(tx, me.id, opponent, "draw_offer", now)?;
                        let id = tx.insert_draw_offer(l.row.id, side(mine), l.row.ply, now)?;
                        l.offer = Some(DrawOfferRow {
                            id,
                            game_id: l.row.id,
                            by: side(mine),
                            ply: l.row.ply,
                            status: OfferStatus::Open,
                            created_at: now,
                        });
                        self.svc.view(l)
                    }
                }
            })
            .map(done)
    }

    /// The opponent's standing offer, refused as stale when `expected_ply` (from a button)
    /// is not the ply at which it was made.
    fn offer_to_answer(
        l: &Loaded,
        mine: Color,
        expected_ply: Option<u32>,
    ) -> Result<DrawOfferRow, GameError> {
        let Some(o) = l.offer.clone() else {
            return Err(match expected_ply {
                Some(_) => GameError::PositionChanged,
                None => GameError::NoDrawOffer,
            });
        };
        if expected_ply.is_some_and(|p| p != o.ply) {
            return Err(GameError::PositionChanged);
        }
        if o.by == side(mine) {
            return Err(GameError::OwnDrawOffer);
        }
        Ok(o)
    }

    /// Accepts the opponent's draw offer: the game is drawn by agreement.
    pub fn draw_accept(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        seen: impl Into<Seen>,
    ) -> Result<Done, GameError> {
        let seen = seen.into();
        self.svc
            .in_game_at(actor, ch, seen.game, |t| {
                t.check_game(seen.game)?;
                Self::offer_to_answer(&t.game, t.mine, seen.ply)?;
                t.record_actor()?;
                self.svc.agree_draw(t.tx, t.game, t.now, t.out)
            })
            .map(done)
    }

    /// Declines the opponent's draw offer: the game goes on.
    pub fn draw_decline(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        seen: impl Into<Seen>,
    ) -> Result<GameView, GameError> {
        let seen = seen.into();
        self.svc
            .in_game_at(actor, ch, seen.game, |t| {
                t.check_game(seen.game)?;
                Self::offer_to_answer(&t.game, t.mine, seen.ply)?;
                t.record_actor()?;
                let mut l = t.game;
                t.tx.resolve_draw_offer(l.row.id, None, OfferStatus::Declined, t.now)?;
                l.offer = None;
                self.svc.view(l)
            })
            .map(ends_nothing)
    }

    /// The player to move claims a draw by threefold repetition or the 50-move rule, when the
    /// current position qualifies (to claim with a move, use `play_move` with `claim_draw`).
    pub fn draw_claim(&self, actor: &UserRef, ch: ChannelRef) -> Result<Done, GameError> {
        self.svc
            .in_game(actor, ch, |t| {
                if t.game.game.position().turn() != t.mine {
                    return Err(GameError::ClaimNotYourTurn);
                }
                let mut l = t.game;
                let Some(&claim) = l.game.claimable_now().first() else {
                    return Err(GameError::NothingToClaim);
                };
                let outcome = l
                    .game
                    .claim_draw(claim)
                    .map_err(|e| Failure::rules("claim", e))?;
                t.tx.upsert_user(&t.me, t.now)?;
                self.svc.finish(t.tx, l, outcome, t.now, t.out)
            })
            .map(done)
    }

    /// The player waiting for a move in an untimed game claims it, once the opponent has not
    /// moved for the abandonment period (7 days unless configured): a win (lost on time for
    /// the opponent; drawn when the claimer cannot mate), or with `draw` a draw (recorded as
    /// a draw by agreement: the rules know no other reason). Before both sides moved the
    /// game is aborted instead.
    pub fn claim_abandoned(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        draw: bool,
    ) -> Result<Done, GameError> {
        self.svc
            .in_game(actor, ch, |t| {
                if TimeControl::from_row(t.game.row.tc).is_timed() {
                    return Err(GameError::ClaimNotUntimed);
                }
                if GameService::has_engine(&t.game) {
                    return Err(GameError::ClaimAgainstEngine);
                }
                if t.game.game.position().turn() == t.mine {
                    return Err(GameError::ClaimOwnTurn);
                }
                let at = t.game.row.clock.deadline.unwrap_or(i64::MAX);
                if t.now < at {
                    return Err(GameError::ClaimTooEarly {
                        at_ms: at,
                        as_of_ms: t.now,
                    });
                }
                t.record_actor()?;
                if t.game.row.ply < 2 {
                    return self
                        .svc
                        .end_game(t.tx, t.game, GameEnd::Aborted, t.now, t.out);
                }
                let outcome = if draw {
                    Outcome::Draw {
                        reason: DrawReason::Agreement,
                    }
                } else {
                    t.game
                        .game
                        .clone()
                        .timeout(!t.mine)
                        .map_err(|e| Failure::rules("claim", e))?
                };
                self.svc.finish(t.tx, t.game, outcome, t.now, t.out)
            })
            .map(done)
    }

    /// Either player aborts the game before both have moved: it ends without a result. A
    /// game against the engine may be aborted at any time (it is unrated, and its person
    /// may be left waiting for an engine that fails).
    pub fn abort(&self, actor: &UserRef, ch: ChannelRef) -> Result<Done, GameError> {
        self.svc
            .in_game(actor, ch, |t| {
                if t.game.row.ply >= 2 && !GameService::has_engine(&t.game) {
                    return Err(GameError::AbortTooLate);
                }
                if GameService::in_tournament(t.tx, t.game.row.id)? {
                    return Err(GameError::AbortInTournament);
                }
                t.record_actor()?;
                self.svc
                    .end_game(t.tx, t.game, GameEnd::Aborted, t.now, t.out)
            })
            .map(done)
    }
}

/// An operation's view with the notices its commit calls for.
fn done((view, notices): (GameView, Vec<Notice>)) -> Done {
    Done { view, notices }
}

/// The result of an operation that ends no game (so its commit calls for no notice).
pub(super) fn ends_nothing<T>((value, notices): (T, Vec<Notice>)) -> T {
    debug_assert!(
        notices.is_empty(),
        "an operation that ends no game has no notices"
    );
    value
}

/// The event that follows a clock state at `ply` plies: its kind and due time (none for an
/// untimed game before both sides moved).
pub(super) fn next_event(tc: TimeControl, c: &ClockState, ply: u32) -> Option<(EventKind, i64)> {
    Some(match time_control::next_event(tc, c, ply)? {
        time_control::Next::Timeout(at) => (EventKind::Timeout, at),
        time_control::Next::Reminder(at) => (EventKind::Reminder, at),
        time_control::Next::IdleReminder(at) => (EventKind::IdleReminder, at),
    })
}
