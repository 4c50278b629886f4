//! Clocks in the terminal: the clock lines under a board, and the scheduler's notices.

use cajitas_rules::Lang;

use crate::game::{GameView, NoticeKind};
use crate::i18n::clock;
use crate::tr;

/// A deadline as the console says it: the UTC time, and how long until it.
fn when(v: &GameView, deadline: i64) -> String {
    let left = (deadline - v.clock.as_of).max(0);
    let secs = deadline.div_euclid(1000);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC (~{})",
        rem / 3600,
        rem / 60 % 60,
        rem % 60,
        clock::remaining(Lang::En, v.clock.control, left)
    )
}

/// The clock lines of a game: the control and both times, and who must move by when.
pub(super) fn clock_lines(v: &GameView, lang: Lang) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(line) = clock::clock_line(lang, &v.clock) {
        lines.push(line);
    }
    // Against the computer nobody claims an abandoned game: no deadline to show.
    if let Some(deadline) = v.clock.deadline.filter(|_| v.engine().is_none()) {
        let who = v.player_to_move().name.clone();
        lines.push(clock::deadline_line(
            lang,
            &v.clock,
            &who,
            &when(v, deadline),
        ));
    }
    lines
}

/// The line of a scheduler's notice (a timeout or a reminder).
pub(super) fn notice_line(kind: &NoticeKind, v: &GameView, lang: Lang) -> String {
    let to_move = v.player_to_move().name.clone();
    let opponent = v.player(!v.to_move).name.clone();
    let deadline = v.clock.deadline.map(|d| when(v, d)).unwrap_or_default();
    match kind {
        NoticeKind::GameState | NoticeKind::Summary | NoticeKind::Rematch(_) => {
            super::status_line_in(v, lang)
        }
        NoticeKind::EngineUnavailable => tr!(lang, "engine-unavailable"),
        NoticeKind::TimedOut if v.aborted => tr!(lang, "timeout-aborted-post", player = to_move),
        NoticeKind::TimedOut => tr!(
            lang,
            "timeout-post",
            player = to_move,
            status = super::status_line_in(v, lang)
        ),
        NoticeKind::Reminder => tr!(
            lang,
            "reminder-post",
            player = to_move,
            opponent = opponent,
            deadline = deadline
        ),
        NoticeKind::IdleReminder => tr!(
            lang,
            "idle-reminder-post",
            player = to_move,
            opponent = opponent,
            deadline = deadline
        ),
    }
}

/// The civil date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    #[test]
    fn civil_dates() {
        assert_eq!(super::civil(0), (1970, 1, 1));
        assert_eq!(super::civil(19_723), (2024, 1, 1));
        assert_eq!(super::civil(20_513), (2026, 3, 1));
    }
}
