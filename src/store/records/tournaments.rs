//! Tournaments (migration 0023): arenas and round robins alike. A tournament in a channel, its
//! players, and its pairings, each pairing's game once it started and its result as the
//! tournament scored it.

use super::Games as _;
use crate::store::StoreError;
use crate::store::TimeControlRow;
use crate::store::sql::{Backend, BackendExt, Columns, to_db};
use crate::vocab::{EntrantStatus, Side, TournamentKind, TournamentStatus};

/// How long the process that made a pairing (or claimed its post again) has to post it before
/// another may: a post lost to a crash goes out after this, with the same nonce.
pub const PAIRING_POST_LEASE_MS: i64 = 10_000;

/// A tournament's standings post is edited at most this often (Discord's rate limits).
pub const STANDINGS_EDIT_EVERY_MS: i64 = 5_000;

/// A tournament as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentRow {
    /// Its id.
    pub id: i64,
    /// Arena or round robin.
    pub kind: TournamentKind,
    /// The server, if any.
    pub guild: Option<u64>,
    /// The channel it was made in (its games get threads under it).
    pub channel: u64,
    /// Its name.
    pub name: String,
    /// Who made it.
    pub created_by: u64,
    /// Its games' time control.
    pub tc: TimeControlRow,
    /// Whether its games are rated.
    pub rated: bool,
    /// Round robin: 1, or 2 for a double round robin.
    pub cycles: u32,
    /// Where it stands.
    pub status: TournamentStatus,
    /// The language of its posts: `"en"` or `"es"`.
    pub lang: String,
    /// When it was made (Unix ms).
    pub created_at: i64,
    /// When it starts (Unix ms).
    pub starts_at: i64,
    /// When it ends (an arena), Unix ms.
    pub ends_at: Option<i64>,
    /// An arena's next pairing wave (Unix ms), while it pairs.
    pub next_wave_at: Option<i64>,
    /// Waves (arena) or rounds (round robin) paired so far.
    pub waves: u32,
    /// Its announcement post.
    pub message: Option<u64>,
    /// Its live standings post.
    pub standings_message: Option<u64>,
    /// An edit of the standings post is owed.
    pub standings_due: bool,
}

/// A new tournament.
#[derive(Debug, Clone)]
pub struct NewTournament<'a> {
    /// Arena or round robin.
    pub kind: TournamentKind,
    /// The server, if any.
    pub guild: Option<u64>,
    /// The channel.
    pub channel: u64,
    /// Its name.
    pub name: &'a str,
    /// Who made it.
    pub created_by: u64,
    /// The time control.
    pub tc: TimeControlRow,
    /// Rated games.
    pub rated: bool,
    /// 1 or 2 (round robin).
    pub cycles: u32,
    /// The language of its posts.
    pub lang: &'a str,
    /// Now.
    pub now: i64,
    /// Its start.
    pub starts_at: i64,
    /// Its end, for an arena.
    pub ends_at: Option<i64>,
}

/// A tournament's player as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntrantRow {
    /// The tournament.
    pub tournament: i64,
    /// Who.
    pub user: u64,
    /// Their name as last seen.
    pub name: String,
    /// In, paused or out.
    pub status: EntrantStatus,
    /// When they joined (Unix ms).
    pub joined_at: i64,
    /// Their number: the order they joined (arena) or their Berger number (round robin).
    pub seed: u32,
    /// The rating they are paired by.
    pub rating: i32,
    /// Their score (arena points; round robin half-points).
    pub score: i32,
    /// Their colour history (arena): games in a row with one colour, `+` White.
    pub colour_strike: i32,
    /// Their colour history (arena): whites minus blacks.
    pub colour_balance: i32,
    /// Since when they wait for a pairing (arena), when they do.
    pub free_since: Option<i64>,
    /// Whom they were last paired with.
    pub last_opponent: Option<u64>,
    /// lichess's performance, summed over their finished games: each opponent's rating ± 500.
    pub perf_sum: i64,
    /// Their finished games.
    pub perf_games: u32,
}

/// A pairing as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairingRow {
    /// Its id.
    pub id: i64,
    /// The tournament.
    pub tournament: i64,
    /// The wave (arena) or round (round robin) that made it.
    pub round: u32,
    /// White.
    pub white: u64,
    /// Black.
    pub black: u64,
    /// Its game, once started.
    pub game: Option<i64>,
    /// Over.
    pub finished: bool,
    /// The winner of a decisive game.
    pub winner: Option<Side>,
    /// How many plies the game lasted.
    pub plies: Option<u32>,
    /// White went berserk.
    pub berserk_white: bool,
    /// Black went berserk.
    pub berserk_black: bool,
    /// White's points from it.
    pub points_white: Option<i32>,
    /// Black's points from it.
    pub points_black: Option<i32>,
    /// White scored it on fire.
    pub fire_white: bool,
    /// Black scored it on fire.
    pub fire_black: bool,
    /// When it was made.
    pub created_at: i64,
    /// When its game ended.
    pub finished_at: Option<i64>,
}

/// A pairing's result as the tournament scored it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PairingResult {
    /// The winner of a decisive game.
    pub winner: Option<Side>,
    /// How many plies the game lasted.
    pub plies: u32,
    /// White's points.
    pub points_white: i32,
    /// Black's points.
    pub points_black: i32,
    /// White scored on fire.
    pub fire_white: bool,
    /// Black scored on fire.
    pub fire_black: bool,
}

fn tournament_row(c: &mut Columns<'_>) -> Result<TournamentRow, StoreError> {
    Ok(TournamentRow {
        id: c.i64()?,
        kind: c.code()?,
        guild: c.opt_id()?,
        channel: c.id()?,
        name: c.string()?,
        created_by: c.id()?,
        tc: c.tc()?,
        rated: c.bool()?,
        cycles: c.u32()?,
        status: c.code()?,
        lang: c.string()?,
        created_at: c.i64()?,
        starts_at: c.i64()?,
        ends_at: c.opt_i64()?,
        next_wave_at: c.opt_i64()?,
        waves: c.u32()?,
        message: c.opt_id()?,
        standings_message: c.opt_id()?,
        standings_due: c.bool()?,
    })
}

/// [`tournament_row`] reads the columns in this order.
macro_rules! select_tournament {
    () => {
        "SELECT id, kind, guild_id, channel_id, name, created_by, tc_kind, tc_base_ms, tc_inc_ms,
                rated, cycles, status, lang, created_at, starts_at, ends_at, next_wave_at, waves,
                message_id, standings_message_id, standings_due
         FROM tournaments"
    };
}

fn entrant_row(c: &mut Columns<'_>) -> Result<EntrantRow, StoreError> {
    Ok(EntrantRow {
        tournament: c.i64()?,
        user: c.id()?,
        name: c.string()?,
        status: c.code()?,
        joined_at: c.i64()?,
        seed: c.u32()?,
        rating: i32::try_from(c.i64()?).unwrap_or(0),
        score: i32::try_from(c.i64()?).unwrap_or(0),
        colour_strike: i32::try_from(c.i64()?).unwrap_or(0),
        colour_balance: i32::try_from(c.i64()?).unwrap_or(0),
        free_since: c.opt_i64()?,
        last_opponent: c.opt_id()?,
        perf_sum: c.i64()?,
        perf_games: c.u32()?,
    })
}

/// [`entrant_row`] reads the columns in this order.
macro_rules! select_entrant {
    () => {
        "SELECT p.tournament_id, p.user_id, u.name, p.status, p.joined_at, p.seed, p.rating,
                p.score, p.colour_strike, p.colour_balance, p.free_since, p.last_opponent,
                p.perf_sum, p.perf_games
         FROM tournament_players p JOIN users u ON u.id = p.user_id"
    };
}

fn pairing_row(c: &mut Columns<'_>) -> Result<PairingRow, StoreError> {
    Ok(PairingRow {
        id: c.i64()?,
        tournament: c.i64()?,
        round: c.u32()?,
        white: c.id()?,
        black: c.id()?,
        game: c.opt_i64()?,
        finished: c.string()? == "finished",
        winner: c.opt_code()?,
        plies: c.opt_u32()?,
        berserk_white: c.bool()?,
        berserk_black: c.bool()?,
        points_white: c.opt_i64()?.map(|p| i32::try_from(p).unwrap_or(0)),
        points_black: c.opt_i64()?.map(|p| i32::try_from(p).unwrap_or(0)),
        fire_white: c.bool()?,
        fire_black: c.bool()?,
        created_at: c.i64()?,
        finished_at: c.opt_i64()?,
    })
}

/// A pairing's columns, in the order [`pairing_row`] reads them.
macro_rules! pairing_columns {
    () => {
        "id, tournament_id, round, white_id, black_id, game_id, status, winner, plies,
         berserk_white, berserk_black, points_white, points_black, fire_white, fire_black,
         created_at, finished_at"
    };
}

/// [`pairing_row`] reads the columns in this order.
macro_rules! select_pairing {
    () => {
        concat!("SELECT ", pairing_columns!(), " FROM tournament_pairings")
    };
}

/// Tournaments, their players and pairings.
pub trait Tournaments {
    /// Makes a tournament; returns its id.
    fn insert_tournament(&self, t: &NewTournament<'_>) -> Result<i64, StoreError>;

    /// A tournament by id.
    fn tournament(&self, id: i64) -> Result<Option<TournamentRow>, StoreError>;

    /// The tournament of `channel` not yet finished, the newest first.
    fn open_tournaments(&self, channel: u64) -> Result<Vec<TournamentRow>, StoreError>;

    /// The last tournament of `channel`, finished or not.
    fn last_tournament(&self, channel: u64) -> Result<Option<TournamentRow>, StoreError>;

    /// Moves game `game` from the place `from` to the thread `thread`; `false` when it was
    /// not there any more.
    fn move_game_to_thread(&self, game: i64, from: u64, thread: u64) -> Result<bool, StoreError>;

    /// Sets both remaining times of a game (berserk halves one before its first move).
    fn set_remaining(&self, game: i64, white_ms: i64, black_ms: i64) -> Result<(), StoreError>;

    /// The tournaments with work due at `now`: to start, to pair, or to end.
    fn tournaments_due(&self, now: i64) -> Result<Vec<TournamentRow>, StoreError>;

    /// When the next tournament has work (see [`Tournaments::tournaments_due`]).
    fn next_tournament_due(&self) -> Result<Option<i64>, StoreError>;

    /// Moves a tournament on: its status, next wave and wave count, if it still stands as
    /// `seen` (status, next wave, waves); `false` when another writer moved it first.
    fn advance_tournament(
        &self,
        id: i64,
        seen: (TournamentStatus, Option<i64>, u32),
        to: (TournamentStatus, Option<i64>, u32),
    ) -> Result<bool, StoreError>;

    /// Records the tournament's announcement or standings post.
    fn set_tournament_messages(
        &self,
        id: i64,
        message: Option<u64>,
        standings: Option<u64>,
    ) -> Result<(), StoreError>;

    /// Marks an edit of the standings post as owed (or done).
    fn set_standings_due(&self, id: i64, due: bool) -> Result<(), StoreError>;

    /// Claims the owed edits of standings posts whose last edit is at least `every` ms old
    /// at `now`: each is marked made at `now` by the one writer that claims it. Returns the
    /// tournaments and their posts.
    fn claim_standings_edits(&self, now: i64, every: i64) -> Result<Vec<(i64, u64)>, StoreError>;

    /// Adds a player, or brings one back (`status`, free since `now`); their seed, rating and
    /// score stay when they come back.
    fn enter_tournament(
        &self,
        id: i64,
        user: u64,
        seed: u32,
        rating: i32,
        now: i64,
    ) -> Result<(), StoreError>;

    /// Sets a player's status.
    fn set_entrant_status(
        &self,
        id: i64,
        user: u64,
        status: EntrantStatus,
        free_since: Option<i64>,
    ) -> Result<bool, StoreError>;

    /// A player of a tournament.
    fn entrant(&self, id: i64, user: u64) -> Result<Option<EntrantRow>, StoreError>;

    /// The players of a tournament, by seed.
    fn entrants(&self, id: i64) -> Result<Vec<EntrantRow>, StoreError>;

    /// A player's game ended: their score grows by `points`, their performance sum by
    /// `performance` (one game more), and they wait from `free_since` (none: not paired).
    fn score_entrant(
        &self,
        id: i64,
        user: u64,
        points: i32,
        performance: i64,
        free_since: Option<i64>,
    ) -> Result<(), StoreError>;

    /// A player was paired with `opponent`: their colour history after it; they wait no more.
    fn pair_entrant(
        &self,
        id: i64,
        user: u64,
        opponent: u64,
        strike: i32,
        balance: i32,
    ) -> Result<(), StoreError>;

    /// The pairings of a tournament still played.
    fn playing_pairings(&self, id: i64) -> Result<Vec<PairingRow>, StoreError>;

    /// A player's finished pairings in a tournament, in the order made.
    fn finished_pairings_of(&self, id: i64, user: u64) -> Result<Vec<PairingRow>, StoreError>;

    /// Adds a pairing with its game; returns its id.
    fn insert_pairing(
        &self,
        id: i64,
        round: u32,
        white: u64,
        black: u64,
        game: Option<i64>,
        now: i64,
    ) -> Result<i64, StoreError>;

    /// Sets the game of a pairing.
    fn set_pairing_game(&self, pairing: i64, game: i64) -> Result<(), StoreError>;

    /// The pairings of a tournament, in the order made.
    fn pairings(&self, id: i64) -> Result<Vec<PairingRow>, StoreError>;

    /// The pairing whose game is `game`.
    fn pairing_of_game(&self, game: i64) -> Result<Option<PairingRow>, StoreError>;

    /// Claims again, until `now` + [`PAIRING_POST_LEASE_MS`], the posts of the pairings whose
    /// post has not gone out and whose claim lapsed; returns them.
    fn claim_unposted_pairings(&self, now: i64) -> Result<Vec<PairingRow>, StoreError>;

    /// The post of game `game`'s pairing went out.
    fn mark_pairing_posted(&self, game: i64) -> Result<(), StoreError>;

    /// The game of `user`'s pairing in progress, in any tournament.
    fn playing_pairing_of(&self, user: u64) -> Result<Option<PairingRow>, StoreError>;

    /// Records a pairing's result, once (`false` when it had one).
    fn finish_pairing(&self, pairing: i64, r: &PairingResult, now: i64)
    -> Result<bool, StoreError>;

    /// A side of a pairing goes berserk, once and before its game's first move of that side
    /// (the service checks); the game's bit is set with it.
    fn set_berserk(&self, pairing: i64, game: i64, side: Side) -> Result<bool, StoreError>;

    /// Records how a round robin player's withdrawal counts (migration 0025: `cancelled` or
    /// `forfeits`).
    fn set_entrant_withdrawal(
        &self,
        id: i64,
        user: u64,
        withdrawal: &str,
    ) -> Result<bool, StoreError>;

    /// Each withdrawn player of tournament `id` with how their withdrawal counts, by seed.
    fn entrant_withdrawals(&self, id: i64) -> Result<Vec<(u64, String)>, StoreError>;
}

impl<B: Backend + ?Sized> Tournaments for B {
    fn insert_tournament(&self, t: &NewTournament<'_>) -> Result<i64, StoreError> {
        self.one(
            "INSERT INTO tournaments (kind, guild_id, channel_id, name, created_by, tc_kind,
                 tc_base_ms, tc_inc_ms, rated, cycles, status, lang, created_at, starts_at,
                 ends_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'created', ?11, ?12, ?13, ?14)
             RETURNING id",
            &[
                &t.kind,
                &t.guild.map(to_db),
                &to_db(t.channel),
                &t.name,
                &to_db(t.created_by),
                &t.tc.kind,
                &t.tc.base_ms,
                &t.tc.inc_ms,
                &t.rated,
                &t.cycles,
                &t.lang,
                &t.now,
                &t.starts_at,
                &t.ends_at,
            ],
            |c| c.i64(),
        )
    }

    fn tournament(&self, id: i64) -> Result<Option<TournamentRow>, StoreError> {
        // Where writers serialise by channel: the tournament's games' lock (its channel).
        if self.locks_channels() {
            let Some(channel) = self.row(
                "SELECT channel_id FROM tournaments WHERE id = ?1",
                &[&id],
                |c| c.i64(),
            )?
            else {
                return Ok(None);
            };
            self.lock_channel(channel)?;
        }
        self.row(
            concat!(select_tournament!(), " WHERE id = ?1"),
            &[&id],
            tournament_row,
        )
    }

    fn open_tournaments(&self, channel: u64) -> Result<Vec<TournamentRow>, StoreError> {
        self.lock_channel(to_db(channel))?;
        self.rows(
            concat!(
                select_tournament!(),
                " WHERE channel_id = ?1 AND status <> 'finished' ORDER BY id DESC"
            ),
            &[&to_db(channel)],
            tournament_row,
        )
    }

    fn last_tournament(&self, channel: u64) -> Result<Option<TournamentRow>, StoreError> {
        self.lock_channel(to_db(channel))?;
        self.row(
            concat!(
                select_tournament!(),
                " WHERE channel_id = ?1 ORDER BY id DESC LIMIT 1"
            ),
            &[&to_db(channel)],
            tournament_row,
        )
    }

    fn move_game_to_thread(&self, game: i64, from: u64, thread: u64) -> Result<bool, StoreError> {
        // Locks the game's channel (where writers serialise by it) before writing.
        if self.game(game)?.is_none() {
            return Ok(false);
        }
        Ok(self.exec(
            "UPDATE games SET thread_id = ?3 WHERE id = ?1 AND thread_id = ?2",
            &[&game, &to_db(from), &to_db(thread)],
        )? == 1)
    }

    fn set_remaining(&self, game: i64, white_ms: i64, black_ms: i64) -> Result<(), StoreError> {
        self.exec(
            "UPDATE games SET white_ms = ?2, black_ms = ?3 WHERE id = ?1",
            &[&game, &white_ms, &black_ms],
        )?;
        Ok(())
    }

    fn tournaments_due(&self, now: i64) -> Result<Vec<TournamentRow>, StoreError> {
        self.rows(
            concat!(
                select_tournament!(),
                " WHERE (status = 'created' AND kind = 'arena' AND starts_at <= ?1)
                    OR (status = 'started' AND next_wave_at <= ?1)
                    OR (status = 'started' AND ends_at <= ?1)
                 ORDER BY id"
            ),
            &[&now],
            tournament_row,
        )
    }

    fn next_tournament_due(&self) -> Result<Option<i64>, StoreError> {
        self.one(
            "SELECT MIN(t) FROM (
                 SELECT starts_at AS t FROM tournaments WHERE status = 'created' AND kind = 'arena'
                 UNION ALL
                 SELECT next_wave_at FROM tournaments WHERE status = 'started'
                     AND next_wave_at IS NOT NULL
                 UNION ALL
                 SELECT ends_at FROM tournaments WHERE status = 'started' AND ends_at IS NOT NULL
                 UNION ALL
                 SELECT COALESCE(standings_edited_at, 0) + ?1 FROM tournaments
                 WHERE standings_due = TRUE AND standings_message_id IS NOT NULL
             ) due",
            &[&STANDINGS_EDIT_EVERY_MS],
            |c| c.opt_i64(),
        )
    }

    fn advance_tournament(
        &self,
        id: i64,
        seen: (TournamentStatus, Option<i64>, u32),
        to: (TournamentStatus, Option<i64>, u32),
    ) -> Result<bool, StoreError> {
        // One statement, compare-and-set: of two writers that saw the same state, one moves it.
        let n = self.exec(
            "UPDATE tournaments SET status = ?5, next_wave_at = ?6, waves = ?7
             WHERE id = ?1 AND status = ?2
               AND (next_wave_at = ?3 OR (next_wave_at IS NULL AND ?3 IS NULL)) AND waves = ?4",
            &[&id, &seen.0, &seen.1, &seen.2, &to.0, &to.1, &to.2],
        )?;
        Ok(n == 1)
    }

    fn set_tournament_messages(
        &self,
        id: i64,
        message: Option<u64>,
        standings: Option<u64>,
    ) -> Result<(), StoreError> {
        self.exec(
            "UPDATE tournaments SET message_id = COALESCE(?2, message_id),
                 standings_message_id = COALESCE(?3, standings_message_id)
             WHERE id = ?1",
            &[&id, &message.map(to_db), &standings.map(to_db)],
        )?;
        Ok(())
    }

    fn claim_standings_edits(&self, now: i64, every: i64) -> Result<Vec<(i64, u64)>, StoreError> {
        // One statement: of two writers, each edit is claimed by the first.
        self.rows(
            "UPDATE tournaments SET standings_due = FALSE, standings_edited_at = ?1
             WHERE standings_due = TRUE AND standings_message_id IS NOT NULL
               AND (standings_edited_at IS NULL OR standings_edited_at <= ?2)
             RETURNING id, standings_message_id",
            &[&now, &(now - every)],
            |c| Ok((c.i64()?, c.id()?)),
        )
    }

    fn set_standings_due(&self, id: i64, due: bool) -> Result<(), StoreError> {
        self.exec(
            "UPDATE tournaments SET standings_due = ?2 WHERE id = ?1",
            &[&id, &due],
        )?;
        Ok(())
    }

    fn enter_tournament(
        &self,
        id: i64,
        user: u64,
        seed: u32,
        rating: i32,
        now: i64,
    ) -> Result<(), StoreError> {
        self.exec(
            "INSERT INTO tournament_players (tournament_id, user_id, status, joined_at, seed,
                 rating, free_since)
             VALUES (?1, ?2, 'active', ?3, ?4, ?5, ?3)
             ON CONFLICT (tournament_id, user_id) DO UPDATE SET status = 'active',
                 free_since = excluded.free_since",
            &[&id, &to_db(user), &now, &seed, &rating],
        )?;
        Ok(())
    }

    fn set_entrant_status(
        &self,
        id: i64,
        user: u64,
        status: EntrantStatus,
        free_since: Option<i64>,
    ) -> Result<bool, StoreError> {
        Ok(self.exec(
            "UPDATE tournament_players SET status = ?3, free_since = ?4
             WHERE tournament_id = ?1 AND user_id = ?2",
            &[&id, &to_db(user), &status, &free_since],
        )? == 1)
    }

    fn entrant(&self, id: i64, user: u64) -> Result<Option<EntrantRow>, StoreError> {
        self.row(
            concat!(
                select_entrant!(),
                " WHERE p.tournament_id = ?1 AND p.user_id = ?2"
            ),
            &[&id, &to_db(user)],
            entrant_row,
        )
    }

    fn entrants(&self, id: i64) -> Result<Vec<EntrantRow>, StoreError> {
        self.rows(
            concat!(
                select_entrant!(),
                " WHERE p.tournament_id = ?1 ORDER BY p.seed, p.user_id"
            ),
            &[&id],
            entrant_row,
        )
    }

    fn score_entrant(
        &self,
        id: i64,
        user: u64,
        points: i32,
        performance: i64,
        free_since: Option<i64>,
    ) -> Result<(), StoreError> {
        self.exec(
            "UPDATE tournament_players SET score = score + ?3, perf_sum = perf_sum + ?4,
                 perf_games = perf_games + 1, free_since = ?5
             WHERE tournament_id = ?1 AND user_id = ?2",
            &[&id, &to_db(user), &points, &performance, &free_since],
        )?;
        Ok(())
    }

    fn pair_entrant(
        &self,
        id: i64,
        user: u64,
        opponent: u64,
        strike: i32,
        balance: i32,
    ) -> Result<(), StoreError> {
        self.exec(
            "UPDATE tournament_players SET colour_strike = ?4, colour_balance = ?5,
                 last_opponent = ?3, free_since = NULL
             WHERE tournament_id = ?1 AND user_id = ?2",
            &[&id, &to_db(user), &to_db(opponent), &strike, &balance],
        )?;
        Ok(())
    }

    fn playing_pairings(&self, id: i64) -> Result<Vec<PairingRow>, StoreError> {
        self.rows(
            concat!(
                select_pairing!(),
                " WHERE tournament_id = ?1 AND status = 'playing' ORDER BY id"
            ),
            &[&id],
            pairing_row,
        )
    }

    fn finished_pairings_of(&self, id: i64, user: u64) -> Result<Vec<PairingRow>, StoreError> {
        // Two index ranges (as White, as Black), merged in the order made.
        self.rows(
            concat!(
                select_pairing!(),
                " WHERE id IN (
                     SELECT id FROM tournament_pairings
                     WHERE tournament_id = ?1 AND white_id = ?2 AND status = 'finished'
                     UNION ALL
                     SELECT id FROM tournament_pairings
                     WHERE tournament_id = ?1 AND black_id = ?2 AND status = 'finished')
                 ORDER BY id"
            ),
            &[&id, &to_db(user)],
            pairing_row,
        )
    }

    fn insert_pairing(
        &self,
        id: i64,
        round: u32,
        white: u64,
        black: u64,
        game: Option<i64>,
        now: i64,
    ) -> Result<i64, StoreError> {
        self.one(
            "INSERT INTO tournament_pairings (tournament_id, round, white_id, black_id, game_id,
                 status, created_at, post_claimed_until)
             VALUES (?1, ?2, ?3, ?4, ?5, 'playing', ?6, ?7)
             RETURNING id",
            &[
                &id,
                &round,
                &to_db(white),
                &to_db(black),
                &game,
                &now,
                &(now + PAIRING_POST_LEASE_MS),
            ],
            |c| c.i64(),
        )
    }

    fn set_pairing_game(&self, pairing: i64, game: i64) -> Result<(), StoreError> {
        self.exec(
            "UPDATE tournament_pairings SET game_id = ?2 WHERE id = ?1",
            &[&pairing, &game],
        )?;
        Ok(())
    }

    fn pairings(&self, id: i64) -> Result<Vec<PairingRow>, StoreError> {
        self.rows(
            concat!(select_pairing!(), " WHERE tournament_id = ?1 ORDER BY id"),
            &[&id],
            pairing_row,
        )
    }

    fn claim_unposted_pairings(&self, now: i64) -> Result<Vec<PairingRow>, StoreError> {
        // One statement: each lapsed claim is taken by whoever updates it first.
        self.rows(
            concat!(
                "UPDATE tournament_pairings SET post_claimed_until = ?2
                 WHERE posted = FALSE AND post_claimed_until < ?1 AND game_id IS NOT NULL
                 RETURNING ",
                pairing_columns!()
            ),
            &[&now, &(now + PAIRING_POST_LEASE_MS)],
            pairing_row,
        )
    }

    fn mark_pairing_posted(&self, game: i64) -> Result<(), StoreError> {
        self.exec(
            "UPDATE tournament_pairings SET posted = TRUE WHERE game_id = ?1",
            &[&game],
        )?;
        Ok(())
    }

    fn pairing_of_game(&self, game: i64) -> Result<Option<PairingRow>, StoreError> {
        self.row(
            concat!(select_pairing!(), " WHERE game_id = ?1"),
            &[&game],
            pairing_row,
        )
    }

    fn playing_pairing_of(&self, user: u64) -> Result<Option<PairingRow>, StoreError> {
        self.row(
            concat!(
                select_pairing!(),
                " WHERE status = 'playing' AND (white_id = ?1 OR black_id = ?1)
                 ORDER BY id DESC"
            ),
            &[&to_db(user)],
            pairing_row,
        )
    }

    fn finish_pairing(
        &self,
        pairing: i64,
        r: &PairingResult,
        now: i64,
    ) -> Result<bool, StoreError> {
        Ok(self.exec(
            "UPDATE tournament_pairings SET status = 'finished', winner = ?2, plies = ?3,
                 points_white = ?4, points_black = ?5, fire_white = ?6, fire_black = ?7,
                 finished_at = ?8
             WHERE id = ?1 AND status = 'playing'",
            &[
                &pairing,
                &r.winner,
                &r.plies,
                &r.points_white,
                &r.points_black,
                &r.fire_white,
                &r.fire_black,
                &now,
            ],
        )? == 1)
    }

    fn set_berserk(&self, pairing: i64, game: i64, side: Side) -> Result<bool, StoreError> {
        let (sql, bit): (&'static str, i64) = match side {
            Side::White => (
                "UPDATE tournament_pairings SET berserk_white = TRUE
                 WHERE id = ?1 AND status = 'playing' AND berserk_white = FALSE",
                1,
            ),
            Side::Black => (
                "UPDATE tournament_pairings SET berserk_black = TRUE
                 WHERE id = ?1 AND status = 'playing' AND berserk_black = FALSE",
                2,
            ),
        };
        if self.exec(sql, &[&pairing])? != 1 {
            return Ok(false);
        }
        self.exec(
            "UPDATE games SET berserk = berserk + ?2 WHERE id = ?1",
            &[&game, &bit],
        )?;
        Ok(true)
    }

    fn set_entrant_withdrawal(
        &self,
        id: i64,
        user: u64,
        withdrawal: &str,
    ) -> Result<bool, StoreError> {
        Ok(self.exec(
            "UPDATE tournament_players SET withdrawal = ?3
             WHERE tournament_id = ?1 AND user_id = ?2",
            &[&id, &to_db(user), &withdrawal],
        )? == 1)
    }

    fn entrant_withdrawals(&self, id: i64) -> Result<Vec<(u64, String)>, StoreError> {
        self.rows(
            "SELECT user_id, withdrawal FROM tournament_players
             WHERE tournament_id = ?1 AND withdrawal IS NOT NULL ORDER BY seed, user_id",
            &[&id],
            |c| Ok((c.id()?, c.string()?)),
        )
    }
}
