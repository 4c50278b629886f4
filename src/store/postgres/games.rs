//! Games and their moves.

use postgres::Row;

use super::{Columns, PgTx, ply_to_db, to_db};
use crate::store::{DrawOffers, Ending, GameRow, Games, MoveRow, NewGame, OfferStatus, StoreError};

/// A game with its players; [`game_row`] reads the columns in this order.
macro_rules! select_game {
    () => {
        "SELECT g.id, g.guild_id, g.channel_id, w.id, w.name, w.is_bot, b.id, b.name, b.is_bot,
             g.start_fen, g.fen, g.ply, g.status, g.result, g.winner, g.termination,
             g.claim_move, g.created_at, g.updated_at, g.finished_at, g.lang
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

impl Games for PgTx<'_> {
    fn active_game(&self, channel: u64) -> Result<Option<GameRow>, StoreError> {
        self.lock_channel(to_db(channel))?;
        self.one_game(
            concat!(
                select_game!(),
                " WHERE g.channel_id = $1 AND g.status = 'active'"
            ),
            to_db(channel),
        )
    }

    fn last_game(&self, channel: u64) -> Result<Option<GameRow>, StoreError> {
        self.lock_channel(to_db(channel))?;
        self.one_game(
            concat!(
                select_game!(),
                " WHERE g.channel_id = $1 ORDER BY g.id DESC LIMIT 1"
            ),
            to_db(channel),
        )
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

    fn insert_game(&self, g: &NewGame<'_>) -> Result<i64, StoreError> {
        Ok(self
            .query_one(
                "INSERT INTO games (guild_id, channel_id, white_id, black_id, start_fen, fen, ply,
                     status, result, created_at, updated_at, lang)
                 VALUES ($1, $2, $3, $4, $5, $5, 0, 'active', '*', $6, $6, $7)
                 RETURNING id",
                &[
                    &g.guild.map(to_db),
                    &to_db(g.channel),
                    &to_db(g.white),
                    &to_db(g.black),
                    &g.start_fen,
                    &g.now,
                    &g.lang,
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

    fn append_move(
        &self,
        game_id: i64,
        ply: u32,
        m: &MoveRow,
        new_fen: &str,
    ) -> Result<bool, StoreError> {
        // The ply check: under READ COMMITTED, an UPDATE that finds the row changed by a
        // transaction that committed meanwhile re-checks its WHERE on the new row, so a move
        // computed against an older position matches nothing.
        let n = self.execute(
            "UPDATE games SET ply = ply + 1, fen = $3, updated_at = GREATEST($4, updated_at + 1)
             WHERE id = $1 AND ply = $2 AND status = 'active'",
            &[&game_id, &ply_to_db(ply), &new_fen, &m.played_at],
        )?;
        if n != 1 {
            return Ok(false);
        }
        self.execute(
            "INSERT INTO moves (game_id, ply, uci, san, user_id, played_at)
             VALUES ($1, $2, $3, $4, $5, $6)",
            &[
                &game_id,
                &ply_to_db(ply),
                &m.uci,
                &m.san,
                &to_db(m.user_id),
                &m.played_at,
            ],
        )?;
        Ok(true)
    }

    fn finish_game(&self, game_id: i64, ply: u32, e: &Ending<'_>) -> Result<bool, StoreError> {
        let n = self.execute(
            "UPDATE games SET status = $3, result = $4, winner = $5, termination = $6,
                 claim_move = $7, updated_at = $8, finished_at = $8
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
    ) -> Result<bool, StoreError> {
        if to_ply > ply {
            return Ok(false);
        }
        let n = self.execute(
            "UPDATE games SET ply = $3, fen = $4, updated_at = GREATEST($5, updated_at + 1)
             WHERE id = $1 AND ply = $2 AND status = 'active'",
            &[&game_id, &ply_to_db(ply), &ply_to_db(to_ply), &fen, &now],
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
}
