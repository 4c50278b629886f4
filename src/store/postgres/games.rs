//! Games and their moves.

use postgres::Row;

use super::{Columns, PgTx, ply_to_db, to_db};
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

fn game_row(row: &Row) -> Result<GameRow, StoreError> {
    let mut c = Columns::new(row);
    Ok(GameRow {
        id: c.get()?,
        guild: c.opt_id()?,
        channel: c.id()?,
        white: c.user()?,
        black: c.user()?,
        start_fen: c.get()?,
        fen: c.get()?,
        ply: c.ply()?,
        status: c.text()?,
        result: c.get()?,
        winner: c.opt_text()?,
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

fn move_row(row: &Row) -> Result<MoveRow, StoreError> {
    let mut c = Columns::new(row);
    Ok(MoveRow {
        ply: c.ply()?,
        uci: c.get()?,
        san: c.get()?,
        user_id: c.id()?,
        played_at: c.get()?,
    })
}

impl PgTx<'_> {
    fn one_game(&self, sql: &'static str, key: i64) -> Result<Option<GameRow>, StoreError> {
        self.query_opt(sql, &[&key])?
            .map(|r| game_row(&r))
            .transpose()
    }
}

impl PgTx<'_> {
    /// Every finished rated game, in `(finished_at, id)` order (see `Ratings::rated_games`).
    pub(super) fn finished_rated_games(&self) -> Result<Vec<GameRow>, StoreError> {
        self.query(
            concat!(
                select_game!(),
                " WHERE g.status = 'finished' AND g.rated ORDER BY g.finished_at, g.id"
            ),
            &[],
        )?
        .iter()
        .map(game_row)
        .collect()
    }
}

impl Games for PgTx<'_> {
    fn active_game(&self, place: u64) -> Result<Option<GameRow>, StoreError> {
        self.lock_place(to_db(place))?;
        self.one_game(
            concat!(
                select_game!(),
                " WHERE g.status = 'active'
                     AND (g.thread_id = $1 OR (g.channel_id = $1 AND g.thread_id IS NULL))"
            ),
            to_db(place),
        )
    }

    fn last_game(&self, place: u64) -> Result<Option<GameRow>, StoreError> {
        self.lock_place(to_db(place))?;
        self.one_game(
            concat!(
                select_game!(),
                " WHERE g.thread_id = $1 OR (g.channel_id = $1 AND g.thread_id IS NULL)
                 ORDER BY g.id DESC LIMIT 1"
            ),
            to_db(place),
        )
    }

    fn active_thread_games(&self, channel: u64) -> Result<Vec<GameRow>, StoreError> {
        self.lock_channel(to_db(channel))?;
        self.query(
            concat!(
                select_game!(),
                " WHERE g.channel_id = $1 AND g.thread_id IS NOT NULL AND g.status = 'active'
                 ORDER BY g.id"
            ),
            &[&to_db(channel)],
        )?
        .iter()
        .map(game_row)
        .collect()
    }

    fn active_engine_games_of(
        &self,
        guild: Option<u64>,
        user: u64,
    ) -> Result<Vec<GameRow>, StoreError> {
        self.query(
            concat!(
                select_game!(),
                " WHERE g.status = 'active' AND g.guild_id IS NOT DISTINCT FROM $1
                     AND ((g.white_id = $2 AND b.kind = 'engine')
                       OR (g.black_id = $2 AND w.kind = 'engine'))
                 ORDER BY g.id"
            ),
            &[&guild.map(to_db), &to_db(user)],
        )?
        .iter()
        .map(game_row)
        .collect()
    }

    fn last_channel_game(
        &self,
        channel: u64,
        player: Option<u64>,
    ) -> Result<Option<GameRow>, StoreError> {
        self.lock_channel(to_db(channel))?;
        self.query_opt(
            concat!(
                select_game!(),
                " WHERE g.channel_id = $1
                     AND ($2::BIGINT IS NULL OR g.white_id = $2 OR g.black_id = $2)
                 ORDER BY g.id DESC LIMIT 1"
            ),
            &[&to_db(channel), &player.map(to_db)],
        )?
        .map(|r| game_row(&r))
        .transpose()
    }

    fn game(&self, id: i64) -> Result<Option<GameRow>, StoreError> {
        if self.write {
            let Some(row) = self.query_opt("SELECT channel_id FROM games WHERE id = $1", &[&id])?
            else {
                return Ok(None);
            };
            self.lock_channel(row.try_get(0)?)?;
        }
        self.one_game(concat!(select_game!(), " WHERE g.id = $1"), id)
    }

    fn finished_games(&self, channel: u64, limit: usize) -> Result<Vec<GameRow>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.query(
            concat!(
                select_game!(),
                " WHERE g.channel_id = $1 AND g.status = 'finished' ORDER BY g.id DESC LIMIT $2"
            ),
            &[&to_db(channel), &limit],
        )?
        .iter()
        .map(game_row)
        .collect()
    }

    fn last_finished_game_of(
        &self,
        channel: u64,
        player: u64,
    ) -> Result<Option<GameRow>, StoreError> {
        self.query_opt(
            concat!(
                select_game!(),
                " WHERE g.channel_id = $1 AND g.status = 'finished'
                     AND (g.white_id = $2 OR g.black_id = $2)
                 ORDER BY g.id DESC LIMIT 1"
            ),
            &[&to_db(channel), &to_db(player)],
        )?
        .map(|r| game_row(&r))
        .transpose()
    }

    fn insert_game(&self, g: &NewGame<'_>) -> Result<i64, StoreError> {
        Ok(self
            .query_one(
                "INSERT INTO games (guild_id, channel_id, white_id, black_id, start_fen, fen, ply,
                     status, result, created_at, updated_at, lang, thread_id, tc_kind, tc_base_ms,
                     tc_inc_ms, white_ms, black_ms, clock_at, deadline, rated)
                 VALUES ($1, $2, $3, $4, $5, $5, 0, 'active', '*', $6, $6, $7, $8, $9, $10, $11,
                     $12, $13, $14, $15, $16)
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
                    &g.tc.kind.as_str(),
                    &g.tc.base_ms,
                    &g.tc.inc_ms,
                    &g.clock.white_ms,
                    &g.clock.black_ms,
                    &g.clock.clock_at,
                    &g.clock.deadline,
                    &g.rated,
                ],
            )?
            .try_get(0)?)
    }

    fn moves(&self, game_id: i64) -> Result<Vec<MoveRow>, StoreError> {
        self.query(
            "SELECT ply, uci, san, user_id, played_at FROM moves WHERE game_id = $1 ORDER BY ply",
            &[&game_id],
        )?
        .iter()
        .map(move_row)
        .collect()
    }

    fn move_uci(&self, game_id: i64, ply: u32) -> Result<Option<String>, StoreError> {
        self.query_opt(
            "SELECT uci FROM moves WHERE game_id = $1 AND ply = $2",
            &[&game_id, &ply_to_db(ply)],
        )?
        .map(|r| r.try_get(0).map_err(StoreError::from))
        .transpose()
    }

    fn move_uci_and_open_offer(
        &self,
        game_id: i64,
        ply: u32,
    ) -> Result<(Option<String>, Option<crate::store::DrawOfferRow>), StoreError> {
        let row = self.query_one(
            "SELECT (SELECT uci FROM moves WHERE game_id = $1 AND ply = $2),
                    o.id, o.game_id, o.by_colour, o.ply, o.status, o.created_at
             FROM (SELECT 1) AS one
             LEFT JOIN draw_offers o ON o.game_id = $1 AND o.status = 'open'
             LIMIT 1",
            &[&game_id, &ply_to_db(ply)],
        )?;
        let mut c = Columns::new(&row);
        let uci: Option<String> = c.get()?;
        let offer = match row.try_get::<_, Option<i64>>(1)? {
            Some(_) => Some(super::offers::offer_from(&mut c)?),
            None => None,
        };
        Ok((uci, offer))
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
        // The ply check: under READ COMMITTED, an UPDATE that finds the row changed by a
        // transaction that committed meanwhile re-checks its WHERE on the new row, so a move
        // computed against an older position matches nothing. The move is inserted in the
        // same statement (one round trip), only when the game's row was updated; the next
        // event is set there too, with the notification `schedule_event` sends (delivered
        // when the transaction commits), the insert reading it so that it is computed.
        let n = self.execute(
            "WITH g AS (
                 UPDATE games SET ply = ply + 1, fen = $3,
                     updated_at = GREATEST($4, updated_at + 1),
                     white_ms = $5, black_ms = $6, clock_at = $7, deadline = $8, seq = seq + 1,
                     event_kind = COALESCE($12, event_kind),
                     event_due = COALESCE($13, event_due)
                 WHERE id = $1 AND ply = $2 AND status = 'active'
                 RETURNING id, CASE WHEN $13::BIGINT IS NOT NULL
                     THEN pg_notify('cajitas_deadline', $13::BIGINT::TEXT)::TEXT END AS woke)
             INSERT INTO moves (game_id, ply, uci, san, user_id, played_at)
             SELECT g.id, $2, $9, $10, $11, $4 FROM g WHERE g.woke IS NULL OR g.woke = ''",
            &[
                &game_id,
                &ply_to_db(ply),
                &new_fen,
                &m.played_at,
                &clock.white_ms,
                &clock.black_ms,
                &clock.clock_at,
                &clock.deadline,
                &m.uci,
                &m.san,
                &to_db(m.user_id),
                &next.map(|(kind, _)| kind.as_str()),
                &next.map(|(_, due)| due),
            ],
        )?;
        Ok(n == 1)
    }

    fn finish_game(&self, game_id: i64, ply: u32, e: &Ending<'_>) -> Result<bool, StoreError> {
        let n = self.execute(
            "UPDATE games SET status = $3, result = $4, winner = $5, termination = $6,
                 claim_move = $7, updated_at = $8, finished_at = $8,
                 event_kind = NULL, event_due = NULL
             WHERE id = $1 AND ply = $2 AND status = 'active'",
            &[
                &game_id,
                &ply_to_db(ply),
                &e.status.as_str(),
                &e.result,
                &e.winner.map(|w| w.as_str()),
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
        let n = self.execute(
            "UPDATE games SET ply = $3, fen = $4, updated_at = GREATEST($5, updated_at + 1),
                 white_ms = $6, black_ms = $7, clock_at = $8, deadline = $9, seq = seq + 1
             WHERE id = $1 AND ply = $2 AND status = 'active'",
            &[
                &game_id,
                &ply_to_db(ply),
                &ply_to_db(to_ply),
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
        self.execute(
            "DELETE FROM moves WHERE game_id = $1 AND ply >= $2",
            &[&game_id, &ply_to_db(to_ply)],
        )?;
        self.resolve_draw_offer(game_id, None, OfferStatus::Lapsed, now)?;
        Ok(true)
    }

    fn active_game_count(&self) -> Result<u64, StoreError> {
        // Each half matches one partial index's predicate (migration 0006).
        let n: i64 = self
            .query_one(
                "SELECT (SELECT count(*) FROM games
                          WHERE status = 'active' AND thread_id IS NOT NULL)
                      + (SELECT count(*) FROM games
                          WHERE status = 'active' AND thread_id IS NULL)",
                &[],
            )?
            .try_get(0)?;
        Ok(n.max(0) as u64)
    }
}
