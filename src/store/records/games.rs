//! Games and their moves.

use crate::store::sql::{Backend, BackendExt, Columns, Dialect, to_db};
use crate::store::{
    ClockRow, DrawOfferRow, DrawOffers, Ending, EventKind, GameRow, MoveRow, NewGame, OfferStatus,
    OpeningMoveRow, StoreError,
};

/// A game with its players; [`game_row`] reads the columns in this order.
macro_rules! select_game {
    () => {
        "SELECT g.id, g.guild_id, g.channel_id, w.id, w.name, w.is_bot, b.id, b.name, b.is_bot,
             g.start_fen, g.fen, g.ply, g.status, g.result, g.winner, g.termination,
             g.claim_move, g.created_at, g.updated_at, g.finished_at, g.lang, g.thread_id,
             g.tc_kind, g.tc_base_ms, g.tc_inc_ms, g.white_ms, g.black_ms, g.clock_at,
             g.deadline, g.seq, g.rated, g.chess960, g.berserk
         FROM games g JOIN users w ON w.id = g.white_id JOIN users b ON b.id = g.black_id"
    };
}

pub(super) fn game_row(c: &mut Columns<'_>) -> Result<GameRow, StoreError> {
    Ok(GameRow {
        id: c.i64()?,
        guild: c.opt_id()?,
        channel: c.id()?,
        white: c.user()?,
        black: c.user()?,
        start_fen: c.string()?,
        fen: c.string()?,
        ply: c.u32()?,
        status: c.code()?,
        result: c.string()?,
        winner: c.opt_code()?,
        termination: c.opt_string()?,
        claim_move: c.opt_string()?,
        created_at: c.i64()?,
        updated_at: c.i64()?,
        finished_at: c.opt_i64()?,
        lang: c.string()?,
        thread: c.opt_id()?,
        tc: c.tc()?,
        clock: ClockRow {
            white_ms: c.i64()?,
            black_ms: c.i64()?,
            clock_at: c.opt_i64()?,
            deadline: c.opt_i64()?,
            seq: c.i64()?,
        },
        rated: c.bool()?,
        chess960: c.opt_u32()?,
        berserk: u8::try_from(c.i64()?).unwrap_or(0),
    })
}

fn move_row(c: &mut Columns<'_>) -> Result<MoveRow, StoreError> {
    Ok(MoveRow {
        ply: c.u32()?,
        uci: c.string()?,
        san: c.string()?,
        user_id: c.id()?,
        played_at: c.i64()?,
    })
}

/// Every finished rated game, in `(finished_at, id)` order (see `Ratings::rated_games`).
pub(super) fn finished_rated_games<B: Backend + ?Sized>(b: &B) -> Result<Vec<GameRow>, StoreError> {
    b.rows(
        concat!(
            select_game!(),
            " WHERE g.status = 'finished' AND g.rated = TRUE ORDER BY g.finished_at, g.id"
        ),
        &[],
        game_row,
    )
}

/// Games and their moves.
pub trait Games {
    /// The game in progress played in `place` itself: the game of that thread, or the game
    /// played in that channel without a thread of its own.
    fn active_game(&self, place: u64) -> Result<Option<GameRow>, StoreError>;

    /// The first `plies` moves of every game `player` finished with a result in `pool` (the
    /// server, or the channel of a game outside any server) that started from `start_fen`,
    /// in game and ply order: what names the openings they play.
    fn opening_moves_of(
        &self,
        pool: u64,
        player: u64,
        start_fen: &str,
        plies: u32,
    ) -> Result<Vec<OpeningMoveRow>, StoreError>;

    /// The most recent game played in `place` itself (see [`Games::active_game`]), whatever
    /// its status.
    fn last_game(&self, place: u64) -> Result<Option<GameRow>, StoreError>;

    /// The games in progress in the threads of `channel`, oldest first.
    fn active_thread_games(&self, channel: u64) -> Result<Vec<GameRow>, StoreError>;

    /// The games in progress of `user` against the engine in `guild` (`None`: outside any
    /// server), oldest first.
    fn active_engine_games_of(
        &self,
        guild: Option<u64>,
        user: u64,
    ) -> Result<Vec<GameRow>, StoreError>;

    /// The most recent game of `channel`, in its threads or not, whatever its status; with
    /// `player`, only their games.
    fn last_channel_game(
        &self,
        channel: u64,
        player: Option<u64>,
    ) -> Result<Option<GameRow>, StoreError>;

    /// A game by id.
    fn game(&self, id: i64) -> Result<Option<GameRow>, StoreError>;

    /// The last finished games of a channel (in its threads too), newest first.
    fn finished_games(&self, channel: u64, limit: usize) -> Result<Vec<GameRow>, StoreError>;

    /// The last finished game of `player` in a channel (in its threads too).
    fn last_finished_game_of(
        &self,
        channel: u64,
        player: u64,
    ) -> Result<Option<GameRow>, StoreError>;

    /// Starts a game and returns its id.
    fn insert_game(&self, g: &NewGame<'_>) -> Result<i64, StoreError>;

    /// The moves of a game, in order.
    fn moves(&self, game_id: i64) -> Result<Vec<MoveRow>, StoreError>;

    /// The UCI of one move of a game.
    fn move_uci(&self, game_id: i64, ply: u32) -> Result<Option<String>, StoreError>;

    /// [`Games::move_uci`] of ply `ply` and the game's open draw offer
    /// ([`DrawOffers::open_draw_offer`]) in one read: what the service checks a cached game
    /// against (one round trip on PostgreSQL).
    fn move_uci_and_open_offer(
        &self,
        game_id: i64,
        ply: u32,
    ) -> Result<(Option<String>, Option<DrawOfferRow>), StoreError>;

    /// Appends the move of ply `ply` to an active game and updates its cached position, but
    /// only if the game is still active at exactly `ply` plies (the ply check). Returns false,
    /// writing nothing, when the position changed. `updated_at` becomes `m.played_at`, or one
    /// more than before when that is not later: with [`Games::rewind_game`], every change
    /// of a game in progress gives a new `updated_at`, so the same ply and FEN reached again
    /// after a takeback never look like the state a cache holds. The clock is set to
    /// `clock` (remaining times, `clock_at`, deadline) and `seq` grows by one, in the same
    /// statement. With `next`, the game's pending event becomes `(kind, due)` in that
    /// statement too, as [`ClockEvents::schedule_event`](crate::store::ClockEvents::schedule_event) would write it (PostgreSQL: with its
    /// notification); without, the pending event is left as it is.
    fn append_move(
        &self,
        game_id: i64,
        ply: u32,
        m: &MoveRow,
        new_fen: &str,
        clock: &ClockRow,
        next: Option<(EventKind, i64)>,
    ) -> Result<bool, StoreError>;

    /// Ends an active game that is still at `ply` plies (the ply check); also lapses its open
    /// draw offer and drops its pending scheduler event. Returns false, writing nothing, when
    /// the position changed.
    fn finish_game(&self, game_id: i64, ply: u32, e: &Ending<'_>) -> Result<bool, StoreError>;

    /// Takes an active game that is still at `ply` plies (the ply check) back to `to_ply`
    /// plies: deletes the moves from `to_ply` on, sets the game's FEN to `fen` (the position
    /// after `to_ply` plies) and lapses its open draw offer. `updated_at` becomes at least
    /// one more than before, so a cached copy of a later position never matches again.
    /// The clock is set to `clock` and `seq` grows by one.
    /// Returns false, writing nothing, when the position changed.
    fn rewind_game(
        &self,
        game_id: i64,
        ply: u32,
        to_ply: u32,
        fen: &str,
        now: i64,
        clock: &ClockRow,
    ) -> Result<bool, StoreError>;

    /// How many games are in progress, every place together (the `cajitas_active_games`
    /// metric): counted on the two partial indexes of active games (in a thread; in a
    /// channel), never by reading the games table.
    fn active_game_count(&self) -> Result<u64, StoreError>;
}

impl<B: Backend + ?Sized> Games for B {
    fn active_game(&self, place: u64) -> Result<Option<GameRow>, StoreError> {
        self.lock_place(to_db(place))?;
        self.row(
            concat!(
                select_game!(),
                " WHERE g.status = 'active'
                     AND (g.thread_id = ?1 OR (g.channel_id = ?1 AND g.thread_id IS NULL))"
            ),
            &[&to_db(place)],
            game_row,
        )
    }

    fn last_game(&self, place: u64) -> Result<Option<GameRow>, StoreError> {
        self.lock_place(to_db(place))?;
        self.row(
            concat!(
                select_game!(),
                " WHERE g.thread_id = ?1 OR (g.channel_id = ?1 AND g.thread_id IS NULL)
                 ORDER BY g.id DESC LIMIT 1"
            ),
            &[&to_db(place)],
            game_row,
        )
    }

    fn active_thread_games(&self, channel: u64) -> Result<Vec<GameRow>, StoreError> {
        self.lock_channel(to_db(channel))?;
        self.rows(
            concat!(
                select_game!(),
                " WHERE g.channel_id = ?1 AND g.thread_id IS NOT NULL AND g.status = 'active'
                 ORDER BY g.id"
            ),
            &[&to_db(channel)],
            game_row,
        )
    }

    fn active_engine_games_of(
        &self,
        guild: Option<u64>,
        user: u64,
    ) -> Result<Vec<GameRow>, StoreError> {
        self.rows(
            concat!(
                select_game!(),
                " WHERE g.status = 'active' AND g.guild_id IS NOT DISTINCT FROM ?1
                     AND ((g.white_id = ?2 AND b.kind = 'engine')
                       OR (g.black_id = ?2 AND w.kind = 'engine'))
                 ORDER BY g.id"
            ),
            &[&guild.map(to_db), &to_db(user)],
            game_row,
        )
    }

    fn last_channel_game(
        &self,
        channel: u64,
        player: Option<u64>,
    ) -> Result<Option<GameRow>, StoreError> {
        self.lock_channel(to_db(channel))?;
        self.row(
            concat!(
                select_game!(),
                " WHERE g.channel_id = ?1
                     AND (CAST(?2 AS BIGINT) IS NULL OR g.white_id = ?2 OR g.black_id = ?2)
                 ORDER BY g.id DESC LIMIT 1"
            ),
            &[&to_db(channel), &player.map(to_db)],
            game_row,
        )
    }

    fn game(&self, id: i64) -> Result<Option<GameRow>, StoreError> {
        if self.locks_channels() {
            let Some(channel) =
                self.row("SELECT channel_id FROM games WHERE id = ?1", &[&id], |c| {
                    c.i64()
                })?
            else {
                return Ok(None);
            };
            self.lock_channel(channel)?;
        }
        self.row(
            concat!(select_game!(), " WHERE g.id = ?1"),
            &[&id],
            game_row,
        )
    }

    fn opening_moves_of(
        &self,
        pool: u64,
        player: u64,
        start_fen: &str,
        plies: u32,
    ) -> Result<Vec<OpeningMoveRow>, StoreError> {
        self.rows(
            "SELECT g.id, g.white_id, g.result, m.uci
             FROM games g JOIN moves m ON m.game_id = g.id
             WHERE (g.white_id = ?2 OR g.black_id = ?2) AND g.status = 'finished'
                 AND COALESCE(g.guild_id, g.channel_id) = ?1 AND g.start_fen = ?3
                 AND m.ply < ?4
             ORDER BY g.id, m.ply",
            &[&to_db(pool), &to_db(player), &start_fen, &plies],
            |c| {
                Ok(OpeningMoveRow {
                    game_id: c.i64()?,
                    white: c.id()?,
                    result: c.string()?,
                    uci: c.string()?,
                })
            },
        )
    }

    fn finished_games(&self, channel: u64, limit: usize) -> Result<Vec<GameRow>, StoreError> {
        self.rows(
            concat!(
                select_game!(),
                " WHERE g.channel_id = ?1 AND g.status = 'finished' ORDER BY g.id DESC LIMIT ?2"
            ),
            &[&to_db(channel), &limit],
            game_row,
        )
    }

    fn last_finished_game_of(
        &self,
        channel: u64,
        player: u64,
    ) -> Result<Option<GameRow>, StoreError> {
        self.row(
            concat!(
                select_game!(),
                " WHERE g.channel_id = ?1 AND g.status = 'finished'
                     AND (g.white_id = ?2 OR g.black_id = ?2)
                 ORDER BY g.id DESC LIMIT 1"
            ),
            &[&to_db(channel), &to_db(player)],
            game_row,
        )
    }

    fn insert_game(&self, g: &NewGame<'_>) -> Result<i64, StoreError> {
        self.one(
            "INSERT INTO games (guild_id, channel_id, white_id, black_id, start_fen, fen, ply,
                 status, result, created_at, updated_at, lang, thread_id, tc_kind, tc_base_ms,
                 tc_inc_ms, white_ms, black_ms, clock_at, deadline, rated, chess960)
             VALUES (?1, ?2, ?3, ?4, ?5, ?5, 0, 'active', '*', ?6, ?6, ?7, ?8, ?9, ?10, ?11,
                 ?12, ?13, ?14, ?15, ?16, ?17)
             RETURNING id",
            &[
                &g.guild.map(to_db),
                &to_db(g.channel),
                &to_db(g.white),
                &to_db(g.black),
                &g.start_fen,
                &g.now,
                &g.lang,
                &g.thread.map(to_db),
                &g.tc.kind,
                &g.tc.base_ms,
                &g.tc.inc_ms,
                &g.clock.white_ms,
                &g.clock.black_ms,
                &g.clock.clock_at,
                &g.clock.deadline,
                &g.rated,
                &g.chess960,
            ],
            |c| c.i64(),
        )
    }

    fn moves(&self, game_id: i64) -> Result<Vec<MoveRow>, StoreError> {
        self.rows(
            "SELECT ply, uci, san, user_id, played_at FROM moves WHERE game_id = ?1 ORDER BY ply",
            &[&game_id],
            move_row,
        )
    }

    fn move_uci(&self, game_id: i64, ply: u32) -> Result<Option<String>, StoreError> {
        self.row(
            "SELECT uci FROM moves WHERE game_id = ?1 AND ply = ?2",
            &[&game_id, &ply],
            |c| c.string(),
        )
    }

    fn move_uci_and_open_offer(
        &self,
        game_id: i64,
        ply: u32,
    ) -> Result<(Option<String>, Option<DrawOfferRow>), StoreError> {
        // In process (SQLite), two statements cost no round trip.
        if self.dialect() == Dialect::Sqlite {
            return Ok((self.move_uci(game_id, ply)?, self.open_draw_offer(game_id)?));
        }
        self.one(
            "SELECT (SELECT uci FROM moves WHERE game_id = ?1 AND ply = ?2),
                    o.id, o.game_id, o.by_colour, o.ply, o.status, o.created_at
             FROM (SELECT 1) AS one
             LEFT JOIN draw_offers o ON o.game_id = ?1 AND o.status = 'open'
             LIMIT 1",
            &[&game_id, &ply],
            |c| Ok((c.opt_string()?, c.opt_record(6, super::offers::offer_row)?)),
        )
    }

    fn append_move(
        &self,
        game_id: i64,
        ply: u32,
        m: &MoveRow,
        new_fen: &str,
        clock: &ClockRow,
        next: Option<(EventKind, i64)>,
    ) -> Result<bool, StoreError> {
        let (next_kind, next_due) = (next.map(|(kind, _)| kind), next.map(|(_, due)| due));
        if self.dialect() == Dialect::Postgres {
            // The ply check: under READ COMMITTED, an UPDATE that finds the row changed by a
            // transaction that committed meanwhile re-checks its WHERE on the new row, so a
            // move computed against an older position matches nothing. The move is inserted
            // in the same statement (one round trip), only when the game's row was updated;
            // the next event is set there too, with the notification `schedule_event` sends
            // (delivered when the transaction commits), the insert reading it so that it is
            // computed.
            let n = self.exec(
                "WITH g AS (
                     UPDATE games SET ply = ply + 1, fen = ?3,
                         updated_at = GREATEST(?4, updated_at + 1),
                         white_ms = ?5, black_ms = ?6, clock_at = ?7, deadline = ?8,
                         seq = seq + 1,
                         event_kind = COALESCE(?12, event_kind),
                         event_due = COALESCE(?13, event_due)
                     WHERE id = ?1 AND ply = ?2 AND status = 'active'
                     RETURNING id, CASE WHEN ?13::BIGINT IS NOT NULL
                         THEN pg_notify('cajitas_deadline', ?13::BIGINT::TEXT)::TEXT END AS woke)
                 INSERT INTO moves (game_id, ply, uci, san, user_id, played_at)
                 SELECT g.id, ?2, ?9, ?10, ?11, ?4 FROM g WHERE g.woke IS NULL OR g.woke = ''",
                &[
                    &game_id,
                    &ply,
                    &new_fen,
                    &m.played_at,
                    &clock.white_ms,
                    &clock.black_ms,
                    &clock.clock_at,
                    &clock.deadline,
                    &m.uci,
                    &m.san,
                    &to_db(m.user_id),
                    &next_kind,
                    &next_due,
                ],
            )?;
            return Ok(n == 1);
        }
        // The next event in the same statement: one row write where a separate schedule
        // wrote the row (and the two indexes on the due time) a second time.
        let n = self.exec(
            "UPDATE games SET ply = ply + 1, fen = ?3, updated_at = MAX(?4, updated_at + 1),
                 white_ms = ?5, black_ms = ?6, clock_at = ?7, deadline = ?8, seq = seq + 1,
                 event_kind = coalesce(?9, event_kind), event_due = coalesce(?10, event_due)
             WHERE id = ?1 AND ply = ?2 AND status = 'active'",
            &[
                &game_id,
                &ply,
                &new_fen,
                &m.played_at,
                &clock.white_ms,
                &clock.black_ms,
                &clock.clock_at,
                &clock.deadline,
                &next_kind,
                &next_due,
            ],
        )?;
        if n != 1 {
            return Ok(false);
        }
        self.exec(
            "INSERT INTO moves (game_id, ply, uci, san, user_id, played_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            &[
                &game_id,
                &ply,
                &m.uci,
                &m.san,
                &to_db(m.user_id),
                &m.played_at,
            ],
        )?;
        Ok(true)
    }

    fn finish_game(&self, game_id: i64, ply: u32, e: &Ending<'_>) -> Result<bool, StoreError> {
        let n = self.exec(
            "UPDATE games SET status = ?3, result = ?4, winner = ?5, termination = ?6,
                 claim_move = ?7, updated_at = ?8, finished_at = ?8,
                 event_kind = NULL, event_due = NULL
             WHERE id = ?1 AND ply = ?2 AND status = 'active'",
            &[
                &game_id,
                &ply,
                &e.status,
                &e.result,
                &e.winner,
                &e.termination,
                &e.claim_move,
                &e.now,
            ],
        )?;
        if n != 1 {
            return Ok(false);
        }
        self.resolve_draw_offer(game_id, None, OfferStatus::Lapsed, e.now)?;
        Ok(true)
    }

    fn rewind_game(
        &self,
        game_id: i64,
        ply: u32,
        to_ply: u32,
        fen: &str,
        now: i64,
        clock: &ClockRow,
    ) -> Result<bool, StoreError> {
        if to_ply > ply {
            return Ok(false);
        }
        let n = self.exec(
            self.pick(
                "UPDATE games SET ply = ?3, fen = ?4, updated_at = MAX(?5, updated_at + 1),
                     white_ms = ?6, black_ms = ?7, clock_at = ?8, deadline = ?9, seq = seq + 1
                 WHERE id = ?1 AND ply = ?2 AND status = 'active'",
                "UPDATE games SET ply = ?3, fen = ?4, updated_at = GREATEST(?5, updated_at + 1),
                     white_ms = ?6, black_ms = ?7, clock_at = ?8, deadline = ?9, seq = seq + 1
                 WHERE id = ?1 AND ply = ?2 AND status = 'active'",
            ),
            &[
                &game_id,
                &ply,
                &to_ply,
                &fen,
                &now,
                &clock.white_ms,
                &clock.black_ms,
                &clock.clock_at,
                &clock.deadline,
            ],
        )?;
        if n != 1 {
            return Ok(false);
        }
        self.exec(
            "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
            &[&game_id, &to_ply],
        )?;
        self.resolve_draw_offer(game_id, None, OfferStatus::Lapsed, now)?;
        Ok(true)
    }

    fn active_game_count(&self) -> Result<u64, StoreError> {
        // Each half matches one partial index's predicate (migration 0006), so each is a count
        // of that index's entries (which SQLite is told, without statistics to see it).
        let n = self.one(
            self.pick(
                "SELECT (SELECT COUNT(*) FROM games INDEXED BY games_one_active_per_thread
                          WHERE status = 'active' AND thread_id IS NOT NULL)
                      + (SELECT COUNT(*) FROM games INDEXED BY games_one_active_in_channel
                          WHERE status = 'active' AND thread_id IS NULL)",
                "SELECT (SELECT count(*) FROM games
                          WHERE status = 'active' AND thread_id IS NOT NULL)
                      + (SELECT count(*) FROM games
                          WHERE status = 'active' AND thread_id IS NULL)",
            ),
            &[],
            |c| c.i64(),
        )?;
        Ok(n.max(0) as u64)
    }
}
