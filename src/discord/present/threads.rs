//! A thread per game (issue 15): where an interaction happens (a channel, or a thread and
//! its channel), whether the bot may open a game's thread there, opening it on the
//! challenge's message, posting into a thread (reopening it when it was archived), answering
//! a command typed in the channel that acted on the game of a thread, and the end of a
//! thread's game.

use poise::serenity_prelude as serenity;

use crate::discord::interaction::reply::{Reply, Responder, cap_chars, channel_message};
use crate::discord::present::who::channel_ref;
use crate::discord::{Data, Error};
use crate::game::{GameView, Lang, Place};
use crate::tr;

/// The permissions a game's thread needs: opening it, and writing in it.
pub fn thread_permissions() -> serenity::Permissions {
    serenity::Permissions::CREATE_PUBLIC_THREADS | serenity::Permissions::SEND_MESSAGES_IN_THREADS
}

/// Discord's longest thread name, in characters.
pub const THREAD_NAME_MAX: usize = 100;
/// The longest player name kept in a thread's name.
const NAME_IN_THREAD: usize = 40;
/// How long a game's thread stays open without messages while the game goes on (a day)...
const PLAYING_ARCHIVE: serenity::AutoArchiveDuration = serenity::AutoArchiveDuration::OneDay;
/// ... and once it ended: an hour, for the rematch, `/gif` and `/pgn`.
const ENDED_ARCHIVE: serenity::AutoArchiveDuration = serenity::AutoArchiveDuration::OneHour;

/// Discord's error codes that matter here.
const MISSING_PERMISSIONS: isize = 50013;
const THREAD_EXISTS: isize = 160_004;
const THREAD_ARCHIVED: isize = 50083;

/// Where an interaction happened and what the bot may do there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Where {
    /// The place as the game service sees it.
    pub place: Place,
    /// Why a game accepted in this channel would be played in the channel although threads
    /// are on: the bot lacks the permissions (said once per channel).
    pub lacks_permission: bool,
}

/// The place of an interaction in `channel` (the thread's or channel's id), given Discord's
/// partial `kind` of it and the bot's permissions there (`app_permissions`).
pub fn where_of(
    data: &Data,
    guild: Option<serenity::GuildId>,
    channel_id: serenity::ChannelId,
    channel: Option<&serenity::PartialChannel>,
    app_permissions: Option<serenity::Permissions>,
) -> Where {
    let at = channel_ref(guild, channel_id);
    let plain = Where {
        place: Place::plain(at),
        lacks_permission: false,
    };
    if guild.is_none() {
        return plain;
    }
    let kind = channel.map(|c| c.kind);
    let parent = channel.and_then(|c| c.parent_id);
    match (kind, parent) {
        (
            Some(
                serenity::ChannelType::PublicThread
                | serenity::ChannelType::PrivateThread
                | serenity::ChannelType::NewsThread,
            ),
            Some(parent),
        ) => Where {
            place: Place::thread(at, parent.get()),
            lacks_permission: false,
        },
        (None | Some(serenity::ChannelType::Text | serenity::ChannelType::News), _) => {
            if !data.config.threads {
                return plain;
            }
            // Without the field (older payloads), try: a refusal falls back all the same.
            let allowed = app_permissions.is_none_or(|p| p.contains(thread_permissions()));
            Where {
                place: Place {
                    at,
                    parent: None,
                    threads: allowed,
                },
                lacks_permission: !allowed,
            }
        }
        _ => plain,
    }
}

/// Whether games in the channel of `app_permissions` get threads (for a rematch, made from
/// a button in the finished game's thread: a thread's permissions are its channel's).
pub fn threads_allowed(data: &Data, app_permissions: Option<serenity::Permissions>) -> bool {
    data.config.threads && app_permissions.is_none_or(|p| p.contains(thread_permissions()))
}

/// A link to a channel or thread, as Discord shows it (its name, clickable).
pub fn link(channel: u64) -> String {
    crate::i18n::Presentation::Discord.place(channel)
}

/// A game's thread name in `lang`, e.g. "alice vs bob · 30 nov" (at most 100 characters).
pub fn thread_name(first: &str, second: &str, unix_ms: i64, lang: Lang) -> String {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let date = crate::game::calendar::CivilDate::of_unix_ms(unix_ms);
    let (month, day) = (date.month, date.day);
    let name = tr!(
        lang,
        "thread-name",
        first = cap_chars(first, NAME_IN_THREAD),
        second = cap_chars(second, NAME_IN_THREAD),
        day = day.to_string(),
        month = MONTHS[(month - 1) as usize]
    );
    cap_chars(&name, THREAD_NAME_MAX)
}

/// The name of `view`'s thread, White first ("alice vs bob · 30 nov"); the computer is named
/// with its level.
pub fn game_thread_name(view: &GameView, unix_ms: i64, lang: Lang) -> String {
    let named = |u: &crate::game::UserRef| match u.engine_level() {
        Some(_) => crate::discord::present::who::player_in(u, lang),
        None => u.name.clone(),
    };
    thread_name(&named(&view.white), &named(&view.black), unix_ms, lang)
}

/// Renames a game's thread `thread` opened as `opened` (at `unix_ms`) when its game's colours,
/// left to chance, were tossed the other way round: the thread names White first.
pub async fn name_white_first(
    http: &serenity::Http,
    thread: u64,
    view: &GameView,
    opened: &str,
    unix_ms: i64,
    lang: Lang,
) {
    let name = game_thread_name(view, unix_ms, lang);
    if name == opened {
        return;
    }
    crate::discord::interaction::budget::take().await;
    let edit = serenity::EditThread::new().name(name);
    if let Err(e) = serenity::ChannelId::new(thread)
        .edit_thread(http, edit)
        .await
    {
        tracing::warn!(thread, error = %crate::discord::interaction::reply::scrubbed(&e), "could not rename a game's thread");
    }
}

/// What became of opening a game's thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opened {
    /// The thread (new, or already opened on that message).
    Thread(u64),
    /// The bot may not open threads there (403, code 50013): play in the channel.
    Refused,
    /// Something else went wrong (logged): play in the channel.
    Failed,
}

fn discord_error(e: &serenity::Error) -> Option<(u16, isize)> {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            Some((r.status_code.as_u16(), r.error.code))
        }
        _ => None,
    }
}

/// Opens the public thread `name` on `message` of `channel` (the thread's id is the
/// message's).
pub async fn open(http: &serenity::Http, channel: u64, message: u64, name: &str) -> Opened {
    let builder = serenity::CreateThread::new(cap_chars(name, THREAD_NAME_MAX))
        .auto_archive_duration(PLAYING_ARCHIVE);
    // Not counted against the budget: it answers a person within the interaction's time
    // (a backlog of posts must not push new games out of their threads).
    let made = serenity::ChannelId::new(channel)
        .create_thread_from_message(http, serenity::MessageId::new(message), builder)
        .await;
    match made {
        Ok(thread) => Opened::Thread(thread.id.get()),
        Err(e) => match discord_error(&e) {
            // Opened already (a retried accept): the thread is the message's.
            Some((_, THREAD_EXISTS)) => Opened::Thread(message),
            Some((403, _) | (_, MISSING_PERMISSIONS)) => {
                tracing::info!(
                    channel,
                    "may not open threads here; the game is played in the channel"
                );
                Opened::Refused
            }
            _ => {
                tracing::warn!(channel, error = %crate::discord::interaction::reply::scrubbed(&e), "could not open a game's thread");
                Opened::Failed
            }
        },
    }
}

/// Posts `message` in `channel`; a thread archived (by time, or by hand) is reopened first
/// and the post sent again. Every request counts toward this process's REST budget
/// ([`crate::discord::interaction::budget`]), as this module's do but opening a thread.
pub async fn post_in(
    http: &serenity::Http,
    channel: u64,
    message: serenity::CreateMessage,
) -> Result<serenity::Message, serenity::Error> {
    crate::discord::interaction::budget::take().await;
    send_reopening(http, channel, message).await
}

/// [`post_in`] a message that `draw` makes only once the post's turn in the REST budget has
/// come: a board waiting for its turn holds no PNG.
pub async fn post_drawn(
    http: &serenity::Http,
    channel: u64,
    draw: impl std::future::Future<Output = anyhow::Result<serenity::CreateMessage>>,
) -> anyhow::Result<serenity::Message> {
    let message = crate::discord::interaction::budget::take_then(draw).await?;
    send_reopening(http, channel, message)
        .await
        .map_err(|e| anyhow::anyhow!(crate::discord::interaction::reply::scrubbed(&e)))
}

/// Sends `message` (its budget taken), reopening an archived thread and sending again.
async fn send_reopening(
    http: &serenity::Http,
    channel: u64,
    message: serenity::CreateMessage,
) -> Result<serenity::Message, serenity::Error> {
    let id = serenity::ChannelId::new(channel);
    match id.send_message(http, message.clone()).await {
        Err(e) if discord_error(&e).is_some_and(|(_, code)| code == THREAD_ARCHIVED) => {
            crate::discord::interaction::budget::take().await;
            id.edit_thread(http, serenity::EditThread::new().archived(false))
                .await?;
            crate::discord::interaction::budget::take().await;
            id.send_message(http, message).await
        }
        other => other,
    }
}

/// A game of a thread ended: the thread stays open an hour after its last message (for the
/// rematch, `/gif` and `/pgn`), then Discord archives it.
pub async fn wind_down(http: &serenity::Http, thread: u64) -> Result<(), serenity::Error> {
    let edit = serenity::EditThread::new().auto_archive_duration(ENDED_ARCHIVE);
    crate::discord::interaction::budget::take().await;
    match serenity::ChannelId::new(thread)
        .edit_thread(http, edit.clone())
        .await
    {
        Err(e) if discord_error(&e).is_some_and(|(_, code)| code == THREAD_ARCHIVED) => {
            crate::discord::interaction::budget::take().await;
            serenity::ChannelId::new(thread)
                .edit_thread(http, edit.archived(false))
                .await
                .map(|_| ())
        }
        other => other.map(|_| ()),
    }
}

/// Answers a command about `view`: with `reply` where it was typed, or, when the command was
/// typed in the channel and acted on the game of a thread, with `reply` posted in the thread
/// and an ephemeral link to it.
pub async fn send_game(
    http: &serenity::Http,
    r: &Responder<'_>,
    here: u64,
    view: &GameView,
    reply: Reply,
) -> Result<(), Error> {
    let place = view.place().channel;
    if place == here {
        r.send(reply).await?;
        return Ok(());
    }
    post_in(http, place, channel_message(reply)).await?;
    r.send(Reply::ephemeral(tr!(
        r.lang(),
        "routed",
        thread = link(place)
    )))
    .await?;
    Ok(())
}

/// Whether the channel's fallback was already explained; marks it explained. (Said once per
/// channel: the first game played in the channel for want of permissions says why.)
pub async fn explain_once(data: &Data, channel: u64) -> bool {
    let books = std::sync::Arc::clone(&data.bookkeeping);
    let key = format!("discord.threads.fallback_explained.{channel}");
    tokio::task::spawn_blocking(move || match books.setting(&key) {
        Ok(Some(_)) => false,
        Ok(None) => books.set_setting(&key, "1").is_ok(),
        Err(_) => false,
    })
    .await
    .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_names_say_who_and_when_within_discords_limit() {
        // 2026-11-30.
        let t = 1_796_000_000_000;
        assert_eq!(
            thread_name("alice", "bob", t, Lang::En),
            "alice vs bob · 30 nov"
        );
        assert_eq!(
            thread_name("alice", "bob", 1_765_000_000_000, Lang::Es),
            "alice vs bob · 6 dic"
        );
        let long = "ñ".repeat(100);
        let name = thread_name(&long, &long, t, Lang::En);
        assert!(name.chars().count() <= THREAD_NAME_MAX, "{name}");
        assert!(name.ends_with("30 nov"), "{name}");
    }

    #[test]
    fn the_thread_permissions_are_bits_35_and_38() {
        assert_eq!(thread_permissions().bits(), (1 << 35) | (1 << 38));
    }
}
