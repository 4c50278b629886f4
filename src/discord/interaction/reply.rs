//! Answering an interaction: the first callback (within Discord's 3 s), a defer, followups,
//! and retries of the callback on a 5xx, a timeout or a 429.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use poise::serenity_prelude as serenity;
use serenity::Builder as _;

/// Discord's content limit.
pub const MAX_CONTENT: usize = 2000;
/// How long Discord waits for the first callback, less a safety margin.
const CALLBACK_WINDOW: Duration = Duration::from_millis(2800);
/// How long one callback attempt may take before it counts as timed out.
const ATTEMPT_TIMEOUT: Duration = Duration::from_millis(1200);
/// The pause before retrying after a 429 that reaches us. In production serenity's ratelimiter
/// has already waited out Discord's `retry_after` and retried; with the ratelimiter off (the
/// test seam) serenity's error does not carry `retry_after`, so a short fixed pause stands in.
const RATE_LIMIT_PAUSE: Duration = Duration::from_millis(250);

/// A message to send: what a handler produces.
#[derive(Clone, Debug, Default)]
pub struct Reply {
    /// The text (cut at Discord's 2,000 characters).
    pub content: String,
    /// Embeds.
    pub embeds: Vec<serenity::CreateEmbed>,
    /// Button rows.
    pub components: Vec<serenity::CreateActionRow>,
    /// Files.
    pub attachments: Vec<serenity::CreateAttachment>,
    /// Only the user who interacted sees it.
    pub ephemeral: bool,
    /// The users this message may ping (the named players). Nobody else, no role,
    /// never `@everyone` or `@here`, whatever the text says.
    pub mentions: Vec<u64>,
}

/// Discord's `allowed_mentions` for a message that may ping exactly `users`.
pub fn allowed_mentions(users: &[u64]) -> serenity::CreateAllowedMentions {
    serenity::CreateAllowedMentions::new()
        .all_users(false)
        .all_roles(false)
        .everyone(false)
        .users(users.iter().map(|&u| serenity::UserId::new(u)))
        .replied_user(false)
}

/// Fills an interaction's builder with a [`Reply`], its files moved: serenity's response
/// message and followup have the same methods on two types.
macro_rules! interaction_builder {
    ($new:expr, $reply:expr) => {{
        let reply: Reply = $reply;
        let mut m = $new
            .content(reply.content_capped())
            .ephemeral(reply.ephemeral)
            .allowed_mentions(allowed_mentions(&reply.mentions))
            .embeds(reply.embeds)
            .components(reply.components);
        for a in reply.attachments {
            m = m.add_file(a);
        }
        m
    }};
}

impl Reply {
    /// A plain public message.
    pub fn text(content: impl Into<String>) -> Self {
        Self {
            content: content.into(),
            ..Self::default()
        }
    }

    /// A message only the user sees.
    pub fn ephemeral(content: impl Into<String>) -> Self {
        Self {
            content: content.into(),
            ephemeral: true,
            ..Self::default()
        }
    }

    fn content_capped(&self) -> String {
        cap_chars(&self.content, MAX_CONTENT)
    }

    /// The reply as an interaction's message, its files moved rather than copied (a board's
    /// PNG is held once per reply in flight, not once more per builder).
    fn into_message(self) -> serenity::CreateInteractionResponseMessage {
        interaction_builder!(serenity::CreateInteractionResponseMessage::new(), self)
    }

    /// The reply as a followup, its files moved (see [`Reply::into_message`]).
    fn into_followup(self) -> serenity::CreateInteractionResponseFollowup {
        interaction_builder!(serenity::CreateInteractionResponseFollowup::new(), self)
    }
}

/// A channel message (outside any interaction) with `reply`'s text, embeds, buttons, files
/// and mentions. Ephemeral does not apply to it.
pub fn channel_message(reply: Reply) -> serenity::CreateMessage {
    let mut m = serenity::CreateMessage::new()
        .content(cap_chars(&reply.content, MAX_CONTENT))
        .embeds(reply.embeds)
        .components(reply.components)
        .allowed_mentions(allowed_mentions(&reply.mentions));
    for a in reply.attachments {
        m = m.add_file(a);
    }
    m
}

/// Cuts `s` to at most `max` characters, ending with an ellipsis when cut.
pub fn cap_chars(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Answers one interaction (command or component).
pub struct Responder<'a> {
    http: &'a serenity::Http,
    id: serenity::InteractionId,
    token: &'a str,
    /// Whether the first callback (reply or defer) was sent; shared with poise for commands.
    sent: &'a AtomicBool,
    received: Instant,
    lang: cajitas_rules::Lang,
    attachment_limit: u64,
    /// What waits for the answer: the notices the interaction's operations held back (a
    /// game's summary in its channel), posted once the answer went out.
    after: std::sync::Mutex<Vec<AfterAnswer>>,
}

/// Work to do once an interaction was answered (blocking: it runs on the workers of
/// [`super::after`]).
pub use super::after::AfterAnswer;

impl<'a> Responder<'a> {
    /// A responder for this interaction.
    pub fn new(
        http: &'a serenity::Http,
        id: serenity::InteractionId,
        token: &'a str,
        sent: &'a AtomicBool,
    ) -> Self {
        Self {
            http,
            id,
            token,
            sent,
            received: Instant::now(),
            lang: cajitas_rules::Lang::En,
            attachment_limit: crate::render::gif::DEFAULT_BYTE_LIMIT,
            after: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// Runs `job` once this interaction was answered (after the next [`Responder::send`] or
    /// [`Responder::update`] that went out, or when the handling ends), on the workers of
    /// [`super::after`]: a game's summary is posted after the move that ended it was answered.
    pub fn after_answer(&self, job: AfterAnswer) {
        self.after
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(job);
    }

    /// Starts what waited for the answer.
    fn answered(&self) {
        let jobs = std::mem::take(&mut *self.after.lock().unwrap_or_else(|p| p.into_inner()));
        for job in jobs {
            super::after::run_after(job);
        }
    }

    /// The same responder, its files kept under `limit` bytes each (the interaction's
    /// `attachment_size_limit`; 0, unknown, keeps Discord's default of 10 MiB).
    pub fn with_attachment_limit(mut self, limit: u32) -> Self {
        if limit > 0 {
            self.attachment_limit = u64::from(limit);
        }
        self
    }

    /// The largest file this interaction's answer may carry, in bytes.
    pub fn attachment_limit(&self) -> u64 {
        self.attachment_limit
    }

    /// The id of the message that answered the interaction (`GET @original`), e.g. a
    /// challenge's, on which its game's thread is opened later.
    pub async fn original_message(&self) -> Result<u64, serenity::Error> {
        let m = self
            .http
            .get_original_interaction_response(self.token)
            .await?;
        Ok(m.id.get())
    }

    /// The same responder, its ephemeral replies (refusals, apologies) in `lang`.
    pub fn with_lang(mut self, lang: cajitas_rules::Lang) -> Self {
        self.lang = lang;
        self
    }

    /// When this responder was made (the start of the interaction's handling): Discord's
    /// 3 s window, and the moment to defer, count from here.
    pub fn received(&self) -> Instant {
        self.received
    }

    /// The language of the interaction's ephemeral replies (its user's Discord locale).
    pub fn lang(&self) -> cajitas_rules::Lang {
        self.lang
    }

    /// The interaction id (for logs).
    pub fn id(&self) -> serenity::InteractionId {
        self.id
    }

    /// Whether the first callback was sent.
    pub fn has_responded(&self) -> bool {
        self.sent.load(Ordering::SeqCst)
    }

    /// Sends `reply`: as the first callback, or as a followup after a defer.
    pub async fn send(&self, reply: Reply) -> Result<(), serenity::Error> {
        let sent = if self.has_responded() {
            self.followup(reply).await
        } else {
            self.callback(serenity::CreateInteractionResponse::Message(
                reply.into_message(),
            ))
            .await
        };
        if sent.is_ok() {
            self.answered();
        }
        sent
    }

    /// Replaces the message holding the clicked button (components only).
    pub async fn update(&self, reply: Reply) -> Result<(), serenity::Error> {
        if self.has_responded() {
            let mut edit = serenity::EditInteractionResponse::new()
                .content(reply.content_capped())
                .allowed_mentions(allowed_mentions(&reply.mentions))
                .embeds(reply.embeds)
                .components(reply.components);
            for a in reply.attachments {
                edit = edit.new_attachment(a);
            }
            let edited = edit.execute(self.http, self.token).await.map(|_| ());
            if let Err(e) = &edited {
                crate::discord::gateway::telemetry::rest_error("edit", e);
            }
            if edited.is_ok() {
                self.answered();
            }
            edited
        } else {
            let updated = self
                .callback(serenity::CreateInteractionResponse::UpdateMessage(
                    reply.into_message(),
                ))
                .await;
            if updated.is_ok() {
                self.answered();
            }
            updated
        }
    }

    /// Deletes the message that answered the interaction (an answer made before the
    /// operation it announced failed).
    pub async fn delete_original(&self) -> Result<(), serenity::Error> {
        self.http
            .delete_original_interaction_response(self.token)
            .await
    }

    /// Tells Discord the answer will take a while (a loading state, public or ephemeral).
    pub async fn defer(&self, ephemeral: bool) -> Result<(), serenity::Error> {
        if self.has_responded() {
            return Ok(());
        }
        self.callback(serenity::CreateInteractionResponse::Defer(
            serenity::CreateInteractionResponseMessage::new().ephemeral(ephemeral),
        ))
        .await
    }

    /// Acknowledges a button click without a visible change; the answer then edits the
    /// clicked message ([`Responder::update`]).
    pub async fn defer_update(&self) -> Result<(), serenity::Error> {
        if self.has_responded() {
            return Ok(());
        }
        self.callback(serenity::CreateInteractionResponse::Acknowledge)
            .await
    }

    async fn followup(&self, reply: Reply) -> Result<(), serenity::Error> {
        let sent = reply
            .into_followup()
            .execute(self.http, (None, self.token))
            .await
            .map(|_| ());
        if let Err(e) = &sent {
            crate::discord::gateway::telemetry::rest_error("followup", e);
        }
        sent
    }

    /// The first callback, retried within Discord's 3 s window: once after a 5xx or a timeout,
    /// and up to twice after a 429 (see [`RATE_LIMIT_PAUSE`]). A retry that finds the interaction already
    /// answered (a timed-out attempt that did arrive) counts as success.
    async fn callback(
        &self,
        resp: serenity::CreateInteractionResponse,
    ) -> Result<(), serenity::Error> {
        let deadline = self.received + CALLBACK_WINDOW;
        let mut retried_5xx = false;
        let mut rate_limited = 0;
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            let left = deadline.saturating_duration_since(Instant::now());
            let limit = ATTEMPT_TIMEOUT.min(left.max(Duration::from_millis(200)));
            let result = tokio::time::timeout(
                limit,
                resp.clone().execute(self.http, (self.id, self.token)),
            )
            .await;
            if let Ok(Err(e)) = &result {
                crate::discord::gateway::telemetry::rest_error("callback", e);
            } else if result.is_err() {
                crate::discord::gateway::telemetry::rest_failure("callback", "timeout");
            }
            let retry_reason = match result {
                Ok(Ok(())) => {
                    self.sent.store(true, Ordering::SeqCst);
                    crate::discord::gateway::telemetry::first_callback();
                    return Ok(());
                }
                Ok(Err(e)) => match classify(&e) {
                    Failure::AlreadyAnswered if attempt > 1 => {
                        self.sent.store(true, Ordering::SeqCst);
                        crate::discord::gateway::telemetry::first_callback();
                        return Ok(());
                    }
                    Failure::Server if !retried_5xx => {
                        retried_5xx = true;
                        scrubbed(&e)
                    }
                    Failure::RateLimited if rate_limited < 2 => {
                        rate_limited += 1;
                        tokio::time::sleep(RATE_LIMIT_PAUSE).await;
                        scrubbed(&e)
                    }
                    _ => {
                        tracing::warn!(interaction = %self.id, attempt, error = %scrubbed(&e), "interaction callback failed");
                        return Err(e);
                    }
                },
                Err(_) if !retried_5xx => {
                    retried_5xx = true;
                    format!("timed out after {limit:?}")
                }
                Err(_) => {
                    tracing::warn!(interaction = %self.id, attempt, "interaction callback timed out");
                    return Err(serenity::Error::Other("interaction callback timed out"));
                }
            };
            if Instant::now() >= deadline {
                tracing::warn!(interaction = %self.id, attempt, reason = %retry_reason,
                    "interaction callback failed and Discord's 3 s window is over");
                return Err(serenity::Error::Other("interaction callback window over"));
            }
            tracing::warn!(interaction = %self.id, attempt, reason = %retry_reason, "retrying interaction callback");
        }
    }
}

impl Drop for Responder<'_> {
    /// A handling that ended without another answer: what waited goes now.
    fn drop(&mut self) {
        self.answered();
    }
}

/// `error` as text for a log line, with the secrets of interaction and webhook URLs cut out:
/// the token after `/interactions/<id>/` and after `/webhooks/<application>/` becomes
/// `[token]`. HTTP errors carry the URL they were sent to, and an interaction's token lets
/// anyone answer in the bot's name for 15 minutes.
pub fn scrubbed(error: &dyn std::fmt::Display) -> String {
    scrub(&error.to_string())
}

/// See [`scrubbed`].
pub fn scrub(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let hit = ["/interactions/", "/webhooks/"]
            .iter()
            .filter_map(|m| rest.find(m).map(|i| (i, m.len())))
            .min();
        let Some((at, len)) = hit else {
            out.push_str(rest);
            return out;
        };
        let after = &rest[at + len..];
        // The id (digits), a slash, then the token up to the next delimiter.
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || after.as_bytes().get(digits) != Some(&b'/') {
            out.push_str(&rest[..at + len]);
            rest = after;
            continue;
        }
        let token_start = digits + 1;
        let token_len = after[token_start..]
            .find(|c: char| {
                matches!(c, '/' | '?' | '#' | ')' | '"' | '\'' | ' ') || c.is_whitespace()
            })
            .unwrap_or(after.len() - token_start);
        out.push_str(&rest[..at + len + token_start]);
        if token_len > 0 {
            out.push_str("[token]");
        }
        rest = &after[token_start + token_len..];
    }
}

enum Failure {
    Server,
    RateLimited,
    AlreadyAnswered,
    Other,
}

fn classify(e: &serenity::Error) -> Failure {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            let status = r.status_code.as_u16();
            if status == 429 {
                Failure::RateLimited
            } else if status >= 500 {
                Failure::Server
            } else if r.error.code == 40060 {
                // "Interaction has already been acknowledged"
                Failure::AlreadyAnswered
            } else {
                Failure::Other
            }
        }
        // A timeout, a refused connection, or a connection closed before the answer came
        // ("connection closed before message completed"): the callback may or may not have
        // arrived; sending it again is safe (a second copy is refused as already answered).
        serenity::Error::Http(serenity::HttpError::Request(r))
            if r.is_timeout() || r.is_connect() || r.is_request() =>
        {
            Failure::Server
        }
        _ => Failure::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_in_urls_are_scrubbed() {
        let token = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDpzZWNyZXQ";
        let e = format!(
            "error sending request for url (https://discord.com/api/v10/interactions/1234567890/{token}/callback): \
             connection closed; also http://127.0.0.1:9/api/v10/webhooks/42/{token}/messages/@original?wait=true \
             and /webhooks/42/{token}"
        );
        let s = scrub(&e);
        assert!(!s.contains(token), "{s}");
        assert_eq!(s.matches("[token]").count(), 3, "{s}");
        assert!(
            s.contains("/interactions/1234567890/[token]/callback"),
            "{s}"
        );
        assert!(
            s.contains("/webhooks/42/[token]/messages/@original?wait=true"),
            "{s}"
        );
        // Nothing else changes.
        let plain = "error: 404 /interactions/ and /webhooks/x/y and /channels/1/messages";
        assert_eq!(scrub(plain), plain);
    }

    #[test]
    fn replies_ping_only_the_named_users() {
        let v = serde_json::to_value(allowed_mentions(&[7, 9])).unwrap();
        assert_eq!(v["parse"], serde_json::json!([]));
        assert_eq!(v["users"], serde_json::json!(["7", "9"]));
        assert_eq!(v["roles"], serde_json::json!([]));
        let none = serde_json::to_value(allowed_mentions(&[])).unwrap();
        assert_eq!(none["parse"], serde_json::json!([]));
        assert_eq!(none["users"], serde_json::json!([]));
    }

    #[test]
    fn capping_counts_characters() {
        assert_eq!(cap_chars("abc", 3), "abc");
        assert_eq!(cap_chars("abcd", 3), "ab…");
        assert_eq!(cap_chars("ñññññ", 4).chars().count(), 4);
    }
}
