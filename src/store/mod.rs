//! The SQLite store: the only place in the crate (with `migrations/`) that contains SQL.
//!
//! A [`Store`] owns one connection in WAL mode with `synchronous=FULL` (an acknowledged commit
//! survives a power loss), foreign keys on and a busy timeout. The schema is in the numbered
//! files of `migrations/`, embedded in the binary and applied when the store opens.
//!
//! Every operation of the game service runs as ONE `BEGIN IMMEDIATE` transaction through
//! [`Store::immediate`]: the closure reads what it needs through [`Tx`], decides, writes, and the
//! transaction commits only if the closure returns `Ok`. Writes that depend on the state they
//! read carry a ply check ([`Tx::append_move`], [`Tx::finish_game`]) so that a move computed
//! against an older position can never land.
//!
//! The store is blocking. Async code must call it through `tokio::task::spawn_blocking`.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, Row, TransactionBehavior, params};
use rusqlite_migration::{M, Migrations};

/// The migrations, in order. Append new files; never edit one that has shipped.
const MIGRATION_FILES: &[&str] = &[
    include_str!("../../migrations/0001_initial.sql"),
    include_str!("../../migrations/0002_bot_settings.sql"),
    include_str!("../../migrations/0003_pings.sql"),
    include_str!("../../migrations/0004_game_language.sql"),
];

/// How long a connection waits for another process's write lock before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

fn migrations() -> Migrations<'static> {
    Migrations::new(MIGRATION_FILES.iter().map(|sql| M::up(sql)).collect())
}

/// The schema version the migrations bring a database to.
pub fn latest_schema_version() -> usize {
    MIGRATION_FILES.len()
}

/// Why a store operation failed (always unexpected: refusals are decided by the caller).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite said no.
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The schema could not be brought up to date.
    #[error("database migration failed: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    /// A stored value is not one this program writes.
    #[error("corrupt database row: {0}")]
    Corrupt(String),
}

/// A Discord id (or a local user's id) as stored: the i64 with the same bits.
fn to_db(id: u64) -> i64 {
    id as i64
}

fn from_db(id: i64) -> u64 {
    id as u64
}

macro_rules! str_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name { $($(#[$vm])* $variant),+ }
        impl $name {
            /// The text stored in the database.
            pub fn as_str(self) -> &'static str {
                match self { $(Self::$variant => $text),+ }
            }
            fn parse(s: &str) -> Result<Self, StoreError> {
                match s {
                    $($text => Ok(Self::$variant),)+
                    other => Err(StoreError::Corrupt(format!(
                        "{} {other:?}", stringify!($name)
                    ))),
                }
            }
        }
    };
}

str_enum!(
    /// A side of the board, as stored.
    Side { White = "white", Black = "black" }
);
str_enum!(
    /// The challenger's colour choice, as stored.
    ColourPick { White = "white", Black = "black", Random = "random" }
);
str_enum!(
    /// Where a challenge stands.
    ChallengeStatus {
        /// Waiting for an answer.
        Pending = "pending",
        /// Accepted: a game started.
        Accepted = "accepted",
        /// Declined by the challenged user.
        Declined = "declined",
        /// Withdrawn by the challenger.
        Cancelled = "cancelled",
        /// Nobody answered in time.
        Expired = "expired",
    }
);
str_enum!(
    /// Where a game stands.
    GameStatus {
        /// Being played.
        Active = "active",
        /// Over, with a result.
        Finished = "finished",
        /// Ended without a result before both players moved.
        Aborted = "aborted",
    }
);
str_enum!(
    /// Where a draw offer stands.
    OfferStatus {
        /// Standing.
        Open = "open",
        /// Accepted: the game was drawn.
        Accepted = "accepted",
        /// Declined by the opponent.
        Declined = "declined",
        /// The offerer withdrew it.
        Withdrawn = "withdrawn",
        /// The opponent moved instead of answering, or the game ended.
        Lapsed = "lapsed",
    }
);

/// A user as last seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserRow {
    /// The Discord user id (or a local user's id).
    pub id: u64,
    /// The display name as last seen.
    pub name: String,
    /// Whether the account is a bot.
    pub is_bot: bool,
}

/// A challenge, with its users.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeRow {
    /// Its id.
    pub id: i64,
    /// The guild, if any.
    pub guild: Option<u64>,
    /// The channel (a thread is a channel).
    pub channel: u64,
    /// Who challenged.
    pub challenger: UserRow,
    /// Who was challenged; `None` for an open challenge.
    pub opponent: Option<UserRow>,
    /// The challenger's colour choice.
    pub colour: ColourPick,
    /// Where it stands.
    pub status: ChallengeStatus,
    /// When it was made (Unix ms).
    pub created_at: i64,
    /// When it expires (Unix ms).
    pub expires_at: i64,
    /// The game it started, once accepted.
    pub game_id: Option<i64>,
}

/// A game, with its players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    /// Its id.
    pub id: i64,
    /// The guild, if any.
    pub guild: Option<u64>,
    /// The channel.
    pub channel: u64,
    /// White.
    pub white: UserRow,
    /// Black.
    pub black: UserRow,
    /// The FEN it started from.
    pub start_fen: String,
    /// The current FEN (a cache of start + moves).
    pub fen: String,
    /// Plies played.
    pub ply: u32,
    /// Where it stands.
    pub status: GameStatus,
    /// "*", "1-0", "0-1" or "1/2-1/2".
    pub result: String,
    /// The winner of a decisive game.
    pub winner: Option<Side>,
    /// Why it ended (the service's vocabulary).
    pub termination: Option<String>,
    /// The move written with a draw claim (not played), in UCI.
    pub claim_move: Option<String>,
    /// When it started (Unix ms).
    pub created_at: i64,
    /// When it last changed (Unix ms).
    pub updated_at: i64,
    /// When it ended (Unix ms).
    pub finished_at: Option<i64>,
    /// The language of its posts that no interaction caused: `"en"` or `"es"`.
    pub lang: String,
}

/// One move of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRow {
    /// 0 for White's first move.
    pub ply: u32,
    /// The move in UCI (`e2e4`, `e1g1`, `e7e8q`).
    pub uci: String,
    /// The move in SAN as it was shown.
    pub san: String,
    /// Who played it.
    pub user_id: u64,
    /// When (Unix ms).
    pub played_at: i64,
}

/// A draw offer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawOfferRow {
    /// Its id.
    pub id: i64,
    /// The game.
    pub game_id: i64,
    /// Who offered.
    pub by: Side,
    /// The ply of the game when it was offered.
    pub ply: u32,
    /// Where it stands.
    pub status: OfferStatus,
    /// When (Unix ms).
    pub created_at: i64,
}

/// A new challenge.
#[derive(Debug, Clone)]
pub struct NewChallenge {
    /// The guild, if any.
    pub guild: Option<u64>,
    /// The channel.
    pub channel: u64,
    /// Who challenges (must already be stored with [`Tx::upsert_user`]).
    pub challenger: u64,
    /// Whom; `None` for an open challenge.
    pub opponent: Option<u64>,
    /// The challenger's colour choice.
    pub colour: ColourPick,
    /// Now (Unix ms).
    pub now: i64,
    /// When it expires (Unix ms).
    pub expires_at: i64,
}

/// A new game.
#[derive(Debug, Clone)]
pub struct NewGame<'a> {
    /// The guild, if any.
    pub guild: Option<u64>,
    /// The channel.
    pub channel: u64,
    /// White's user id.
    pub white: u64,
    /// Black's user id.
    pub black: u64,
    /// The start position.
    pub start_fen: &'a str,
    /// Now (Unix ms).
    pub now: i64,
    /// The language of its posts that no interaction causes: `"en"` or `"es"`.
    pub lang: &'a str,
}

/// How a game ends, as stored.
#[derive(Debug, Clone)]
pub struct Ending<'a> {
    /// Finished or aborted.
    pub status: GameStatus,
    /// "*", "1-0", "0-1" or "1/2-1/2".
    pub result: &'a str,
    /// The winner of a decisive game.
    pub winner: Option<Side>,
    /// Why it ended.
    pub termination: &'a str,
    /// The move written with a draw claim, in UCI.
    pub claim_move: Option<&'a str>,
    /// Now (Unix ms).
    pub now: i64,
}

/// The database.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
}

impl Store {
    /// Opens (creating it if needed) the database file and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Self::setup(Connection::open(path)?)
    }

    /// An in-memory database (for tests; no durability).
    pub fn open_in_memory() -> Result<Store, StoreError> {
        Self::setup(Connection::open_in_memory()?)
    }

    fn setup(mut conn: Connection) -> Result<Store, StoreError> {
        conn.busy_timeout(BUSY_TIMEOUT)?;
        // journal_mode answers with a row; an in-memory database stays "memory".
        let _mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        migrations().to_latest(&mut conn)?;
        Ok(Store { conn })
    }

    /// The schema version of the open database (the number of migrations applied).
    pub fn schema_version(&self) -> Result<usize, StoreError> {
        let v: i64 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))?;
        Ok(v as usize)
    }

    /// Applies the migrations again (a no-op when the schema is current).
    pub fn migrate(&mut self) -> Result<(), StoreError> {
        migrations().to_latest(&mut self.conn)?;
        Ok(())
    }

    /// A pragma's current value, as text (for checks and diagnostics).
    pub fn pragma(&self, name: &str) -> Result<String, StoreError> {
        let value: rusqlite::types::Value =
            self.conn.pragma_query_value(None, name, |r| r.get(0))?;
        Ok(match value {
            rusqlite::types::Value::Integer(i) => i.to_string(),
            rusqlite::types::Value::Text(s) => s,
            other => format!("{other:?}"),
        })
    }

    /// Runs `f` inside one `BEGIN IMMEDIATE` transaction: it commits when `f` returns `Ok`
    /// and rolls back (leaving the database as it was) when `f` returns `Err`.
    pub fn immediate<T, E: From<StoreError>>(
        &mut self,
        f: impl FnOnce(&Tx<'_>) -> Result<T, E>,
    ) -> Result<T, E> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(StoreError::from)?;
        let wrapped = Tx { tx };
        let out = f(&wrapped)?;
        wrapped.tx.commit().map_err(StoreError::from)?;
        Ok(out)
    }

    /// Runs `f` inside one read transaction (a consistent snapshot; it never writes).
    pub fn read<T, E: From<StoreError>>(
        &mut self,
        f: impl FnOnce(&Tx<'_>) -> Result<T, E>,
    ) -> Result<T, E> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Deferred)
            .map_err(StoreError::from)?;
        let wrapped = Tx { tx };
        let out = f(&wrapped)?;
        wrapped.tx.rollback().map_err(StoreError::from)?;
        Ok(out)
    }
}

/// The raw commit rate of SQLite on this machine, for benchmarks: opens (creating it) a
/// store at `path` with the same settings (WAL, `synchronous=FULL`) and commits `n`
/// one-row `BEGIN IMMEDIATE` transactions. Returns the time they took.
pub fn measure_raw_commits(path: &Path, n: u64) -> Result<Duration, StoreError> {
    let mut store = Store::open(path)?;
    let base: u64 = store.read(|tx| {
        Ok::<_, StoreError>(tx.tx.query_row(
            "SELECT coalesce(max(id), 0) FROM processed_interactions",
            [],
            |r| r.get::<_, i64>(0),
        )? as u64)
    })?;
    let t0 = std::time::Instant::now();
    for i in 1..=n {
        store.immediate(|tx| tx.mark_interaction(base + i, 0))?;
    }
    Ok(t0.elapsed())
}

/// An open transaction: typed reads and writes.
pub struct Tx<'c> {
    tx: rusqlite::Transaction<'c>,
}

const GAME_COLUMNS: &str = "g.id, g.guild_id, g.channel_id, \
     w.id, w.name, w.is_bot, b.id, b.name, b.is_bot, \
     g.start_fen, g.fen, g.ply, g.status, g.result, g.winner, g.termination, g.claim_move, \
     g.created_at, g.updated_at, g.finished_at, g.lang";
const GAME_FROM: &str =
    "FROM games g JOIN users w ON w.id = g.white_id JOIN users b ON b.id = g.black_id";

const CHALLENGE_COLUMNS: &str = "c.id, c.guild_id, c.channel_id, \
     u.id, u.name, u.is_bot, o.id, o.name, o.is_bot, \
     c.colour, c.status, c.created_at, c.expires_at, c.game_id";
const CHALLENGE_FROM: &str = "FROM challenges c JOIN users u ON u.id = c.challenger_id LEFT JOIN users o ON o.id = c.opponent_id";

fn user_at(row: &Row<'_>, i: usize) -> rusqlite::Result<UserRow> {
    Ok(UserRow {
        id: from_db(row.get(i)?),
        name: row.get(i + 1)?,
        is_bot: row.get(i + 2)?,
    })
}

type Raw<T> = (T, Vec<String>);

fn game_raw(row: &Row<'_>) -> rusqlite::Result<Raw<GameRow>> {
    let status: String = row.get(12)?;
    let winner: Option<String> = row.get(14)?;
    let game = GameRow {
        id: row.get(0)?,
        guild: row.get::<_, Option<i64>>(1)?.map(from_db),
        channel: from_db(row.get(2)?),
        white: user_at(row, 3)?,
        black: user_at(row, 6)?,
        start_fen: row.get(9)?,
        fen: row.get(10)?,
        ply: row.get(11)?,
        status: GameStatus::Active,
        result: row.get(13)?,
        winner: None,
        termination: row.get(15)?,
        claim_move: row.get(16)?,
        created_at: row.get(17)?,
        updated_at: row.get(18)?,
        finished_at: row.get(19)?,
        lang: row.get(20)?,
    };
    Ok((game, vec![status, winner.unwrap_or_default()]))
}

fn finish_game_row((mut g, texts): Raw<GameRow>) -> Result<GameRow, StoreError> {
    g.status = GameStatus::parse(&texts[0])?;
    g.winner = match texts[1].as_str() {
        "" => None,
        s => Some(Side::parse(s)?),
    };
    Ok(g)
}

fn challenge_raw(row: &Row<'_>) -> rusqlite::Result<Raw<ChallengeRow>> {
    let opponent = match row.get::<_, Option<i64>>(6)? {
        Some(_) => Some(user_at(row, 6)?),
        None => None,
    };
    let c = ChallengeRow {
        id: row.get(0)?,
        guild: row.get::<_, Option<i64>>(1)?.map(from_db),
        channel: from_db(row.get(2)?),
        challenger: user_at(row, 3)?,
        opponent,
        colour: ColourPick::Random,
        status: ChallengeStatus::Pending,
        created_at: row.get(11)?,
        expires_at: row.get(12)?,
        game_id: row.get(13)?,
    };
    Ok((c, vec![row.get(9)?, row.get(10)?]))
}

fn finish_challenge_row((mut c, texts): Raw<ChallengeRow>) -> Result<ChallengeRow, StoreError> {
    c.colour = ColourPick::parse(&texts[0])?;
    c.status = ChallengeStatus::parse(&texts[1])?;
    Ok(c)
}

impl Tx<'_> {
    /// Stores a user, or refreshes their name and bot flag as last seen.
    pub fn upsert_user(&self, user: &UserRow, now: i64) -> Result<(), StoreError> {
        self.tx
            .prepare_cached(
                "INSERT INTO users (id, name, is_bot, updated_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (id) DO UPDATE SET name = excluded.name, is_bot = excluded.is_bot,
                     updated_at = excluded.updated_at
                 WHERE name IS NOT excluded.name OR is_bot IS NOT excluded.is_bot",
            )?
            .execute(params![to_db(user.id), user.name, user.is_bot, now])?;
        Ok(())
    }

    /// A stored user.
    pub fn user(&self, id: u64) -> Result<Option<UserRow>, StoreError> {
        Ok(self
            .tx
            .prepare_cached("SELECT id, name, is_bot FROM users WHERE id = ?1")?
            .query_row([to_db(id)], |r| user_at(r, 0))
            .optional()?)
    }

    /// The pending challenge of a channel (expired or not: the caller compares the time).
    pub fn pending_challenge(&self, channel: u64) -> Result<Option<ChallengeRow>, StoreError> {
        let sql = format!(
            "SELECT {CHALLENGE_COLUMNS} {CHALLENGE_FROM} WHERE c.channel_id = ?1 AND c.status = 'pending'"
        );
        self.tx
            .prepare_cached(&sql)?
            .query_row([to_db(channel)], challenge_raw)
            .optional()?
            .map(finish_challenge_row)
            .transpose()
    }

    /// A challenge by id.
    pub fn challenge(&self, id: i64) -> Result<Option<ChallengeRow>, StoreError> {
        let sql = format!("SELECT {CHALLENGE_COLUMNS} {CHALLENGE_FROM} WHERE c.id = ?1");
        self.tx
            .prepare_cached(&sql)?
            .query_row([id], challenge_raw)
            .optional()?
            .map(finish_challenge_row)
            .transpose()
    }

    /// Records a new pending challenge and returns its id.
    pub fn insert_challenge(&self, c: &NewChallenge) -> Result<i64, StoreError> {
        self.tx
            .prepare_cached(
                "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, colour,
                     status, created_at, expires_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, 'pending', ?6, ?7)",
            )?
            .execute(params![
                c.guild.map(to_db),
                to_db(c.channel),
                to_db(c.challenger),
                c.opponent.map(to_db),
                c.colour.as_str(),
                c.now,
                c.expires_at,
            ])?;
        Ok(self.tx.last_insert_rowid())
    }

    /// Closes a pending challenge. Returns false when it was no longer pending.
    pub fn resolve_challenge(
        &self,
        id: i64,
        status: ChallengeStatus,
        by: Option<u64>,
        game_id: Option<i64>,
        now: i64,
    ) -> Result<bool, StoreError> {
        let n = self
            .tx
            .prepare_cached(
                "UPDATE challenges SET status = ?2, resolved_by = ?3, game_id = ?4, resolved_at = ?5
                 WHERE id = ?1 AND status = 'pending'",
            )?
            .execute(params![id, status.as_str(), by.map(to_db), game_id, now])?;
        Ok(n == 1)
    }

    /// The game in progress in a channel.
    pub fn active_game(&self, channel: u64) -> Result<Option<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} {GAME_FROM} WHERE g.channel_id = ?1 AND g.status = 'active'"
        );
        self.tx
            .prepare_cached(&sql)?
            .query_row([to_db(channel)], game_raw)
            .optional()?
            .map(finish_game_row)
            .transpose()
    }

    /// The most recent game of a channel, whatever its status.
    pub fn last_game(&self, channel: u64) -> Result<Option<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} {GAME_FROM} WHERE g.channel_id = ?1 ORDER BY g.id DESC LIMIT 1"
        );
        self.tx
            .prepare_cached(&sql)?
            .query_row([to_db(channel)], game_raw)
            .optional()?
            .map(finish_game_row)
            .transpose()
    }

    /// A game by id.
    pub fn game(&self, id: i64) -> Result<Option<GameRow>, StoreError> {
        let sql = format!("SELECT {GAME_COLUMNS} {GAME_FROM} WHERE g.id = ?1");
        self.tx
            .prepare_cached(&sql)?
            .query_row([id], game_raw)
            .optional()?
            .map(finish_game_row)
            .transpose()
    }

    /// The last finished games of a channel, newest first.
    pub fn finished_games(&self, channel: u64, limit: usize) -> Result<Vec<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} {GAME_FROM} WHERE g.channel_id = ?1 AND g.status = 'finished'
             ORDER BY g.id DESC LIMIT ?2"
        );
        let mut stmt = self.tx.prepare_cached(&sql)?;
        let rows = stmt.query_map(params![to_db(channel), limit as i64], game_raw)?;
        let mut out = Vec::new();
        for r in rows {
            out.push(finish_game_row(r?)?);
        }
        Ok(out)
    }

    /// Starts a game and returns its id.
    pub fn insert_game(&self, g: &NewGame<'_>) -> Result<i64, StoreError> {
        self.tx
            .prepare_cached(
                "INSERT INTO games (guild_id, channel_id, white_id, black_id, start_fen, fen, ply,
                     status, result, created_at, updated_at, lang)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?5, 0, 'active', '*', ?6, ?6, ?7)",
            )?
            .execute(params![
                g.guild.map(to_db),
                to_db(g.channel),
                to_db(g.white),
                to_db(g.black),
                g.start_fen,
                g.now,
                g.lang,
            ])?;
        Ok(self.tx.last_insert_rowid())
    }

    /// The moves of a game, in order.
    pub fn moves(&self, game_id: i64) -> Result<Vec<MoveRow>, StoreError> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT ply, uci, san, user_id, played_at FROM moves WHERE game_id = ?1 ORDER BY ply",
        )?;
        let rows = stmt.query_map([game_id], |r| {
            Ok(MoveRow {
                ply: r.get(0)?,
                uci: r.get(1)?,
                san: r.get(2)?,
                user_id: from_db(r.get(3)?),
                played_at: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The UCI of one move of a game.
    pub fn move_uci(&self, game_id: i64, ply: u32) -> Result<Option<String>, StoreError> {
        Ok(self
            .tx
            .prepare_cached("SELECT uci FROM moves WHERE game_id = ?1 AND ply = ?2")?
            .query_row(params![game_id, ply], |r| r.get(0))
            .optional()?)
    }

    /// Appends the move of ply `ply` to an active game and updates its cached position, but
    /// only if the game is still active at exactly `ply` plies (the ply check). Returns false,
    /// writing nothing, when the position changed.
    pub fn append_move(
        &self,
        game_id: i64,
        ply: u32,
        m: &MoveRow,
        new_fen: &str,
    ) -> Result<bool, StoreError> {
        let n = self
            .tx
            .prepare_cached(
                "UPDATE games SET ply = ply + 1, fen = ?3, updated_at = ?4
                 WHERE id = ?1 AND ply = ?2 AND status = 'active'",
            )?
            .execute(params![game_id, ply, new_fen, m.played_at])?;
        if n != 1 {
            return Ok(false);
        }
        self.tx
            .prepare_cached(
                "INSERT INTO moves (game_id, ply, uci, san, user_id, played_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![
                game_id,
                ply,
                m.uci,
                m.san,
                to_db(m.user_id),
                m.played_at
            ])?;
        Ok(true)
    }

    /// Ends an active game that is still at `ply` plies (the ply check); also lapses its open
    /// draw offer. Returns false, writing nothing, when the position changed.
    pub fn finish_game(&self, game_id: i64, ply: u32, e: &Ending<'_>) -> Result<bool, StoreError> {
        let n = self
            .tx
            .prepare_cached(
                "UPDATE games SET status = ?3, result = ?4, winner = ?5, termination = ?6,
                     claim_move = ?7, updated_at = ?8, finished_at = ?8
                 WHERE id = ?1 AND ply = ?2 AND status = 'active'",
            )?
            .execute(params![
                game_id,
                ply,
                e.status.as_str(),
                e.result,
                e.winner.map(Side::as_str),
                e.termination,
                e.claim_move,
                e.now,
            ])?;
        if n != 1 {
            return Ok(false);
        }
        self.resolve_draw_offer(game_id, None, OfferStatus::Lapsed, e.now)?;
        Ok(true)
    }

    /// The open draw offer of a game.
    pub fn open_draw_offer(&self, game_id: i64) -> Result<Option<DrawOfferRow>, StoreError> {
        let raw = self
            .tx
            .prepare_cached(
                "SELECT id, game_id, by_colour, ply, status, created_at FROM draw_offers
                 WHERE game_id = ?1 AND status = 'open'",
            )?
            .query_row([game_id], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, u32>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, i64>(5)?,
                ))
            })
            .optional()?;
        raw.map(|(id, game_id, by, ply, status, created_at)| {
            Ok(DrawOfferRow {
                id,
                game_id,
                by: Side::parse(&by)?,
                ply,
                status: OfferStatus::parse(&status)?,
                created_at,
            })
        })
        .transpose()
    }

    /// Records a new open draw offer.
    pub fn insert_draw_offer(
        &self,
        game_id: i64,
        by: Side,
        ply: u32,
        now: i64,
    ) -> Result<i64, StoreError> {
        self.tx
            .prepare_cached(
                "INSERT INTO draw_offers (game_id, by_colour, ply, status, created_at)
                 VALUES (?1, ?2, ?3, 'open', ?4)",
            )?
            .execute(params![game_id, by.as_str(), ply, now])?;
        Ok(self.tx.last_insert_rowid())
    }

    /// Closes the open draw offer of a game (only one made by `by`, when given). Returns
    /// whether an offer was closed.
    pub fn resolve_draw_offer(
        &self,
        game_id: i64,
        by: Option<Side>,
        status: OfferStatus,
        now: i64,
    ) -> Result<bool, StoreError> {
        let n = self
            .tx
            .prepare_cached(
                "UPDATE draw_offers SET status = ?3, resolved_at = ?4
                 WHERE game_id = ?1 AND status = 'open' AND (?2 IS NULL OR by_colour = ?2)",
            )?
            .execute(params![game_id, by.map(Side::as_str), status.as_str(), now])?;
        Ok(n > 0)
    }

    /// Records that an interaction was handled. Returns false when it already was.
    /// A bot setting (see migration 0002), if set.
    pub fn setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .tx
            .prepare_cached("SELECT value FROM bot_settings WHERE key = ?1")?
            .query_row(params![key], |r| r.get(0))
            .optional()?)
    }

    /// Sets a bot setting.
    pub fn set_setting(&self, key: &str, value: &str, now: i64) -> Result<(), StoreError> {
        self.tx
            .prepare_cached(
                "INSERT INTO bot_settings (key, value, updated_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            )?
            .execute(params![key, value, now])?;
        Ok(())
    }

    pub fn mark_interaction(&self, id: u64, now: i64) -> Result<bool, StoreError> {
        let n = self
            .tx
            .prepare_cached(
                "INSERT INTO processed_interactions (id, handled_at) VALUES (?1, ?2)
                 ON CONFLICT (id) DO NOTHING",
            )?
            .execute(params![to_db(id), now])?;
        Ok(n == 1)
    }

    /// Records that `from` made the bot ping `to` (`kind`: `challenge`, `draw_offer` or
    /// `takeback`) at `now`, unless `from` already did so `limit` times since `since`. Returns
    /// `None` when recorded, or the time of the oldest ping in the window when refused. Pings
    /// of the pair older than `since` are deleted.
    pub fn record_ping(
        &self,
        from: u64,
        to: u64,
        kind: &str,
        now: i64,
        since: i64,
        limit: u32,
    ) -> Result<Option<i64>, StoreError> {
        let (from, to) = (to_db(from), to_db(to));
        self.tx
            .prepare_cached("DELETE FROM pings WHERE from_user = ?1 AND to_user = ?2 AND at <= ?3")?
            .execute(params![from, to, since])?;
        let (count, oldest): (u32, Option<i64>) = self
            .tx
            .prepare_cached(
                "SELECT count(*), min(at) FROM pings WHERE from_user = ?1 AND to_user = ?2",
            )?
            .query_row(params![from, to], |r| Ok((r.get(0)?, r.get(1)?)))?;
        if count >= limit {
            return Ok(Some(oldest.unwrap_or(now)));
        }
        self.tx
            .prepare_cached(
                "INSERT INTO pings (from_user, to_user, kind, at) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![from, to, kind, now])?;
        Ok(None)
    }

    /// Forgets handled interactions older than `before` (Unix ms). Returns how many.
    pub fn prune_interactions(&self, before: i64) -> Result<usize, StoreError> {
        Ok(self
            .tx
            .prepare_cached("DELETE FROM processed_interactions WHERE handled_at < ?1")?
            .execute([before])?)
    }
}

#[cfg(test)]
mod tests;
