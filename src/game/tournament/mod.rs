//! The `Tournaments` use case (issue 32): arenas as lichess runs them, and round robins, in a
//! channel of the server, each pairing's game played in a place of its own under it (a
//! Discord thread; in the console, a place of the local channel), so that many games run at
//! once.
//!
//! Every change is one transaction: a join, a pause, a wave of pairings with their games, a
//! game's result with the points it scores. A wave is claimed by moving the arena's next wave
//! forward (compare-and-set, [`crate::store::Tournaments::advance_tournament`]) in the
//! transaction that pairs, so two processes never pair the same wave, and a restart doubles
//! nothing. A game's result is scored in the transaction that ends the game
//! (`GameService::end_game`), so a standings line never misses a finished game.
//!
//! The rules are lichess's, from its source: the arena's sheet ([`sheet`]) and its waves
//! ([`wave`]). An arena's games in progress when its time runs out are played to their end
//! and still score, as lichess's are; no pairing is made after the end.

pub mod berger;
pub mod plan;
mod robin;
pub mod roundrobin;
pub mod sheet;
pub mod wave;

pub use self::robin::{
    RoundRobinLine, RoundRobinMade, RoundRobinStandings, RoundRobinTerms, RoundRobinWithdrawn,
};

use std::collections::{HashMap, HashSet};

use cajitas_rules::Color;

use self::sheet::{GameResult, Sheet, SheetGame};
use self::wave::{ColourHistory, Pair, Waiting, WaveContext};
use super::ratings::{as_of, pool_of};
use super::time_control::{self, TimeControl};
use super::{
    ChannelRef, Failure, GameError, GameService, GameView, Lang, Notice, NoticeKind, UserRef,
    Variant,
};
pub use crate::store::STANDINGS_EDIT_EVERY_MS;
use crate::store::{
    EntrantRow, EntrantStatus, GameRow, GameStatus, NewGame, NewTournament, PairingResult,
    PairingRow, Side, TournamentKind, TournamentRow, TournamentStatus, Tx,
};

/// How long an arena may last, in minutes (the choices).
pub const ARENA_MINUTES: [u32; 4] = [30, 45, 60, 90];
/// How often an arena pairs the players waiting, in ms ("waves every few seconds").
pub const WAVE_EVERY_MS: i64 = 3_000;
/// When an arena starts unless its maker says otherwise, in minutes after it is made.
pub const DEFAULT_STARTS_IN_MINUTES: u32 = 5;
/// The latest an arena may start, in minutes after it is made.
pub const MAX_STARTS_IN_MINUTES: u32 = 24 * 60;
/// The longest tournament name, in characters.
pub const MAX_TOURNAMENT_NAME_CHARS: usize = 50;
/// The rating of a player with no rating yet in the tournament's pool (Glicko-2's start).
pub const UNRATED_RATING: i32 = 1500;
/// lichess's performance: the opponents' ratings, each ± this for a win or a loss, averaged
/// (lila `Performance.scala`).
pub const PERFORMANCE_DIFF: i32 = 500;

/// A place of its own for a tournament game, until (on Discord) its thread is opened: ids with
/// the two top bits set, which neither Discord's ids nor the console's users' (top bit only,
/// never both with these low bits) take.
pub fn pairing_place(pairing: i64) -> u64 {
    0xC000_0000_0000_0000 | (pairing as u64 & 0x3FFF_FFFF_FFFF_FFFF)
}

/// A tournament's name as given (trimmed, at most [`MAX_TOURNAMENT_NAME_CHARS`]); without one,
/// its clock names it. The fronts word a default name in the maker's language
/// (`i18n::tournaments::default_arena_name`, `i18n::round_robins::default_name`).
pub(super) fn tournament_name(name: Option<&str>, time: TimeControl) -> Result<String, GameError> {
    match name.map(str::trim) {
        Some(n) if n.chars().count() > MAX_TOURNAMENT_NAME_CHARS => Err(GameError::TooLong {
            what: "name",
            max: MAX_TOURNAMENT_NAME_CHARS,
        }),
        Some(n) if !n.is_empty() => Ok(n.to_owned()),
        _ => Ok(time.to_string()),
    }
}

/// What an arena's maker asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArenaTerms {
    /// How long it lasts, in minutes (one of [`ARENA_MINUTES`]).
    pub minutes: u32,
    /// The live clock of its games.
    pub time: TimeControl,
    /// Whether its games are rated.
    pub rated: bool,
    /// Minutes until it starts ([`DEFAULT_STARTS_IN_MINUTES`] when not said; 0: at once).
    pub starts_in: Option<u32>,
    /// Its name (the front ends give `i18n::tournaments::default_arena_name` when its maker
    /// gave none).
    pub name: Option<String>,
}

/// A tournament as the front ends show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentView {
    /// Its id.
    pub id: i64,
    /// Arena or round robin.
    pub kind: TournamentKind,
    /// Its name.
    pub name: String,
    /// Where it was made.
    pub place: ChannelRef,
    /// Its games' clock.
    pub time: TimeControl,
    /// Whether its games are rated.
    pub rated: bool,
    /// Where it stands.
    pub status: TournamentStatus,
    /// When it starts (Unix ms).
    pub starts_at: i64,
    /// When it ends (an arena).
    pub ends_at: Option<i64>,
    /// The language of its posts.
    pub lang: Lang,
    /// Its players still in (not withdrawn).
    pub players: usize,
}

impl TournamentView {
    fn from_row(t: &TournamentRow, players: usize) -> TournamentView {
        TournamentView {
            id: t.id,
            kind: t.kind,
            name: t.name.clone(),
            place: ChannelRef {
                guild: t.guild,
                channel: t.channel,
            },
            time: TimeControl::from_row(t.tc),
            rated: t.rated,
            status: t.status,
            starts_at: t.starts_at,
            ends_at: t.ends_at,
            lang: t.lang.parse().unwrap_or(Lang::En),
            players,
        }
    }
}

/// One game on a player's sheet, as shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    /// The points it scored.
    pub points: i32,
    /// Scored on fire.
    pub fire: bool,
    /// The player went berserk in it.
    pub berserk: bool,
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandingLine {
    /// Their rank (1 is first).
    pub rank: u32,
    /// Who.
    pub user: UserRef,
    /// Their points.
    pub score: i32,
    /// Each finished game's points, in order.
    pub sheet: Vec<Mark>,
    /// On fire now: their next win scores double.
    pub on_fire: bool,
    /// In, paused or out.
    pub status: EntrantStatus,
    /// The rating they are paired by.
    pub rating: i32,
    /// lichess's performance over their finished games, when they have one.
    pub performance: Option<i32>,
    /// A game of theirs is in progress.
    pub playing: bool,
}

/// A tournament's standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standings {
    /// The tournament.
    pub tournament: TournamentView,
    /// Every player, by rank.
    pub lines: Vec<StandingLine>,
}

/// What a finished tournament game scored for each side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PairingPoints {
    /// The tournament.
    pub tournament: i64,
    /// Arena or round robin.
    pub kind: TournamentKind,
    /// White's mark.
    pub white: Mark,
    /// Black's mark.
    pub black: Mark,
}

/// What a tournament tells its channel outside any command.
#[derive(Debug, Clone)]
pub enum TournamentNews {
    /// It began.
    Started(TournamentView),
    /// It ended: the final standings.
    Finished(Standings),
    /// A round robin ended: its final standings.
    RoundRobinFinished(RoundRobinStandings),
    /// Its live standings post, edited to show these (at most every
    /// [`STANDINGS_EDIT_EVERY_MS`]).
    Standings {
        /// The standings now.
        standings: Standings,
        /// The post to edit.
        message: u64,
    },
}

/// A tournament's post, for [`super::Notifier::post_tournament`].
#[derive(Debug, Clone)]
pub struct TournamentNotice {
    /// Where: the tournament's channel.
    pub place: ChannelRef,
    /// What.
    pub news: TournamentNews,
    /// An idempotency key (at most 25 characters).
    pub nonce: String,
}

/// Tournaments: arenas made, joined, paused, left; their waves; berserk; standings. From
/// [`GameService::tournaments`].
#[derive(Debug, Clone, Copy)]
pub struct Tournaments<'a> {
    pub(super) svc: &'a GameService,
}

/// What one round of the tournaments' work did (see [`Tournaments::run_due`]).
#[derive(Debug, Clone, Default)]
pub struct TournamentRound {
    /// Pairings made.
    pub paired: usize,
    /// The games' posts (one per pairing).
    pub notices: Vec<Notice>,
    /// The tournaments' own posts (started, finished).
    pub news: Vec<TournamentNotice>,
}

impl Tournaments<'_> {
    /// Makes an arena in `ch` (one open tournament per channel); its maker joins it.
    pub fn create_arena(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        terms: &ArenaTerms,
        lang: Lang,
    ) -> Result<TournamentView, GameError> {
        if !ARENA_MINUTES.contains(&terms.minutes) {
            return Err(GameError::ArenaDuration {
                allowed: &ARENA_MINUTES,
            });
        }
        if !matches!(terms.time, TimeControl::Live { .. }) {
            return Err(GameError::ArenaNeedsLiveClock);
        }
        let starts_in = terms.starts_in.unwrap_or(DEFAULT_STARTS_IN_MINUTES);
        if starts_in > MAX_STARTS_IN_MINUTES {
            return Err(GameError::TooLong {
                what: "start",
                max: MAX_STARTS_IN_MINUTES as usize,
            });
        }
        let name = tournament_name(terms.name.as_deref(), terms.time)?;
        let me = actor.capped();
        if me.is_bot {
            return Err(GameError::BotCannotPlay);
        }
        self.svc.write(|tx, now| {
            if !tx.open_tournaments(ch.channel)?.is_empty() {
                return Err(GameError::TournamentInChannel);
            }
            tx.upsert_user(&me, now)?;
            let starts_at = now + i64::from(starts_in) * 60_000;
            let id = tx.insert_tournament(&NewTournament {
                kind: TournamentKind::Arena,
                guild: ch.guild,
                channel: ch.channel,
                name: &name,
                created_by: me.id,
                tc: terms.time.to_row(),
                rated: terms.rated,
                cycles: 1,
                lang: lang.code(),
                now,
                starts_at,
                ends_at: Some(starts_at + i64::from(terms.minutes) * 60_000),
            })?;
            let t = tx
                .tournament(id)?
                .ok_or_else(|| GameError::from(Failure::Vanished("tournament".into())))?;
            Self::enter(tx, &t, me.id, now)?;
            self.svc.inner.bell.ring_if_before(starts_at);
            Self::view_in(tx, &t)
        })
    }

    /// The open tournament of `ch`, if any.
    pub fn current(&self, ch: ChannelRef) -> Result<Option<TournamentView>, GameError> {
        self.svc.read(|tx| match Self::open_in(tx, ch)? {
            Some(t) => Ok(Some(Self::view_in(tx, &t)?)),
            None => Ok(None),
        })
    }

    /// `actor` joins the open tournament of `ch` (or comes back to it after a pause or a
    /// withdrawal: their points stay).
    pub fn join(&self, actor: &UserRef, ch: ChannelRef) -> Result<TournamentView, GameError> {
        self.join_at(actor, ch, None)
    }

    /// [`Self::join`]; with `expected` (an announcement's Join button), only that arena: a
    /// button of an arena that is over joins no other.
    pub fn join_at(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        expected: Option<i64>,
    ) -> Result<TournamentView, GameError> {
        let me = actor.capped();
        if me.is_bot {
            return Err(GameError::BotCannotPlay);
        }
        self.svc.write(|tx, now| {
            let t = Self::open_in(tx, ch)?.ok_or(GameError::NoTournament)?;
            if expected.is_some_and(|id| id != t.id) {
                return Err(GameError::TournamentOver);
            }
            if t.kind != TournamentKind::Arena {
                return Err(GameError::NoTournament);
            }
            tx.upsert_user(&me, now)?;
            Self::enter(tx, &t, me.id, now)?;
            tx.set_standings_due(t.id, true)?;
            self.svc.inner.bell.ring();
            Self::view_in(tx, &t)
        })
    }

    /// `actor` pauses in the open arena of `ch`: not paired until they join again. A game
    /// in progress is played on.
    pub fn pause(&self, actor: &UserRef, ch: ChannelRef) -> Result<TournamentView, GameError> {
        self.set_status(actor, ch, EntrantStatus::Paused)
    }

    /// `actor` leaves the open tournament of `ch`. An arena keeps their points (they may come
    /// back with join).
    pub fn withdraw(&self, actor: &UserRef, ch: ChannelRef) -> Result<TournamentView, GameError> {
        self.set_status(actor, ch, EntrantStatus::Withdrawn)
    }

    fn set_status(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        status: EntrantStatus,
    ) -> Result<TournamentView, GameError> {
        self.svc.write(|tx, _now| {
            // A round robin's withdrawal has its own rule (`withdraw_round_robin`), and no pause.
            let (t, e) = Self::open_entrant(tx, ch, TournamentKind::Arena, actor.id)?;
            tx.set_entrant_status(t.id, e.user, status, None)?;
            tx.set_standings_due(t.id, true)?;
            self.svc.inner.bell.ring();
            Self::view_in(tx, &t)
        })
    }

    /// `actor` goes berserk in their arena game in progress, before their first move: their
    /// clock is halved and they play without the increment; a win of at least
    /// [`sheet::BERSERK_MIN_PLIES`] plies scores one point more.
    pub fn berserk(&self, actor: &UserRef) -> Result<GameView, GameError> {
        self.svc.write(|tx, _now| {
            let p = tx
                .playing_pairing_of(actor.id)?
                .ok_or(GameError::NoArenaGame)?;
            // Berserk is the arena's: a round robin's game has none.
            tx.tournament(p.tournament)?
                .filter(|t| t.kind == TournamentKind::Arena)
                .ok_or(GameError::NoArenaGame)?;
            let game_id = p.game.ok_or(GameError::NoArenaGame)?;
            let row = tx
                .game(game_id)?
                .filter(|g| g.status == GameStatus::Active)
                .ok_or(GameError::NoArenaGame)?;
            let side = if row.white.id == actor.id {
                Side::White
            } else {
                Side::Black
            };
            // Before one's own first move: White at ply 0, Black at ply 0 or 1.
            let moved = match side {
                Side::White => row.ply >= 1,
                Side::Black => row.ply >= 2,
            };
            if moved || !matches!(TimeControl::from_row(row.tc), TimeControl::Live { .. }) {
                return Err(GameError::BerserkTooLate);
            }
            if !tx.set_berserk(p.id, game_id, side)? {
                return Err(GameError::BerserkTooLate);
            }
            let half = row.tc.base_ms / 2;
            let (white_ms, black_ms) = match side {
                Side::White => (half, row.clock.black_ms),
                Side::Black => (row.clock.white_ms, half),
            };
            tx.set_remaining(game_id, white_ms, black_ms)?;
            let row = tx
                .game(game_id)?
                .ok_or_else(|| GameError::from(Failure::Vanished("game".into())))?;
            self.svc.view(self.svc.load(tx, row)?)
        })
    }

    /// Records the live standings post a front end made for tournament `id`: it is edited
    /// as the standings change.
    pub fn set_standings_message(&self, id: i64, message: u64) -> Result<(), GameError> {
        self.svc.write(|tx, _now| {
            tx.set_tournament_messages(id, None, Some(message))?;
            Ok(())
        })
    }

    /// Moves tournament game `game` from its place `from` to the thread a front end opened
    /// for it (once: a game already moved stays where it is).
    pub fn move_to_thread(&self, game: i64, from: u64, thread: u64) -> Result<(), GameError> {
        self.svc.write(|tx, _now| {
            tx.move_game_to_thread(game, from, thread)?;
            Ok(())
        })
    }

    /// Where `user`'s tournament game in progress is played, if they have one: their moves
    /// and commands act there.
    pub fn game_place_of(&self, user: u64) -> Result<Option<ChannelRef>, GameError> {
        self.svc.read(|tx| {
            let Some(p) = tx.playing_pairing_of(user)? else {
                return Ok(None);
            };
            let Some(game) = p.game.and_then(|g| tx.game(g).transpose()).transpose()? else {
                return Ok(None);
            };
            Ok(Some(ChannelRef {
                guild: game.guild,
                channel: game.thread.unwrap_or(game.channel),
            }))
        })
    }

    /// The standings of the open tournament of `ch`, else of its last one.
    pub fn standings(&self, ch: ChannelRef) -> Result<Standings, GameError> {
        self.svc.read(|tx| {
            let t = match Self::open_in(tx, ch)? {
                Some(t) => t,
                None => tx
                    .last_tournament(ch.channel)?
                    .ok_or(GameError::NoTournament)?,
            };
            Self::standings_in(tx, &t)
        })
    }

    /// The standings of tournament `id`.
    pub fn standings_of(&self, id: i64) -> Result<Standings, GameError> {
        self.svc.read(|tx| {
            let t = tx.tournament(id)?.ok_or(GameError::NoTournament)?;
            Self::standings_in(tx, &t)
        })
    }

    /// One round of the tournaments' work at the service's time: each arena due to start
    /// starts, each due to pair pairs its waiting players (one transaction per wave), each
    /// whose time ran out ends. Returns what it did; its posts are made by the caller
    /// ([`GameService::post_notices`], [`Self::post_news`]).
    pub fn run_due(&self) -> Result<TournamentRound, GameError> {
        let mut round = TournamentRound::default();
        let due = self
            .svc
            .read(|tx| Ok(tx.tournaments_due(self.svc.now())?))?;
        for t in due {
            self.step(&t, &mut round)?;
        }
        // Pairings whose post was lost, posted again.
        round.notices.extend(self.unposted()?);
        // The live standings posts owed an edit, each claimed by one process.
        let edits = self.svc.write(|tx, now| {
            let claimed = tx.claim_standings_edits(now, STANDINGS_EDIT_EVERY_MS)?;
            claimed
                .into_iter()
                .map(|(id, message)| {
                    let t = tx
                        .tournament(id)?
                        .ok_or_else(|| GameError::from(Failure::Vanished("tournament".into())))?;
                    Ok((Self::standings_in(tx, &t)?, message))
                })
                .collect::<Result<Vec<_>, GameError>>()
        })?;
        for (standings, message) in edits {
            round.news.push(TournamentNotice {
                place: standings.tournament.place,
                nonce: format!("cjte{}", standings.tournament.id),
                news: TournamentNews::Standings { standings, message },
            });
        }
        Ok(round)
    }

    /// When the tournaments next have work.
    pub fn next_due(&self) -> Result<Option<i64>, GameError> {
        self.svc.read(|tx| Ok(tx.next_tournament_due()?))
    }

    /// Posts the tournaments' own posts through the notifier, each tried as a game's notice
    /// with a nonce is.
    pub fn post_news(&self, news: &[TournamentNotice]) {
        for n in news {
            let mut wait = super::HELD_POST_RETRY;
            for attempt in 1..=super::HELD_POST_ATTEMPTS {
                match self.svc.inner.opts.notifier.post_tournament(n) {
                    Ok(_) => break,
                    Err(e) if attempt < super::HELD_POST_ATTEMPTS => {
                        tracing::info!(attempt, error = %e, "a tournament post failed; trying again");
                        std::thread::sleep(wait);
                        wait = wait.saturating_mul(2);
                    }
                    Err(e) => tracing::warn!(error = %e, "a tournament post was not made"),
                }
            }
        }
    }

    fn step(&self, seen: &TournamentRow, round: &mut TournamentRound) -> Result<(), GameError> {
        let svc = self.svc;
        let outcome = svc.write(|tx, now| {
            let Some(t) = tx.tournament(seen.id)? else {
                return Ok(None);
            };
            if t.kind == TournamentKind::RoundRobin {
                return self.round_robin_step(tx, &t, now);
            }
            let state = (t.status, t.next_wave_at, t.waves);
            match t.status {
                TournamentStatus::Created if t.starts_at <= now => {
                    let to = (TournamentStatus::Started, Some(t.starts_at), 0);
                    if !tx.advance_tournament(t.id, state, to)? {
                        return Ok(None);
                    }
                    tx.set_standings_due(t.id, true)?;
                    let t = tx.tournament(t.id)?.unwrap_or(t);
                    let view = Self::view_in(tx, &t)?;
                    Ok(Some(Step::Started(view)))
                }
                TournamentStatus::Started if t.ends_at.is_some_and(|e| e <= now) => {
                    let to = (TournamentStatus::Finished, None, t.waves);
                    if !tx.advance_tournament(t.id, state, to)? {
                        return Ok(None);
                    }
                    let t = tx.tournament(t.id)?.unwrap_or(t);
                    Ok(Some(Step::Finished(Self::standings_in(tx, &t)?)))
                }
                TournamentStatus::Started if t.next_wave_at.is_some_and(|w| w <= now) => {
                    let next = now + WAVE_EVERY_MS;
                    let to = (TournamentStatus::Started, Some(next), t.waves + 1);
                    if !tx.advance_tournament(t.id, state, to)? {
                        return Ok(None);
                    }
                    let notices = self.wave(tx, &t, t.waves + 1, now)?;
                    if !notices.is_empty() {
                        tx.set_standings_due(t.id, true)?;
                    }
                    svc.inner.bell.ring_if_before(next);
                    Ok(Some(Step::Paired(notices)))
                }
                _ => Ok(None),
            }
        })?;
        match outcome {
            Some(Step::Started(view)) => round.news.push(TournamentNotice {
                place: view.place,
                nonce: format!("cjts{}", view.id),
                news: TournamentNews::Started(view),
            }),
            Some(Step::Finished(standings)) => round.news.push(TournamentNotice {
                place: standings.tournament.place,
                nonce: format!("cjtf{}", standings.tournament.id),
                news: TournamentNews::Finished(standings),
            }),
            Some(Step::RoundRobinFinished(standings)) => round.news.push(TournamentNotice {
                place: standings.tournament.place,
                nonce: format!("cjtf{}", standings.tournament.id),
                news: TournamentNews::RoundRobinFinished(standings),
            }),
            Some(Step::Paired(notices)) => {
                round.paired += notices.len();
                round.notices.extend(notices);
            }
            None => {}
        }
        Ok(())
    }

    /// Pairs the waiting players of arena `t` and starts their games.
    fn wave(
        &self,
        tx: &dyn Tx,
        t: &TournamentRow,
        number: u32,
        now: i64,
    ) -> Result<Vec<Notice>, GameError> {
        // The players and the games in progress: a wave reads no finished pairing.
        let entrants = tx.entrants(t.id)?;
        let busy: HashSet<u64> = tx
            .playing_pairings(t.id)?
            .iter()
            .flat_map(|p| [p.white, p.black])
            .collect();
        let ranks = Self::ranks(&entrants);
        let active = entrants
            .iter()
            .filter(|e| e.status == EntrantStatus::Active)
            .count();
        let waiting: Vec<Waiting> = entrants
            .iter()
            .filter(|e| e.status == EntrantStatus::Active && !busy.contains(&e.user))
            .map(|e| Waiting {
                user: e.user,
                rank: ranks.get(&e.user).copied().unwrap_or(u32::MAX / 2),
                rating: e.rating,
                colours: ColourHistory {
                    strike: e.colour_strike,
                    balance: e.colour_balance,
                },
                last_opponent: e.last_opponent,
                since: e.free_since.unwrap_or(e.joined_at),
            })
            .collect();
        let ctx = WaveContext {
            recently_started: now - t.starts_at < wave::RECENTLY_STARTED_MS,
            only_two_active: active == 2,
        };
        let pairs = wave::pair_wave(&waiting, ctx, &mut || fastrand::bool());
        let by_user: HashMap<u64, &EntrantRow> = entrants.iter().map(|e| (e.user, e)).collect();
        let mut notices = Vec::with_capacity(pairs.len());
        for pair in pairs {
            notices.push(self.start_pairing(tx, t, number, pair, &by_user, now)?);
        }
        Ok(notices)
    }

    /// Starts one pairing's game at once, in a place of its own under the tournament's
    /// channel; its first-move grace applies.
    fn start_pairing(
        &self,
        tx: &dyn Tx,
        t: &TournamentRow,
        number: u32,
        pair: Pair,
        by_user: &HashMap<u64, &EntrantRow>,
        now: i64,
    ) -> Result<Notice, GameError> {
        let pairing = tx.insert_pairing(t.id, number, pair.white, pair.black, None, now)?;
        let place = pairing_place(pairing);
        let tc = TimeControl::from_row(t.tc);
        let start = Variant::Standard.start();
        let clock = time_control::start(tc, now, 0, start.turn(), self.svc.abandon_ms());
        let game_id = tx.insert_game(&NewGame {
            guild: t.guild,
            channel: t.channel,
            white: pair.white,
            black: pair.black,
            start_fen: &start.fen(),
            now,
            lang: &t.lang,
            thread: Some(place),
            tc: t.tc,
            clock: clock.to_row(),
            rated: t.rated,
            chess960: None,
        })?;
        tx.set_pairing_game(pairing, game_id)?;
        self.svc
            .schedule(tx, game_id, t.channel, 0, tc, &clock, 0)?;
        for (user, white) in [(pair.white, true), (pair.black, false)] {
            let before = by_user
                .get(&user)
                .map_or(ColourHistory::default(), |e| ColourHistory {
                    strike: e.colour_strike,
                    balance: e.colour_balance,
                });
            let after = before.after(white);
            let opponent = if white { pair.black } else { pair.white };
            tx.pair_entrant(t.id, user, opponent, after.strike, after.balance)?;
        }
        let row = tx
            .game(game_id)?
            .ok_or_else(|| GameError::from(Failure::Vanished("game".into())))?;
        self.pairing_notice(tx, t, pairing, number, row)
    }

    /// The post of pairing `pairing` (of round or wave `number`), whose game is `row`: in the
    /// pairing's own place, pinging both players, with the pairing's nonce (a post sent again
    /// after a crash is the same post).
    fn pairing_notice(
        &self,
        tx: &dyn Tx,
        t: &TournamentRow,
        pairing: i64,
        number: u32,
        row: GameRow,
    ) -> Result<Notice, GameError> {
        let mentions = vec![row.white.id, row.black.id];
        let view = self.svc.view(self.svc.load(tx, row)?)?;
        Ok(Notice {
            place: ChannelRef {
                guild: t.guild,
                channel: pairing_place(pairing),
            },
            kind: NoticeKind::Paired {
                tournament: t.id,
                kind: t.kind,
                round: number,
            },
            mentions,
            nonce: Some(format!("cjp{pairing}")),
            game: view,
        })
    }

    /// The pairings whose post did not go out (a crash between the wave and its posts, a
    /// failure), claimed again once their lease lapsed: their posts, to send.
    fn unposted(&self) -> Result<Vec<Notice>, GameError> {
        self.svc.write(|tx, now| {
            let mut out = Vec::new();
            for p in tx.claim_unposted_pairings(now)? {
                let Some(game) = p.game else { continue };
                let (Some(row), Some(t)) = (tx.game(game)?, tx.tournament(p.tournament)?) else {
                    continue;
                };
                if row.status != GameStatus::Active {
                    // Over before anyone was told (a no-show): nothing to announce.
                    tx.mark_pairing_posted(game)?;
                    continue;
                }
                out.push(self.pairing_notice(tx, &t, p.id, p.round, row)?);
            }
            Ok(out)
        })
    }

    /// The post of game `game`'s pairing went out.
    pub(crate) fn mark_posted(&self, game: i64) -> Result<(), GameError> {
        self.svc.write(|tx, _now| Ok(tx.mark_pairing_posted(game)?))
    }

    /// Adds (or brings back) a player, rated by their live rating in the tournament's pool.
    fn enter(tx: &dyn Tx, t: &TournamentRow, user: u64, now: i64) -> Result<(), GameError> {
        let pool = pool_of(t.guild, t.channel);
        let speed = crate::store::Speed::Live;
        let rating = match tx.rating(pool, speed, user)? {
            Some(r) => as_of(r.rating, r.deviation, r.volatility, r.rated_at, now).rating as i32,
            None => UNRATED_RATING,
        };
        let seed = match tx.entrant(t.id, user)? {
            Some(e) => e.seed,
            None => u32::try_from(tx.entrants(t.id)?.len()).unwrap_or(u32::MAX) + 1,
        };
        tx.enter_tournament(t.id, user, seed, rating, now)?;
        Ok(())
    }

    /// The open tournament of `ch` of format `kind`, and `user` in it (not withdrawn).
    pub(super) fn open_entrant(
        tx: &dyn Tx,
        ch: ChannelRef,
        kind: TournamentKind,
        user: u64,
    ) -> Result<(TournamentRow, EntrantRow), GameError> {
        let t = Self::open_in(tx, ch)?
            .filter(|t| t.kind == kind)
            .ok_or(GameError::NoTournament)?;
        let e = tx
            .entrant(t.id, user)?
            .filter(|e| e.status != EntrantStatus::Withdrawn)
            .ok_or(GameError::NotInTournament)?;
        Ok((t, e))
    }

    fn open_in(tx: &dyn Tx, ch: ChannelRef) -> Result<Option<TournamentRow>, GameError> {
        Ok(tx.open_tournaments(ch.channel)?.into_iter().next())
    }

    fn view_in(tx: &dyn Tx, t: &TournamentRow) -> Result<TournamentView, GameError> {
        let players = tx
            .entrants(t.id)?
            .iter()
            .filter(|e| e.status != EntrantStatus::Withdrawn)
            .count();
        Ok(TournamentView::from_row(t, players))
    }

    /// Each player's rank: by points, then performance (else rating), then who joined first —
    /// lila's "magic score" (`Player.magicScore`: score × 10000 + performance or rating).
    fn ranks(entrants: &[EntrantRow]) -> HashMap<u64, u32> {
        let mut order: Vec<&EntrantRow> = entrants.iter().collect();
        order.sort_by(|a, b| Self::by_rank(a, b));
        order
            .iter()
            .enumerate()
            .map(|(i, e)| (e.user, i as u32 + 1))
            .collect()
    }

    /// lichess's performance of a player so far, when they finished a game.
    fn performance(e: &EntrantRow) -> Option<i32> {
        (e.perf_games > 0).then(|| (e.perf_sum / i64::from(e.perf_games)) as i32)
    }

    fn by_rank(a: &EntrantRow, b: &EntrantRow) -> std::cmp::Ordering {
        let key = |e: &EntrantRow| Self::performance(e).unwrap_or(e.rating);
        b.score
            .cmp(&a.score)
            .then(key(b).cmp(&key(a)))
            .then(a.seed.cmp(&b.seed))
    }

    fn lines(entrants: &[EntrantRow], pairings: &[PairingRow]) -> Vec<StandingLine> {
        let mut of: HashMap<u64, Vec<&PairingRow>> = HashMap::new();
        for p in pairings {
            of.entry(p.white).or_default().push(p);
            of.entry(p.black).or_default().push(p);
        }
        let mut order: Vec<&EntrantRow> = entrants.iter().collect();
        order.sort_by(|a, b| Self::by_rank(a, b));
        order
            .into_iter()
            .enumerate()
            .map(|(i, e)| {
                let mine = of.get(&e.user).map(Vec::as_slice).unwrap_or_default();
                let mut sheet = Vec::new();
                for p in mine.iter().filter(|p| p.finished) {
                    let white = p.white == e.user;
                    let (points, fire, berserk) = if white {
                        (p.points_white, p.fire_white, p.berserk_white)
                    } else {
                        (p.points_black, p.fire_black, p.berserk_black)
                    };
                    sheet.push(Mark {
                        points: points.unwrap_or(0),
                        fire,
                        berserk,
                    });
                }
                let on_fire = Self::sheet_of(mine.iter().copied(), e.user).on_fire();
                StandingLine {
                    rank: i as u32 + 1,
                    user: UserRef::new(e.user, &e.name, false),
                    score: e.score,
                    sheet,
                    on_fire,
                    status: e.status,
                    rating: e.rating,
                    performance: Self::performance(e),
                    playing: mine.iter().any(|p| !p.finished),
                }
            })
            .collect()
    }

    fn standings_in(tx: &dyn Tx, t: &TournamentRow) -> Result<Standings, GameError> {
        let entrants = tx.entrants(t.id)?;
        let pairings = tx.pairings(t.id)?;
        let lines = Self::lines(&entrants, &pairings);
        let players = entrants
            .iter()
            .filter(|e| e.status != EntrantStatus::Withdrawn)
            .count();
        Ok(Standings {
            tournament: TournamentView::from_row(t, players),
            lines,
        })
    }

    /// The result of a finished pairing for `user`; `None` while it is played.
    fn result_for(p: &PairingRow, user: u64) -> Option<GameResult> {
        if !p.finished {
            return None;
        }
        Some(result_of(p.winner, p.white == user))
    }

    /// The sheet of `user` in tournament `t` from its finished pairings.
    fn sheet_of<'p>(pairings: impl IntoIterator<Item = &'p PairingRow>, user: u64) -> Sheet {
        Sheet::of(
            pairings
                .into_iter()
                .filter(|p| p.finished && (p.white == user || p.black == user))
                .filter_map(|p| {
                    Some(SheetGame {
                        result: Self::result_for(p, user)?,
                        plies: p.plies.unwrap_or(0),
                        berserk: if p.white == user {
                            p.berserk_white
                        } else {
                            p.berserk_black
                        },
                    })
                }),
        )
    }
}

enum Step {
    Started(TournamentView),
    Paired(Vec<Notice>),
    Finished(Standings),
    RoundRobinFinished(RoundRobinStandings),
}

impl GameService {
    /// Tournaments: arenas and round robins ([`Tournaments`], in `tournament/`).
    pub fn tournaments(&self) -> Tournaments<'_> {
        Tournaments { svc: self }
    }

    /// Whether `game` is a tournament's game (abort is refused, a no-show loses).
    pub(super) fn in_tournament(tx: &dyn Tx, game: i64) -> Result<bool, GameError> {
        Ok(tx.pairing_of_game(game)?.is_some())
    }

    /// What a finished tournament game gave its players, as recorded; `None` for a game of
    /// no tournament, or one still played.
    pub(super) fn tournament_points_in(
        tx: &dyn Tx,
        game: i64,
    ) -> Result<Option<PairingPoints>, GameError> {
        let Some(p) = tx.pairing_of_game(game)?.filter(|p| p.finished) else {
            return Ok(None);
        };
        let Some(t) = tx.tournament(p.tournament)? else {
            return Ok(None);
        };
        Ok(Some(PairingPoints {
            tournament: t.id,
            kind: t.kind,
            white: Mark {
                points: p.points_white.unwrap_or(0),
                fire: p.fire_white,
                berserk: p.berserk_white,
            },
            black: Mark {
                points: p.points_black.unwrap_or(0),
                fire: p.fire_black,
                berserk: p.berserk_black,
            },
        }))
    }

    /// Scores a tournament game that just ended, in the transaction that ended it: each
    /// side's points by the tournament's rules, its standings owed an edit, the players free
    /// for the next wave (a player who never moved is paused, as lichess does). `None` for a
    /// game of no tournament.
    pub(super) fn score_tournament_game(
        tx: &dyn Tx,
        game: &GameRow,
        now: i64,
    ) -> Result<Option<PairingPoints>, GameError> {
        let Some(p) = tx.pairing_of_game(game.id)? else {
            return Ok(None);
        };
        let Some(t) = tx.tournament(p.tournament)? else {
            return Ok(None);
        };
        let plies = game.ply;
        let winner = if game.status == GameStatus::Finished {
            game.winner
        } else {
            None
        };
        let mark = |user: u64, white: bool| -> Result<Mark, GameError> {
            let result = result_of(winner, white);
            let berserk = if white {
                p.berserk_white
            } else {
                p.berserk_black
            };
            match t.kind {
                TournamentKind::Arena => {
                    let before = tx.finished_pairings_of(t.id, user)?;
                    let s = Tournaments::sheet_of(&before, user).score_of(SheetGame {
                        result,
                        plies,
                        berserk,
                    });
                    Ok(Mark {
                        points: s.points as i32,
                        fire: s.fire,
                        berserk,
                    })
                }
                // Half-points: 2 a win, 1 a draw.
                TournamentKind::RoundRobin => Ok(Mark {
                    points: match result {
                        GameResult::Win => 2,
                        GameResult::Draw => 1,
                        GameResult::Loss => 0,
                    },
                    fire: false,
                    berserk: false,
                }),
            }
        };
        let (w, b) = (mark(p.white, true)?, mark(p.black, false)?);
        let result = PairingResult {
            winner,
            plies,
            points_white: w.points,
            points_black: b.points,
            fire_white: w.fire,
            fire_black: b.fire,
        };
        if !tx.finish_pairing(p.id, &result, now)? {
            return Ok(None);
        }
        let pairing_open =
            t.status == TournamentStatus::Started && t.ends_at.is_none_or(|e| now < e);
        // lichess's performance: the opponent's rating (as they joined) ± 500.
        let rating_of = |user: u64| -> Result<i64, GameError> {
            Ok(tx
                .entrant(t.id, user)?
                .map_or(i64::from(UNRATED_RATING), |e| i64::from(e.rating)))
        };
        let diff = |white: bool| match result_of(winner, white) {
            GameResult::Draw => 0,
            GameResult::Win => i64::from(PERFORMANCE_DIFF),
            GameResult::Loss => -i64::from(PERFORMANCE_DIFF),
        };
        let perf_white = rating_of(p.black)? + diff(true);
        let perf_black = rating_of(p.white)? + diff(false);
        for (user, points, perf, colour) in [
            (p.white, w.points, perf_white, Color::White),
            (p.black, b.points, perf_black, Color::Black),
        ] {
            tx.score_entrant(t.id, user, points, perf, pairing_open.then_some(now))?;
            // A player who never made their first move loses and is paused (lichess).
            let no_show = plies < 2 && winner.is_some_and(|s| s != side_of(colour));
            if no_show && t.kind == TournamentKind::Arena {
                tx.set_entrant_status(t.id, user, EntrantStatus::Paused, None)?;
            }
        }
        tx.set_standings_due(t.id, true)?;
        Ok(Some(PairingPoints {
            tournament: t.id,
            kind: t.kind,
            white: w,
            black: b,
        }))
    }
}

/// The result of a game won by `winner` (`None`: drawn) for the player of White when `white`,
/// else of Black.
fn result_of(winner: Option<Side>, white: bool) -> GameResult {
    match (winner, white) {
        (None, _) => GameResult::Draw,
        (Some(Side::White), true) | (Some(Side::Black), false) => GameResult::Win,
        _ => GameResult::Loss,
    }
}

fn side_of(c: Color) -> Side {
    match c {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairing_places_are_neither_discord_ids_nor_local_users() {
        let p = pairing_place(42);
        assert_eq!(p >> 62, 3);
        assert_eq!(p & 0xFFFF, 42);
        // Discord's ids stay below 2^63; the console's users have the top bit only by chance
        // of their hash, and this place is a place, not a user.
        assert!(p > i64::MAX as u64);
    }
}
