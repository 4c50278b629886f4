//! How a game looks in Discord: an embed (players, move number, last move, status, material)
//! and the board as `board.png`, with the alt text as the attachment's description.

use cajitas_rules::{Color, DrawClaim, Lang, Outcome, WinReason};
use poise::serenity_prelude as serenity;

use super::reply::{Reply, cap_chars};
use super::who::{mention, player_in};
use crate::game::{GameService, GameView, Status};
use crate::i18n::{colour_key, san_in};
use crate::render::{self, BoardView, Highlights, RenderOptions, Renderer};
use crate::tr;

/// The attachment's file name.
pub const BOARD_FILE: &str = "board.png";

/// A game view with its picture, made on the blocking pool.
pub struct Shown {
    /// The game.
    pub view: GameView,
    /// The PNG.
    pub png: Vec<u8>,
}

/// What a handler's blocking closure works with: the game service (through `Deref`) and
/// the renderer.
pub struct Ops {
    /// The game service.
    pub game: GameService,
    /// The board renderer.
    pub renderer: &'static Renderer,
}

impl std::ops::Deref for Ops {
    type Target = GameService;
    fn deref(&self) -> &GameService {
        &self.game
    }
}

impl Ops {
    /// Renders the view (blocking: only inside [`super::Data::blocking`]).
    pub fn show(&self, view: GameView) -> anyhow::Result<Shown> {
        show_with(self.renderer, view)
    }
}

/// Renders the view with `renderer`.
pub fn show_with(renderer: &Renderer, view: GameView) -> anyhow::Result<Shown> {
    let options = RenderOptions {
        orientation: view.orientation().into(),
        ..RenderOptions::default()
    };
    let png = renderer.render(
        &BoardView::from(&view.position),
        &Highlights::after(&view.position, view.last_move),
        &options,
    )?;
    Ok(Shown { view, png })
}

/// The board's alt text in `lang` (at most 1,024 characters).
pub fn alt(view: &GameView, lang: Lang) -> String {
    cap_chars(
        &render::alt_text_in(&view.position, lang),
        render::view::ALT_TEXT_MAX,
    )
}

/// The status line in `lang`: who is to move, check, the result, or a claim hint.
pub fn status(view: &GameView, lang: Lang) -> String {
    match view.status() {
        Status::Aborted => tr!(lang, "status-aborted"),
        Status::Over {
            outcome: Outcome::Decisive { winner, reason },
            result,
        } => {
            let id = match reason {
                WinReason::Checkmate => "status-checkmate",
                WinReason::Resignation => "status-resigned",
                WinReason::Timeout => "status-timeout",
            };
            tr!(
                lang,
                id,
                winner = mention(view.player(winner)),
                loser = mention(view.player(!winner)),
                colour = colour_key(winner),
                result = result.to_owned()
            )
        }
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
            to_move,
            check,
            draw_offer_by,
            claimable,
            ..
        } => {
            let mut s = vec![tr!(
                lang,
                "status-to-move",
                player = mention(view.player(to_move)),
                colour = colour_key(to_move)
            )];
            if check {
                s.push(tr!(lang, "status-check"));
            }
            if let Some(by) = draw_offer_by {
                s.push(tr!(
                    lang,
                    "status-draw-offer",
                    player = mention(view.player(by))
                ));
            }
            if !claimable.is_empty() {
                let what: Vec<String> = claimable
                    .iter()
                    .map(|c| {
                        let claim = match c {
                            DrawClaim::ThreefoldRepetition => "threefold",
                            DrawClaim::FiftyMoves => "fifty",
                        };
                        tr!(lang, "claim-reason", claim = claim)
                    })
                    .collect();
                s.push(tr!(
                    lang,
                    "status-claimable",
                    what = what.join(&tr!(lang, "list-sep"))
                ));
            }
            s.join(" ")
        }
    }
}

/// The material balance in `lang`.
pub fn material(view: &GameView, lang: Lang) -> String {
    match view.material {
        0 => tr!(lang, "material-even"),
        m => tr!(
            lang,
            "material-ahead",
            colour = colour_key(if m > 0 { Color::White } else { Color::Black }),
            points = crate::i18n::num(m.abs())
        ),
    }
}

/// The embed for a game, in `lang`; moves are written with `lang`'s piece letters.
pub fn embed(view: &GameView, lang: Lang, with_image: bool) -> serenity::CreateEmbed {
    let colour = match (view.finished, view.check) {
        (true, _) => 0x5865F2,
        (false, true) => 0xED4245,
        (false, false) => 0x57F287,
    };
    let mut e = serenity::CreateEmbed::new()
        .title(cap_chars(
            &tr!(
                lang,
                "embed-title",
                white = view.white.name.clone(),
                black = view.black.name.clone()
            ),
            256,
        ))
        .description(status(view, lang))
        .colour(colour)
        .field(tr!(lang, "embed-white"), player_in(&view.white, lang), true)
        .field(tr!(lang, "embed-black"), player_in(&view.black, lang), true)
        .field(tr!(lang, "embed-move"), view.fullmove.to_string(), true)
        .field(
            tr!(lang, "embed-last-move"),
            view.last_san
                .as_deref()
                .map_or_else(|| "—".into(), |s| san_in(lang, s)),
            true,
        )
        .field(tr!(lang, "embed-material"), material(view, lang), true)
        .footer(serenity::CreateEmbedFooter::new(tr!(
            lang,
            "embed-footer",
            id = view.game_id.to_string(),
            ply = view.ply.to_string()
        )));
    if with_image {
        e = e.image(format!("attachment://{BOARD_FILE}"));
    }
    e
}

/// The link button to the game on lichess's analysis board, labelled in `lang`.
pub fn analysis_row(url: String, lang: Lang) -> serenity::CreateActionRow {
    serenity::CreateActionRow::Buttons(vec![
        serenity::CreateButton::new_link(url).label(tr!(lang, "button-analysis")),
    ])
}

/// A public reply showing the game in `lang`: `content` above the embed, the board attached
/// with its alt text; a finished game's carries the link to lichess's analysis board.
pub fn game_reply(content: impl Into<String>, shown: &Shown, lang: Lang) -> Reply {
    let components = if shown.view.finished && !shown.view.aborted {
        vec![analysis_row(shown.view.analysis_url(), lang)]
    } else {
        Vec::new()
    };
    Reply {
        components,
        content: content.into(),
        embeds: vec![embed(&shown.view, lang, true)],
        attachments: vec![
            serenity::CreateAttachment::bytes(shown.png.clone(), BOARD_FILE)
                .description(alt(&shown.view, lang)),
        ],
        // A game's messages may ping its two players, nobody else.
        mentions: vec![shown.view.white.id, shown.view.black.id],
        ..Reply::default()
    }
}
