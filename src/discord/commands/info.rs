//! `/board`, `/pgn` and `/history`: looking, not playing.

use poise::serenity_prelude as serenity;

use crate::discord::interaction::call::{Asked, Call};
use crate::discord::interaction::reply::{Reply, cap_chars};
use crate::discord::present::threads;
use crate::discord::present::view::{GIF_FILE, analysis_row, game_reply};
use crate::discord::present::who::mention;
use crate::discord::{Context, Defer, Error};
use crate::i18n::{Presentation, status};
use crate::tr;

/// How many games `/history` lists.
const HISTORY_LEN: usize = 10;

/// Show the board of this channel's game (or of its last game)
#[poise::command(slash_command)]
pub async fn board(ctx: Context<'_>) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let lang = call.public_lang().await;
    let shown = call
        .blocking(Defer::Message, move |g, actor, ch| {
            Ok(g.show(g.queries().board_for(actor, ch)?)?)
        })
        .await?;
    let view = shown.view.clone();
    let reply = game_reply(String::new(), shown, lang);
    // A game in progress is shown in its thread; a finished one where it was asked.
    let here = if view.finished {
        view.place().channel
    } else {
        call.place.channel
    };
    threads::send_game(call.http(), &call.r, here, &view, reply).await
}

/// The PGN file's name.
pub const PGN_FILE: &str = "game.pgn";

/// Get this channel's game (or its last game) as a PGN file
#[poise::command(slash_command)]
pub async fn pgn(ctx: Context<'_>) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let lang = call.public_lang().await;
    let (pgn, url) = call
        .blocking(Defer::Message, move |g, actor, ch| {
            Ok(g.queries().pgn_and_analysis_for(actor, ch)?)
        })
        .await?;
    call.send(Reply {
        content: tr!(lang, "pgn-hint"),
        attachments: vec![serenity::CreateAttachment::bytes(
            pgn.into_bytes(),
            PGN_FILE,
        )],
        components: vec![analysis_row(url, lang)],
        ..Reply::default()
    })
    .await
}

/// This channel's or thread's game (or its last game) as an animated GIF
#[poise::command(slash_command)]
pub async fn gif(ctx: Context<'_>) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let lang = call.public_lang().await;
    let (view, gif) = call
        .blocking(Defer::Message, move |g, actor, ch| {
            let view = g.queries().board_for(actor, ch)?;
            let gif = g.gif(&view)?;
            Ok((view, gif))
        })
        .await?;
    call.send(Reply {
        content: tr!(
            lang,
            "gif-caption",
            white = mention(&view.white),
            black = mention(&view.black)
        ),
        attachments: vec![serenity::CreateAttachment::bytes(gif, GIF_FILE)],
        ..Reply::default()
    })
    .await
}

/// The last finished games in this channel
#[poise::command(slash_command)]
pub async fn history(ctx: Context<'_>) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let langs = call.langs().await;
    let games = call
        .blocking(Defer::Message, move |g, _, ch| {
            Ok(g.queries().history(ch, HISTORY_LEN)?)
        })
        .await?;
    if games.is_empty() {
        return call
            .send(Reply::ephemeral(tr!(langs.reply, "history-empty")))
            .await;
    }
    let lang = langs.public;
    let lines: Vec<String> = games
        .iter()
        .map(|h| status::history_line(lang, Presentation::Discord, h))
        .collect();
    let embed = serenity::CreateEmbed::new()
        .title(tr!(lang, "history-title"))
        .description(cap_chars(&lines.join("\n"), 4000));
    call.send(Reply {
        embeds: vec![embed],
        ..Reply::default()
    })
    .await
}
