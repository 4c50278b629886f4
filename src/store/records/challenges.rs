//! Challenges.

use crate::store::sql::{Backend, BackendExt, Columns, to_db};
use crate::store::{ChallengeRow, ChallengeStatus, NewChallenge, StoreError};

/// A challenge with its users; [`challenge_row`] reads the columns in this order.
macro_rules! select_challenge {
    () => {
        "SELECT c.id, c.guild_id, c.channel_id, u.id, u.name, u.is_bot, o.id, o.name, o.is_bot,
             c.colour, c.status, c.created_at, c.expires_at, c.game_id, c.message_id,
             c.tc_kind, c.tc_base_ms, c.tc_inc_ms, c.rated, c.chess960
         FROM challenges c JOIN users u ON u.id = c.challenger_id
             LEFT JOIN users o ON o.id = c.opponent_id"
    };
}

fn challenge_row(c: &mut Columns<'_>) -> Result<ChallengeRow, StoreError> {
    Ok(ChallengeRow {
        id: c.i64()?,
        guild: c.opt_id()?,
        channel: c.id()?,
        challenger: c.user()?,
        opponent: c.opt_user()?,
        colour: c.code()?,
        status: c.code()?,
        created_at: c.i64()?,
        expires_at: c.i64()?,
        game_id: c.opt_i64()?,
        message: c.opt_id()?,
        tc: c.tc()?,
        rated: c.bool()?,
        chess960: c.opt_u32()?,
    })
}

/// Where writers serialise by channel, locks the channel of challenge `id`; false when there
/// is no such challenge.
fn lock_challenge<B: Backend + ?Sized>(b: &B, id: i64) -> Result<bool, StoreError> {
    if !b.locks_channels() {
        return Ok(true);
    }
    match b.row(
        "SELECT channel_id FROM challenges WHERE id = ?1",
        &[&id],
        |c| c.i64(),
    )? {
        Some(channel) => b.lock_channel(channel).map(|()| true),
        None => Ok(false),
    }
}

/// Challenges.
pub trait Challenges {
    /// A pending challenge of a channel, the oldest (expired or not: the caller compares the
    /// time).
    fn pending_challenge(&self, channel: u64) -> Result<Option<ChallengeRow>, StoreError>;

    /// Every pending challenge of a channel, oldest first (expired or not).
    fn pending_challenges(&self, channel: u64) -> Result<Vec<ChallengeRow>, StoreError>;

    /// Records the message showing a challenge. Returns false when there is no such challenge.
    fn set_challenge_message(&self, id: i64, message: u64) -> Result<bool, StoreError>;

    /// A challenge by id.
    fn challenge(&self, id: i64) -> Result<Option<ChallengeRow>, StoreError>;

    /// Records a new pending challenge and returns its id.
    fn insert_challenge(&self, c: &NewChallenge) -> Result<i64, StoreError>;

    /// Closes a pending challenge. Returns false when it was no longer pending.
    fn resolve_challenge(
        &self,
        id: i64,
        status: ChallengeStatus,
        by: Option<u64>,
        game_id: Option<i64>,
        now: i64,
    ) -> Result<bool, StoreError>;
}

impl<B: Backend + ?Sized> Challenges for B {
    fn pending_challenge(&self, channel: u64) -> Result<Option<ChallengeRow>, StoreError> {
        self.lock_channel(to_db(channel))?;
        self.row(
            concat!(
                select_challenge!(),
                " WHERE c.channel_id = ?1 AND c.status = 'pending' ORDER BY c.id LIMIT 1"
            ),
            &[&to_db(channel)],
            challenge_row,
        )
    }

    fn pending_challenges(&self, channel: u64) -> Result<Vec<ChallengeRow>, StoreError> {
        self.lock_channel(to_db(channel))?;
        self.rows(
            concat!(
                select_challenge!(),
                " WHERE c.channel_id = ?1 AND c.status = 'pending' ORDER BY c.id"
            ),
            &[&to_db(channel)],
            challenge_row,
        )
    }

    fn set_challenge_message(&self, id: i64, message: u64) -> Result<bool, StoreError> {
        lock_challenge(self, id)?;
        let n = self.exec(
            "UPDATE challenges SET message_id = ?2 WHERE id = ?1",
            &[&id, &to_db(message)],
        )?;
        Ok(n == 1)
    }

    fn challenge(&self, id: i64) -> Result<Option<ChallengeRow>, StoreError> {
        if !lock_challenge(self, id)? {
            return Ok(None);
        }
        self.row(
            concat!(select_challenge!(), " WHERE c.id = ?1"),
            &[&id],
            challenge_row,
        )
    }

    fn insert_challenge(&self, c: &NewChallenge) -> Result<i64, StoreError> {
        self.one(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, colour,
                 status, created_at, expires_at, tc_kind, tc_base_ms, tc_inc_ms, rated,
                 chess960)
             VALUES (?1, ?2, ?3, ?4, ?5, 'pending', ?6, ?7, ?8, ?9, ?10, ?11, ?12)
             RETURNING id",
            &[
                &c.guild.map(to_db),
                &to_db(c.channel),
                &to_db(c.challenger),
                &c.opponent.map(to_db),
                &c.colour,
                &c.now,
                &c.expires_at,
                &c.tc.kind,
                &c.tc.base_ms,
                &c.tc.inc_ms,
                &c.rated,
                &c.chess960,
            ],
            |c| c.i64(),
        )
    }

    fn resolve_challenge(
        &self,
        id: i64,
        status: ChallengeStatus,
        by: Option<u64>,
        game_id: Option<i64>,
        now: i64,
    ) -> Result<bool, StoreError> {
        let n = self.exec(
            "UPDATE challenges SET status = ?2, resolved_by = ?3, game_id = ?4, resolved_at = ?5
             WHERE id = ?1 AND status = 'pending'",
            &[&id, &status, &by.map(to_db), &game_id, &now],
        )?;
        Ok(n == 1)
    }
}
