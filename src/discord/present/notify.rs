//! The Discord side of the service's outbound port: a [`Notice`] becomes a channel message
//! (`POST /channels/{id}/messages`, a thread archived meanwhile reopened first): the game's
//! embed and board (a finished game's with its GIF, within Discord's 10 MiB), the one-line
//! summary of a thread's game in its channel (the thread then archives an hour after its
//! last message), or a rematch challenge with its buttons; pinging only the notice's users,
//! with Discord's `nonce` + `enforce_nonce` when the notice carries one.

use std::sync::Arc;

use poise::serenity_prelude as serenity;

use crate::discord::interaction::reply::{Reply, channel_message};
use crate::discord::present::threads::post_in;
use crate::discord::present::view::{challenge_reply, embed, game_reply, show_with};
use crate::game::{Notice, NoticeKind, Notifier, NotifyError, TournamentNews, TournamentNotice};
use crate::i18n::{Presentation, notices, tournaments};
use crate::render::Renderer;
use crate::tr;

/// How long a post may take before it counts as failed.
const POST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Posts notices through Discord's REST API.
pub struct DiscordNotifier {
    http: Arc<serenity::Http>,
    renderer: &'static Renderer,
    runtime: tokio::runtime::Handle,
}

impl std::fmt::Debug for DiscordNotifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DiscordNotifier").finish_non_exhaustive()
    }
}

impl DiscordNotifier {
    /// A notifier sending through `http`, drawing with `renderer`; its requests run on
    /// `runtime`, while [`Notifier::post`] blocks the calling (blocking) thread.
    pub fn new(
        http: Arc<serenity::Http>,
        renderer: &'static Renderer,
        runtime: tokio::runtime::Handle,
    ) -> DiscordNotifier {
        DiscordNotifier {
            http,
            renderer,
            runtime,
        }
    }
}

impl Notifier for DiscordNotifier {
    fn post(&self, notice: &Notice) -> Result<Option<u64>, NotifyError> {
        // No interaction caused it: the game's language.
        let lang = notice.game.lang;
        let mut wind_down = None;
        let mut reply = match &notice.kind {
            NoticeKind::Paired { .. } => return self.post_pairing(notice),
            NoticeKind::Summary => {
                wind_down = notice.game.thread;
                Reply::text(notices::summary(lang, Presentation::Discord, &notice.game))
            }
            NoticeKind::Rematch(c) => {
                let mut reply = challenge_reply(c, lang);
                reply.content = format!("{} {}", tr!(lang, "rematch-title"), reply.content);
                reply
            }
            // The game's state, a timeout, a reminder, a waiting engine: the board with its
            // words.
            kind => {
                let shown = show_with(self.renderer, notice.game.clone())
                    .map_err(|e| NotifyError::Delivery(format!("render: {e}")))?;
                let text = notices::notice_text(lang, Presentation::Discord, kind, &shown.view);
                let unavailable = (*kind == NoticeKind::EngineUnavailable)
                    .then(|| embed(&shown.view, lang, true).description(text.clone()));
                let mut reply = game_reply(text, shown, lang);
                if let Some(embed) = unavailable {
                    // The embed itself says so, where the status line would be.
                    reply.embeds = vec![embed];
                }
                reply
            }
        };
        reply.mentions = notice.mentions.clone();
        let mut message = channel_message(reply);
        if let Some(nonce) = &notice.nonce {
            message = message
                .nonce(serenity::Nonce::String(nonce.clone()))
                .enforce_nonce(true);
        }
        self.send(notice.place.channel, message, wind_down)
    }

    fn post_tournament(&self, notice: &TournamentNotice) -> Result<Option<u64>, NotifyError> {
        let lines = |lang| match &notice.news {
            TournamentNews::Started(v) => vec![tournaments::started_line(lang, v)],
            TournamentNews::Finished(s) => tournaments::final_lines(lang, s),
            TournamentNews::RoundRobinFinished(s) => {
                crate::i18n::round_robins::final_lines(lang, s)
            }
            TournamentNews::Standings { standings, .. } => {
                tournaments::standings_lines(lang, standings)
            }
        };
        let lang = match &notice.news {
            TournamentNews::Started(v) => v.lang,
            TournamentNews::Finished(s) | TournamentNews::Standings { standings: s, .. } => {
                s.tournament.lang
            }
            TournamentNews::RoundRobinFinished(s) => s.tournament.lang,
        };
        if let TournamentNews::Standings { message, .. } = notice.news {
            // The live post, edited in place.
            let text = crate::discord::interaction::reply::cap_chars(
                &lines(lang).join("\n"),
                crate::discord::interaction::reply::MAX_CONTENT,
            );
            let (channel, http) = (notice.place.channel, Arc::clone(&self.http));
            return self.wait(async move {
                crate::discord::interaction::budget::take().await;
                serenity::ChannelId::new(channel)
                    .edit_message(
                        &http,
                        serenity::MessageId::new(message),
                        serenity::EditMessage::new().content(text),
                    )
                    .await
                    .map(|m| Some(m.id.get()))
            });
        }
        let lines = lines(lang);
        let message = channel_message(Reply::text(lines.join("\n")))
            .nonce(serenity::Nonce::String(notice.nonce.clone()))
            .enforce_nonce(true);
        self.send(notice.place.channel, message, None)
    }
}

impl DiscordNotifier {
    /// A tournament's pairing: its line in the tournament's channel pinging both players, and
    /// the game's thread opened on that line (White first in its name). Returns the thread,
    /// where the service moves the game and then posts its board.
    fn post_pairing(&self, notice: &Notice) -> Result<Option<u64>, NotifyError> {
        let lang = notice.game.lang;
        let view = &notice.game;
        let text = notices::notice_text(lang, Presentation::Discord, &notice.kind, view);
        let mut line = channel_message(Reply {
            mentions: notice.mentions.clone(),
            ..Reply::text(text)
        });
        if let Some(nonce) = &notice.nonce {
            line = line
                .nonce(serenity::Nonce::String(nonce.clone()))
                .enforce_nonce(true);
        }
        let name = crate::discord::present::threads::game_thread_name(view, view.clock.as_of, lang);
        let (channel, http) = (view.channel, Arc::clone(&self.http));
        self.wait(async move {
            let posted = post_in(&http, channel, line).await?;
            let thread = match crate::discord::present::threads::open(
                &http,
                channel,
                posted.id.get(),
                &name,
            )
            .await
            {
                crate::discord::present::threads::Opened::Thread(t) => t,
                // No thread: the game cannot be played here; the post is tried again.
                _ => return Ok(None),
            };
            Ok(Some(thread))
        })
        .and_then(|thread| {
            thread.map(Some).ok_or_else(|| {
                NotifyError::Delivery("the pairing's thread could not be opened".into())
            })
        })
    }

    /// Runs `request` on the runtime and waits for it, at most [`POST_TIMEOUT`]. The request
    /// runs on the runtime (serenity's client needs it) while this thread waits: spawning
    /// rather than `block_on` keeps this safe to call from any thread, a runtime worker
    /// included (it never panics).
    fn wait<T: Send + 'static>(
        &self,
        request: impl std::future::Future<Output = Result<T, serenity::Error>> + Send + 'static,
    ) -> Result<T, NotifyError> {
        let (tx, rx) = std::sync::mpsc::channel();
        self.runtime.spawn(async move {
            let done = request.await;
            if let Err(e) = &done {
                crate::discord::gateway::telemetry::rest_error("post", e);
            }
            let _ = tx.send(done);
        });
        match rx.recv_timeout(POST_TIMEOUT) {
            Ok(done) => done.map_err(|e| {
                NotifyError::Delivery(crate::discord::interaction::reply::scrubbed(&e))
            }),
            Err(_) => Err(NotifyError::Delivery(format!(
                "no answer from Discord within {POST_TIMEOUT:?}"
            ))),
        }
    }

    /// Sends `message` to `channel` and waits for Discord's answer, at most [`POST_TIMEOUT`];
    /// with `wind_down`, that thread then archives sooner.
    fn send(
        &self,
        channel: u64,
        message: serenity::CreateMessage,
        wind_down: Option<u64>,
    ) -> Result<Option<u64>, NotifyError> {
        let http = Arc::clone(&self.http);
        self.wait(async move {
            // A post outside an interaction counts toward the bot's global REST limit
            // (`post_in` takes its budget).
            let sent = post_in(&http, channel, message).await?;
            if let Some(thread) = wind_down
                && let Err(e) = crate::discord::present::threads::wind_down(&http, thread).await
            {
                tracing::warn!(thread, error = %crate::discord::interaction::reply::scrubbed(&e), "could not shorten the ended game's thread's archiving");
            }
            Ok(Some(sent.id.get()))
        })
    }
}
