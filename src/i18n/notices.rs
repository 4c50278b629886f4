//! The posts no interaction caused, in words, for both front ends: the scheduler's timeouts
//! and reminders, a game's new state, the engine waiting, and the one-line summary a thread's
//! game leaves in its channel. The [`Presentation`] writes the players, the deadline and the
//! thread.

use cajitas_rules::{Lang, Outcome};

use super::present::Presentation;
use super::status::status_line;
use crate::game::{GameView, NoticeKind};
use crate::tr;

/// The text of a notice of `kind` about `v`, in `lang`, as `p` shows it.
pub fn notice_text(lang: Lang, p: Presentation, kind: &NoticeKind, v: &GameView) -> String {
    let to_move = p.player(v.player_to_move());
    let opponent = p.player(v.player(!v.to_move));
    let deadline = v
        .clock
        .deadline
        .map(|d| p.moment(lang, d, v.clock.as_of, v.clock.control))
        .unwrap_or_default();
    match kind {
        NoticeKind::GameState | NoticeKind::Summary | NoticeKind::Rematch(_) => {
            status_line(lang, p, v)
        }
        NoticeKind::EngineUnavailable => tr!(lang, "engine-unavailable"),
        NoticeKind::TimedOut if v.aborted => tr!(lang, "timeout-aborted-post", player = to_move),
        NoticeKind::TimedOut => tr!(
            lang,
            "timeout-post",
            player = to_move,
            status = status_line(lang, p, v)
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

/// The one line a game of a thread leaves in its channel when it ends, with its thread:
/// "alice beat bob by checkmate in 34 moves".
pub fn summary(lang: Lang, p: Presentation, v: &GameView) -> String {
    let (outcome, winner, loser, termination) = match v.outcome {
        Some(Outcome::Decisive { winner, reason }) => (
            "win",
            p.player(v.player(winner)),
            p.player(v.player(!winner)),
            reason.as_str(),
        ),
        Some(Outcome::Draw { reason }) => ("draw", String::new(), String::new(), reason.as_str()),
        None => ("aborted", String::new(), String::new(), "aborted"),
    };
    tr!(
        lang,
        "summary",
        outcome = outcome,
        winner = winner,
        loser = loser,
        white = p.player(&v.white),
        black = p.player(&v.black),
        termination = termination,
        moves = super::num(v.ply.div_ceil(2)),
        thread = p.place(v.place().channel)
    )
}
