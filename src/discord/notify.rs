//! The Discord side of the service's outbound port: a [`Notice`] becomes a channel message
//! (`POST /channels/{id}/messages`) with the game's embed and board, pinging only the
//! notice's users, with Discord's `nonce` + `enforce_nonce` when the notice carries one.

use std::sync::Arc;

use poise::serenity_prelude as serenity;

use super::reply::channel_message;
use super::view::{game_reply, show_with, status};
use crate::game::{Notice, NoticeKind, Notifier, NotifyError};
use crate::render::Renderer;

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
    fn post(&self, notice: &Notice) -> Result<(), NotifyError> {
        let shown = show_with(self.renderer, notice.game.clone())
            .map_err(|e| NotifyError::Delivery(format!("render: {e}")))?;
        // No interaction caused it: the game's language.
        let lang = shown.view.lang;
        let text = match notice.kind {
            NoticeKind::GameState => status(&shown.view, lang),
        };
        let mut reply = game_reply(text, &shown, lang);
        reply.mentions = notice.mentions.clone();
        let mut message = channel_message(reply);
        if let Some(nonce) = &notice.nonce {
            message = message
                .nonce(serenity::Nonce::String(nonce.clone()))
                .enforce_nonce(true);
        }
        let channel = serenity::ChannelId::new(notice.place.channel);
        let http = Arc::clone(&self.http);
        // The request runs on the runtime (serenity's client needs it); this thread waits for
        // its answer, at most POST_TIMEOUT. Spawning rather than `block_on` keeps this safe
        // to call from any thread, a runtime worker included (it never panics).
        let (tx, rx) = std::sync::mpsc::channel();
        self.runtime.spawn(async move {
            // A post outside an interaction counts toward the bot's global REST limit.
            super::budget::take().await;
            let sent = channel.send_message(&http, message).await;
            let _ = tx.send(sent.map(|_| ()));
        });
        match rx.recv_timeout(POST_TIMEOUT) {
            Ok(sent) => sent.map_err(|e| NotifyError::Delivery(super::reply::scrubbed(&e))),
            Err(_) => Err(NotifyError::Delivery(format!(
                "no answer from Discord within {POST_TIMEOUT:?}"
            ))),
        }
    }
}
