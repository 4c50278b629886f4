//! `/challenge`, `/accept`, `/decline`, `/cancel`, and the Accept/Decline buttons of a
//! challenge message.

use poise::serenity_prelude as serenity;

use super::buttons::ButtonId;
use super::errors::{Refusal, responder};
use super::reply::{Reply, Responder};
use super::view::{Shown, game_reply};
use super::who::{channel_ref, mention, user_ref};
use super::{Context, Data, Defer, Error};
use crate::game::{ChallengeView, ColourChoice, GameError, Lang};
use crate::tr;

/// The challenger's colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum Colour {
    /// Play white.
    #[name = "white"]
    White,
    /// Play black.
    #[name = "black"]
    Black,
    /// A coin toss when the challenge is accepted.
    #[name = "random"]
    Random,
}

impl From<Colour> for ColourChoice {
    fn from(c: Colour) -> Self {
        match c {
            Colour::White => ColourChoice::White,
            Colour::Black => ColourChoice::Black,
            Colour::Random => ColourChoice::Random,
        }
    }
}

fn application<'a>(ctx: Context<'a>) -> Result<poise::ApplicationContext<'a, Data, Error>, Error> {
    match ctx {
        poise::Context::Application(a) => Ok(a),
        poise::Context::Prefix(_) => Err(Refusal::SlashOnly.into()),
    }
}

/// The challenge message in `lang`: who, which colour, until when, and its buttons.
fn challenge_reply(c: &ChallengeView, lang: Lang) -> Reply {
    let colour = match c.colour {
        ColourChoice::White => "white",
        ColourChoice::Black => "black",
        ColourChoice::Random => "random",
    };
    let expires = format!("<t:{}:R>", c.expires_at.div_euclid(1000));
    let content = match &c.opponent {
        Some(o) => tr!(
            lang,
            "challenge-to",
            opponent = mention(o),
            challenger = mention(&c.challenger),
            colour = colour,
            expires = expires
        ),
        None => tr!(
            lang,
            "challenge-open",
            challenger = mention(&c.challenger),
            colour = colour,
            expires = expires
        ),
    };
    let content = format!(
        "{content} {}",
        tr!(
            lang,
            "challenge-rated",
            rated = if c.rated { "yes" } else { "no" }
        )
    );
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
        content,
        components: vec![serenity::CreateActionRow::Buttons(buttons)],
        // Only the challenged player is pinged (an open challenge pings nobody).
        mentions: c.opponent.iter().map(|o| o.id).collect(),
        ..Reply::default()
    }
}

fn started_text(shown: &Shown, lang: Lang) -> String {
    let v = &shown.view;
    tr!(
        lang,
        "game-begins",
        white = mention(&v.white),
        black = mention(&v.black)
    )
}

fn guild(g: Option<serenity::GuildId>) -> Option<u64> {
    g.map(|g| g.get())
}

/// Challenge someone (or anyone) to a game of chess in this channel
#[poise::command(slash_command)]
pub async fn challenge(
    ctx: Context<'_>,
    #[description = "Whom you challenge (leave empty for an open challenge anyone may accept)"]
    opponent: Option<serenity::User>,
    #[description = "Your colour (random by default)"] colour: Option<Colour>,
    #[description = "Whether the game counts for the ratings (rated by default)"] rated: Option<
        bool,
    >,
) -> Result<(), Error> {
    let actx = application(ctx)?;
    let r = responder(&actx);
    let actor = user_ref(ctx.author());
    let ch = channel_ref(ctx.guild_id(), ctx.channel_id());
    let opponent = opponent.as_ref().map(user_ref);
    let colour: ColourChoice = colour.map(Into::into).unwrap_or_default();
    let rated = rated.unwrap_or(true);
    let langs = ctx.data().langs(guild(ctx.guild_id()), ctx.locale()).await;
    let view = ctx
        .data()
        .blocking(&r, Defer::Message, move |g| {
            Ok(g.challenge_rated(&actor, ch, opponent.as_ref(), colour, rated)?)
        })
        .await?;
    r.send(challenge_reply(&view, langs.public)).await?;
    Ok(())
}

/// Accept the challenge waiting in this channel
#[poise::command(slash_command)]
pub async fn accept(ctx: Context<'_>) -> Result<(), Error> {
    let actx = application(ctx)?;
    let r = responder(&actx);
    let actor = user_ref(ctx.author());
    let ch = channel_ref(ctx.guild_id(), ctx.channel_id());
    // The game's own language is the accepting player's (or the server's setting).
    let lang = ctx
        .data()
        .langs(guild(ctx.guild_id()), ctx.locale())
        .await
        .public;
    let shown = ctx
        .data()
        .blocking(&r, Defer::Message, move |g| {
            Ok(g.show(g.accept_challenge_in(&actor, ch, None, lang)?)?)
        })
        .await?;
    r.send(game_reply(started_text(&shown, lang), &shown, lang))
        .await?;
    Ok(())
}

/// Decline the challenge waiting in this channel
#[poise::command(slash_command)]
pub async fn decline(ctx: Context<'_>) -> Result<(), Error> {
    let actx = application(ctx)?;
    let r = responder(&actx);
    let actor = user_ref(ctx.author());
    let ch = channel_ref(ctx.guild_id(), ctx.channel_id());
    let lang = ctx
        .data()
        .langs(guild(ctx.guild_id()), ctx.locale())
        .await
        .public;
    let c = ctx
        .data()
        .blocking(&r, Defer::Message, move |g| Ok(g.decline(&actor, ch)?))
        .await?;
    r.send(Reply::text(tr!(
        lang,
        "challenge-declined",
        who = mention(&user_ref(ctx.author())),
        challenger = mention(&c.challenger)
    )))
    .await?;
    Ok(())
}

/// Withdraw your challenge in this channel
#[poise::command(slash_command)]
pub async fn cancel(ctx: Context<'_>) -> Result<(), Error> {
    let actx = application(ctx)?;
    let r = responder(&actx);
    let actor = user_ref(ctx.author());
    let ch = channel_ref(ctx.guild_id(), ctx.channel_id());
    let lang = ctx
        .data()
        .langs(guild(ctx.guild_id()), ctx.locale())
        .await
        .public;
    let c = ctx
        .data()
        .blocking(&r, Defer::Message, move |g| Ok(g.cancel(&actor, ch)?))
        .await?;
    r.send(Reply::text(tr!(
        lang,
        "challenge-withdrawn",
        challenger = mention(&c.challenger)
    )))
    .await?;
    Ok(())
}

fn stale(e: GameError) -> Error {
    match e {
        GameError::PositionChanged => Error::Refused(Refusal::ButtonExpired),
        other => other.into(),
    }
}

/// The Accept button: the game starts, and the challenge message becomes the game's first
/// board.
pub async fn accept_button(
    data: &Data,
    r: &Responder<'_>,
    click: &serenity::ComponentInteraction,
    challenge: i64,
) -> Result<(), Error> {
    let actor = user_ref(&click.user);
    let ch = channel_ref(click.guild_id, click.channel_id);
    let lang = data
        .langs(guild(click.guild_id), Some(&click.locale))
        .await
        .public;
    let shown = data
        .blocking(r, Defer::Update, move |g| {
            let view = g
                .accept_challenge_in(&actor, ch, Some(challenge), lang)
                .map_err(stale)?;
            Ok(g.show(view)?)
        })
        .await?;
    r.update(game_reply(started_text(&shown, lang), &shown, lang))
        .await?;
    Ok(())
}

/// The Decline button: the challenge message says so and loses its buttons.
pub async fn decline_button(
    data: &Data,
    r: &Responder<'_>,
    click: &serenity::ComponentInteraction,
    challenge: i64,
) -> Result<(), Error> {
    let actor = user_ref(&click.user);
    let ch = channel_ref(click.guild_id, click.channel_id);
    let lang = data
        .langs(guild(click.guild_id), Some(&click.locale))
        .await
        .public;
    let c = data
        .blocking(r, Defer::Update, move |g| {
            g.decline_challenge(&actor, ch, Some(challenge))
                .map_err(stale)
        })
        .await?;
    r.update(Reply::text(tr!(
        lang,
        "challenge-declined",
        who = mention(&user_ref(&click.user)),
        challenger = mention(&c.challenger)
    )))
    .await?;
    Ok(())
}
