//! Games and their moves.

use rusqlite::{OptionalExtension, Row, params};

use super::{Columns, SqliteTx, to_db};
use crate::store::{
    ClockRow, DrawOffers, Ending, EventKind, GameRow, Games, MoveRow, NewGame, OfferStatus,
    StoreError,
};

/// A game with its players; [`game_row`] reads the columns in this order.
macro_rules! select_game {
    () => {
        "SELECT g.id, g.guild_id, g.channel_id, w.id, w.name, w.is_bot, b.id, b.name, b.is_bot,
             g.start_fen, g.fen, g.ply, g.status, g.result, g.winner, g.termination,
             g.claim_move, g.created_at, g.updated_at, g.finished_at, g.lang, g.thread_id,
             g.tc_kind, g.tc_base_ms, g.tc_inc_ms, g.white_ms, g.black_ms, g.clock_at,
             g.deadline, g.seq, g.rated
         FROM games g JOIN users w ON w.id = g.white_id JOIN users b ON b.id = g.black_id"
    };
}

fn game_row(row: &Row<'_>) -> rusqlite::Result<GameRow> {
    let mut c = Columns::new(row);
    Ok(GameRow {
        id: c.get()?,
        guild: c.opt_id()?,
        channel: c.id()?,
        white: c.user()?,
        black: c.user()?,
        start_fen: c.get()?,
        fen: c.get()?,
        ply: c.get()?,
        status: c.get()?,
        result: c.get()?,
        winner: c.get()?,
        termination: c.get()?,
        claim_move: c.get()?,
        created_at: c.get()?,
        updated_at: c.get()?,
        finished_at: c.get()?,
        lang: c.get()?,
        thread: c.opt_id()?,
        tc: c.tc()?,
        clock: ClockRow {
            white_ms: c.get()?,
            black_ms: c.get()?,
            clock_at: c.get()?,
            deadline: c.get()?,
            seq: c.get()?,
        },
        rated: c.get()?,
    })
}

fn move_row(row: &Row<'_>) -> rusqlite::Result<MoveRow> {
    let mut c = Columns::new(row);
    Ok(MoveRow {
        ply: c.get()?,
        uci: c.get()?,
        san: c.get()?,
        user_id: c.id()?,
        played_at: c.get()?,
    })
}

impl SqliteTx<'_> {
    fn one_game(&self, sql: &str, key: i64) -> Result<Option<GameRow>, StoreError> {
        Ok(self
            .tx
            .prepare_cached(sql)?
            .query_row([key], game_row)
            .optional()?)
    }
}

impl SqliteTx<'_> {
    /// Every finished rated game, in `(finished_at, id)` order (see `Ratings::rated_games`).
    pub(super) fn finished_rated_games(&self) -> Result<Vec<GameRow>, StoreError> {
        let mut stmt = self.tx.prepare_cached(concat!(
            select_game!(),
            " WHERE g.status = 'finished' AND g.rated = 1 ORDER BY g.finished_at, g.id"
        ))?;
        let rows = stmt.query_map([], game_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

impl Games for SqliteTx<'_> {
    fn active_game(&self, place: u64) -> Result<Option<GameRow>, StoreError> {
        self.one_game(
            concat!(
                select_game!(),
                " WHERE g.status = 'active'
                     AND (g.thread_id = ?1 OR (g.channel_id = ?1 AND g.thread_id IS NULL))"
            ),
            to_db(place),
        )
    }

    fn last_game(&self, place: u64) -> Result<Option<GameRow>, StoreError> {
        self.one_game(
            concat!(
                select_game!(),
                " WHERE g.thread_id = ?1 OR (g.channel_id = ?1 AND g.thread_id IS NULL)
                 ORDER BY g.id DESC LIMIT 1"
            ),
            to_db(place),
        )
    }

    fn active_thread_games(&self, channel: u64) -> Result<Vec<GameRow>, StoreError> {
        let mut stmt = self.tx.prepare_cached(concat!(
            select_game!(),
            " WHERE g.channel_id = ?1 AND g.thread_id IS NOT NULL AND g.status = 'active'
             ORDER BY g.id"
        ))?;
        let rows = stmt.query_map([to_db(channel)], game_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn active_engine_games_of(
        &self,
        guild: Option<u64>,
        user: u64,
    ) -> Result<Vec<GameRow>, StoreError> {
        let mut stmt = self.tx.prepare_cached(concat!(
            select_game!(),
            " WHERE g.status = 'active' AND g.guild_id IS ?1
                 AND ((g.white_id = ?2 AND b.kind = 'engine')
                   OR (g.black_id = ?2 AND w.kind = 'engine'))
             ORDER BY g.id"
        ))?;
        let rows = stmt.query_map(params![guild.map(to_db), to_db(user)], game_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn last_channel_game(
        &self,
        channel: u64,
        player: Option<u64>,
    ) -> Result<Option<GameRow>, StoreError> {
        Ok(self
            .tx
            .prepare_cached(concat!(
                select_game!(),
                " WHERE g.channel_id = ?1
                     AND (?2 IS NULL OR g.white_id = ?2 OR g.black_id = ?2)
                 ORDER BY g.id DESC LIMIT 1"
            ))?
            .query_row(params![to_db(channel), player.map(to_db)], game_row)
            .optional()?)
    }

    fn game(&self, id: i64) -> Result<Option<GameRow>, StoreError> {
        self.one_game(concat!(select_game!(), " WHERE g.id = ?1"), id)
    }

    fn finished_games(&self, channel: u64, limit: usize) -> Result<Vec<GameRow>, StoreError> {
        let mut stmt = self.tx.prepare_cached(concat!(
            select_game!(),
            " WHERE g.channel_id = ?1 AND g.status = 'finished' ORDER BY g.id DESC LIMIT ?2"
        ))?;
        let rows = stmt.query_map(params![to_db(channel), limit as i64], game_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn last_finished_game_of(
        &self,
        channel: u64,
        player: u64,
    ) -> Result<Option<GameRow>, StoreError> {
        Ok(self
            .tx
            .prepare_cached(concat!(
                select_game!(),
                " WHERE g.channel_id = ?1 AND g.status = 'finished'
                     AND (g.white_id = ?2 OR g.black_id = ?2)
                 ORDER BY g.id DESC LIMIT 1"
            ))?
            .query_row(params![to_db(channel), to_db(player)], game_row)
            .optional()?)
    }

    fn insert_game(&self, g: &NewGame<'_>) -> Result<i64, StoreError> {
        Ok(self
            .tx
            .prepare_cached(
                "INSERT INTO games (guild_id, channel_id, white_id, black_id, start_fen, fen, ply,
                     status, result, created_at, updated_at, lang, thread_id, tc_kind, tc_base_ms,
                     tc_inc_ms, white_ms, black_ms, clock_at, deadline, rated)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?5, 0, 'active', '*', ?6, ?6, ?7, ?8, ?9, ?10, ?11,
                     ?12, ?13, ?14, ?15, ?16)
                 RETURNING id",
            )?
            .query_row(
                params![
                    g.guild.map(to_db),
                    to_db(g.channel),
                    to_db(g.white),
                    to_db(g.black),
                    g.start_fen,
                    g.now,
                    g.lang,
                    g.thread.map(to_db),
                    g.tc.kind,
                    g.tc.base_ms,
                    g.tc.inc_ms,
                    g.clock.white_ms,
                    g.clock.black_ms,
                    g.clock.clock_at,
                    g.clock.deadline,
                    g.rated,
                ],
                |r| r.get(0),
            )?)
    }

    fn moves(&self, game_id: i64) -> Result<Vec<MoveRow>, StoreError> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT ply, uci, san, user_id, played_at FROM moves WHERE game_id = ?1 ORDER BY ply",
        )?;
        let rows = stmt.query_map([game_id], move_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn move_uci(&self, game_id: i64, ply: u32) -> Result<Option<String>, StoreError> {
        Ok(self
            .tx
            .prepare_cached("SELECT uci FROM moves WHERE game_id = ?1 AND ply = ?2")?
            .query_row(params![game_id, ply], |r| r.get(0))
            .optional()?)
    }

    fn move_uci_and_open_offer(
        &self,
        game_id: i64,
        ply: u32,
    ) -> Result<(Option<String>, Option<crate::store::DrawOfferRow>), StoreError> {
        // In process, two statements cost no round trip.
        Ok((
            self.move_uci(game_id, ply)?,
            crate::store::DrawOffers::open_draw_offer(self, game_id)?,
        ))
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
        // The next event in the same statement: one row write where a separate schedule
        // wrote the row (and the two indexes on the due time) a second time.
        let n = self
            .tx
            .prepare_cached(
                "UPDATE games SET ply = ply + 1, fen = ?3, updated_at = MAX(?4, updated_at + 1),
                     white_ms = ?5, black_ms = ?6, clock_at = ?7, deadline = ?8, seq = seq + 1,
                     event_kind = coalesce(?9, event_kind), event_due = coalesce(?10, event_due)
                 WHERE id = ?1 AND ply = ?2 AND status = 'active'",
            )?
            .execute(params![
                game_id,
                ply,
                new_fen,
                m.played_at,
                clock.white_ms,
                clock.black_ms,
                clock.clock_at,
                clock.deadline,
                next.map(|(kind, _)| kind),
                next.map(|(_, due)| due)
            ])?;
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

    fn finish_game(&self, game_id: i64, ply: u32, e: &Ending<'_>) -> Result<bool, StoreError> {
        let n = self
            .tx
            .prepare_cached(
                "UPDATE games SET status = ?3, result = ?4, winner = ?5, termination = ?6,
                     claim_move = ?7, updated_at = ?8, finished_at = ?8,
                     event_kind = NULL, event_due = NULL
                 WHERE id = ?1 AND ply = ?2 AND status = 'active'",
            )?
            .execute(params![
                game_id,
                ply,
                e.status,
                e.result,
                e.winner,
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
        let n = self
            .tx
            .prepare_cached(
                "UPDATE games SET ply = ?3, fen = ?4, updated_at = MAX(?5, updated_at + 1),
                     white_ms = ?6, black_ms = ?7, clock_at = ?8, deadline = ?9, seq = seq + 1
                 WHERE id = ?1 AND ply = ?2 AND status = 'active'",
            )?
            .execute(params![
                game_id,
                ply,
                to_ply,
                fen,
                now,
                clock.white_ms,
                clock.black_ms,
                clock.clock_at,
                clock.deadline
            ])?;
        if n != 1 {
            return Ok(false);
        }
        self.tx
            .prepare_cached("DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2")?
            .execute(params![game_id, to_ply])?;
        self.resolve_draw_offer(game_id, None, OfferStatus::Lapsed, now)?;
        Ok(true)
    }

    fn active_game_count(&self) -> Result<u64, StoreError> {
        // Each half matches one partial index's WHERE (migration 0006), so each is a count
        // of that index's entries.
        let n: i64 = self
            .tx
            .prepare_cached(
                "SELECT (SELECT COUNT(*) FROM games INDEXED BY games_one_active_per_thread
                          WHERE status = 'active' AND thread_id IS NOT NULL)
                      + (SELECT COUNT(*) FROM games INDEXED BY games_one_active_in_channel
                          WHERE status = 'active' AND thread_id IS NULL)",
            )?
            .query_row([], |r| r.get(0))?;
        Ok(n.max(0) as u64)
    }
}
