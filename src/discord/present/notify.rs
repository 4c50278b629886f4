//! The Discord side of the service's outbound port: a [`Notice`] becomes a channel message
//! (`POST /channels/{id}/messages`, a thread archived meanwhile reopened first): the game's
//! embed and board (a finished game's with its GIF, within Discord's 10 MiB), the one-line
//! summary of a thread's game in its channel (the thread then archives an hour after its
//! last message), or a rematch challenge with its buttons; pinging only the notice's users,
//! with Discord's `nonce` + `enforce_nonce` when the notice carries one.

use std::sync::Arc;

use poise::serenity_prelude as serenity;

use cajitas_rules::{Lang, Outcome};

use crate::discord::interaction::reply::{Reply, channel_message};
use crate::discord::present::threads::post_in;
use crate::discord::present::view::{challenge_reply, embed, game_reply, show_with, status};
use crate::discord::present::who::mention;
use crate::game::{GameView, Notice, NoticeKind, Notifier, NotifyError};
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
            NoticeKind::Summary => {
                wind_down = notice.game.thread;
                Reply::text(summary(&notice.game, lang))
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
                let text = notice_text(kind, &shown.view, lang);
                let mut reply = game_reply(text.clone(), &shown, lang);
                if *kind == NoticeKind::EngineUnavailable {
                    // The embed itself says so, where the status line would be.
                    reply.embeds = vec![embed(&shown.view, lang, true).description(text)];
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
        let channel = notice.place.channel;
        let http = Arc::clone(&self.http);
        // The request runs on the runtime (serenity's client needs it); this thread waits for
        // its answer, at most POST_TIMEOUT. Spawning rather than `block_on` keeps this safe
        // to call from any thread, a runtime worker included (it never panics).
        let (tx, rx) = std::sync::mpsc::channel();
        self.runtime.spawn(async move {
            // A post outside an interaction counts toward the bot's global REST limit
            // (`post_in` takes its budget).
            let sent = post_in(&http, channel, message).await;
            if let Err(e) = &sent {
                crate::discord::gateway::telemetry::rest_error("post", e);
            }
            if let (Ok(_), Some(thread)) = (&sent, wind_down)
                && let Err(e) = crate::discord::present::threads::wind_down(&http, thread).await
            {
                tracing::warn!(thread, error = %crate::discord::interaction::reply::scrubbed(&e), "could not shorten the ended game's thread's archiving");
            }
            let _ = tx.send(sent.map(|m| m.id.get()));
        });
        match rx.recv_timeout(POST_TIMEOUT) {
            Ok(sent) => sent.map(Some).map_err(|e| {
                NotifyError::Delivery(crate::discord::interaction::reply::scrubbed(&e))
            }),
            Err(_) => Err(NotifyError::Delivery(format!(
                "no answer from Discord within {POST_TIMEOUT:?}"
            ))),
        }
    }
}

/// The one line a game of a thread leaves in its channel when it ends, with a link to the
/// thread: "alice beat bob by checkmate in 34 moves".
pub fn summary(view: &GameView, lang: Lang) -> String {
    let (outcome, winner, loser, termination) = match view.outcome {
        Some(Outcome::Decisive { winner, reason }) => (
            "win",
            mention(view.player(winner)),
            mention(view.player(!winner)),
            reason.as_str(),
        ),
        Some(Outcome::Draw { reason }) => ("draw", String::new(), String::new(), reason.as_str()),
        None => ("aborted", String::new(), String::new(), "aborted"),
    };
    tr!(
        lang,
        "summary",
        outcome = outcome,
        winner = winner,
        loser = loser,
        white = mention(&view.white),
        black = mention(&view.black),
        termination = termination,
        moves = crate::i18n::num(view.ply.div_ceil(2)),
        thread = crate::discord::present::threads::link(view.place().channel)
    )
}

/// A Discord timestamp that every client shows in its own time zone, counting down.
pub fn timestamp(unix_ms: i64) -> String {
    format!("<t:{}:R>", unix_ms.div_euclid(1000))
}

/// The text above the board of a post no interaction caused.
pub fn notice_text(kind: &NoticeKind, v: &GameView, lang: crate::game::Lang) -> String {
    let to_move = mention(v.player_to_move());
    let opponent = mention(v.player(!v.to_move));
    let deadline = v.clock.deadline.map(timestamp).unwrap_or_default();
    match kind {
        NoticeKind::GameState | NoticeKind::Summary | NoticeKind::Rematch(_) => status(v, lang),
        NoticeKind::EngineUnavailable => tr!(lang, "engine-unavailable"),
        NoticeKind::TimedOut if v.aborted => {
            tr!(lang, "timeout-aborted-post", player = to_move)
        }
        NoticeKind::TimedOut => tr!(
            lang,
            "timeout-post",
            player = to_move,
            status = status(v, lang)
        ),
        NoticeKind::Reminder => tr!(
            lang,
            "reminder-post",
            player = to_move,
            opponent = opponent,
            deadline = deadline
        ),
        NoticeKind::IdleReminder => tr!(
            lang,
            "idle-reminder-post",
            player = to_move,
            opponent = opponent,
            deadline = deadline
        ),
    }
}
