//! Optional (CAJITAS_MESSAGE_MOVES=1): moves typed as plain messages in a channel with a
//! game in progress. They go through the same service and are answered the same way (embed
//! and board); a message that is not a move of the player to move is ignored silently.
//! Needs the privileged Message Content intent (enable it in the developer portal).

use poise::serenity_prelude as serenity;

use crate::discord::interaction::reply::Reply;
use crate::discord::present::view::game_reply;
use crate::discord::present::who::{channel_ref, member_ref, mention};
use crate::discord::{Data, Error};
use crate::game::MAX_MOVE_CHARS;
use crate::i18n::san_in;
use crate::tr;

/// Plays `msg` as a move when it is one, from the player to move; anything else is ignored.
pub async fn on_message(
    ctx: &serenity::Context,
    data: &Data,
    msg: &serenity::Message,
) -> Result<(), Error> {
    let text = msg.content.trim();
    if msg.author.bot || text.is_empty() || text.chars().count() > MAX_MOVE_CHARS {
        return Ok(());
    }
    let Some(guild) = msg.guild_id else {
        return Ok(());
    };
    let actor = member_ref(
        &msg.author,
        msg.member.as_ref().and_then(|m| m.nick.as_deref()),
    );
    let ch = channel_ref(Some(guild), msg.channel_id);
    let text = text.to_string();
    let id = msg.id.get();
    let game = data.game.clone();
    let books = std::sync::Arc::clone(&data.bookkeeping);
    let renderer = data.renderer;
    let service = data.game.clone();
    let played = tokio::task::spawn_blocking(move || {
        // Chatter costs one read: only the player to move of a game in progress goes on.
        let view = game.queries().board_for(&actor, ch).ok()?;
        // Only in the game's own place (a thread's game is not played from its channel).
        if view.finished || view.player_to_move().id != actor.id || view.elsewhere_than(ch) {
            return None;
        }
        // A message delivered twice (around a resume) is played once.
        if !books.first_delivery(id).unwrap_or(true) {
            return None;
        }
        // No locale comes with a message: `R` is read, and the answer written, in the
        // game's language.
        let lang = view.lang;
        Some(
            match game.play().play_move(&actor, ch, &text, lang, false) {
                Ok(mut result) => {
                    crate::discord::gateway::telemetry::move_played();
                    let notices = std::mem::take(&mut result.notices);
                    let shown =
                        crate::discord::present::view::show_with(renderer, result.view.clone());
                    (Some((result.san, shown, lang)), notices)
                }
                // Too late: the game ended on time, and that ending's notices are posted.
                Err(crate::game::GameError::TimeRanOut { notices }) => (None, notices),
                Err(_) => (None, Vec::new()),
            },
        )
    })
    .await
    .map_err(|e| Error::Failed(anyhow::anyhow!("blocking task failed: {e}")))?;
    // The notices the move committed (a game's summary in its channel) go after its answer.
    let (played, notices) = played.unwrap_or_default();
    let post_held = move || {
        if !notices.is_empty() {
            crate::discord::interaction::after::run_after(Box::new(move || {
                service.post_notices(notices)
            }));
        }
    };
    let Some((san, shown, lang)) = played else {
        post_held();
        return Ok(());
    };
    let shown = shown?;
    let reply = game_reply(
        tr!(
            lang,
            "move-played",
            who = mention(&member_ref(
                &msg.author,
                msg.member.as_ref().and_then(|m| m.nick.as_deref())
            )),
            san = san_in(lang, &san)
        ),
        shown,
        lang,
    );
    let sent = send(ctx, msg.channel_id, reply).await;
    post_held();
    sent
}

async fn send(
    ctx: &serenity::Context,
    channel: serenity::ChannelId,
    reply: Reply,
) -> Result<(), Error> {
    let m = crate::discord::interaction::reply::channel_message(reply);
    // A reply outside an interaction counts toward the bot's global REST limit.
    crate::discord::interaction::budget::take().await;
    channel.send_message(&ctx.http, m).await?;
    Ok(())
}
