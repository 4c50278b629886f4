//! Games against the computer, the service's side: the engine as a player (fixed user ids,
//! stored as users of kind `engine` with their level), starting such a game, what an engine
//! needs to know when it is its turn, playing its move (ply-checked, checked by the rules
//! like any other), takebacks without asking, and the port through which the service tells
//! whoever drives the engines ([`EngineTurns`]) that a game may need a move.
//!
//! The service never talks to an engine: the engine room (`crate::engine`) does, on its own
//! threads, and comes back here with a move.

use std::sync::Weak;
use std::time::Duration;

use cajitas_rules::{Color, Game, Lang, Move, Position};

use super::load::{Loaded, side};
use super::play::Turn;
use super::time_control::{self, ClockState};
use super::{
    ChannelRef, ColourChoice, Done, Failure, GameError, GameService, GameView, Notice, NoticeKind,
    Place, TakebackView, TimeControl, UserRef,
};
use crate::store::{MoveRow, NewGame, OfferStatus, Tx, UserRow};

/// The engines' levels (lichess's AI levels).
pub const ENGINE_LEVELS: std::ops::RangeInclusive<u8> = 1..=8;

/// The engine players' ids are this plus the level: far above every Discord snowflake (those
/// stay below 2^63) and never a console user's in practice (a 64-bit hash would have to
/// land on one of eight values).
const ENGINE_ID_BASE: u64 = 0xFFFF_FFFF_FFFF_FF00;

/// The name the engine players are stored with unless the service is told the engine's own
/// ([`ServiceOptions::engine_name`](super::ServiceOptions::engine_name)); the front ends add
/// the level in their words.
pub const ENGINE_NAME: &str = "Stockfish";

/// The user id of the engine playing at `level` (1–8).
pub fn engine_user_id(level: u8) -> u64 {
    ENGINE_ID_BASE + u64::from(level.clamp(1, 8))
}

/// The level of the engine with user id `id`, or `None` for a person.
pub fn engine_level_of(id: u64) -> Option<u8> {
    id.checked_sub(ENGINE_ID_BASE)
        .and_then(|l| u8::try_from(l).ok())
        .filter(|l| ENGINE_LEVELS.contains(l))
}

impl UserRef {
    /// The engine's level when this player is the computer.
    pub fn engine_level(&self) -> Option<u8> {
        engine_level_of(self.id)
    }
}

impl GameView {
    /// The computer's colour and level in a game against it.
    pub fn engine(&self) -> Option<(Color, u8)> {
        [Color::White, Color::Black]
            .into_iter()
            .find_map(|c| self.player(c).engine_level().map(|l| (c, l)))
    }
}

/// Told by the service whenever a game with an engine among its players may need the
/// engine's move (a player acted in it, or it just started). Implemented by the engine room;
/// must return at once (the service calls it on its caller's thread).
pub trait EngineTurns: Send + Sync {
    /// Game `game_id` may be the engine's turn.
    fn poke(&self, game_id: i64);
}

/// What an engine needs to play its move.
#[derive(Debug, Clone)]
pub struct EngineTurn {
    /// The game.
    pub game_id: i64,
    /// Where it is played: its thread, or its channel.
    pub place: ChannelRef,
    /// The game's ply (the move to play is at this ply).
    pub ply: u32,
    /// The position's sequence number: every move and takeback changes it, so it names
    /// this position even where a takeback and another move came back to the same ply.
    pub seq: i64,
    /// The engine's level.
    pub level: u8,
    /// The person playing it: the engine pool serves people in turn.
    pub person: u64,
    /// The start position, as FEN.
    pub start_fen: String,
    /// The moves played, in UCI.
    pub moves: Vec<String>,
    /// The position to move in.
    pub position: Position,
}

/// A finished game, for analysis.
#[derive(Debug, Clone)]
pub struct FinishedGame {
    /// The game's id.
    pub game_id: i64,
    /// White.
    pub white: UserRef,
    /// Black.
    pub black: UserRef,
    /// The PGN result.
    pub result: String,
    /// The game as the rules replay it.
    pub game: Game,
}

fn engine_in(l: &Loaded) -> Option<(Color, u8)> {
    [Color::White, Color::Black]
        .into_iter()
        .find_map(|c| engine_level_of(l.player_id(c)).map(|lvl| (c, lvl)))
}

impl GameService {
    /// Tells the engine room ([`ServiceOptions::engine_turns`](super::ServiceOptions)) that
    /// `game_id` may need a move.
    pub(super) fn poke_engine(&self, game_id: i64) {
        if let Some(turns) = self
            .inner
            .opts
            .engine_turns
            .as_ref()
            .and_then(Weak::upgrade)
        {
            turns.poke(game_id);
        }
    }

    /// Whether the loaded game has an engine among its players (no store access).
    pub(super) fn has_engine(l: &Loaded) -> bool {
        engine_in(l).is_some()
    }

    /// A takeback against the engine: granted at once, the game rewound by `plies` in this
    /// transaction (the engine never needs asking).
    pub(super) fn engine_takeback(
        &self,
        t: Turn<'_>,
        plies: u32,
    ) -> Result<TakebackView, GameError> {
        let id = t.game.row.id;
        let ply = t.game.row.ply;
        let to_ply = ply - plies;
        let (fen, _, clock) = self.rewound(&t, to_ply)?;
        if !t
            .tx
            .rewind_game(id, ply, to_ply, &fen, t.now, &clock.to_row())?
        {
            return Err(GameError::PositionChanged);
        }
        self.cache().remove(&id);
        let row =
            t.tx.game(id)?
                .ok_or_else(|| GameError::from(Failure::Vanished(format!("game {id}"))))?;
        let l = self.rebuild(t.tx, row)?;
        Ok(TakebackView {
            game: self.view(l)?,
            by: t.mine,
            plies,
            ply,
            granted: true,
        })
    }
}

/// Games against the engine: started (and their rematches), the engine's turns claimed and
/// played by the engine room, its posts, and the analyses kept of finished games. From
/// [`GameService::engine`].
#[derive(Debug, Clone, Copy)]
pub struct EngineGames<'a> {
    pub(super) svc: &'a GameService,
}

impl EngineGames<'_> {
    /// `human` starts a game against the engine at `level` (1–8) in `ch`, playing `colour`.
    /// The same rules as a challenge: one game per channel, no bots. Unrated and untimed.
    pub fn play_engine(
        &self,
        human: &UserRef,
        ch: ChannelRef,
        level: u8,
        colour: ColourChoice,
        lang: Lang,
    ) -> Result<GameView, GameError> {
        self.play_engine_at(human, Place::plain(ch), level, colour, lang, None)
    }

    /// Whether `human` may start a game against the engine at `at` (read only, so that a
    /// front end opens the game's thread only for a game that can start): what
    /// [`Self::play_engine_at`] checks before it writes.
    pub fn engine_playable(&self, human: &UserRef, at: impl Into<Place>) -> Result<(), GameError> {
        let at = at.into();
        let me = human.capped();
        let now = self.svc.now();
        let limit = self.svc.options().engine_games_per_user;
        self.svc
            .read(|tx| Self::may_play_engine(tx, &me, at, None, now, limit))
    }

    /// The checks of a new game against the engine at `at`, played in `thread` when the
    /// front end opened one: no bots (nor the engine itself); in a thread, not in a game's
    /// thread (those belong to their game) and not beside an active game; in a channel
    /// where games get no thread, one game and no pending challenge at a time.
    fn may_play_engine(
        tx: &dyn Tx,
        me: &UserRow,
        at: Place,
        thread: Option<u64>,
        now: i64,
        limit: u32,
    ) -> Result<(), GameError> {
        if me.is_bot || engine_level_of(me.id).is_some() {
            return Err(GameError::BotCannotPlay);
        }
        // The engine is shared: a person plays at most `limit` games against it per server.
        let mine = tx.active_engine_games_of(at.at.guild, me.id)?;
        if mine.len() >= limit as usize {
            return Err(GameError::TooManyEngineGames {
                limit,
                places: mine
                    .iter()
                    .map(|g| g.thread.unwrap_or(g.channel))
                    .take(super::MAX_LINKS)
                    .collect(),
            });
        }
        let ch = at.at.channel;
        if let Some(parent) = at.parent {
            if tx.last_game(ch)?.is_some_and(|g| g.thread == Some(ch)) {
                return Err(GameError::InGameThread { parent });
            }
            if tx.active_game(ch)?.is_some() {
                return Err(GameError::GameInProgress);
            }
            return Ok(());
        }
        if at.threads || thread.is_some() {
            // A thread of its own: nothing else in the channel is in its way.
            return Ok(());
        }
        if tx.active_game(ch)?.is_some() {
            return Err(GameError::GameInProgress);
        }
        if let Some(p) = tx.pending_challenge(ch)?
            && p.expires_at > now
        {
            return Err(GameError::ChallengePending);
        }
        Ok(())
    }

    /// `human` starts a game against the engine at `level` (1–8) at `at`, playing `colour`:
    /// in the thread `at` is, when it is one; else in `thread`, the game's own thread that
    /// the front end opened for it; else in the channel itself, where one game at a time is
    /// played. Unrated and untimed; the engine room is told at once (it may be White).
    pub fn play_engine_at(
        &self,
        human: &UserRef,
        at: impl Into<Place>,
        level: u8,
        colour: ColourChoice,
        lang: Lang,
        thread: Option<u64>,
    ) -> Result<GameView, GameError> {
        let terms = (level, colour, super::Variant::Standard);
        self.play_engine_with(human, at, terms, lang, thread)
    }

    /// [`Self::play_engine_at`] with the variant said: `terms` is the engine's level, the
    /// person's colour, and standard chess or Chess960 (from which start position; the
    /// engine is then searched with `UCI_Chess960` on).
    pub fn play_engine_with(
        &self,
        human: &UserRef,
        at: impl Into<Place>,
        terms: (u8, ColourChoice, super::Variant),
        lang: Lang,
        thread: Option<u64>,
    ) -> Result<GameView, GameError> {
        let (level, colour, variant) = terms;
        let at = at.into();
        let me = human.capped();
        let level = level.clamp(*ENGINE_LEVELS.start(), *ENGINE_LEVELS.end());
        let engine = engine_user_id(level);
        let human_white = match colour {
            ColourChoice::White => true,
            ColourChoice::Black => false,
            ColourChoice::Random => fastrand::bool(),
        };
        let (white, black) = if human_white {
            (me.id, engine)
        } else {
            (engine, me.id)
        };
        let ch = at.at;
        let (home, thread) = match at.parent {
            Some(parent) => (parent, Some(ch.channel)),
            None => (ch.channel, thread),
        };
        let start = variant.start().fen();
        let limit = self.svc.options().engine_games_per_user;
        let view = self.svc.write(|tx, now| {
            Self::may_play_engine(tx, &me, at, thread, now, limit)?;
            tx.upsert_user(&me, now)?;
            tx.upsert_engine(engine, &self.svc.options().engine_name, level, now)?;
            // Engine games are untimed and unrated. They schedule no events: no reminder
            // pings the engine, and a waiting engine is retried by the engine room.
            let clock = time_control::start(
                TimeControl::Untimed,
                now,
                0,
                Color::White,
                self.svc.abandon_ms(),
            );
            let game_id = tx.insert_game(&NewGame {
                guild: ch.guild,
                channel: home,
                white,
                black,
                start_fen: &start,
                now,
                lang: lang.code(),
                thread,
                rated: false,
                tc: TimeControl::Untimed.to_row(),
                clock: clock.to_row(),
                chess960: variant.chess960_number(),
            })?;
            let row = tx
                .game(game_id)?
                .ok_or_else(|| GameError::from(Failure::Vanished("game".into())))?;
            self.svc.view(self.svc.load(tx, row)?)
        })?;
        self.svc.poke_engine(view.game_id);
        Ok(view)
    }

    /// What the engine needs when it is its turn in game `game_id`; `None` when the game is
    /// over or a person is to move.
    pub fn engine_turn(&self, game_id: i64) -> Result<Option<EngineTurn>, GameError> {
        self.svc.read(|tx| {
            let Some(row) = tx.game(game_id)? else {
                return Ok(None);
            };
            if row.status != crate::store::GameStatus::Active {
                return Ok(None);
            }
            let l = self.svc.load(tx, row)?;
            let to_move = l.game.position().turn();
            let Some(level) = engine_level_of(l.player_id(to_move)) else {
                self.svc.keep(l);
                return Ok(None);
            };
            let turn = EngineTurn {
                game_id,
                place: ChannelRef {
                    guild: l.row.guild,
                    channel: l.row.thread.unwrap_or(l.row.channel),
                },
                ply: l.row.ply,
                seq: l.row.clock.seq,
                level,
                person: l.player_id(!to_move),
                start_fen: l.row.start_fen.clone(),
                moves: l.moves.iter().map(|m| m.uci().to_owned()).collect(),
                position: l.game.position().clone(),
            };
            self.svc.keep(l);
            Ok(Some(turn))
        })
    }

    /// The engine plays `mv` in game `game_id` in the position of [`EngineTurn::seq`] `seq`:
    /// refused ([`GameError::PositionChanged`]) when the game moved on (a move, or a
    /// takeback, even one followed by another move back to the same ply), ended, or it is not
    /// an engine's turn; the move is checked by the rules like a person's.
    pub fn engine_move(&self, game_id: i64, seq: i64, mv: Move) -> Result<Done, GameError> {
        let mut out = Vec::new();
        let view = self.svc.write(|tx, now| {
            let row = tx.game(game_id)?.ok_or(GameError::NoGame)?;
            if row.status != crate::store::GameStatus::Active || row.clock.seq != seq {
                return Err(GameError::PositionChanged);
            }
            let ply = row.ply;
            let mut l = self.svc.load(tx, row)?;
            let mover = l.game.position().turn();
            let engine = l.player_id(mover);
            if engine_level_of(engine).is_none() {
                return Err(GameError::PositionChanged);
            }
            if !l.game.position().is_legal(mv) {
                return Err(Failure::bad_game(format!("engine move {mv:?} is illegal")).into());
            }
            let san = cajitas_rules::san(l.game.position(), mv).to_string();
            let uci = l.game.position().uci(mv).to_string();
            l.game
                .try_play(mv)
                .map_err(|e| Failure::rules("engine move refused", e))?;
            let row = MoveRow {
                ply,
                uci,
                san,
                user_id: engine,
                played_at: now,
            };
            let fen = l.game.position().fen();
            let tc = TimeControl::from_row(l.row.tc);
            let abandon = self.svc.abandon_ms();
            let before = ClockState::from_row(tc, &l.row.clock, ply, mover, now, abandon);
            let clock = time_control::after_move(tc, before, ply, mover, now, abandon);
            if !tx.append_move(l.row.id, ply, &row, &fen, &clock.to_row(), None)? {
                return Err(GameError::PositionChanged);
            }
            l.row.clock = crate::store::ClockRow {
                seq: l.row.clock.seq + 1,
                ..clock.to_row()
            };
            // The person's standing draw offer lapses: the engine moved instead.
            tx.resolve_draw_offer(l.row.id, Some(side(!mover)), OfferStatus::Lapsed, now)?;
            if l.offer.as_ref().is_some_and(|o| o.by != side(mover)) {
                l.offer = None;
            }
            l.row.ply += 1;
            l.row.fen = fen;
            l.row.updated_at = now.max(l.row.updated_at + 1);
            l.moves.push(super::load::KeptMove::from(&row));
            match l.game.outcome() {
                Some(outcome) => self.svc.finish(tx, l, outcome, now, &mut out),
                None => self.svc.view(l),
            }
        })?;
        Ok(Done { view, notices: out })
    }

    /// Claims the engine's move in the position [`EngineTurn::seq`] `seq` of game `game_id`
    /// for the engine player `owner` for `lease` from now (the service's clock): true when
    /// `owner` holds it, false when another player (another process sharing the database)
    /// holds it, or a claim on a later position, and it has not lapsed. Taking it again
    /// renews it.
    pub fn claim_engine_turn(
        &self,
        game_id: i64,
        seq: i64,
        owner: u64,
        lease: Duration,
    ) -> Result<bool, GameError> {
        let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX);
        self.svc.write(|tx, now| {
            Ok(tx.claim_engine_turn(game_id, seq, owner, now, now.saturating_add(lease_ms))?)
        })
    }

    /// With a database this process owns (SQLite), forgets the claims on engine moves a
    /// killed predecessor left, so its games move at once rather than when the claims lapse
    /// (another front on the same file plays only its own games, which it claims again).
    /// With a shared database (PostgreSQL) another live process may hold them: nothing is
    /// freed, and a dead one's claims lapse. Returns how many.
    pub fn release_own_engine_claims(&self) -> Result<usize, GameError> {
        if self.svc.shared_database() {
            return Ok(0);
        }
        self.svc.write(|tx, _now| Ok(tx.release_engine_claims()?))
    }

    /// The active games with an engine among their players (after a restart, the engine
    /// room looks at each).
    pub fn engine_games(&self) -> Result<Vec<i64>, GameError> {
        self.svc.read(|tx| Ok(tx.active_engine_games()?))
    }

    /// Posts `game` at `place` (the game's own, [`GameView::place`]: its thread, or its
    /// channel) through the notifier (an engine's move, or that the engine is unavailable),
    /// pinging its person.
    pub fn post(
        &self,
        place: ChannelRef,
        game: GameView,
        kind: NoticeKind,
    ) -> Result<(), GameError> {
        let mentions = [game.white.id, game.black.id]
            .into_iter()
            .filter(|&id| engine_level_of(id).is_none())
            .collect();
        let notice = Notice {
            place,
            kind,
            mentions,
            nonce: None,
            game,
        };
        self.svc
            .inner
            .opts
            .notifier
            .post(&notice)
            .map(|_| ())
            .map_err(|cause| {
                Failure::Notify {
                    what: "the game's post",
                    cause,
                }
                .into()
            })
    }

    /// Where game `game_id` is played: its thread, or its channel.
    pub fn game_place(&self, game_id: i64) -> Option<ChannelRef> {
        self.svc
            .read(|tx| {
                Ok(tx.game(game_id)?.map(|r| ChannelRef {
                    guild: r.guild,
                    channel: r.thread.unwrap_or(r.channel),
                }))
            })
            .ok()
            .flatten()
    }

    /// The stored analysis record of game `game_id` at `budget` (see
    /// `crate::engine::Analysis::to_record`), if the game was analysed at that budget.
    pub fn stored_analysis(&self, game_id: i64, budget: &str) -> Result<Option<String>, GameError> {
        self.svc.read(|tx| Ok(tx.analysis_record(game_id, budget)?))
    }

    /// Stores the analysis record of game `game_id` at `budget`.
    pub fn store_analysis(
        &self,
        game_id: i64,
        budget: &str,
        record: &str,
    ) -> Result<(), GameError> {
        self.svc
            .write(|tx, now| Ok(tx.put_analysis_record(game_id, budget, record, now)?))
    }

    /// The channel's last finished game, replayed, for analysis.
    pub fn last_finished_game(&self, ch: ChannelRef) -> Result<FinishedGame, GameError> {
        self.finished_for(ch, None)
    }

    /// The finished game `actor` means at `ch`, replayed, for analysis: in a game's thread,
    /// its game; in a channel, `actor`'s last finished game there, or, for someone who
    /// never played there, the channel's last finished game (never another pair's game
    /// for someone who has one there).
    pub fn last_finished_game_for(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
    ) -> Result<FinishedGame, GameError> {
        self.finished_for(ch, Some(actor.id))
    }

    fn finished_for(&self, ch: ChannelRef, actor: Option<u64>) -> Result<FinishedGame, GameError> {
        self.svc.read(|tx| {
            // In a game's thread, its game once finished; in a channel, its last finished
            // game, played in the channel or in one of its threads (whichever ended last
            // began last: ids grow).
            let row = match tx.last_game(ch.channel)? {
                Some(g) if g.thread == Some(ch.channel) => {
                    Some(g).filter(|g| g.status == crate::store::GameStatus::Finished)
                }
                _ => match actor {
                    Some(a) if tx.last_channel_game(ch.channel, Some(a))?.is_some() => {
                        tx.last_finished_game_of(ch.channel, a)?
                    }
                    _ => tx.finished_games(ch.channel, 1)?.into_iter().next(),
                },
            }
            .ok_or(GameError::NoFinishedGame)?;
            let l = self.svc.load(tx, row)?;
            let f = FinishedGame {
                game_id: l.row.id,
                white: l.row.white.clone().into(),
                black: l.row.black.clone().into(),
                result: l.row.result.clone(),
                game: l.game.clone(),
            };
            self.svc.keep(l);
            Ok(f)
        })
    }
}
