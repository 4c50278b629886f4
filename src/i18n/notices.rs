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
        NoticeKind::Paired {
            kind: crate::store::TournamentKind::RoundRobin,
            round,
            ..
        } => match p {
            Presentation::Console => super::round_robins::round_line(lang, *round, v),
            _ => super::round_robins::round_post(
                lang,
                *round,
                &p.player(&v.white),
                &p.player(&v.black),
            ),
        },
        NoticeKind::Paired { .. } => match p {
            Presentation::Console => super::tournaments::pairing_line(lang, v),
            _ => tr!(
                lang,
                "arena-pairing-post",
                white = p.player(&v.white),
                black = p.player(&v.black)
            ),
        },
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
        opening = v.opening.map_or("none", |o| o.opening.name),
        thread = p.place(v.place().channel)
    )
}

#[cfg(test)]
mod tests {
    use cajitas_rules::Position;

    use super::*;
    use crate::game::ratings::{LeaderEntry, MyStanding, Shown};
    use crate::game::{ChannelRef, GameService, ServiceOptions, TimeControl, UserRef};
    use crate::i18n::{clock, ratings, status};

    /// Discord's markup: mentions, links, timestamps, slash commands.
    const MARKUP: [&str; 4] = ["<@", "<#", "<t:", "`/"];

    #[test]
    fn each_front_gets_its_own_presentation_of_the_same_facts() {
        let svc = GameService::open_in_memory(ServiceOptions::default()).unwrap();
        let (alice, bob) = (
            UserRef::new(11, "alice", false),
            UserRef::new(12, "bob", false),
        );
        let ch = ChannelRef {
            guild: Some(5),
            channel: 9,
        };
        let tc = TimeControl::Correspondence { days: 3 };
        let v = svc
            .challenges()
            .start_game_timed(&alice, &bob, ch, &Position::new(), tc)
            .unwrap();
        let over = svc.play().resign(&bob, ch, None).unwrap().view;
        let entry = LeaderEntry {
            rank: 1,
            user: alice.clone(),
            shown: Shown {
                rating: 1500.0,
                deviation: 60.0,
            },
            games: 7,
        };
        for lang in [Lang::En, Lang::Es] {
            let texts = |p: Presentation| {
                let mut t: Vec<String> = [
                    NoticeKind::GameState,
                    NoticeKind::TimedOut,
                    NoticeKind::Reminder,
                    NoticeKind::IdleReminder,
                    NoticeKind::EngineUnavailable,
                ]
                .iter()
                .map(|k| notice_text(lang, p, k, &v))
                .collect();
                t.push(summary(lang, p, &over));
                t.push(status_line(lang, p, &over));
                t.push(status::material(lang, p, &v));
                t.extend(clock::clock_lines(lang, p, &v));
                t.push(ratings::leaderboard_line(lang, p, &entry));
                t
            };
            for text in texts(Presentation::Console) {
                for m in MARKUP {
                    assert!(!text.contains(m), "{m} in the console's {text:?}");
                }
            }
            let discord = texts(Presentation::Discord).join("\n");
            for m in ["<@11>", "<@12>", "<#9>", "<t:"] {
                assert!(discord.contains(m), "no {m} in Discord's {discord:?}");
            }
            let standing = MyStanding::Ranked {
                rank: 3,
                shown: entry.shown,
            };
            assert!(!ratings::standing_line(lang, &standing).is_empty());
        }
        assert_eq!(
            notice_text(Lang::En, Presentation::Discord, &NoticeKind::GameState, &v),
            "<@11> (white) to move."
        );
        assert_eq!(
            notice_text(Lang::En, Presentation::Console, &NoticeKind::GameState, &v),
            "Move 1: White to move (alice)."
        );
    }
}
