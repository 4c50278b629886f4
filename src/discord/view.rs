//! How a game looks in Discord: an embed (players, move number, last move, status, material)
//! and the board as `board.png`, with the alt text as the attachment's description.

use cajitas_rules::{DrawClaim, Outcome, WinReason};
use poise::serenity_prelude as serenity;

use super::reply::{Reply, cap_chars};
use super::who::mention;
use crate::game::{GameService, GameView, Status};
use crate::render::{self, BoardView, Highlights, RenderOptions, Renderer};

/// The attachment's file name.
pub const BOARD_FILE: &str = "board.png";

/// A game view with its picture, made on the blocking pool.
pub struct Shown {
    /// The game.
    pub view: GameView,
    /// The PNG.
    pub png: Vec<u8>,
    /// The alt text (at most 1,024 characters).
    pub alt: String,
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
    let alt = cap_chars(
        &render::alt_text(&view.position),
        render::view::ALT_TEXT_MAX,
    );
    Ok(Shown { view, png, alt })
}

/// The status line: who is to move, check, the result, or a claim hint.
pub fn status(view: &GameView) -> String {
    match view.status() {
        Status::Aborted => "Game aborted: no result.".into(),
        Status::Over {
            outcome: Outcome::Decisive { winner, reason },
            result,
        } => {
            let w = mention(view.player(winner));
            let l = mention(view.player(!winner));
            match reason {
                WinReason::Checkmate => {
                    format!("Checkmate! {w} ({}) wins, {result}.", winner.name())
                }
                WinReason::Resignation => {
                    format!("{l} resigned: {w} ({}) wins, {result}.", winner.name())
                }
                WinReason::Timeout => {
                    format!("{w} ({}) wins on time, {result}.", winner.name())
                }
            }
        }
        Status::Over {
            outcome: outcome @ Outcome::Draw { .. },
            result,
        } => {
            let text = outcome.to_string();
            let mut c = text.chars();
            let first: String = c
                .next()
                .map(|f| f.to_uppercase().collect())
                .unwrap_or_default();
            format!("{first}{}, {result}.", c.as_str())
        }
        Status::Playing {
            to_move,
            check,
            draw_offer_by,
            claimable,
            ..
        } => {
            let mut s = format!(
                "{} ({}) to move.",
                mention(view.player(to_move)),
                to_move.name()
            );
            if check {
                s.push_str(" **Check!**");
            }
            if let Some(by) = draw_offer_by {
                s.push_str(&format!(" {} offers a draw.", mention(view.player(by))));
            }
            if !claimable.is_empty() {
                let what: Vec<&str> = claimable
                    .iter()
                    .map(|c| match c {
                        DrawClaim::ThreefoldRepetition => "threefold repetition",
                        DrawClaim::FiftyMoves => "the 50-move rule",
                    })
                    .collect();
                s.push_str(&format!(
                    " A draw can be claimed ({}): `/draw claim`.",
                    what.join(", ")
                ));
            }
            s
        }
    }
}

/// The material balance in words.
pub fn material(view: &GameView) -> String {
    match view.material {
        0 => "Even".into(),
        m if m > 0 => format!("White +{m}"),
        m => format!("Black +{}", -m),
    }
}

/// The embed for a game.
pub fn embed(view: &GameView, with_image: bool) -> serenity::CreateEmbed {
    let colour = match (view.finished, view.check) {
        (true, _) => 0x5865F2,
        (false, true) => 0xED4245,
        (false, false) => 0x57F287,
    };
    let mut e = serenity::CreateEmbed::new()
        .title(cap_chars(
            &format!("{} vs {}", view.white.name, view.black.name),
            256,
        ))
        .description(status(view))
        .colour(colour)
        .field("White", mention(&view.white), true)
        .field("Black", mention(&view.black), true)
        .field("Move", view.fullmove.to_string(), true)
        .field(
            "Last move",
            view.last_san.clone().unwrap_or_else(|| "—".into()),
            true,
        )
        .field("Material", material(view), true)
        .footer(serenity::CreateEmbedFooter::new(format!(
            "Game #{} · ply {}",
            view.game_id, view.ply
        )));
    if with_image {
        e = e.image(format!("attachment://{BOARD_FILE}"));
    }
    e
}

/// A public reply showing the game: `content` above the embed, the board attached.
pub fn game_reply(content: impl Into<String>, shown: &Shown) -> Reply {
    Reply {
        content: content.into(),
        embeds: vec![embed(&shown.view, true)],
        attachments: vec![
            serenity::CreateAttachment::bytes(shown.png.clone(), BOARD_FILE)
                .description(shown.alt.clone()),
        ],
        // A game's messages may ping its two players, nobody else.
        mentions: vec![shown.view.white.id, shown.view.black.id],
        ..Reply::default()
    }
}
