//! Time controls and the server's clock: what a challenge offers (correspondence days per
//! move, live Fischer clocks, untimed), and the pure arithmetic of a move's time, which the
//! service applies inside the move's transaction.
//!
//! The clock is the server's: a player's time runs from the commit of the opponent's move
//! (or the game's start) to the commit of their own, read from the service's
//! [`Clock`](super::Clock). Each game stores both remaining times as of `clock_at`, the time its
//! current turn began, and the `deadline` of the player to move.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use cajitas_rules::Color;

use crate::store::{ClockKind, ClockRow, TimeControlRow};

/// One day, in milliseconds.
pub const DAY_MS: i64 = 24 * 60 * 60 * 1000;
/// The grace of each side's first move in a live game (lichess's): 30 s.
pub const LIVE_FIRST_MOVE_GRACE_MS: i64 = 30_000;
/// How long an untimed game may wait for a move before the waiting player may claim it,
/// unless configured otherwise (`CAJITAS_ABANDON_DAYS`).
pub const DEFAULT_ABANDON_AFTER: Duration = Duration::from_secs(7 * 24 * 60 * 60);
/// Reminders go out when this share (in percent) of the mover's time has passed.
pub const REMINDER_PERCENT: i64 = 80;

/// How fast a game is played: rating pools are kept per speed. Untimed games count as
/// correspondence (they are played at the same pace). The store's type, so that a rating
/// pool's speed and a game's are one (see [`crate::vocab`]).
pub use crate::vocab::Speed;

/// A game's time control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// No clock (games against the engine, and games that existed before clocks). A player
    /// whose opponent has not moved for the abandonment period may claim the game.
    Untimed,
    /// `days` per move; each move resets the mover's allowance to the full period.
    Correspondence {
        /// Days per move.
        days: u32,
    },
    /// A Fischer clock: `base_secs` for the game, plus `increment_secs` after each move.
    Live {
        /// The starting time, in seconds.
        base_secs: u32,
        /// Added after each move, in seconds.
        increment_secs: u32,
    },
}

impl Default for TimeControl {
    /// 3 days per move, the default of a challenge.
    fn default() -> Self {
        TimeControl::DEFAULT
    }
}

impl TimeControl {
    /// The default of a challenge: 3 days per move.
    pub const DEFAULT: TimeControl = TimeControl::Correspondence { days: 3 };

    /// The days per move a challenge offers (lichess's values).
    pub const CORRESPONDENCE_DAYS: [u32; 7] = [1, 2, 3, 5, 7, 10, 14];

    /// The live clocks a challenge offers, as (minutes, seconds of increment).
    pub const LIVE: [(u32, u32); 5] = [(3, 2), (5, 3), (10, 5), (15, 10), (30, 20)];

    /// Every time control a challenge offers, in the order they are listed.
    pub fn offered() -> Vec<TimeControl> {
        let mut v: Vec<TimeControl> = Self::CORRESPONDENCE_DAYS
            .iter()
            .map(|&days| TimeControl::Correspondence { days })
            .collect();
        v.extend(Self::LIVE.iter().map(|&(m, s)| TimeControl::Live {
            base_secs: m * 60,
            increment_secs: s,
        }));
        v.push(TimeControl::Untimed);
        v
    }

    /// Live or correspondence (untimed counts as correspondence).
    pub fn speed(self) -> Speed {
        match self {
            TimeControl::Live { .. } => Speed::Live,
            _ => Speed::Correspondence,
        }
    }

    /// Whether a flag can fall (correspondence and live).
    pub fn is_timed(self) -> bool {
        !matches!(self, TimeControl::Untimed)
    }

    /// The full allowance of a side: the days per move, or the live base, in ms (0 untimed).
    pub fn base_ms(self) -> i64 {
        match self {
            TimeControl::Untimed => 0,
            TimeControl::Correspondence { days } => i64::from(days) * DAY_MS,
            TimeControl::Live { base_secs, .. } => i64::from(base_secs) * 1000,
        }
    }

    /// The live increment, in ms (0 otherwise).
    pub fn increment_ms(self) -> i64 {
        match self {
            TimeControl::Live { increment_secs, .. } => i64::from(increment_secs) * 1000,
            _ => 0,
        }
    }

    /// The PGN `TimeControl` tag's value as lichess exports it: "180+2" (seconds, plus the
    /// increment's seconds) for a live clock, "-" for correspondence and untimed games.
    pub fn pgn_tag(self) -> String {
        match self {
            TimeControl::Live {
                base_secs,
                increment_secs,
            } => format!("{base_secs}+{increment_secs}"),
            TimeControl::Correspondence { .. } | TimeControl::Untimed => "-".to_owned(),
        }
    }
}

impl TimeControl {
    /// As stored.
    pub(crate) fn to_row(self) -> TimeControlRow {
        let kind = match self {
            TimeControl::Untimed => ClockKind::Untimed,
            TimeControl::Correspondence { .. } => ClockKind::Correspondence,
            TimeControl::Live { .. } => ClockKind::Live,
        };
        TimeControlRow {
            kind,
            base_ms: self.base_ms(),
            inc_ms: self.increment_ms(),
        }
    }

    /// From its stored form.
    pub(crate) fn from_row(r: TimeControlRow) -> TimeControl {
        match r.kind {
            ClockKind::Untimed => TimeControl::Untimed,
            ClockKind::Correspondence => TimeControl::Correspondence {
                days: u32::try_from(r.base_ms / DAY_MS).unwrap_or(u32::MAX),
            },
            ClockKind::Live => TimeControl::Live {
                base_secs: u32::try_from(r.base_ms / 1000).unwrap_or(u32::MAX),
                increment_secs: u32::try_from(r.inc_ms / 1000).unwrap_or(u32::MAX),
            },
        }
    }
}

/// A game's clock as the front ends show it, as of the operation that returned it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockView {
    /// The time control.
    pub control: TimeControl,
    /// White's remaining time, in ms (the running side's counted down to the view's time).
    pub white_ms: i64,
    /// Black's remaining time, in ms.
    pub black_ms: i64,
    /// While the game goes on: when the player to move runs out (timed), or when the
    /// waiting player may claim the game (untimed), in Unix ms.
    pub deadline: Option<i64>,
    /// Whether the player to move is in the grace of their first live move (their clock
    /// does not run; the deadline is the grace's end).
    pub grace: bool,
    /// The time this view is of (Unix ms).
    pub as_of: i64,
}

impl ClockView {
    /// The clock of a game at `ply` plies with `turn` to move, as of `now`. A game that has
    /// ended (not `active`) shows its clock as it stood at its end (`finished_at`): the side
    /// that was to move counted down to that moment, so a flagged side shows no time left, as
    /// lichess's final clock does.
    pub(crate) fn new(
        control: TimeControl,
        c: &ClockRow,
        ply: u32,
        turn: Color,
        active: bool,
        finished_at: Option<i64>,
        now: i64,
    ) -> ClockView {
        let in_grace = matches!(control, TimeControl::Live { .. }) && ply < 2;
        let grace = active && in_grace;
        let (mut white_ms, mut black_ms) = (c.white_ms, c.black_ms);
        // When the running side's clock is read: now, or when the game ended.
        let at = if active { Some(now) } else { finished_at };
        if !in_grace
            && control.is_timed()
            && let Some(deadline) = c.deadline
            && let Some(at) = at
        {
            let left = (deadline - at).max(0);
            match turn {
                Color::White => white_ms = left,
                Color::Black => black_ms = left,
            }
        }
        ClockView {
            control,
            white_ms,
            black_ms,
            deadline: if active { c.deadline } else { None },
            grace,
            as_of: now,
        }
    }

    /// The remaining time of `c`, in ms.
    pub fn remaining(&self, c: Color) -> i64 {
        match c {
            Color::White => self.white_ms,
            Color::Black => self.black_ms,
        }
    }
}

/// Why a time control's text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown time control {0:?}")]
pub struct UnknownTimeControl(pub String);

impl FromStr for TimeControl {
    type Err = UnknownTimeControl;

    /// Reads an offered value: `1d`, `2d`, `3d`, `5d`, `7d`, `10d`, `14d` (days per move),
    /// `3+2`, `5+3`, `10+5`, `15+10`, `30+20` (minutes plus seconds per move), or `untimed`.
    ///
    /// ```
    /// use cajitas::game::TimeControl;
    /// assert_eq!("3d".parse(), Ok(TimeControl::Correspondence { days: 3 }));
    /// assert_eq!("5+3".parse(), Ok(TimeControl::Live { base_secs: 300, increment_secs: 3 }));
    /// assert_eq!("untimed".parse(), Ok(TimeControl::Untimed));
    /// assert!("4d".parse::<TimeControl>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        let bad = || UnknownTimeControl(s.chars().take(20).collect());
        if t == "untimed" || t == "none" || t == "-" {
            return Ok(TimeControl::Untimed);
        }
        let found = if let Some(days) = t.strip_suffix('d') {
            let days: u32 = days.parse().map_err(|_| bad())?;
            TimeControl::Correspondence { days }
        } else if let Some((m, s)) = t.split_once('+') {
            let m: u32 = m.trim().parse().map_err(|_| bad())?;
            let s: u32 = s.trim().parse().map_err(|_| bad())?;
            TimeControl::Live {
                base_secs: m.checked_mul(60).ok_or_else(bad)?,
                increment_secs: s,
            }
        } else {
            return Err(bad());
        };
        if Self::offered().contains(&found) {
            Ok(found)
        } else {
            Err(bad())
        }
    }
}

impl fmt::Display for TimeControl {
    /// The option's value: `3d`, `5+3`, `untimed` (a live base that is not whole minutes is
    /// written in seconds, `1s+0`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Untimed => f.write_str("untimed"),
            TimeControl::Correspondence { days } => write!(f, "{days}d"),
            TimeControl::Live {
                base_secs,
                increment_secs,
            } if base_secs % 60 == 0 => write!(f, "{}+{increment_secs}", base_secs / 60),
            TimeControl::Live {
                base_secs,
                increment_secs,
            } => write!(f, "{base_secs}s+{increment_secs}"),
        }
    }
}

/// A game's clock as stored: both remaining times as of `clock_at` (when the current turn
/// began), and the deadline of the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockState {
    /// White's remaining time at `clock_at`, in ms.
    pub white_ms: i64,
    /// Black's remaining time at `clock_at`, in ms.
    pub black_ms: i64,
    /// When the current turn began (Unix ms).
    pub clock_at: i64,
    /// When the player to move runs out (timed games), or when the waiting player may claim
    /// the game (untimed games), in Unix ms.
    pub deadline: i64,
}

impl ClockState {
    /// The remaining time of `c` at `clock_at`.
    pub fn remaining(&self, c: Color) -> i64 {
        match c {
            Color::White => self.white_ms,
            Color::Black => self.black_ms,
        }
    }

    /// As stored (the store sets `seq`).
    pub(crate) fn to_row(self) -> ClockRow {
        ClockRow {
            white_ms: self.white_ms,
            black_ms: self.black_ms,
            clock_at: Some(self.clock_at),
            deadline: Some(self.deadline),
            seq: 0,
        }
    }

    /// A stored clock; a game from before clocks gets its turn beginning at `now`.
    pub(crate) fn from_row(
        tc: TimeControl,
        r: &ClockRow,
        ply: u32,
        turn: Color,
        now: i64,
        abandon_ms: i64,
    ) -> ClockState {
        match (r.clock_at, r.deadline) {
            (Some(clock_at), Some(deadline)) => ClockState {
                white_ms: r.white_ms,
                black_ms: r.black_ms,
                clock_at,
                deadline,
            },
            _ => start(tc, now, ply, turn, abandon_ms),
        }
    }

    fn set(&mut self, c: Color, ms: i64) {
        match c {
            Color::White => self.white_ms = ms,
            Color::Black => self.black_ms = ms,
        }
    }
}

/// The deadline of `turn`, to move at `ply` plies, their turn having begun at `at`.
pub(crate) fn deadline(
    tc: TimeControl,
    white_ms: i64,
    black_ms: i64,
    at: i64,
    ply: u32,
    turn: Color,
    abandon_ms: i64,
) -> i64 {
    let remaining = match turn {
        Color::White => white_ms,
        Color::Black => black_ms,
    };
    match tc {
        TimeControl::Untimed => at.saturating_add(abandon_ms),
        TimeControl::Correspondence { .. } => at.saturating_add(tc.base_ms()),
        // Each side's first move has its own grace, and uses none of its clock.
        TimeControl::Live { .. } if ply < 2 => at.saturating_add(LIVE_FIRST_MOVE_GRACE_MS),
        TimeControl::Live { .. } => at.saturating_add(remaining),
    }
}

/// A game's clock when it starts at `now`.
pub(crate) fn start(
    tc: TimeControl,
    now: i64,
    ply: u32,
    turn: Color,
    abandon_ms: i64,
) -> ClockState {
    let base = tc.base_ms();
    ClockState {
        white_ms: base,
        black_ms: base,
        clock_at: now,
        deadline: deadline(tc, base, base, now, ply, turn, abandon_ms),
    }
}

/// The time control as it counts for `mover`: a side that went berserk in an arena (bit 1
/// White, bit 2 Black of `berserk`) plays without the increment.
pub(crate) fn for_mover(tc: TimeControl, berserk: u8, mover: Color) -> TimeControl {
    let bit = match mover {
        Color::White => 1,
        Color::Black => 2,
    };
    match tc {
        TimeControl::Live { base_secs, .. } if berserk & bit != 0 => TimeControl::Live {
            base_secs,
            increment_secs: 0,
        },
        other => other,
    }
}

/// The clock after `mover` moved at `now`, the game having had `ply` plies before the move
/// (the move was in time: `now < before.deadline` for a timed game). The mover's time used
/// is `now - clock_at`; a live clock gets its increment after the move; each side's first
/// live move is in its grace period and neither uses time nor earns the increment; a
/// correspondence move resets the mover's allowance to the full period.
pub(crate) fn after_move(
    tc: TimeControl,
    before: ClockState,
    ply: u32,
    mover: Color,
    now: i64,
    abandon_ms: i64,
) -> ClockState {
    let mut c = before;
    match tc {
        TimeControl::Live { .. } if ply >= 2 => {
            let used = now - before.clock_at;
            c.set(mover, before.remaining(mover) - used + tc.increment_ms());
        }
        TimeControl::Correspondence { .. } => c.set(mover, tc.base_ms()),
        _ => {}
    }
    c.clock_at = now;
    c.deadline = deadline(tc, c.white_ms, c.black_ms, now, ply + 1, !mover, abandon_ms);
    c
}

/// The clock with the turn in progress charged at `now`: in a live game past `turn`'s grace
/// (`ply` plies played), the player to move has used `now - clock_at` of their time, and their
/// turn goes on from `now`. A takeback charges it before it rewinds (lichess's rule: the time
/// of the current turn is never given back), without the increment (no move was made).
pub(crate) fn charge_turn(
    tc: TimeControl,
    before: ClockState,
    ply: u32,
    turn: Color,
    now: i64,
) -> ClockState {
    let mut c = before;
    if let TimeControl::Live { .. } = tc
        && ply >= 2
    {
        let used = (now - before.clock_at).max(0);
        c.set(turn, (before.remaining(turn) - used).max(0));
        c.clock_at = now;
    }
    c
}

/// The clock after a takeback at `now` to `ply` plies with `turn` to move, the turn in
/// progress already charged ([`charge_turn`]): remaining times stay as they are (no time is
/// given back), the turn begins now.
pub(crate) fn after_rewind(
    tc: TimeControl,
    before: ClockState,
    ply: u32,
    turn: Color,
    now: i64,
    abandon_ms: i64,
) -> ClockState {
    let mut c = before;
    if let TimeControl::Correspondence { .. } = tc {
        c.set(turn, tc.base_ms());
    }
    c.clock_at = now;
    c.deadline = deadline(tc, c.white_ms, c.black_ms, now, ply, turn, abandon_ms);
    c
}

/// What the scheduler does next for a game, and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Next {
    /// The player to move runs out at this time.
    Timeout(i64),
    /// A correspondence reminder to the player to move.
    Reminder(i64),
    /// An untimed game's reminder to the player to move before the opponent may claim it.
    IdleReminder(i64),
}

/// The next event of a game at `ply` plies with clock `c`: a correspondence game's reminder
/// at 80% of the mover's time once both sides moved (then the timeout), a live game's
/// timeout, an untimed game's reminder at 80% of the abandonment period once both sides
/// moved. No reminder goes out before both sides moved, so an untimed game that has not
/// started has no event: the waiting player may end it by a claim, which aborts it.
pub(crate) fn next_event(tc: TimeControl, c: &ClockState, ply: u32) -> Option<Next> {
    let share = |deadline: i64| c.clock_at + (deadline - c.clock_at) * REMINDER_PERCENT / 100;
    match tc {
        TimeControl::Untimed if ply >= 2 => Some(Next::IdleReminder(share(c.deadline))),
        TimeControl::Untimed => None,
        TimeControl::Correspondence { .. } if ply >= 2 => Some(Next::Reminder(share(c.deadline))),
        _ => Some(Next::Timeout(c.deadline)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_offered_value_reads_back_from_its_text() {
        let offered = TimeControl::offered();
        assert_eq!(offered.len(), 13);
        for tc in offered {
            assert_eq!(tc.to_string().parse::<TimeControl>(), Ok(tc), "{tc}");
        }

        assert_eq!(TimeControl::default().to_string(), "3d");
        for bad in [
            "",
            "4d",
            "3+1",
            "0d",
            "d",
            "+",
            "abc",
            "99999999999+1",
            "3 days",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(
            " 10+5 ".parse(),
            Ok(TimeControl::Live {
                base_secs: 600,
                increment_secs: 5
            })
        );
    }

    #[test]
    fn speeds() {
        assert_eq!("3+2".parse::<TimeControl>().unwrap().speed(), Speed::Live);
        assert_eq!(
            "14d".parse::<TimeControl>().unwrap().speed(),
            Speed::Correspondence
        );
        assert_eq!(TimeControl::Untimed.speed(), Speed::Correspondence);
        assert!(!TimeControl::Untimed.is_timed());
        let one_second = TimeControl::Live {
            base_secs: 1,
            increment_secs: 0,
        };
        assert_eq!(one_second.to_string(), "1s+0");
    }

    #[test]
    fn live_moves_use_time_and_earn_the_increment_after_the_grace() {
        let tc: TimeControl = "3+2".parse().unwrap();
        let c = start(tc, 0, 0, Color::White, 0);
        assert_eq!(c.deadline, LIVE_FIRST_MOVE_GRACE_MS);
        // First moves: no time used, no increment.
        let c = after_move(tc, c, 0, Color::White, 20_000, 0);
        assert_eq!((c.white_ms, c.black_ms), (180_000, 180_000));
        assert_eq!(c.deadline, 20_000 + LIVE_FIRST_MOVE_GRACE_MS);
        let c = after_move(tc, c, 1, Color::Black, 25_000, 0);
        assert_eq!(c.deadline, 25_000 + 180_000);
        // White's second move: 10 s used, 2 s added.
        let c = after_move(tc, c, 2, Color::White, 35_000, 0);
        assert_eq!(c.white_ms, 172_000);
        assert_eq!(c.deadline, 35_000 + 180_000);
    }

    #[test]
    fn correspondence_moves_reset_the_allowance_and_remind_at_80_percent() {
        let tc: TimeControl = "2d".parse().unwrap();
        let c = start(tc, 0, 0, Color::White, 0);
        assert_eq!(next_event(tc, &c, 0), Some(Next::Timeout(2 * DAY_MS)));
        let c = after_move(tc, c, 0, Color::White, DAY_MS, 0);
        assert_eq!(c.deadline, 3 * DAY_MS);
        let c = after_move(tc, c, 1, Color::Black, 2 * DAY_MS, 0);
        assert_eq!(c.black_ms, 2 * DAY_MS);
        let reminder = 2 * DAY_MS + 2 * DAY_MS * 8 / 10;
        assert_eq!(next_event(tc, &c, 2), Some(Next::Reminder(reminder)));
    }

    #[test]
    fn an_untimed_game_reminds_only_once_both_sides_moved() {
        let tc = TimeControl::Untimed;
        let c = ClockState {
            white_ms: 0,
            black_ms: 0,
            clock_at: 0,
            deadline: 7 * DAY_MS,
        };
        assert_eq!(next_event(tc, &c, 0), None);
        assert_eq!(next_event(tc, &c, 1), None);
        let reminder = 7 * DAY_MS * 8 / 10;
        assert_eq!(next_event(tc, &c, 2), Some(Next::IdleReminder(reminder)));
        assert_eq!(next_event(tc, &c, 3), Some(Next::IdleReminder(reminder)));
    }
}
