//! Challenges.

use rusqlite::{OptionalExtension, Row, params};

use super::{Columns, SqliteTx, to_db};
use crate::store::{ChallengeRow, ChallengeStatus, Challenges, NewChallenge, StoreError};

/// A challenge with its users; [`challenge_row`] reads the columns in this order.
macro_rules! select_challenge {
    () => {
        "SELECT c.id, c.guild_id, c.channel_id, u.id, u.name, u.is_bot, o.id, o.name, o.is_bot,
             c.colour, c.status, c.created_at, c.expires_at, c.game_id, c.message_id,
             c.tc_kind, c.tc_base_ms, c.tc_inc_ms, c.rated
         FROM challenges c JOIN users u ON u.id = c.challenger_id
             LEFT JOIN users o ON o.id = c.opponent_id"
    };
}

fn challenge_row(row: &Row<'_>) -> rusqlite::Result<ChallengeRow> {
    let mut c = Columns::new(row);
    Ok(ChallengeRow {
        id: c.get()?,
        guild: c.opt_id()?,
        channel: c.id()?,
        challenger: c.user()?,
        opponent: c.opt_user()?,
        colour: c.get()?,
        status: c.get()?,
        created_at: c.get()?,
        expires_at: c.get()?,
        game_id: c.get()?,
        message: c.opt_id()?,
        tc: c.tc()?,
        rated: c.get()?,
    })
}

impl SqliteTx<'_> {
    fn one_challenge(&self, sql: &str, key: i64) -> Result<Option<ChallengeRow>, StoreError> {
        Ok(self
            .tx
            .prepare_cached(sql)?
            .query_row([key], challenge_row)
            .optional()?)
    }
}

impl Challenges for SqliteTx<'_> {
    fn pending_challenge(&self, channel: u64) -> Result<Option<ChallengeRow>, StoreError> {
        self.one_challenge(
            concat!(
                select_challenge!(),
                " WHERE c.channel_id = ?1 AND c.status = 'pending' ORDER BY c.id LIMIT 1"
            ),
            to_db(channel),
        )
    }

    fn pending_challenges(&self, channel: u64) -> Result<Vec<ChallengeRow>, StoreError> {
        let mut stmt = self.tx.prepare_cached(concat!(
            select_challenge!(),
            " WHERE c.channel_id = ?1 AND c.status = 'pending' ORDER BY c.id"
        ))?;
        let rows = stmt.query_map([to_db(channel)], challenge_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn set_challenge_message(&self, id: i64, message: u64) -> Result<bool, StoreError> {
        let n = self
            .tx
            .prepare_cached("UPDATE challenges SET message_id = ?2 WHERE id = ?1")?
            .execute(params![id, to_db(message)])?;
        Ok(n == 1)
    }

    fn challenge(&self, id: i64) -> Result<Option<ChallengeRow>, StoreError> {
        self.one_challenge(concat!(select_challenge!(), " WHERE c.id = ?1"), id)
    }

    fn insert_challenge(&self, c: &NewChallenge) -> Result<i64, StoreError> {
        Ok(self
            .tx
            .prepare_cached(
                "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, colour,
                     status, created_at, expires_at, tc_kind, tc_base_ms, tc_inc_ms, rated)
                 VALUES (?1, ?2, ?3, ?4, ?5, 'pending', ?6, ?7, ?8, ?9, ?10, ?11)
                 RETURNING id",
            )?
            .query_row(
                params![
                    c.guild.map(to_db),
                    to_db(c.channel),
                    to_db(c.challenger),
                    c.opponent.map(to_db),
                    c.colour,
                    c.now,
                    c.expires_at,
                    c.tc.kind,
                    c.tc.base_ms,
                    c.tc.inc_ms,
                    c.rated,
                ],
                |r| r.get(0),
            )?)
    }

    fn resolve_challenge(
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
            .execute(params![id, status, by.map(to_db), game_id, now])?;
        Ok(n == 1)
    }
}
