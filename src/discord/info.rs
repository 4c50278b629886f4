//! `/board`, `/pgn` and `/history`: looking, not playing.

use poise::serenity_prelude as serenity;

use super::errors::responder;
use super::reply::{Reply, cap_chars};
use super::view::game_reply;
use super::who::{channel_ref, mention};
use super::{Context, Defer, Error};

/// How many games `/history` lists.
const HISTORY_LEN: usize = 10;

/// Show the board of this channel's game (or of its last game)
#[poise::command(
    slash_command,
    description_localized("es-ES", "Muestra el tablero de la partida de este canal"),
    description_localized("es-419", "Muestra el tablero de la partida de este canal")
)]
pub async fn board(ctx: Context<'_>) -> Result<(), Error> {
    let poise::Context::Application(actx) = ctx else {
        return Ok(());
    };
    let r = responder(&actx);
    let ch = channel_ref(ctx.guild_id(), ctx.channel_id());
    let shown = ctx
        .data()
        .blocking(&r, Defer::Message, move |g| Ok(g.show(g.board(ch)?)?))
        .await?;
    r.send(game_reply(String::new(), &shown)).await?;
    Ok(())
}

/// The PGN file's name.
pub const PGN_FILE: &str = "game.pgn";

/// Get this channel's game (or its last game) as a PGN file
#[poise::command(
    slash_command,
    description_localized("es-ES", "La partida de este canal en un archivo PGN"),
    description_localized("es-419", "La partida de este canal en un archivo PGN")
)]
pub async fn pgn(ctx: Context<'_>) -> Result<(), Error> {
    let poise::Context::Application(actx) = ctx else {
        return Ok(());
    };
    let r = responder(&actx);
    let ch = channel_ref(ctx.guild_id(), ctx.channel_id());
    let pgn = ctx
        .data()
        .blocking(&r, Defer::Message, move |g| Ok(g.pgn(ch)?))
        .await?;
    r.send(Reply {
        content: "The game in PGN. To analyse it on lichess, open \
                  <https://lichess.org/paste> and paste the file's text (or upload the file)."
            .into(),
        attachments: vec![serenity::CreateAttachment::bytes(
            pgn.into_bytes(),
            PGN_FILE,
        )],
        ..Reply::default()
    })
    .await?;
    Ok(())
}

/// The last finished games in this channel
#[poise::command(
    slash_command,
    description_localized("es-ES", "Las últimas partidas terminadas en este canal"),
    description_localized("es-419", "Las últimas partidas terminadas en este canal")
)]
pub async fn history(ctx: Context<'_>) -> Result<(), Error> {
    let poise::Context::Application(actx) = ctx else {
        return Ok(());
    };
    let r = responder(&actx);
    let ch = channel_ref(ctx.guild_id(), ctx.channel_id());
    let games = ctx
        .data()
        .blocking(&r, Defer::Message, move |g| Ok(g.history(ch, HISTORY_LEN)?))
        .await?;
    if games.is_empty() {
        r.send(Reply::ephemeral(
            "No finished games in this channel yet. Start one with /challenge.",
        ))
        .await?;
        return Ok(());
    }
    let lines: Vec<String> = games
        .iter()
        .map(|h| {
            format!(
                "#{} {} vs {}: **{}** ({}, {} moves) <t:{}:d>",
                h.game_id,
                mention(&h.white),
                mention(&h.black),
                h.result,
                h.termination.replace('-', " "),
                h.plies.div_ceil(2),
                h.finished_at.div_euclid(1000),
            )
        })
        .collect();
    let embed = serenity::CreateEmbed::new()
        .title("Last games in this channel")
        .description(cap_chars(&lines.join("\n"), 4000));
    r.send(Reply {
        embeds: vec![embed],
        ..Reply::default()
    })
    .await?;
    Ok(())
}
