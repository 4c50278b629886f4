//! Clocks in the terminal: the clock lines under a board, and the scheduler's notices.

use cajitas_rules::Lang;

use crate::game::{GameView, NoticeKind};
use crate::i18n::{Presentation, clock};
use crate::tr;

/// A deadline as the console says it: the UTC time, and how long until it.
fn when(v: &GameView, deadline: i64, lang: Lang) -> String {
    Presentation::Console.moment(lang, deadline, v.clock.as_of, v.clock.control)
}

/// The clock lines of a game: the control and both times, and who must move by when.
pub(super) fn clock_lines(v: &GameView, lang: Lang) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(line) = clock::clock_line(lang, &v.clock) {
        lines.push(line);
    }
    // Against the computer nobody claims an abandoned game: no deadline to show.
    if let Some(deadline) = v.clock.deadline.filter(|_| v.engine().is_none()) {
        lines.push(clock::deadline_line(
            lang,
            Presentation::Console,
            &v.clock,
            v.player_to_move(),
            deadline,
        ));
    }
    lines
}

/// The line of a scheduler's notice (a timeout or a reminder).
pub(super) fn notice_line(kind: &NoticeKind, v: &GameView, lang: Lang) -> String {
    let to_move = v.player_to_move().name.clone();
    let opponent = v.player(!v.to_move).name.clone();
    let deadline = v
        .clock
        .deadline
        .map(|d| when(v, d, lang))
        .unwrap_or_default();
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
