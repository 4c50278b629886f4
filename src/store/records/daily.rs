//! The daily puzzle (migration 0021): each server's channel and hour, and a row per server and
//! day, inserted by whoever claims that day's post (its primary key makes the post once across
//! restarts and processes), with the post's message once it went out and the live count.

use crate::store::StoreError;
use crate::store::sql::{Backend, BackendExt, Columns, to_db};

/// A server's daily puzzle setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DailySettingRow {
    /// The server.
    pub guild: u64,
    /// Where it is posted.
    pub channel: u64,
    /// The hour (UTC) it is posted at.
    pub hour: u8,
}

/// One server's daily puzzle of one day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DailyRow {
    /// The server.
    pub guild: u64,
    /// Days since 1970-01-01 (UTC).
    pub day: i64,
    /// The puzzle (lichess's id).
    pub puzzle_id: String,
    /// The channel it is posted in.
    pub channel: u64,
    /// The post, once it went out.
    pub message: Option<u64>,
    /// People whose first attempt solved it.
    pub solved: u32,
    /// People whose first attempt failed it.
    pub failed: u32,
}

fn daily_row(c: &mut Columns<'_>) -> Result<DailyRow, StoreError> {
    Ok(DailyRow {
        guild: c.id()?,
        day: c.i64()?,
        puzzle_id: c.string()?,
        channel: c.id()?,
        message: c.opt_i64()?.map(|m| m as u64),
        solved: c.u32()?,
        failed: c.u32()?,
    })
}

/// [`daily_row`] reads the columns in this order.
macro_rules! select_daily {
    () => {
        "SELECT guild_id, day, puzzle_id, channel_id, message_id, solved, failed FROM daily_puzzles"
    };
}

/// Daily puzzles.
pub trait Daily {
    /// Sets (or replaces) a server's daily puzzle channel and hour.
    fn set_daily_setting(&self, s: &DailySettingRow, now: i64) -> Result<(), StoreError>;

    /// Stops a server's daily puzzle; `true` when it had one.
    fn clear_daily_setting(&self, guild: u64) -> Result<bool, StoreError>;

    /// A server's setting, if it has one.
    fn daily_setting(&self, guild: u64) -> Result<Option<DailySettingRow>, StoreError>;

    /// The servers whose post of `day` is due, `ms_into_day` into that day (their hour
    /// reached), and not yet claimed.
    fn daily_settings_due(
        &self,
        day: i64,
        ms_into_day: i64,
    ) -> Result<Vec<DailySettingRow>, StoreError>;

    /// Claims the post of `guild`'s `day` with `puzzle` until `until`: `true` when this call
    /// inserted the day's row (nobody had claimed it).
    fn claim_daily(
        &self,
        s: &DailySettingRow,
        day: i64,
        puzzle: &str,
        until: i64,
    ) -> Result<bool, StoreError>;

    /// Claims again, until `until`, the posts of `day` whose claim lapsed before `now` with no
    /// message; returns them.
    fn reclaim_lapsed_dailies(
        &self,
        day: i64,
        now: i64,
        until: i64,
    ) -> Result<Vec<DailyRow>, StoreError>;

    /// Marks the post of `guild`'s `day` as sent, with its message.
    fn mark_daily_posted(&self, guild: u64, day: i64, message: u64) -> Result<(), StoreError>;

    /// `guild`'s daily puzzle of `day`, if it was claimed.
    fn daily(&self, guild: u64, day: i64) -> Result<Option<DailyRow>, StoreError>;

    /// The puzzles `guild` had as daily puzzles, each once.
    fn past_daily_puzzles(&self, guild: u64) -> Result<Vec<String>, StoreError>;

    /// Counts one more first attempt at `guild`'s puzzle of `day`, solved or failed.
    fn count_daily_attempt(&self, guild: u64, day: i64, solved: bool) -> Result<(), StoreError>;

    /// Whether `user` had finished an attempt at the daily puzzle of `day` in `pool` before
    /// attempt `except`.
    fn finished_daily_before(
        &self,
        pool: i64,
        user: u64,
        day: i64,
        except: i64,
    ) -> Result<bool, StoreError>;

    /// The days `user` solved the daily puzzle in `pool` (on their first attempt), newest first.
    fn daily_days_solved(&self, pool: i64, user: u64) -> Result<Vec<i64>, StoreError>;
}

impl<B: Backend + ?Sized> Daily for B {
    fn set_daily_setting(&self, s: &DailySettingRow, now: i64) -> Result<(), StoreError> {
        self.exec(
            "INSERT INTO daily_puzzle_settings (guild_id, channel_id, hour, updated_at)
             VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id,
                 hour = excluded.hour, updated_at = excluded.updated_at",
            &[&to_db(s.guild), &to_db(s.channel), &i64::from(s.hour), &now],
        )?;
        Ok(())
    }

    fn clear_daily_setting(&self, guild: u64) -> Result<bool, StoreError> {
        Ok(self.exec(
            "DELETE FROM daily_puzzle_settings WHERE guild_id = ?1",
            &[&to_db(guild)],
        )? == 1)
    }

    fn daily_setting(&self, guild: u64) -> Result<Option<DailySettingRow>, StoreError> {
        self.row(
            "SELECT guild_id, channel_id, hour FROM daily_puzzle_settings WHERE guild_id = ?1",
            &[&to_db(guild)],
            setting_row,
        )
    }

    fn daily_settings_due(
        &self,
        day: i64,
        ms_into_day: i64,
    ) -> Result<Vec<DailySettingRow>, StoreError> {
        self.rows(
            "SELECT s.guild_id, s.channel_id, s.hour FROM daily_puzzle_settings s
             WHERE s.hour * 3600000 <= ?2
               AND NOT EXISTS (SELECT 1 FROM daily_puzzles d
                               WHERE d.guild_id = s.guild_id AND d.day = ?1)
             ORDER BY s.guild_id",
            &[&day, &ms_into_day],
            setting_row,
        )
    }

    fn claim_daily(
        &self,
        s: &DailySettingRow,
        day: i64,
        puzzle: &str,
        until: i64,
    ) -> Result<bool, StoreError> {
        let n = self.exec(
            "INSERT INTO daily_puzzles
                 (guild_id, day, puzzle_id, channel_id, claimed_until, solved, failed)
             VALUES (?1, ?2, ?3, ?4, ?5, 0, 0)
             ON CONFLICT (guild_id, day) DO NOTHING",
            &[&to_db(s.guild), &day, &puzzle, &to_db(s.channel), &until],
        )?;
        Ok(n == 1)
    }

    fn reclaim_lapsed_dailies(
        &self,
        day: i64,
        now: i64,
        until: i64,
    ) -> Result<Vec<DailyRow>, StoreError> {
        // One statement: each lapsed claim is taken by whoever updates it first.
        self.rows(
            "UPDATE daily_puzzles SET claimed_until = ?3
             WHERE day = ?1 AND message_id IS NULL AND claimed_until < ?2
             RETURNING guild_id, day, puzzle_id, channel_id, message_id, solved, failed",
            &[&day, &now, &until],
            daily_row,
        )
    }

    fn mark_daily_posted(&self, guild: u64, day: i64, message: u64) -> Result<(), StoreError> {
        self.exec(
            "UPDATE daily_puzzles SET message_id = ?3 WHERE guild_id = ?1 AND day = ?2",
            &[&to_db(guild), &day, &to_db(message)],
        )?;
        Ok(())
    }

    fn daily(&self, guild: u64, day: i64) -> Result<Option<DailyRow>, StoreError> {
        self.row(
            concat!(select_daily!(), " WHERE guild_id = ?1 AND day = ?2"),
            &[&to_db(guild), &day],
            daily_row,
        )
    }

    fn past_daily_puzzles(&self, guild: u64) -> Result<Vec<String>, StoreError> {
        self.rows(
            "SELECT DISTINCT puzzle_id FROM daily_puzzles WHERE guild_id = ?1",
            &[&to_db(guild)],
            |c| c.string(),
        )
    }

    fn count_daily_attempt(&self, guild: u64, day: i64, solved: bool) -> Result<(), StoreError> {
        self.exec(
            if solved {
                "UPDATE daily_puzzles SET solved = solved + 1 WHERE guild_id = ?1 AND day = ?2"
            } else {
                "UPDATE daily_puzzles SET failed = failed + 1 WHERE guild_id = ?1 AND day = ?2"
            },
            &[&to_db(guild), &day],
        )?;
        Ok(())
    }

    fn finished_daily_before(
        &self,
        pool: i64,
        user: u64,
        day: i64,
        except: i64,
    ) -> Result<bool, StoreError> {
        Ok(self
            .row(
                "SELECT 1 FROM puzzle_attempts
                 WHERE pool = ?1 AND user_id = ?2 AND daily_day = ?3 AND id <> ?4
                   AND status IN ('solved', 'failed') LIMIT 1",
                &[&pool, &to_db(user), &day, &except],
                |c| c.i64(),
            )?
            .is_some())
    }

    fn daily_days_solved(&self, pool: i64, user: u64) -> Result<Vec<i64>, StoreError> {
        // A day counts when the person's first finished attempt at it was solved.
        self.rows(
            "SELECT a.daily_day FROM puzzle_attempts a
             WHERE a.pool = ?1 AND a.user_id = ?2 AND a.daily_day IS NOT NULL
               AND a.status = 'solved'
               AND NOT EXISTS (SELECT 1 FROM puzzle_attempts b
                               WHERE b.pool = a.pool AND b.user_id = a.user_id
                                 AND b.daily_day = a.daily_day AND b.id < a.id
                                 AND b.status IN ('solved', 'failed'))
             ORDER BY a.daily_day DESC",
            &[&pool, &to_db(user)],
            |c| c.i64(),
        )
    }
}

fn setting_row(c: &mut Columns<'_>) -> Result<DailySettingRow, StoreError> {
    Ok(DailySettingRow {
        guild: c.id()?,
        channel: c.id()?,
        hour: u8::try_from(c.i64()?).unwrap_or(0),
    })
}
