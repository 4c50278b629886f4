//! How a game looks in Discord: an embed (players, move number, last move, status, material)
//! and the board as `board.png`, with the alt text as the attachment's description.

use cajitas_rules::{Color, Lang, Move, Position};
use poise::serenity_prelude as serenity;

use crate::discord::interaction::custom_id::ButtonId;
use crate::discord::interaction::reply::{Reply, cap_chars};
use crate::discord::present::who::player_in;
use crate::game::{ChallengeView, Done, GameService, GameView, Notice};
use crate::i18n::{Presentation, clock, ratings, san_in, status};
use crate::render::{self, BoardView, Highlights, RenderOptions, Renderer};
use crate::tr;

/// The attachment's file name.
pub const BOARD_FILE: &str = "board.png";

/// The animated GIF's file name.
pub const GIF_FILE: &str = "game.gif";

/// A game view with its picture, made on the blocking pool. [`game_reply`] takes it whole,
/// so a reply holds its PNG once, not a copy beside the original (and it is not `Clone`:
/// a reply waiting its turn in the REST budget would hold two).
pub struct Shown {
    /// The game.
    pub view: GameView,
    /// The PNG.
    pub png: Vec<u8>,
    /// The whole game as an animated GIF, for a game that ended with a result.
    pub gif: Option<Vec<u8>>,
}

/// What a handler's blocking closure works with: the game service (through `Deref`) and
/// the renderer.
pub struct Ops {
    /// The game service.
    pub game: GameService,
    /// The board renderer.
    pub renderer: &'static Renderer,
    /// The largest file the interaction's answer may carry (its `attachment_size_limit`).
    pub attachment_limit: u64,
    /// The notices the operations committed, posted after the interaction's answer (see
    /// [`super::Data::blocking`]).
    pub notices: std::sync::Mutex<Vec<Notice>>,
}

impl std::ops::Deref for Ops {
    type Target = GameService;
    fn deref(&self) -> &GameService {
        &self.game
    }
}

impl Ops {
    /// Keeps the notices an operation returned, to post after the interaction's answer.
    pub fn post_after(&self, notices: Vec<Notice>) {
        self.notices
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .extend(notices);
    }

    /// The game after an operation, its notices kept for after the answer.
    pub fn after(&self, done: Done) -> GameView {
        self.post_after(done.notices);
        done.view
    }

    /// Renders the view (blocking: only inside [`crate::discord::Data::blocking`]).
    pub fn show(&self, view: GameView) -> anyhow::Result<Shown> {
        show_within(self.renderer, view, self.attachment_limit)
    }

    /// The game as an animated GIF under the interaction's file limit (blocking).
    pub fn gif(&self, view: &GameView) -> anyhow::Result<Vec<u8>> {
        game_gif(self.renderer, view, self.attachment_limit)
    }
}

/// `view`'s game as an animated GIF, drawn from White's side with the names and, on the
/// last frame, the result in the game's language; made smaller until it fits in `limit`
/// bytes (see [`render::gif::fit_gif`]).
pub fn game_gif(renderer: &Renderer, view: &GameView, limit: u64) -> anyhow::Result<Vec<u8>> {
    let caption = render::gif::GifCaption {
        white: view.white.name.clone(),
        black: view.black.name.clone(),
        outcome: view.outcome,
        lang: view.lang,
        opening: view.opening.map(|o| o.opening.name.to_owned()),
    };
    let (bytes, _) = render::gif::fit_gif(
        renderer,
        &view.start,
        &view.moves,
        &caption,
        &render::gif::GifOptions::default(),
        limit,
    )?;
    if bytes.len() as u64 > limit {
        anyhow::bail!("the GIF is {} bytes even at its smallest", bytes.len());
    }
    Ok(bytes)
}

/// Renders the view with `renderer` (a finished game's GIF within Discord's default 10 MiB).
pub fn show_with(renderer: &Renderer, view: GameView) -> anyhow::Result<Shown> {
    show_within(renderer, view, render::gif::DEFAULT_BYTE_LIMIT)
}

/// Renders the view with `renderer`; a game that ended with a result also gets its GIF,
/// within `gif_limit` bytes (left out, and logged, when it cannot be made to fit).
pub fn show_within(renderer: &Renderer, view: GameView, gif_limit: u64) -> anyhow::Result<Shown> {
    let png = board_png(renderer, &view.position, view.last_move, view.orientation())?;
    let gif = if view.finished && !view.aborted {
        game_gif(renderer, &view, gif_limit)
            .map_err(
                |e| tracing::warn!(game = view.game_id, error = %e, "no GIF for the final message"),
            )
            .ok()
    } else {
        None
    };
    Ok(Shown { view, png, gif })
}

/// `position`'s board as the bot attaches it: from `bottom`'s side, `last` tinted.
pub fn board_png(
    renderer: &Renderer,
    position: &Position,
    last: Option<Move>,
    bottom: Color,
) -> anyhow::Result<Vec<u8>> {
    let options = RenderOptions {
        orientation: bottom.into(),
        ..RenderOptions::default()
    };
    Ok(renderer.render(
        &BoardView::from(position),
        &Highlights::after(position, last),
        &options,
    )?)
}

/// The board's alt text in `lang` (at most 1,024 characters).
pub fn alt(position: &Position, lang: Lang) -> String {
    cap_chars(
        &render::alt_text_in(position, lang),
        render::view::ALT_TEXT_MAX,
    )
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
        .description(status::status_line(lang, Presentation::Discord, view))
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
        .field(
            tr!(lang, "embed-material"),
            status::material(lang, Presentation::Discord, view),
            true,
        );
    if let Some(variant) = crate::i18n::challenges::variant(lang, view.variant) {
        e = e.field(tr!(lang, "embed-variant"), variant, false);
    }
    if let Some(opening) = status::opening(lang, view) {
        e = e.field(tr!(lang, "embed-opening"), opening, false);
    }
    let clock = clock::clock_lines(lang, Presentation::Discord, view);
    if !clock.is_empty() {
        e = e.field(tr!(lang, "embed-clock"), clock.join("\n"), false);
    }
    if !view.rating_changes.is_empty() {
        e = e.field(
            tr!(lang, "rating-changes-title"),
            ratings::change_lines(lang, Presentation::Discord, &view.rating_changes).join("\n"),
            false,
        );
    }
    e = e.footer(serenity::CreateEmbedFooter::new(tr!(
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

/// The challenge message in `lang`: who, which colour, until when, and its buttons.
pub fn challenge_reply(c: &ChallengeView, lang: Lang) -> Reply {
    let mut buttons = vec![
        ButtonId::ChallengeAccept { challenge: c.id }
            .button(&tr!(lang, "button-accept"), serenity::ButtonStyle::Success),
    ];
    // An open challenge is not declined (only its author withdraws it): no Decline button.
    if c.opponent.is_some() {
        buttons.push(
            ButtonId::ChallengeDecline { challenge: c.id }
                .button(&tr!(lang, "button-decline"), serenity::ButtonStyle::Danger),
        );
    }
    Reply {
        content: crate::i18n::challenges::challenge_text(lang, Presentation::Discord, c),
        components: vec![serenity::CreateActionRow::Buttons(buttons)],
        // Only the challenged player is pinged (an open challenge pings nobody).
        mentions: c.opponent.iter().map(|o| o.id).collect(),
        ..Reply::default()
    }
}

/// The link button to the game on lichess's analysis board, labelled in `lang`.
pub fn analysis_row(url: String, lang: Lang) -> serenity::CreateActionRow {
    serenity::CreateActionRow::Buttons(vec![
        serenity::CreateButton::new_link(url).label(tr!(lang, "button-analysis")),
    ])
}

/// A public reply showing the game in `lang`: `content` above the embed, the board attached
/// with its alt text; a finished game's (the final message) carries the link to lichess's
/// analysis board, the Rematch button and the game as `game.gif`.
pub fn game_reply(content: impl Into<String>, shown: Shown, lang: Lang) -> Reply {
    let components = if shown.view.finished && !shown.view.aborted {
        let rematch = ButtonId::Rematch {
            game: shown.view.game_id,
        }
        .button(&tr!(lang, "button-rematch"), serenity::ButtonStyle::Primary);
        vec![serenity::CreateActionRow::Buttons(vec![
            serenity::CreateButton::new_link(shown.view.analysis_url())
                .label(tr!(lang, "button-analysis")),
            rematch,
        ])]
    } else {
        Vec::new()
    };
    let mut attachments = vec![
        serenity::CreateAttachment::bytes(shown.png, BOARD_FILE)
            .description(alt(&shown.view.position, lang)),
    ];
    if let Some(gif) = shown.gif {
        attachments.push(serenity::CreateAttachment::bytes(gif, GIF_FILE));
    }
    Reply {
        components,
        content: content.into(),
        embeds: vec![embed(&shown.view, lang, true)],
        attachments,
        // A game's messages may ping its two players, nobody else.
        mentions: vec![shown.view.white.id, shown.view.black.id],
        ..Reply::default()
    }
}
