//! The `Daily` use case: a server's daily puzzle (issue 30). A server names a channel and an
//! hour (UTC); from then on, each day at that hour, one puzzle is posted there, chosen by
//! [`crate::puzzles::PuzzleSet::daily_candidate`] among those the server never had.
//!
//! - **Once**: the day's post is claimed by inserting the server's row of that day (its primary
//!   key: one process wins, across restarts and processes) with a lease of [`DAILY_LEASE`];
//!   the front end posts it with the nonce [`daily_nonce`] and marks it posted. A post not
//!   marked by the lease's end (a crash, a failed request) is claimed again by whoever runs
//!   [`Daily::claim_due`] next, and posted with the same nonce.
//! - **Caught up**: a day's post is due from its hour to the day's end; a bot down at the hour
//!   posts it when it is back, the same day. A day missed whole is not posted.
//! - **Solving** (`Puzzles::start_daily`): anyone may attempt it; each person's attempt is their own (the front ends
//!   show it privately), played by the rules of every puzzle, rated when it is their first
//!   attempt at that puzzle here. Each person's first finished attempt counts in the post's
//!   live count (solved, failed).
//! - **The daily streak**: the consecutive days, up to today or yesterday, whose daily puzzle
//!   the person solved on their first attempt.

use std::collections::HashSet;
use std::time::Duration;

use super::ratings::pool_of;
use super::{ChannelRef, Failure, GameError, GameService};
use crate::puzzles;
use crate::store::{DailyRow, DailySettingRow};

/// How long a claim on a day's post holds: the claimant posts and marks it within it.
pub const DAILY_LEASE: Duration = Duration::from_secs(60);

const DAY_MS: i64 = 86_400_000;

/// The day (since 1970-01-01, UTC) of `ms`, and how far into it `ms` is.
pub fn day_of(ms: i64) -> (i64, i64) {
    (ms.div_euclid(DAY_MS), ms.rem_euclid(DAY_MS))
}

/// The nonce of a server's daily post: `cjd`, the day in base 36 (4 digits), the server's id in
/// base 36 (at most 24 characters, within Discord's 25).
///
/// ```
/// assert_eq!(cajitas::game::daily_nonce(35, 20_000), "cjd0ffkz");
/// assert!(cajitas::game::daily_nonce(u64::MAX, 99_999).len() <= 25);
/// ```
pub fn daily_nonce(guild: u64, day: i64) -> String {
    fn b36(mut n: u64, width: usize) -> String {
        let mut digits = Vec::new();
        loop {
            let d = (n % 36) as u8;
            digits.push(if d < 10 { b'0' + d } else { b'a' + d - 10 });
            n /= 36;
            if n == 0 && digits.len() >= width {
                break;
            }
        }
        digits.reverse();
        String::from_utf8_lossy(&digits).into_owned()
    }
    format!("cjd{}{}", b36(day.unsigned_abs(), 4), b36(guild, 1))
}

/// A day's post to make: where, which puzzle, and its nonce.
#[derive(Debug, Clone)]
pub struct DailyPost {
    /// The server.
    pub guild: u64,
    /// The day.
    pub day: i64,
    /// Where to post it.
    pub channel: u64,
    /// The puzzle.
    pub puzzle: &'static puzzles::Puzzle,
    /// The post's idempotency key.
    pub nonce: String,
}

/// A server's daily puzzle of one day, as its post shows it.
#[derive(Debug, Clone)]
pub struct DailyView {
    /// The server.
    pub guild: u64,
    /// The day.
    pub day: i64,
    /// Its channel.
    pub channel: u64,
    /// The post, once it went out.
    pub message: Option<u64>,
    /// The puzzle.
    pub puzzle: &'static puzzles::Puzzle,
    /// People whose first attempt solved it.
    pub solved: u32,
    /// People whose first attempt failed it.
    pub failed: u32,
}

/// A claimed day's row as shown.
pub(super) fn view_of(row: DailyRow) -> Result<DailyView, GameError> {
    let puzzle = puzzles::shared()
        .get(&row.puzzle_id)
        .ok_or_else(|| Failure::Vanished(format!("puzzle {}", row.puzzle_id)))?;
    Ok(DailyView {
        guild: row.guild,
        day: row.day,
        channel: row.channel,
        message: row.message,
        puzzle,
        solved: row.solved,
        failed: row.failed,
    })
}

/// The daily puzzle: its setting, its posts, attempts at it, the daily streak.
pub struct Daily<'a> {
    pub(super) svc: &'a GameService,
}

impl Daily<'_> {
    /// Posts `guild`'s daily puzzle in `channel` at `hour` (UTC) from now on.
    pub fn configure(&self, guild: u64, channel: u64, hour: u8) -> Result<(), GameError> {
        if hour > 23 {
            return Err(GameError::DailyHourRange);
        }
        self.svc.write(|tx, now| {
            tx.set_daily_setting(
                &DailySettingRow {
                    guild,
                    channel,
                    hour,
                },
                now,
            )?;
            Ok(())
        })
    }

    /// Stops `guild`'s daily puzzle; `false` when it had none.
    pub fn stop(&self, guild: u64) -> Result<bool, GameError> {
        self.svc.write(|tx, _| Ok(tx.clear_daily_setting(guild)?))
    }

    /// `guild`'s setting: its channel and hour.
    pub fn setting(&self, guild: u64) -> Result<Option<DailySettingRow>, GameError> {
        self.svc.read(|tx| Ok(tx.daily_setting(guild)?))
    }

    /// Claims every post due now: the servers whose hour has come today with no post yet (a
    /// puzzle chosen for each), and the posts of today whose claim lapsed unposted. The caller
    /// posts each with its nonce, then calls [`Daily::posted`].
    pub fn claim_due(&self) -> Result<Vec<DailyPost>, GameError> {
        let lease = DAILY_LEASE.as_millis() as i64;
        self.svc.write(|tx, now| {
            let (day, into) = day_of(now);
            let mut posts = Vec::new();
            for s in tx.daily_settings_due(day, into)? {
                let used: HashSet<String> = tx.past_daily_puzzles(s.guild)?.into_iter().collect();
                let Some(puzzle) = puzzles::shared().daily_candidate(&|id| used.contains(id))
                else {
                    continue;
                };
                if tx.claim_daily(&s, day, &puzzle.id, now + lease)? {
                    posts.push(DailyPost {
                        guild: s.guild,
                        day,
                        channel: s.channel,
                        puzzle,
                        nonce: daily_nonce(s.guild, day),
                    });
                }
            }
            for d in tx.reclaim_lapsed_dailies(day, now, now + lease)? {
                let v = view_of(d)?;
                posts.push(DailyPost {
                    guild: v.guild,
                    day: v.day,
                    channel: v.channel,
                    puzzle: v.puzzle,
                    nonce: daily_nonce(v.guild, v.day),
                });
            }
            Ok(posts)
        })
    }

    /// Marks `post` as sent, as `message`.
    pub fn posted(&self, post: &DailyPost, message: u64) -> Result<(), GameError> {
        self.svc.write(|tx, _| {
            tx.mark_daily_posted(post.guild, post.day, message)?;
            Ok(())
        })
    }

    /// `guild`'s daily puzzle of today, once it was claimed.
    pub fn today(&self, guild: u64) -> Result<Option<DailyView>, GameError> {
        self.of_day(guild, day_of(self.svc.now()).0)
    }

    /// `guild`'s daily puzzle of `day`, once it was claimed (a post is drawn from its own
    /// day's row, even when midnight passed since its claim).
    pub fn of_day(&self, guild: u64, day: i64) -> Result<Option<DailyView>, GameError> {
        self.svc
            .read(|tx| tx.daily(guild, day)?.map(view_of).transpose())
    }

    /// `user`'s daily streak in the pool of `ch`: the consecutive days up to today (or up to
    /// yesterday, today's not solved yet) whose daily puzzle they solved on their first attempt.
    pub fn streak(&self, user: u64, ch: ChannelRef) -> Result<u32, GameError> {
        let pool = pool_of(ch.guild, ch.channel);
        let (today, _) = day_of(self.svc.now());
        self.svc.read(|tx| {
            let days = tx.daily_days_solved(pool, user)?;
            Ok(consecutive(&days, today))
        })
    }
}

/// How many of `days` (newest first, each once) run back day by day from `today` or from the
/// day before.
pub(super) fn consecutive(days: &[i64], today: i64) -> u32 {
    let Some(&first) = days.first() else {
        return 0;
    };
    if first != today && first != today - 1 {
        return 0;
    }
    let mut n = 1;
    for w in days.windows(2) {
        if w[1] != w[0] - 1 {
            break;
        }
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_streak_runs_back_from_today_or_yesterday() {
        assert_eq!(consecutive(&[], 100), 0);
        assert_eq!(consecutive(&[100, 99, 98, 96], 100), 3);
        assert_eq!(consecutive(&[99, 98], 100), 2);
        assert_eq!(consecutive(&[98, 97], 100), 0);
        assert_eq!(day_of(-1), (-1, DAY_MS - 1));
        assert_eq!(day_of(DAY_MS * 3 + 5), (3, 5));
    }
}
