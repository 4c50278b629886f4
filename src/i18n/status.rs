//! Where a game stands, in words: the status line (who is to move, check, a draw offer, a
//! claim, the result) and the material balance, worded here once for both front ends. The
//! [`Presentation`] writes the players (a mention, or a name) and picks the front's form of
//! the sentence where the two differ (the console's status line numbers the move and names
//! the colours first; Discord's names the players first, and points to `/draw`). And a
//! finished game's line in a channel's history.

use cajitas_rules::{Color, DrawClaim, Lang, Outcome, WinReason};

use super::present::Presentation;
use crate::game::{GameView, HistoryEntry, Status};
use crate::tr;

/// The status line of `v` in `lang`, as `p` shows it: who is to move, check, the draw
/// offered, the draws that may be claimed, or the result.
pub fn status_line(lang: Lang, p: Presentation, v: &GameView) -> String {
    match v.status() {
        Status::Aborted => tr!(lang, "status-aborted"),
        Status::Over {
            outcome: Outcome::Decisive { winner, reason },
            result,
        } => match p {
            Presentation::Discord => {
                let id = match reason {
                    WinReason::Checkmate => "status-checkmate",
                    WinReason::Resignation => "status-resigned",
                    WinReason::Timeout => "status-timeout",
                };
                tr!(
                    lang,
                    id,
                    winner = p.player(v.player(winner)),
                    loser = p.player(v.player(!winner)),
                    colour = super::colour_key(winner),
                    result = result.to_owned()
                )
            }
            Presentation::Console => tr!(
                lang,
                "console-win",
                reason = reason.as_str(),
                colour = super::colour_key(winner),
                winner = p.player(v.player(winner)),
                result = result.to_owned()
            ),
        },
        Status::Over {
            outcome: Outcome::Draw { reason },
            result,
        } => tr!(
            lang,
            "status-draw",
            reason = reason.as_str(),
            result = result.to_owned()
        ),
        Status::Playing {
            fullmove,
            to_move,
            check,
            draw_offer_by,
            claimable_now,
            claimable,
        } => {
            let mover = p.player(v.player(to_move));
            let colour = super::colour_key(to_move);
            let mut s = vec![match p {
                Presentation::Discord => {
                    tr!(
                        lang,
                        "status-to-move",
                        player = mover.clone(),
                        colour = colour
                    )
                }
                Presentation::Console => tr!(
                    lang,
                    "console-to-move",
                    fullmove = super::num(fullmove as f64),
                    colour = colour,
                    player = mover.clone()
                ),
            }];
            if check {
                s.push(match p {
                    Presentation::Discord => tr!(lang, "status-check"),
                    Presentation::Console => tr!(lang, "check"),
                });
            }
            if let Some(by) = draw_offer_by {
                s.push(match p {
                    Presentation::Discord => {
                        tr!(lang, "status-draw-offer", player = p.player(v.player(by)))
                    }
                    Presentation::Console => {
                        tr!(lang, "console-draw-offered", colour = super::colour_key(by))
                    }
                });
            }
            let names = |claims: &[DrawClaim]| {
                claims
                    .iter()
                    .map(|&c| tr!(lang, "claim-reason", claim = claim_key(c)))
                    .collect::<Vec<_>>()
                    .join(&tr!(lang, "list-sep"))
            };
            match p {
                // Discord points to `/draw action:claim`, which also claims with a move.
                Presentation::Discord if !claimable.is_empty() => {
                    s.push(tr!(lang, "status-claimable", what = names(claimable)));
                }
                Presentation::Console if !claimable_now.is_empty() => s.push(tr!(
                    lang,
                    "console-may-claim-now",
                    player = mover,
                    what = names(claimable_now)
                )),
                Presentation::Console if !claimable.is_empty() => s.push(tr!(
                    lang,
                    "console-may-claim-with-move",
                    player = mover,
                    what = names(claimable)
                )),
                _ => {}
            }
            s.join(" ")
        }
    }
}

/// The material balance of `v` in `lang`: even, or which side is ahead by how many points.
pub fn material(lang: Lang, p: Presentation, v: &GameView) -> String {
    let ahead = match v.material {
        0 => None,
        m if m > 0 => Some((Color::White, m)),
        m => Some((Color::Black, -m)),
    };
    match (p, ahead) {
        (Presentation::Discord, None) => tr!(lang, "material-even"),
        (Presentation::Discord, Some((colour, points))) => tr!(
            lang,
            "material-ahead",
            colour = super::colour_key(colour),
            points = super::num(points)
        ),
        (Presentation::Console, None) => {
            tr!(
                lang,
                "console-material",
                side = "even",
                points = super::num(0)
            )
        }
        (Presentation::Console, Some((colour, points))) => tr!(
            lang,
            "console-material",
            side = super::colour_key(colour),
            points = super::num(points)
        ),
    }
}

/// The opening of `v`, "C50 Italian Game": the ECO code and lichess's name, which stay English
/// in every language, as lichess shows them; `None` when the game has none.
pub fn opening(lang: Lang, v: &GameView) -> Option<String> {
    let o = v.opening?.opening;
    Some(tr!(lang, "opening-name", eco = o.eco, name = o.name))
}

/// The opening of `v` as its own line, for the console ("Opening: C50 Italian Game").
pub fn opening_line(lang: Lang, v: &GameView) -> Option<String> {
    let o = v.opening?.opening;
    Some(tr!(lang, "console-opening", eco = o.eco, name = o.name))
}

/// A finished game's line in a channel's history: its number, the players, the result, how it
/// ended and its length (Discord also gives the day it ended).
pub fn history_line(lang: Lang, p: Presentation, h: &HistoryEntry) -> String {
    let reason = tr!(lang, "termination", termination = h.termination.clone());
    match p {
        Presentation::Discord => tr!(
            lang,
            "history-line",
            id = h.game_id.to_string(),
            white = p.player(&h.white),
            black = p.player(&h.black),
            result = h.result.clone(),
            reason = reason,
            moves = super::num(h.plies.div_ceil(2)),
            date = p.day(h.finished_at),
        ),
        Presentation::Console => tr!(
            lang,
            "console-history-line",
            id = super::num(h.game_id as f64),
            white = p.player(&h.white),
            black = p.player(&h.black),
            result = h.result.clone(),
            reason = reason,
            plies = super::num(h.plies)
        ),
    }
}

/// The `claim-reason` selector of a draw claim.
pub fn claim_key(c: DrawClaim) -> &'static str {
    match c {
        DrawClaim::ThreefoldRepetition => "threefold",
        DrawClaim::FiftyMoves => "fifty",
    }
}
