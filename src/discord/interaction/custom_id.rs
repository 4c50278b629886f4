//! Buttons' custom ids: what a button acts on, and from which position. The vocabulary
//! that commands build their buttons with and that [`super::router`] reads clicks with.
//!
//! A custom id carries the challenge id, or the game id and the ply the button was made
//! at: a click on a button from an older position is refused as expired.

use poise::serenity_prelude as serenity;

/// What a button does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ButtonId {
    /// Accept challenge `challenge`.
    ChallengeAccept {
        /// The challenge id.
        challenge: i64,
    },
    /// Decline challenge `challenge`.
    ChallengeDecline {
        /// The challenge id.
        challenge: i64,
    },
    /// Accept the draw offer standing in `game` at `ply`.
    DrawAccept {
        /// The game id.
        game: i64,
        /// The ply when the offer was made.
        ply: u32,
    },
    /// Decline the draw offer standing in `game` at `ply`.
    DrawDecline {
        /// The game id.
        game: i64,
        /// The ply when the offer was made.
        ply: u32,
    },
    /// Accept the takeback request standing in `game` at `ply`.
    TakebackAccept {
        /// The game id.
        game: i64,
        /// The ply when the takeback was asked.
        ply: u32,
    },
    /// Decline the takeback request standing in `game` at `ply`.
    TakebackDecline {
        /// The game id.
        game: i64,
        /// The ply when the takeback was asked.
        ply: u32,
    },
    /// A player of the finished `game` asks for a rematch.
    Rematch {
        /// The game id.
        game: i64,
    },
    /// `user`'s leaderboard of speed `speed` (see `ratings::speed_code`), page `page`, as
    /// it was at `version`.
    LeaderboardPage {
        /// The speed's code.
        speed: u8,
        /// The page asked for, from 0.
        page: u32,
        /// The pool's version when the buttons were made.
        version: i64,
        /// Who ran `/leaderboard`.
        user: u64,
    },
    /// `user` asks for a hint in their puzzle attempt `attempt`.
    PuzzleHint {
        /// The attempt's id.
        attempt: i64,
        /// The solver.
        user: u64,
    },
    /// `user` gives up their puzzle attempt `attempt` and sees the solution.
    PuzzleSolution {
        /// The attempt's id.
        attempt: i64,
        /// The solver.
        user: u64,
    },
    /// `user` asks for another puzzle.
    PuzzleNext {
        /// The solver.
        user: u64,
    },
    /// Someone starts their attempt at `guild`'s daily puzzle of `day`.
    DailySolve {
        /// The server.
        guild: u64,
        /// The day (since 1970-01-01, UTC).
        day: i64,
    },
    /// Someone joins tournament `tournament` (an arena's announcement).
    ArenaJoin {
        /// The tournament's id.
        tournament: i64,
    },
    /// `user` confirms resigning `game` at `ply`.
    ResignConfirm {
        /// The game id.
        game: i64,
        /// The ply when `/resign` was asked.
        ply: u32,
        /// Who asked.
        user: u64,
    },
}

impl ButtonId {
    /// The custom id (at most 100 characters, as Discord requires).
    pub fn encode(&self) -> String {
        match *self {
            ButtonId::ChallengeAccept { challenge } => format!("cj:ca:{challenge}"),
            ButtonId::ChallengeDecline { challenge } => format!("cj:cd:{challenge}"),
            ButtonId::DrawAccept { game, ply } => format!("cj:da:{game}:{ply}"),
            ButtonId::DrawDecline { game, ply } => format!("cj:dd:{game}:{ply}"),
            ButtonId::TakebackAccept { game, ply } => format!("cj:ta:{game}:{ply}"),
            ButtonId::TakebackDecline { game, ply } => format!("cj:td:{game}:{ply}"),
            ButtonId::ResignConfirm { game, ply, user } => format!("cj:rs:{game}:{ply}:{user}"),
            ButtonId::Rematch { game } => format!("cj:rm:{game}"),
            ButtonId::PuzzleHint { attempt, user } => format!("cj:ph:{attempt}:{user}"),
            ButtonId::PuzzleSolution { attempt, user } => format!("cj:ps:{attempt}:{user}"),
            ButtonId::PuzzleNext { user } => format!("cj:pn:{user}"),
            ButtonId::DailySolve { guild, day } => format!("cj:dp:{guild}:{day}"),
            ButtonId::ArenaJoin { tournament } => format!("cj:aj:{tournament}"),
            ButtonId::LeaderboardPage {
                speed,
                page,
                version,
                user,
            } => format!("cj:lb:{speed}:{page}:{version}:{user}"),
        }
    }

    /// Reads a custom id; `None` for anything else.
    pub fn parse(s: &str) -> Option<ButtonId> {
        let mut it = s.split(':');
        if it.next()? != "cj" {
            return None;
        }
        let kind = it.next()?;
        let nums: Vec<&str> = it.collect();
        let n = |i: usize| nums.get(i).and_then(|s| s.parse::<i64>().ok());
        let id = match (kind, nums.len()) {
            ("ca", 1) => ButtonId::ChallengeAccept { challenge: n(0)? },
            ("cd", 1) => ButtonId::ChallengeDecline { challenge: n(0)? },
            ("rm", 1) => ButtonId::Rematch { game: n(0)? },
            ("aj", 1) => ButtonId::ArenaJoin { tournament: n(0)? },
            ("da", 2) => ButtonId::DrawAccept {
                game: n(0)?,
                ply: nums[1].parse().ok()?,
            },
            ("dd", 2) => ButtonId::DrawDecline {
                game: n(0)?,
                ply: nums[1].parse().ok()?,
            },
            ("ta", 2) => ButtonId::TakebackAccept {
                game: n(0)?,
                ply: nums[1].parse().ok()?,
            },
            ("td", 2) => ButtonId::TakebackDecline {
                game: n(0)?,
                ply: nums[1].parse().ok()?,
            },
            ("lb", 4) => ButtonId::LeaderboardPage {
                speed: nums[0].parse().ok()?,
                page: nums[1].parse().ok()?,
                version: n(2)?,
                user: nums[3].parse().ok()?,
            },
            ("ph", 2) => ButtonId::PuzzleHint {
                attempt: n(0)?,
                user: nums[1].parse().ok()?,
            },
            ("ps", 2) => ButtonId::PuzzleSolution {
                attempt: n(0)?,
                user: nums[1].parse().ok()?,
            },
            ("pn", 1) => ButtonId::PuzzleNext {
                user: nums[0].parse().ok()?,
            },
            ("dp", 2) => ButtonId::DailySolve {
                guild: nums[0].parse().ok()?,
                day: n(1)?,
            },
            ("rs", 3) => ButtonId::ResignConfirm {
                game: n(0)?,
                ply: nums[1].parse().ok()?,
                user: nums[2].parse().ok()?,
            },
            _ => return None,
        };
        Some(id)
    }

    /// A button with this id.
    pub fn button(&self, label: &str, style: serenity::ButtonStyle) -> serenity::CreateButton {
        serenity::CreateButton::new(self.encode())
            .label(label)
            .style(style)
    }
}

/// The Accept and Decline buttons of a standing request (a draw offer, a takeback request),
/// labelled `labels` (accept, then decline).
pub fn request_buttons(
    accept: ButtonId,
    decline: ButtonId,
    labels: [String; 2],
) -> Vec<serenity::CreateActionRow> {
    let [yes, no] = labels;
    vec![serenity::CreateActionRow::Buttons(vec![
        accept.button(&yes, serenity::ButtonStyle::Success),
        decline.button(&no, serenity::ButtonStyle::Secondary),
    ])]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_round_trip_and_fit() {
        let ids = [
            ButtonId::ChallengeAccept { challenge: 7 },
            ButtonId::ChallengeDecline {
                challenge: i64::MAX,
            },
            ButtonId::DrawAccept { game: 3, ply: 41 },
            ButtonId::DrawDecline { game: 3, ply: 0 },
            ButtonId::TakebackAccept {
                game: i64::MAX,
                ply: u32::MAX,
            },
            ButtonId::TakebackDecline { game: 5, ply: 2 },
            ButtonId::Rematch { game: i64::MAX },
            ButtonId::ResignConfirm {
                game: i64::MAX,
                ply: u32::MAX,
                user: u64::MAX,
            },
            ButtonId::LeaderboardPage {
                speed: 1,
                page: u32::MAX,
                version: i64::MAX,
                user: u64::MAX,
            },
            ButtonId::PuzzleHint {
                attempt: i64::MAX,
                user: u64::MAX,
            },
            ButtonId::PuzzleSolution {
                attempt: 1,
                user: 2,
            },
            ButtonId::PuzzleNext { user: u64::MAX },
            ButtonId::DailySolve {
                guild: u64::MAX,
                day: i64::MAX,
            },
            ButtonId::ArenaJoin {
                tournament: i64::MAX,
            },
        ];
        for id in ids {
            let s = id.encode();
            assert!(s.len() <= 100, "{s}");
            assert_eq!(ButtonId::parse(&s), Some(id), "{s}");
        }
    }

    #[test]
    fn foreign_or_damaged_ids_are_rejected() {
        for s in [
            "",
            "resign",
            "cj",
            "cj:ca",
            "cj:ca:x",
            "cj:da:1",
            "cj:da:1:2:3",
            "xx:ca:1",
            "cj:rs:1:2",
            "cj:ta:1",
            "cj:td:1:x",
            "cj:zz:1",
            "cj:rm",
            "cj:rm:1:2",
            "cj:lb:1:2:3",
            "cj:lb:300:2:3:4",
            "cj:ph:1",
            "cj:ps:1:x",
            "cj:pn",
            "cj:pn:1:2",
        ] {
            assert_eq!(ButtonId::parse(s), None, "{s}");
        }
    }
}
