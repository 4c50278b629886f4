//! Ratings in words, shared by Discord and the console.

use cajitas_rules::Lang;

use crate::game::ratings::RANKED_MIN_GAMES;
use crate::game::ratings::{Missing, Shown};
use crate::tr;

/// Why the viewer of a leaderboard is not on it, saying only what is missing: rated games
/// ("3 rated games of the 5 needed."), a steady rating ("RD 131 now, under 110 needed"), or
/// both. `shown` is their rating as of now, with its widened RD.
pub fn unranked_line(lang: Lang, games: u32, shown: Option<Shown>, missing: Missing) -> String {
    let (games, min) = (super::num(games), super::num(RANKED_MIN_GAMES));
    match (missing, shown) {
        (Missing::Games, _) => tr!(
            lang,
            "leaderboard-you-unranked-games",
            games = games,
            min = min
        ),
        (Missing::Steadiness, Some(s)) => tr!(
            lang,
            "leaderboard-you-unranked-steadiness",
            rd = super::num(s.deviation.round() as u32)
        ),
        (Missing::Steadiness | Missing::Both, _) => {
            tr!(lang, "leaderboard-you-unranked", games = games, min = min)
        }
    }
}
