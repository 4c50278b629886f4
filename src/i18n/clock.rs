//! Clocks in words: a time control, a remaining time, a game's clock line.

use cajitas_rules::Lang;

use super::present::{Command, Presentation};
use crate::game::{ClockView, GameView, TimeControl, UserRef};
use crate::tr;

/// A time control in `lang`: "3 days per move", "5+3 (live)", "untimed".
pub fn control(lang: Lang, tc: TimeControl) -> String {
    match tc {
        TimeControl::Untimed => tr!(lang, "clock-control", kind = "untimed"),
        TimeControl::Correspondence { days } => tr!(
            lang,
            "clock-control",
            kind = "correspondence",
            days = super::num(days)
        ),
        TimeControl::Live {
            base_secs,
            increment_secs,
        } => {
            let minutes = if base_secs % 60 == 0 {
                (base_secs / 60).to_string()
            } else {
                format!("{:.2}", f64::from(base_secs) / 60.0)
            };
            tr!(
                lang,
                "clock-control",
                kind = "live",
                minutes = minutes,
                increment = increment_secs.to_string()
            )
        }
    }
}

pub use super::present::remaining;

/// The time-control line of a challenge: the control and, for a timed game, each side's
/// time when it starts; a live game also says how long each side has for its first move.
pub fn challenge_line(lang: Lang, tc: TimeControl) -> String {
    let control = control(lang, tc);
    match tc {
        TimeControl::Untimed => tr!(lang, "challenge-time", control = control),
        TimeControl::Correspondence { .. } => tr!(
            lang,
            "challenge-time-clock",
            control = control,
            start = remaining(lang, tc, tc.base_ms())
        ),
        TimeControl::Live { .. } => tr!(
            lang,
            "challenge-time-live",
            control = control,
            start = remaining(lang, tc, tc.base_ms()),
            grace = super::num((crate::game::LIVE_FIRST_MOVE_GRACE_MS / 1000) as f64)
        ),
    }
}

/// The clock line of a game: the control and both remaining times (nothing for an untimed
/// game).
pub fn clock_line(lang: Lang, c: &ClockView) -> Option<String> {
    if !c.control.is_timed() {
        return None;
    }
    Some(tr!(
        lang,
        "clock-line",
        control = control(lang, c.control),
        white = remaining(lang, c.control, c.white_ms),
        black = remaining(lang, c.control, c.black_ms)
    ))
}

/// The deadline sentence of a game in progress: `player` must move by `deadline` (Unix ms),
/// or, in an untimed game, the opponent may claim it then (with the command `p` names). The
/// player and the moment are written as `p` writes them (Discord: a mention and a Discord
/// timestamp; the console: the name, the UTC date and the time left).
pub fn deadline_line(
    lang: Lang,
    p: Presentation,
    c: &ClockView,
    player: &UserRef,
    deadline: i64,
) -> String {
    let player = p.player(player);
    let deadline = p.moment(lang, deadline, c.as_of, c.control);
    if !c.control.is_timed() {
        return tr!(
            lang,
            "clock-untimed-deadline",
            player = player,
            deadline = deadline,
            command = p.command(lang, Command::ClaimWin)
        );
    }
    let id = if c.grace {
        "clock-grace"
    } else {
        "clock-deadline"
    };
    tr!(lang, id, player = player, deadline = deadline)
}

/// The clock lines of a game as `p` shows them: the control and both remaining times, and
/// who must move by when (none against the computer, which nobody claims a game from);
/// empty for an untimed game without a deadline.
pub fn clock_lines(lang: Lang, p: Presentation, v: &GameView) -> Vec<String> {
    let c = &v.clock;
    let mut lines = Vec::new();
    if let Some(line) = clock_line(lang, c) {
        lines.push(line);
    }
    if let Some(deadline) = c.deadline.filter(|_| v.engine().is_none()) {
        lines.push(deadline_line(lang, p, c, v.player_to_move(), deadline));
    }
    lines
}
