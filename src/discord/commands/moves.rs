//! `/move` and its autocomplete.

use cajitas_rules::{Notation, Position, Suffix};
use poise::serenity_prelude as serenity;

use crate::discord::commands::puzzle;
use crate::discord::interaction::call::{Asked, Call};
use crate::discord::present::view::game_reply;
use crate::discord::present::who::{author_ref, channel_ref};
use crate::discord::{Context, Defer, Error};
use crate::game::Lang;
use crate::i18n::{lang_of_locale as lang_of, san_in};
use crate::tr;

/// Discord's limit on autocomplete choices.
pub const MAX_CHOICES: usize = 25;

/// Play a move (SAN, coordinates, Spanish letters or figurines), optionally claiming a draw
#[poise::command(slash_command, rename = "move")]
pub async fn move_(
    ctx: Context<'_>,
    #[rename = "move"]
    #[description = "The move, e.g. e4, Nf3, Cf3, e2e4, O-O"]
    #[autocomplete = "complete_move"]
    #[max_length = 32]
    text: String,
    #[description = "Claim a draw (threefold repetition or 50 moves) with this move"]
    claim_draw: Option<bool>,
) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let langs = call.langs().await;
    // `R` is read in the player's language; the public answer is in the public one.
    let lang = langs.reply;
    let public = langs.public;
    let claim = claim_draw.unwrap_or(false);
    let moved = call
        .blocking(Defer::Message, move |g, actor, ch| {
            // With no game of theirs here, a move answers the caller's open puzzle.
            if !claim && puzzle::answers_puzzle(g, actor, ch) {
                let shown = puzzle::answer(g, actor, ch, &text, lang)?;
                return Ok(Moved::Puzzle(Box::new((shown, actor.clone()))));
            }
            let mut result = g.play().play_move(actor, ch, &text, lang, claim)?;
            g.post_after(std::mem::take(&mut result.notices));
            crate::discord::gateway::telemetry::move_played();
            let shown = g.show(result.view.clone())?;
            Ok(Moved::Game(Box::new((result, shown))))
        })
        .await?;
    let who = call.who();
    let (result, shown) = match moved {
        Moved::Game(game) => *game,
        Moved::Puzzle(puzzle) => {
            let (shown, solver) = *puzzle;
            let daily = shown.view.daily.clone();
            let ended = shown.view.status != crate::game::PuzzleStatus::Playing;
            // A daily puzzle's attempt is private, in the solver's own language; its end
            // moves the post's live count.
            let lang = if daily.is_some() { lang } else { public };
            let lines = puzzle::answer_lines(lang, &solver, &shown.view, Some(who));
            let mut reply = puzzle::puzzle_reply(lines, shown, lang, solver.id);
            if let Some(d) = &daily {
                reply.ephemeral = true;
                if ended {
                    puzzle::update_daily_count(call.data(), call.http(), d).await;
                }
            }
            return call.send(reply).await;
        }
    };
    let san = san_in(public, &result.san);
    let content = match result.claimed {
        Some(_) => tr!(public, "move-claims", who = who, san = san),
        None => tr!(public, "move-played", who = who, san = san),
    };
    let view = shown.view.clone();
    let reply = game_reply(content, shown, public);
    call.send_game(&view, reply).await
}

/// What `/move` did: a game's move, or an answer to the caller's puzzle.
enum Moved {
    Game(
        Box<(
            crate::game::MoveResult,
            crate::discord::present::view::Shown,
        )>,
    ),
    Puzzle(Box<(puzzle::PuzzleShown, crate::game::UserRef)>),
}

async fn complete_move(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let actor = author_ref(ctx);
    let ch = channel_ref(ctx.guild_id(), ctx.channel_id());
    let lang = lang_of(ctx.locale());
    let game = ctx.data().game.clone();
    let partial = partial.chars().take(32).collect::<String>();
    let choices = tokio::task::spawn_blocking(move || {
        // Only the player to move gets choices; without a game of theirs here, the solver
        // of the puzzle open here.
        // (The rule of `Puzzles::answerable`, with the view read once for both.)
        match game.queries().board_for(&actor, ch).ok() {
            Some(v) if v.in_progress_for(actor.id) => {
                (v.player_to_move().id == actor.id).then(|| choices(&v.position, &partial, lang))
            }
            _ => {
                let p = game.puzzles().open(&actor, ch).ok().flatten()?;
                Some(choices(&p.position, &partial, lang))
            }
        }
    })
    .await
    .ok()
    .flatten()
    .unwrap_or_default();
    serenity::CreateAutocompleteResponse::new().set_choices(
        choices
            .into_iter()
            .map(|(label, value)| serenity::AutocompleteChoice::new(label, value))
            .collect(),
    )
}

/// What is compared when filtering: lower case, without capture, check and promotion marks;
/// castling written with zeros or letters alike.
fn key(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, 'x' | 'X' | ':' | '+' | '#' | '=' | '-' | '!' | '?' | ' '))
        .map(|c| match c.to_ascii_lowercase() {
            '0' => 'o',
            other => other,
        })
        .collect()
}

/// The labels of [`choices`]: SAN with the letters of `lang`.
#[cfg(test)]
pub fn suggestions(pos: &Position, typed: &str, lang: Lang) -> Vec<String> {
    choices(pos, typed, lang)
        .into_iter()
        .map(|(label, _)| label)
        .collect()
}

/// The legal moves matching what was typed (as SAN, coordinates or Spanish SAN), mates and
/// checks first, then captures, at most [`MAX_CHOICES`], as (label, value): the label in SAN
/// with the letters of `lang`, the value in coordinates (UCI), which every reader reads as
/// the same move whatever the language (`R` is a rook in English and a king in Spanish).
pub fn choices(pos: &Position, typed: &str, lang: Lang) -> Vec<(String, String)> {
    let typed = typed.trim();
    let want = key(typed);
    // An upper-case letter first is a piece letter (`B` bishop, not the b-pawn; `C`
    // caballo, not the c-pawn): then the candidate must start with it too.
    let piece = typed
        .chars()
        .next()
        .filter(|c| c.is_ascii_uppercase() && *c != 'O');
    let matches = |candidate: &str| {
        piece.is_none_or(|p| candidate.starts_with(p)) && key(candidate).starts_with(&want)
    };
    let mut found: Vec<(u8, String, String)> = pos
        .legal_moves()
        .iter()
        .filter_map(|&m| {
            let written = cajitas_rules::san(pos, m);
            let san = written.to_string();
            let es = written.display(Notation::Spanish).to_string();
            if !(matches(&san) || matches(&pos.uci(m).to_string()) || matches(&es)) {
                return None;
            }
            let rank = match written.suffix {
                Some(Suffix::Checkmate) => 0,
                Some(Suffix::Check) => 1,
                None if m.is_capture() => 2,
                None => 3,
            };
            let shown = match lang {
                Lang::Es => es,
                _ => san,
            };
            Some((rank, shown, pos.uci(m).to_string()))
        })
        .collect();
    found.sort();
    found.truncate(MAX_CHOICES);
    found.into_iter().map(|(_, s, u)| (s, u)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SAN with the Spanish piece letters, as the autocomplete writes them.
    fn spanish(san: &str) -> String {
        san.parse::<cajitas_rules::SanPlus>()
            .unwrap()
            .display(Notation::Spanish)
            .to_string()
    }

    #[test]
    fn spanish_letters() {
        assert_eq!(spanish("Nf3"), "Cf3");
        assert_eq!(spanish("Bxc4+"), "Axc4+");
        assert_eq!(spanish("Qh5#"), "Dh5#");
        assert_eq!(spanish("Rxe1"), "Txe1");
        assert_eq!(spanish("Kg1"), "Rg1");
        assert_eq!(spanish("e8=Q"), "e8=D");
        assert_eq!(spanish("O-O-O"), "O-O-O");
    }

    #[test]
    fn suggestions_filter_by_san_uci_and_spanish() {
        let pos = Position::new();
        let all = suggestions(&pos, "", Lang::En);
        assert_eq!(all.len(), 20);
        assert_eq!(
            suggestions(&pos, "N", Lang::En),
            ["Na3", "Nc3", "Nf3", "Nh3"]
        );
        assert_eq!(suggestions(&pos, "g1", Lang::En), ["Nf3", "Nh3"]);
        assert_eq!(
            suggestions(&pos, "C", Lang::Es),
            ["Ca3", "Cc3", "Cf3", "Ch3"]
        );
        assert_eq!(suggestions(&pos, "e2e", Lang::En), ["e3", "e4"]);
        assert!(suggestions(&pos, "Qh5", Lang::En).is_empty());
        // Lower case is read loosely: b-pawn moves, and moves from b1 in coordinates.
        assert_eq!(suggestions(&pos, "b", Lang::En), ["Na3", "Nc3", "b3", "b4"]);
        assert_eq!(suggestions(&pos, "B", Lang::En), Vec::<String>::new());
        assert_eq!(suggestions(&pos, "nf", Lang::En), ["Nf3"]);
    }

    #[test]
    fn checks_and_captures_come_first_and_at_most_25() {
        // White to move: Qxf7# mates, and many queen moves exist.
        let pos =
            Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
                .unwrap();
        let s = suggestions(&pos, "", Lang::En);
        assert_eq!(s.len(), MAX_CHOICES);
        assert_eq!(s[0], "Qxf7#");
        let q = suggestions(&pos, "Q", Lang::En);
        assert_eq!(q[0], "Qxf7#");
        assert!(q.iter().skip(1).take(2).all(|m| m.contains('x')), "{q:?}");
    }
}
