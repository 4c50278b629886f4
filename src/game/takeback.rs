//! Takebacks by agreement: a player asks, the opponent accepts (the game is rewound by one
//! or two plies, in one ply-checked transaction) or declines.

use cajitas_rules::{Color, Position};

use super::load::{Loaded, colour, side};
use super::play::{Play, Seen, Turn, ends_nothing};
use super::time_control::{self, ClockState};
use super::{ChannelRef, GameError, GameService, TakebackView, TimeControl, UserRef};
use crate::store::{OfferStatus, TakebackRow};

/// How many plies `mine` may ask to take back in `l`: their last move, and the opponent's
/// reply when there is one. `None` when they have not moved.
fn plies_for(l: &Loaded, mine: Color) -> Option<u32> {
    let ply = l.row.ply;
    if ply == 0 {
        return None;
    }
    // The side that made the last move is the one not to move now.
    let last_mover = !l.game.position().turn();
    if last_mover == mine {
        Some(1)
    } else if ply >= 2 {
        Some(2)
    } else {
        None
    }
}

/// The opponent's standing request that `mine` may answer, as seen at `seen_ply` (from a
/// button): refused as stale when the game moved since it was asked.
fn request_to_answer(t: &Turn<'_>, seen_ply: Option<u32>) -> Result<TakebackRow, GameError> {
    let Some(r) = t.tx.open_takeback(t.game.row.id)? else {
        return Err(match seen_ply {
            Some(_) => GameError::PositionChanged,
            None => GameError::NoTakeback,
        });
    };
    if seen_ply.is_some_and(|p| p != r.ply) || r.ply != t.game.row.ply {
        return Err(GameError::PositionChanged);
    }
    if r.by == side(t.mine) {
        return Err(GameError::OwnTakeback);
    }
    Ok(r)
}

impl GameService {
    /// Game `t` rewound to `to_ply`: the position's FEN there, the time control, and the
    /// clock as a rewind leaves it: first the player to move is charged the time their turn
    /// has taken so far (a live clock), then both times stay as they are, the new player to
    /// move's running from now. No time is ever given back. Shared by the takeback by
    /// agreement and the engine's granted one.
    pub(super) fn rewound(
        &self,
        t: &Turn<'_>,
        to_ply: u32,
    ) -> Result<(String, TimeControl, ClockState), GameError> {
        let pos = position_after(&t.game, to_ply)?;
        let tc = TimeControl::from_row(t.game.row.tc);
        let abandon = self.abandon_ms();
        let turn = pos.turn();
        let before = ClockState::from_row(tc, &t.game.row.clock, to_ply, turn, t.now, abandon);
        let (ply, running) = (t.game.row.ply, t.game.game.position().turn());
        let charged = time_control::charge_turn(tc, before, ply, running, t.now);
        let clock = time_control::after_rewind(tc, charged, to_ply, turn, t.now, abandon);
        Ok((pos.fen(), tc, clock))
    }
}

impl Play<'_> {
    /// `actor` asks the opponent to take back their last move (one ply, when the opponent
    /// has not replied yet) or their last move and the reply (two plies). The request
    /// replaces any earlier one and counts toward the ping limit.
    pub fn takeback_request(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        seen: impl Into<Seen>,
    ) -> Result<TakebackView, GameError> {
        let seen = seen.into();
        self.svc
            .in_game_at(actor, ch, seen.game, |t| {
                t.check_game(seen.game)?;
                t.check_ply(seen.ply)?;
                if t.game.row.rated {
                    return Err(GameError::TakebackInRatedGame);
                }
                let plies = plies_for(&t.game, t.mine).ok_or(GameError::NothingToTakeBack)?;
                t.record_actor()?;
                let opponent = t.game.player_id(!t.mine);
                if super::engine_level_of(opponent).is_some() {
                    // The computer never needs asking.
                    return self.svc.engine_takeback(t, plies);
                }
                GameService::ping(t.tx, t.me.id, opponent, "takeback", t.now)?;
                let ply = t.game.row.ply;
                t.tx.insert_takeback(t.game.row.id, side(t.mine), ply, plies, t.now)?;
                Ok(TakebackView {
                    game: self.svc.view(t.game)?,
                    by: t.mine,
                    plies,
                    ply,
                    granted: false,
                })
            })
            .map(ends_nothing)
    }

    /// The opponent accepts the standing request: the game is taken back by its plies, the
    /// moves deleted and the game row restored in this one transaction, under a ply check;
    /// a standing draw offer lapses. Refused as stale ([`GameError::PositionChanged`]) when
    /// the game moved since the request (or since `seen`).
    pub fn takeback_accept(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        seen: impl Into<Seen>,
    ) -> Result<TakebackView, GameError> {
        let seen = seen.into();
        self.svc
            .in_game_at(actor, ch, seen.game, |t| {
                t.check_game(seen.game)?;
                if t.game.row.rated {
                    return Err(GameError::TakebackInRatedGame);
                }
                let r = request_to_answer(&t, seen.ply)?;
                t.record_actor()?;
                let id = t.game.row.id;
                let to_ply = r.ply - r.plies;
                let (fen, tc, clock) = self.svc.rewound(&t, to_ply)?;
                if !t
                    .tx
                    .rewind_game(id, r.ply, to_ply, &fen, t.now, &clock.to_row())?
                {
                    return Err(GameError::PositionChanged);
                }
                let channel = t.game.row.channel;
                self.svc.schedule(
                    t.tx,
                    id,
                    channel,
                    t.game.row.clock.seq + 1,
                    tc,
                    &clock,
                    to_ply,
                )?;
                t.tx.resolve_takeback(id, OfferStatus::Accepted, t.now)?;
                // The cached game is of the position before the rewind: never serve it again
                // (the store also moved `updated_at` on, for other processes' caches).
                self.svc.cache().remove(&id);
                let row = t.tx.game(id)?.ok_or_else(|| {
                    GameError::from(super::Failure::Vanished(format!("game {id}")))
                })?;
                let l = self.svc.rebuild(t.tx, row)?;
                Ok(TakebackView {
                    game: self.svc.view(l)?,
                    by: colour(r.by),
                    plies: r.plies,
                    ply: r.ply,
                    granted: false,
                })
            })
            .map(ends_nothing)
    }

    /// The opponent declines the standing request: the game goes on.
    pub fn takeback_decline(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        seen: impl Into<Seen>,
    ) -> Result<TakebackView, GameError> {
        let seen = seen.into();
        self.svc
            .in_game_at(actor, ch, seen.game, |t| {
                t.check_game(seen.game)?;
                let r = request_to_answer(&t, seen.ply)?;
                t.record_actor()?;
                t.tx.resolve_takeback(t.game.row.id, OfferStatus::Declined, t.now)?;
                Ok(TakebackView {
                    game: self.svc.view(t.game)?,
                    by: colour(r.by),
                    plies: r.plies,
                    ply: r.ply,
                    granted: false,
                })
            })
            .map(ends_nothing)
    }
}

/// The position after the first `ply` plies of `l`, replayed from its start: the loaded
/// game's own moves, already read and checked by the rules when it was rebuilt.
pub(super) fn position_after(l: &Loaded, ply: u32) -> Result<Position, GameError> {
    let mut pos = l.game.start().clone();
    for (i, &mv) in l.game.moves().iter().take(ply as usize).enumerate() {
        pos.try_play(mv).map_err(|e| {
            GameError::from(super::Failure::Rules {
                what: format!("game {}: ply {i}", l.row.id),
                cause: Some(e.into()),
            })
        })?;
    }
    Ok(pos)
}
