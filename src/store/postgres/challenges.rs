//! Challenges.

use postgres::Row;

use super::{Columns, PgTx, to_db};
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

fn challenge_row(row: &Row) -> Result<ChallengeRow, StoreError> {
    let mut c = Columns::new(row);
    Ok(ChallengeRow {
        id: c.get()?,
        guild: c.opt_id()?,
        channel: c.id()?,
        challenger: c.user()?,
        opponent: c.opt_user()?,
        colour: c.text()?,
        status: c.text()?,
        created_at: c.get()?,
        expires_at: c.get()?,
        game_id: c.get()?,
        message: c.opt_id()?,
        tc: c.tc()?,
        rated: c.get()?,
    })
}

impl Challenges for PgTx<'_> {
    fn pending_challenge(&self, channel: u64) -> Result<Option<ChallengeRow>, StoreError> {
        self.lock_channel(to_db(channel))?;
        self.query_opt(
            concat!(
                select_challenge!(),
                " WHERE c.channel_id = $1 AND c.status = 'pending' ORDER BY c.id LIMIT 1"
            ),
            &[&to_db(channel)],
        )?
        .map(|r| challenge_row(&r))
        .transpose()
    }

    fn pending_challenges(&self, channel: u64) -> Result<Vec<ChallengeRow>, StoreError> {
        self.lock_channel(to_db(channel))?;
        self.query(
            concat!(
                select_challenge!(),
                " WHERE c.channel_id = $1 AND c.status = 'pending' ORDER BY c.id"
            ),
            &[&to_db(channel)],
        )?
        .iter()
        .map(challenge_row)
        .collect()
    }

    fn set_challenge_message(&self, id: i64, message: u64) -> Result<bool, StoreError> {
        if let Some(row) =
            self.query_opt("SELECT channel_id FROM challenges WHERE id = $1", &[&id])?
        {
            self.lock_channel(row.try_get(0)?)?;
        }
        let n = self.execute(
            "UPDATE challenges SET message_id = $2 WHERE id = $1",
            &[&id, &to_db(message)],
        )?;
        Ok(n == 1)
    }

    fn challenge(&self, id: i64) -> Result<Option<ChallengeRow>, StoreError> {
        if self.write {
            let Some(row) =
                self.query_opt("SELECT channel_id FROM challenges WHERE id = $1", &[&id])?
            else {
                return Ok(None);
            };
            self.lock_channel(row.try_get(0)?)?;
        }
        self.query_opt(concat!(select_challenge!(), " WHERE c.id = $1"), &[&id])?
            .map(|r| challenge_row(&r))
            .transpose()
    }

    fn insert_challenge(&self, c: &NewChallenge) -> Result<i64, StoreError> {
        Ok(self
            .query_one(
                "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, colour,
                     status, created_at, expires_at, tc_kind, tc_base_ms, tc_inc_ms, rated)
                 VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7, $8, $9, $10, $11)
                 RETURNING id",
                &[
                    &c.guild.map(to_db),
                    &to_db(c.channel),
                    &to_db(c.challenger),
                    &c.opponent.map(to_db),
                    &c.colour.as_str(),
                    &c.now,
                    &c.expires_at,
                    &c.tc.kind.as_str(),
                    &c.tc.base_ms,
                    &c.tc.inc_ms,
                    &c.rated,
                ],
            )?
            .try_get(0)?)
    }

    fn resolve_challenge(
        &self,
        id: i64,
        status: ChallengeStatus,
        by: Option<u64>,
        game_id: Option<i64>,
        now: i64,
    ) -> Result<bool, StoreError> {
        let n = self.execute(
            "UPDATE challenges SET status = $2, resolved_by = $3, game_id = $4, resolved_at = $5
             WHERE id = $1 AND status = 'pending'",
            &[&id, &status.as_str(), &by.map(to_db), &game_id, &now],
        )?;
        Ok(n == 1)
    }
}
