//! Challenges in words, for both front ends: the challenge itself (who, which colour, rated or
//! not, the time control; on Discord until when) and the game it begins.

use cajitas_rules::Lang;

use super::present::Presentation;
use crate::game::{ChallengeView, ColourChoice, GameView, TimeControl, Variant};
use crate::tr;

/// A challenge's text as `p` shows it: who challenges whom (or anyone) with which colour (and,
/// on Discord, when it expires), whether it is rated, then its time control on a line of its
/// own.
pub fn challenge_text(lang: Lang, p: Presentation, c: &ChallengeView) -> String {
    let colour = match c.colour {
        ColourChoice::White => "white",
        ColourChoice::Black => "black",
        ColourChoice::Random => "random",
    };
    let challenger = p.player(&c.challenger);
    let who = match (p, &c.opponent) {
        (Presentation::Discord, opponent) => {
            // A challenge's lifetime is counted in days and hours, as an untimed game's.
            let expires = p.moment(lang, c.expires_at, c.created_at, TimeControl::Untimed);
            match opponent {
                Some(o) => tr!(
                    lang,
                    "challenge-to",
                    opponent = p.player(o),
                    challenger = challenger,
                    colour = colour,
                    expires = expires
                ),
                None => tr!(
                    lang,
                    "challenge-open",
                    challenger = challenger,
                    colour = colour,
                    expires = expires
                ),
            }
        }
        (Presentation::Console, Some(o)) => tr!(
            lang,
            "console-challenge",
            challenger = challenger,
            opponent = p.player(o),
            colour = colour
        ),
        (Presentation::Console, None) => tr!(
            lang,
            "console-challenge-open",
            challenger = challenger,
            colour = colour
        ),
    };
    let rated = tr!(
        lang,
        "challenge-rated",
        rated = if c.rated { "yes" } else { "no" }
    );
    let time = super::clock::challenge_line(lang, c.time);
    match variant(lang, c.variant) {
        Some(variant) => format!("{who} {rated}\n{variant}\n{time}"),
        None => format!("{who} {rated}\n{time}"),
    }
}

/// The variant of a challenge or game, "Chess960 #123", for both front ends (the challenge,
/// the game's embed, the console's board); `None` for standard chess, which goes unsaid.
pub fn variant(lang: Lang, v: Variant) -> Option<String> {
    let number = v.chess960_number()?;
    Some(tr!(lang, "variant-chess960", number = number.to_string()))
}

/// The variant as the console's line under the board ("Variant: Chess960 #123").
pub fn variant_line(lang: Lang, v: Variant) -> Option<String> {
    let number = v.chess960_number()?;
    Some(tr!(lang, "console-variant", number = number.to_string()))
}

/// The line that announces the game a challenge began: its players and colours (the console
/// also numbers the game).
pub fn game_begins(lang: Lang, p: Presentation, v: &GameView) -> String {
    match p {
        Presentation::Discord => tr!(
            lang,
            "game-begins",
            white = p.player(&v.white),
            black = p.player(&v.black)
        ),
        Presentation::Console => tr!(
            lang,
            "console-game-begins",
            id = super::num(v.game_id as f64),
            white = p.player(&v.white),
            black = p.player(&v.black)
        ),
    }
}
