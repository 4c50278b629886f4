//! A fake Discord for end-to-end tests: one axum server on loopback serving the REST API under
//! `/api/v10/...` and a websocket gateway at `/gw`. The real bot connects to it unchanged
//! (see `DISCORD_API_BASE`). Every REST request is recorded (unknown routes get a 404 and are
//! recorded too), so tests assert on what the bot sent.
//!
//! Payload details follow serenity 0.12.5 + poise 0.7.1 (see the shared notes): interactions
//! carry `attachment_size_limit`, `entitlements`, `locale`, `app_permissions` and
//! `member.permissions`, or serenity drops them silently.

#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, FromRequest, Multipart, Request as AxumRequest, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot, watch};

/// The application (and bot user) id the fake announces.
pub const APP_ID: u64 = 1_000_000_000_000_000_042;
/// The guild every interaction comes from (unless a test says otherwise).
pub const GUILD_ID: u64 = 1_100_000_000_000_000_001;
/// Permissions sent as `member.permissions` and `app_permissions` (everything a bot needs).
pub const PERMISSIONS: &str = "2248473465835073";

/// One file part of a multipart request.
#[derive(Debug, Clone)]
pub struct FilePart {
    /// The part name, e.g. `files[0]`.
    pub name: String,
    /// The file name, e.g. `board.png`.
    pub filename: String,
    /// The bytes.
    pub data: Vec<u8>,
}

/// One REST request the bot made.
#[derive(Debug, Clone)]
pub struct Recorded {
    /// Sequence number (0-based) among all requests.
    pub n: usize,
    /// HTTP method.
    pub method: Method,
    /// Path after `/api/v10` (e.g. `/interactions/1/tok/callback`).
    pub path: String,
    /// The query string, if any.
    pub query: Option<String>,
    /// The JSON body (or multipart `payload_json`), if any.
    pub json: Option<Value>,
    /// Multipart files.
    pub files: Vec<FilePart>,
    /// The status the fake answered.
    pub status: u16,
    /// When it arrived.
    pub at: Instant,
    /// The channel or thread of the message it made or changed, if any (an interaction's
    /// callbacks, followups and edits are in the interaction's channel).
    pub channel: Option<u64>,
    /// The id of the message it made or changed, if any.
    pub message_id: Option<u64>,
}

impl Recorded {
    /// For a callback: the callback type (4 message, 5 defer, 6 deferred update, 7 update, 8 autocomplete).
    pub fn callback_type(&self) -> Option<u64> {
        self.json.as_ref()?.get("type")?.as_u64()
    }

    /// The message data of a callback (`data`), or the body of a webhook request.
    pub fn message(&self) -> Value {
        let j = self.json.clone().unwrap_or(Value::Null);
        if self.path.ends_with("/callback") {
            j.get("data").cloned().unwrap_or(Value::Null)
        } else {
            j
        }
    }

    /// The message content.
    pub fn content(&self) -> String {
        self.message()
            .get("content")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    }

    /// Whether the message has the ephemeral flag (64).
    pub fn is_ephemeral(&self) -> bool {
        self.message()
            .get("flags")
            .and_then(Value::as_u64)
            .is_some_and(|f| f & 64 != 0)
    }

    /// The embeds of the message.
    pub fn embeds(&self) -> Vec<Value> {
        self.message()
            .get("embeds")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    }

    /// All visible text of the message: content, embed titles, descriptions, fields and footers.
    pub fn text(&self) -> String {
        let mut s = self.content();
        for e in self.embeds() {
            for k in ["title", "description"] {
                if let Some(t) = e.get(k).and_then(Value::as_str) {
                    s.push('\n');
                    s.push_str(t);
                }
            }
            for f in e
                .get("fields")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
            {
                s.push('\n');
                s.push_str(f.get("name").and_then(Value::as_str).unwrap_or(""));
                s.push_str(": ");
                s.push_str(f.get("value").and_then(Value::as_str).unwrap_or(""));
            }
            if let Some(t) = e.pointer("/footer/text").and_then(Value::as_str) {
                s.push('\n');
                s.push_str(t);
            }
        }
        s
    }

    /// The custom ids of the message's buttons.
    pub fn custom_ids(&self) -> Vec<String> {
        let mut out = Vec::new();
        for row in self
            .message()
            .get("components")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
        {
            for c in row
                .get("components")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
            {
                if let Some(id) = c.get("custom_id").and_then(Value::as_str) {
                    out.push(id.to_string());
                }
            }
        }
        out
    }

    /// The URLs of the message's link buttons (component type 2, style 5).
    pub fn link_urls(&self) -> Vec<String> {
        let mut out = Vec::new();
        for row in self
            .message()
            .get("components")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
        {
            for c in row
                .get("components")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
            {
                if c["type"] == 2
                    && c["style"] == 5
                    && let Some(url) = c.get("url").and_then(Value::as_str)
                {
                    out.push(url.to_string());
                }
            }
        }
        out
    }

    /// The attachment descriptors of `payload_json` (filename, description).
    pub fn attachments(&self) -> Vec<Value> {
        self.message()
            .get("attachments")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    }

    /// The uploaded file with this file name.
    pub fn file(&self, filename: &str) -> Option<&FilePart> {
        self.files.iter().find(|f| f.filename == filename)
    }

    /// Autocomplete choices (name, value) of a type-8 callback.
    pub fn choices(&self) -> Vec<(String, String)> {
        self.message()
            .get("choices")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .map(|c| {
                (
                    c.get("name").and_then(Value::as_str).unwrap_or("").into(),
                    c.get("value")
                        .map(|v| v.as_str().map(String::from).unwrap_or(v.to_string()))
                        .unwrap_or_default(),
                )
            })
            .collect()
    }
}

/// Something the gateway side saw or did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GatewayEvent {
    /// A websocket connection was opened.
    Connected,
    /// The client identified.
    Identify,
    /// The client resumed with this sequence number.
    Resume(u64),
    /// The client sent a heartbeat.
    Heartbeat,
    /// The connection ended.
    Disconnected,
}

enum GwCmd {
    Send(String),
    Close(u16),
}

/// [`Failure::status`] that closes the connection instead of answering.
pub const DROP_CONNECTION: u16 = 0;

/// A thread the bot opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thread {
    /// Its id (the message it was opened on).
    pub id: u64,
    /// Its channel.
    pub parent: u64,
    /// Its name.
    pub name: String,
    /// Whether it is archived (posts into it are refused until it is reopened).
    pub archived: bool,
    /// Minutes without messages before Discord archives it.
    pub auto_archive: u64,
}

/// What the fake knows of one interaction (by token).
#[derive(Debug, Clone, Default)]
struct Ix {
    channel: u64,
    clicked: Option<u64>,
    original: Option<u64>,
    deferred: bool,
    followups: usize,
}

/// A planned failure for the next matching request.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The request path must contain this.
    pub path_contains: String,
    /// The status to answer (e.g. 500, 429), or [`DROP_CONNECTION`] to close the
    /// connection without answering (the client sees "connection closed before message
    /// completed").
    pub status: u16,
    /// The body to answer.
    pub body: Value,
    /// Delay before answering.
    pub delay: Duration,
}

struct Inner {
    port: u16,
    heartbeat_ms: u64,
    requests: Mutex<Vec<Recorded>>,
    gateway_log: Mutex<Vec<(GatewayEvent, Instant)>>,
    bump: watch::Sender<u64>,
    gateway: Mutex<Option<mpsc::UnboundedSender<GwCmd>>>,
    /// The connection of each shard that identified, by shard id (the latest one wins).
    shard_gateways: Mutex<HashMap<u64, mpsc::UnboundedSender<GwCmd>>>,
    /// The `shard` field `[id, total]` of every IDENTIFY, in order, with when it came.
    identified: Mutex<Vec<([u64; 2], Instant)>>,
    seq: AtomicU64,
    sessions: AtomicU64,
    ids: AtomicU64,
    failures: Mutex<VecDeque<Failure>>,
    /// Waiters for the callback of an interaction id.
    waiters: Mutex<HashMap<String, oneshot::Sender<Recorded>>>,
    /// Keep uploaded file bytes (off: only the first 64 bytes, for long benchmarks).
    keep_files: AtomicBool,
    /// Paths of the requests that arrived (recorded when answered, which a planned delay
    /// postpones).
    arrived: Mutex<Vec<String>>,
    /// Every message made: its channel.
    messages: Mutex<HashMap<u64, u64>>,
    /// The interactions sent, by token.
    interactions: Mutex<HashMap<String, Ix>>,
    /// The threads opened, by id.
    threads: Mutex<HashMap<u64, Thread>>,
    /// Channels where the bot may not open threads (403, code 50013).
    no_threads: Mutex<std::collections::HashSet<u64>>,
    /// Channel messages created, as (channel, body): a repeat with the nonce of a recent
    /// message and `enforce_nonce` creates nothing (Discord answers with the first).
    created: Mutex<Vec<(String, Value)>>,
    /// The messages created with a nonce, by (channel, nonce).
    nonces: Mutex<HashMap<(String, String), Value>>,
}

impl Inner {
    fn bump(&self) {
        self.bump.send_modify(|v| *v += 1);
    }
    fn gw(&self, e: GatewayEvent) {
        self.gateway_log.lock().unwrap().push((e, Instant::now()));
        self.bump();
    }
    fn next_id(&self) -> u64 {
        1_300_000_000_000_000_000 + self.ids.fetch_add(1, Ordering::Relaxed)
    }
}

/// The fake Discord server.
#[derive(Clone)]
pub struct FakeDiscord {
    inner: Arc<Inner>,
    /// `http://127.0.0.1:PORT`: the bot's `DISCORD_API_BASE`.
    pub base: String,
}

/// A user of the fake guild.
#[derive(Debug, Clone)]
pub struct FakeUser {
    /// The snowflake.
    pub id: u64,
    /// The user name.
    pub name: String,
    /// Whether it is a bot account.
    pub bot: bool,
    /// The nickname on the fake guild (the interaction's `member.nick`), if any.
    pub nick: Option<String>,
}

impl FakeUser {
    /// A human user.
    pub fn new(id: u64, name: &str) -> Self {
        Self {
            id,
            name: name.into(),
            bot: false,
            nick: None,
        }
    }

    /// The same user with the nickname `nick` on the fake guild.
    pub fn with_nick(self, nick: &str) -> Self {
        Self {
            nick: Some(nick.into()),
            ..self
        }
    }

    /// The user object as Discord sends it.
    pub fn json(&self) -> Value {
        json!({"id": self.id.to_string(), "username": self.name, "global_name": self.name,
               "discriminator": "0", "avatar": null, "bot": self.bot})
    }

    /// A mention of this user.
    pub fn mention(&self) -> String {
        format!("<@{}>", self.id)
    }
}

impl FakeDiscord {
    /// Starts the fake on a free loopback port with this heartbeat interval.
    pub async fn start(heartbeat_ms: u64) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind loopback");
        let port = listener.local_addr().unwrap().port();
        let (bump, _) = watch::channel(0);
        let inner = Arc::new(Inner {
            port,
            heartbeat_ms,
            requests: Mutex::new(Vec::new()),
            gateway_log: Mutex::new(Vec::new()),
            bump,
            gateway: Mutex::new(None),
            shard_gateways: Mutex::new(HashMap::new()),
            identified: Mutex::new(Vec::new()),
            seq: AtomicU64::new(0),
            sessions: AtomicU64::new(0),
            ids: AtomicU64::new(1),
            failures: Mutex::new(VecDeque::new()),
            waiters: Mutex::new(HashMap::new()),
            keep_files: AtomicBool::new(true),
            arrived: Mutex::new(Vec::new()),
            messages: Mutex::new(HashMap::new()),
            interactions: Mutex::new(HashMap::new()),
            threads: Mutex::new(HashMap::new()),
            no_threads: Mutex::new(std::collections::HashSet::new()),
            created: Mutex::new(Vec::new()),
            nonces: Mutex::new(HashMap::new()),
        });
        let app = Router::new()
            .route("/gw", any(gateway))
            .fallback(rest)
            .layer(DefaultBodyLimit::max(64 * 1024 * 1024))
            .with_state(inner.clone());
        // Discord's edge answers without Nagle's delay; without TCP_NODELAY here, each small
        // gateway frame would wait for the bot's delayed ACK of the previous one (up to 40 ms
        // on Linux), a delay the real service does not add.
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            let _ = tcp.set_nodelay(true);
        });
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self {
            inner,
            base: format!("http://127.0.0.1:{port}"),
        }
    }

    /// Every request so far.
    pub fn requests(&self) -> Vec<Recorded> {
        self.inner.requests.lock().unwrap().clone()
    }

    /// The first request at index `from` or later matching `pred` (cloning only that one).
    pub fn find_request(&self, from: usize, pred: impl Fn(&Recorded) -> bool) -> Option<Recorded> {
        let reqs = self.inner.requests.lock().unwrap();
        reqs.iter().skip(from).find(|r| pred(r)).cloned()
    }

    /// How many requests were recorded.
    pub fn request_count(&self) -> usize {
        self.inner.requests.lock().unwrap().len()
    }

    /// Every gateway event so far.
    pub fn gateway_events(&self) -> Vec<GatewayEvent> {
        self.inner
            .gateway_log
            .lock()
            .unwrap()
            .iter()
            .map(|(e, _)| e.clone())
            .collect()
    }

    /// Requests whose path is not one the fake knows (answered 404).
    pub fn unknown_requests(&self) -> Vec<Recorded> {
        self.requests()
            .into_iter()
            .filter(|r| r.status == 404)
            .collect()
    }

    /// Makes the next request whose path contains `path_contains` fail this way.
    pub fn fail_next(&self, f: Failure) {
        self.inner.failures.lock().unwrap().push_back(f);
    }

    /// Waits until `check` returns `Some`, re-checking whenever anything is recorded.
    pub async fn wait_for<T>(
        &self,
        what: &str,
        timeout: Duration,
        mut check: impl FnMut(&FakeDiscord) -> Option<T>,
    ) -> T {
        let mut rx = self.inner.bump.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            rx.borrow_and_update();
            if let Some(t) = check(self) {
                return t;
            }
            match tokio::time::timeout_at(deadline, rx.changed()).await {
                Ok(Ok(())) => {}
                _ => {
                    if let Some(t) = check(self) {
                        return t;
                    }
                    panic!(
                        "timed out after {timeout:?} waiting for {what}\nrequests: {:#?}\ngateway: {:?}",
                        self.requests()
                            .iter()
                            .map(|r| format!("{} {} -> {}", r.method, r.path, r.status))
                            .collect::<Vec<_>>(),
                        self.gateway_events()
                    )
                }
            }
        }
    }

    /// Waits for the first request (at index `from` or later) matching `pred`.
    pub async fn wait_request(
        &self,
        what: &str,
        from: usize,
        pred: impl Fn(&Recorded) -> bool,
    ) -> Recorded {
        self.wait_for(what, Duration::from_secs(30), |f| {
            f.find_request(from, &pred)
        })
        .await
    }

    /// Number of times `event` was seen.
    pub fn count(&self, event: &GatewayEvent) -> usize {
        self.gateway_events().iter().filter(|e| *e == event).count()
    }

    /// Waits until the bot has identified (or resumed) `n` times in total and processed READY:
    /// READY is processed when the bot asks for its application info (it does at every READY),
    /// or at the first heartbeat after the identify.
    pub async fn wait_ready(&self, identifies: usize) {
        self.wait_for("READY processed", Duration::from_secs(30), |f| {
            let log = f.inner.gateway_log.lock().unwrap().clone();
            let (_, at) = log
                .iter()
                .filter(|(e, _)| *e == GatewayEvent::Identify)
                .nth(identifies - 1)?;
            let app_info = f
                .find_request(0, |r| r.path == "/oauth2/applications/@me" && r.at >= *at)
                .is_some();
            let beat = log
                .iter()
                .any(|(e, t)| *e == GatewayEvent::Heartbeat && t >= at);
            (app_info || beat).then_some(())
        })
        .await
    }

    /// Sends a dispatch event on the current gateway connection; when the bot identified
    /// with more than one shard, an event of a guild goes to the shard Discord would route it
    /// to, `(guild_id >> 22) % total`.
    pub fn dispatch(&self, t: &str, d: Value) {
        let s = self.inner.seq.fetch_add(1, Ordering::SeqCst) + 1;
        let guild = d
            .get("guild_id")
            .and_then(Value::as_str)
            .and_then(|g| g.parse::<u64>().ok());
        let frame = json!({"op": 0, "s": s, "t": t, "d": d}).to_string();
        let total = self
            .inner
            .identified
            .lock()
            .unwrap()
            .last()
            .map_or(1, |(shard, _)| shard[1]);
        if total > 1 {
            let shard = guild.map_or(0, |g| (g >> 22) % total);
            let gws = self.inner.shard_gateways.lock().unwrap();
            gws.get(&shard)
                .unwrap_or_else(|| panic!("no gateway connection for shard {shard}"))
                .send(GwCmd::Send(frame))
                .expect("gateway connection gone");
            return;
        }
        let gw = self.inner.gateway.lock().unwrap();
        gw.as_ref()
            .expect("no gateway connection")
            .send(GwCmd::Send(frame))
            .expect("gateway connection gone");
    }

    /// The `shard` field `[id, total]` of every IDENTIFY so far, in order, with when it came.
    pub fn identified_shards(&self) -> Vec<([u64; 2], Instant)> {
        self.inner.identified.lock().unwrap().clone()
    }

    /// Sends an invalid session that cannot be resumed (`op` 9, `d: false`) on the current
    /// gateway connection: the bot must IDENTIFY again, on a new connection.
    pub fn invalidate_session(&self) {
        if let Some(gw) = self.inner.gateway.lock().unwrap().as_ref() {
            let _ = gw.send(GwCmd::Send(json!({"op": 9, "d": false}).to_string()));
        }
    }

    /// Closes the gateway connection with this close code (4000: resumable).
    pub fn close_gateway(&self, code: u16) {
        if let Some(gw) = self.inner.gateway.lock().unwrap().as_ref() {
            let _ = gw.send(GwCmd::Close(code));
        }
    }

    /// The channel messages created in `channel` (`POST /channels/{id}/messages` bodies), in
    /// order; repeats that Discord drops by their nonce are not there.
    pub fn created_messages(&self, channel: u64) -> Vec<Value> {
        let ch = channel.to_string();
        self.inner
            .created
            .lock()
            .unwrap()
            .iter()
            .filter(|(c, _)| *c == ch)
            .map(|(_, b)| b.clone())
            .collect()
    }

    /// Whether a request whose path contains `part` arrived (answered or not).
    pub fn arrived(&self, part: &str) -> bool {
        self.inner
            .arrived
            .lock()
            .unwrap()
            .iter()
            .any(|p| p.contains(part))
    }

    /// Keeps only the first 64 bytes of uploaded files (for long runs).
    pub fn keep_files(&self, keep: bool) {
        self.inner.keep_files.store(keep, Ordering::Relaxed);
    }

    /// Sends an interaction and returns a receiver for its first successful callback
    /// (cheap: no scanning of the request log; for load tests).
    pub fn send_interaction(&self, payload: &Value) -> oneshot::Receiver<Recorded> {
        let id = payload["id"].as_str().unwrap().to_string();
        if let Some(token) = payload["token"].as_str() {
            let ix = Ix {
                channel: payload["channel_id"]
                    .as_str()
                    .and_then(|c| c.parse().ok())
                    .unwrap_or(0),
                clicked: payload
                    .pointer("/message/id")
                    .and_then(Value::as_str)
                    .and_then(|m| m.parse().ok()),
                ..Ix::default()
            };
            self.inner
                .interactions
                .lock()
                .unwrap()
                .insert(token.to_string(), ix);
        }
        let (tx, rx) = oneshot::channel();
        self.inner.waiters.lock().unwrap().insert(id, tx);
        self.dispatch("INTERACTION_CREATE", payload.clone());
        rx
    }

    /// Sends an interaction and waits for its callback (`POST /interactions/{id}/.../callback`).
    pub async fn interact(&self, payload: &Value) -> Recorded {
        let id = payload["id"].as_str().unwrap().to_string();
        let rx = self.send_interaction(payload);
        match tokio::time::timeout(Duration::from_secs(30), rx).await {
            Ok(Ok(r)) => self.settle(payload, r).await,
            _ => panic!(
                "no callback for interaction {id} within 30 s\nrequests: {:#?}\ngateway: {:?}",
                self.requests()
                    .iter()
                    .map(|r| format!("{} {} -> {}", r.method, r.path, r.status))
                    .collect::<Vec<_>>(),
                self.gateway_events()
            ),
        }
    }

    /// The answer to an interaction: the callback itself, or, when the bot deferred (a busy
    /// machine), the followup or edit that came after, presented as if it were the callback
    /// (type 4 for a followup, 7 for an edit of the clicked message).
    pub async fn settle(&self, payload: &Value, callback: Recorded) -> Recorded {
        let kind = match callback.callback_type() {
            Some(5) => 4,
            Some(6) => 7,
            _ => return callback,
        };
        let token = payload["token"].as_str().unwrap();
        let followup = format!("/webhooks/{APP_ID}/{token}");
        let edit = format!("{followup}/messages/@original");
        let r = self
            .wait_request(
                &format!("the answer after a defer ({token})"),
                callback.n,
                |r| {
                    (kind == 4 && r.method == Method::POST && r.path == followup)
                        || (kind == 7 && r.method == Method::PATCH && r.path == edit)
                },
            )
            .await;
        Recorded {
            json: Some(json!({"type": kind, "data": r.json.clone().unwrap_or(Value::Null)})),
            path: callback.path.clone(),
            ..r
        }
    }

    /// Waits for the callback of interaction `id` (a successful one).
    pub async fn callback(&self, id: &str, from: usize) -> Recorded {
        let prefix = format!("/interactions/{id}/");
        self.wait_request(&format!("callback of interaction {id}"), from, |r| {
            r.path.starts_with(&prefix) && r.path.ends_with("/callback") && r.status < 300
        })
        .await
    }

    /// Waits for a followup (`POST /webhooks/{app}/{token}`) of the interaction with this token.
    pub async fn followup(&self, token: &str, from: usize) -> Recorded {
        let path = format!("/webhooks/{APP_ID}/{token}");
        self.wait_request(&format!("followup of {token}"), from, |r| {
            r.method == Method::POST && r.path == path
        })
        .await
    }

    /// The threads the bot opened, oldest first.
    pub fn threads(&self) -> Vec<Thread> {
        let mut t: Vec<Thread> = self
            .inner
            .threads
            .lock()
            .unwrap()
            .values()
            .cloned()
            .collect();
        t.sort_by_key(|t| t.id);
        t
    }

    /// The thread `id`, if the bot opened it.
    pub fn thread(&self, id: u64) -> Option<Thread> {
        self.inner.threads.lock().unwrap().get(&id).cloned()
    }

    /// Archives thread `id` (as Discord does after its auto-archive time, or a moderator).
    pub fn archive_thread(&self, id: u64) {
        if let Some(t) = self.inner.threads.lock().unwrap().get_mut(&id) {
            t.archived = true;
        }
    }

    /// Withdraws the bot's permission to open threads in `channel`: Discord answers 403 with
    /// code 50013.
    pub fn deny_threads(&self, channel: u64) {
        self.inner.no_threads.lock().unwrap().insert(channel);
    }

    /// The requests that made or changed a message in `channel` (a channel or a thread):
    /// interaction answers there, and posts to it.
    pub fn posts_in(&self, channel: u64) -> Vec<Recorded> {
        self.requests()
            .into_iter()
            .filter(|r| r.channel == Some(channel) && r.status < 300)
            .collect()
    }

    /// Waits for a post (`POST /channels/{channel}/messages`) at index `from` or later.
    pub async fn post_to(&self, channel: u64, from: usize) -> Recorded {
        let path = format!("/channels/{channel}/messages");
        self.wait_request(&format!("a post in {channel}"), from, |r| {
            r.method == Method::POST && r.path == path && r.status < 300
        })
        .await
    }

    /// A fresh unique snowflake for an interaction.
    pub fn snowflake(&self) -> u64 {
        1_600_000_000_000_000_000 + self.inner.ids.fetch_add(1, Ordering::Relaxed)
    }
}

/// Builds interaction payloads for one channel.
#[derive(Debug, Clone)]
pub struct Channel {
    /// The channel id.
    pub id: u64,
    /// The guild id (`None`: a DM).
    pub guild: Option<u64>,
    /// When it is a thread: its channel.
    pub parent: Option<u64>,
    /// The bot's permissions there (`app_permissions`).
    pub permissions: String,
}

fn option_json(name: &str, value: &Value, focused: bool) -> Value {
    let ty = match value {
        Value::Bool(_) => 5,
        Value::Number(_) => 4,
        _ => 3,
    };
    let mut o = json!({"name": name, "type": ty, "value": value});
    if focused {
        o["focused"] = json!(true);
    }
    o
}

impl Channel {
    /// A guild channel.
    pub fn new(id: u64) -> Self {
        Self {
            id,
            guild: Some(GUILD_ID),
            parent: None,
            permissions: PERMISSIONS.to_string(),
        }
    }

    /// A public thread of the channel `parent`.
    pub fn thread(id: u64, parent: u64) -> Self {
        Self {
            parent: Some(parent),
            ..Self::new(id)
        }
    }

    /// The same channel, the bot having `permissions` there.
    pub fn with_permissions(self, permissions: u64) -> Self {
        Self {
            permissions: permissions.to_string(),
            ..self
        }
    }

    fn base(&self, fake: &FakeDiscord, ty: u8, user: &FakeUser, locale: &str) -> Value {
        let id = fake.snowflake().to_string();
        let mut v = json!({
            "id": id, "application_id": APP_ID.to_string(), "type": ty,
            "token": format!("tok-{id}"), "version": 1,
            "channel_id": self.id.to_string(),
            "channel": match self.parent {
                Some(p) => json!({"id": self.id.to_string(), "type": 11, "parent_id": p.to_string()}),
                None => json!({"id": self.id.to_string(), "type": 0}),
            },
            "app_permissions": self.permissions, "locale": locale, "entitlements": [],
            "attachment_size_limit": 10_485_760,
        });
        match self.guild {
            Some(g) => {
                v["guild_id"] = json!(g.to_string());
                v["guild_locale"] = json!("en-US");
                v["member"] = json!({"user": user.json(), "roles": [], "deaf": false, "mute": false,
                    "flags": 0, "permissions": PERMISSIONS, "joined_at": "2024-01-01T00:00:00.000000+00:00"});
                if let Some(nick) = &user.nick {
                    v["member"]["nick"] = json!(nick);
                }
                v["authorizing_integration_owners"] = json!({"0": g.to_string()});
                v["context"] = json!(0);
            }
            None => {
                v["user"] = user.json();
                v["authorizing_integration_owners"] = json!({"1": user.id.to_string()});
                v["context"] = json!(1);
            }
        }
        v
    }

    /// A slash command `/name opt:value ...`. User options must also be passed in `users`
    /// (they go into `resolved`).
    pub fn command(
        &self,
        fake: &FakeDiscord,
        user: &FakeUser,
        locale: &str,
        name: &str,
        options: &[(&str, Value)],
        users: &[&FakeUser],
    ) -> Value {
        let mut v = self.base(fake, 2, user, locale);
        let opts: Vec<Value> = options
            .iter()
            .map(|(n, val)| {
                let mut o = option_json(n, val, false);
                if users
                    .iter()
                    .any(|u| Some(u.id.to_string().as_str()) == val.as_str())
                {
                    o["type"] = json!(6);
                }
                o
            })
            .collect();
        let mut data =
            json!({"id": "1400000000000000001", "name": name, "type": 1, "options": opts});
        if !users.is_empty() {
            let mut resolved = serde_json::Map::new();
            let mut members = serde_json::Map::new();
            for u in users {
                resolved.insert(u.id.to_string(), u.json());
                let mut member = json!({"roles": [], "joined_at": "2024-01-01T00:00:00.000000+00:00",
                       "deaf": false, "mute": false, "flags": 0, "permissions": PERMISSIONS});
                if let Some(nick) = &u.nick {
                    member["nick"] = json!(nick);
                }
                members.insert(u.id.to_string(), member);
            }
            data["resolved"] = json!({"users": resolved, "members": members});
        }
        v["data"] = data;
        v
    }

    /// An autocomplete request for `/name` with `focused` being typed as `partial`.
    pub fn autocomplete(
        &self,
        fake: &FakeDiscord,
        user: &FakeUser,
        locale: &str,
        name: &str,
        focused: &str,
        partial: &str,
    ) -> Value {
        let mut v = self.base(fake, 4, user, locale);
        v["data"] = json!({"id": "1400000000000000001", "name": name, "type": 1,
            "options": [option_json(focused, &json!(partial), true)]});
        v
    }

    /// A plain message `content` by `user` (a MESSAGE_CREATE payload).
    pub fn message(&self, fake: &FakeDiscord, user: &FakeUser, content: &str) -> Value {
        let mut v = json!({
            "id": fake.snowflake().to_string(), "channel_id": self.id.to_string(),
            "author": user.json(), "content": content,
            "timestamp": "2025-01-01T00:00:00.000000+00:00", "edited_timestamp": null,
            "tts": false, "mention_everyone": false, "mentions": [], "mention_roles": [],
            "attachments": [], "embeds": [], "pinned": false, "type": 0,
        });
        if let Some(g) = self.guild {
            v["guild_id"] = json!(g.to_string());
            v["member"] = json!({"roles": [], "joined_at": "2024-01-01T00:00:00.000000+00:00",
                "deaf": false, "mute": false, "flags": 0});
        }
        v
    }

    /// A click on the button `custom_id` of the bot's message `message` (the callback or
    /// followup that created it).
    pub fn click(
        &self,
        fake: &FakeDiscord,
        user: &FakeUser,
        locale: &str,
        message: &Recorded,
        custom_id: &str,
    ) -> Value {
        let mut v = self.base(fake, 3, user, locale);
        let m = message.message();
        let components: Vec<Value> = m
            .get("components")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .map(|row| {
                let comps: Vec<Value> = row
                    .get("components")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default()
                    .into_iter()
                    .map(|c| {
                        json!({"type": 2, "style": c.get("style").cloned().unwrap_or(json!(1)),
                               "custom_id": c.get("custom_id").cloned().unwrap_or(json!("")),
                               "label": c.get("label").cloned().unwrap_or(json!(""))})
                    })
                    .collect();
                json!({"type": 1, "components": comps})
            })
            .collect();
        v["data"] = json!({"custom_id": custom_id, "component_type": 2});
        let id = message.message_id.unwrap_or_else(|| fake.inner.next_id());
        v["message"] = json!({
            "id": id.to_string(), "channel_id": self.id.to_string(),
            "author": {"id": APP_ID.to_string(), "username": "cajitas", "bot": true},
            "content": m.get("content").cloned().unwrap_or(json!("")),
            "timestamp": "2025-01-01T00:00:00.000000+00:00", "tts": false,
            "mention_everyone": false, "mentions": [], "mention_roles": [], "attachments": [],
            "embeds": [], "pinned": false, "type": 0, "components": components,
            "flags": if message.is_ephemeral() { 64 } else { 0 },
        });
        v
    }
}

// ---------------------------------------------------------------- the server

fn message_with(id: u64, channel: u64, body: Option<&Value>) -> Value {
    let content = body
        .and_then(|b| b.get("content"))
        .cloned()
        .unwrap_or(json!(""));
    json!({
        "id": id.to_string(), "channel_id": channel.to_string(),
        "author": {"id": APP_ID.to_string(), "username": "cajitas", "bot": true},
        "content": content, "timestamp": "2025-01-01T00:00:00.000000+00:00",
        "tts": false, "mention_everyone": false, "mentions": [], "mention_roles": [],
        "attachments": [], "embeds": [], "pinned": false, "type": 0,
    })
}

/// The nonce of a `POST /channels/{ch}/messages` body sent with `enforce_nonce: true`: like
/// Discord, a message whose nonce was seen recently in the channel is not created again, and
/// the first one is returned.
fn enforced_nonce(body: Option<&Value>) -> Option<String> {
    body.filter(|b| b.get("enforce_nonce") == Some(&json!(true)))
        .and_then(|b| b.get("nonce"))
        .and_then(|n| {
            n.as_str()
                .map(str::to_owned)
                .or_else(|| Some(n.to_string()))
        })
}

async fn rest(State(inner): State<Arc<Inner>>, req: AxumRequest) -> Response {
    inner
        .arrived
        .lock()
        .unwrap()
        .push(req.uri().path().to_string());
    inner.bump();
    let method = req.method().clone();
    let uri = req.uri().clone();
    let full = uri.path().to_string();
    let query = uri.query().map(String::from);
    let is_multipart = req
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.starts_with("multipart/form-data"));
    let mut json_body = None;
    let mut files: Vec<FilePart> = Vec::new();
    if is_multipart {
        if let Ok(mut mp) = Multipart::from_request(req, &()).await {
            while let Ok(Some(field)) = mp.next_field().await {
                let name = field.name().unwrap_or("").to_string();
                let filename = field.file_name().map(String::from);
                let data = field.bytes().await.unwrap_or_default();
                if name == "payload_json" {
                    json_body = serde_json::from_slice(&data).ok();
                } else {
                    files.push(FilePart {
                        name,
                        filename: filename.unwrap_or_default(),
                        data: data.to_vec(),
                    });
                }
            }
        }
    } else {
        let bytes: Bytes = axum::body::to_bytes(req.into_body(), 64 * 1024 * 1024)
            .await
            .unwrap_or_default();
        if !bytes.is_empty() {
            json_body = serde_json::from_slice(&bytes).ok();
        }
    }

    let path = full.strip_prefix("/api/v10").unwrap_or(&full).to_string();
    let failure = {
        let mut f = inner.failures.lock().unwrap();
        match f.iter().position(|x| path.contains(&x.path_contains)) {
            Some(i) => f.remove(i),
            None => None,
        }
    };
    let mut made: (Option<u64>, Option<u64>) = (None, None);
    let (status, body): (u16, Option<Value>) = if let Some(f) = failure {
        tokio::time::sleep(f.delay).await;
        if f.status == DROP_CONNECTION {
            {
                let mut reqs = inner.requests.lock().unwrap();
                let n = reqs.len();
                reqs.push(Recorded {
                    n,
                    method,
                    path,
                    query,
                    json: json_body,
                    files,
                    status: DROP_CONNECTION,
                    at: Instant::now(),
                    channel: None,
                    message_id: None,
                });
            }
            inner.bump();
            // Ends this connection's task without a response: hyper drops the socket.
            // (resume_unwind skips the panic hook: nothing is printed.)
            std::panic::resume_unwind(Box::new("fake Discord: connection dropped"));
        }
        (f.status, (!f.body.is_null()).then_some(f.body))
    } else if !full.starts_with("/api/v10/") {
        (404, Some(json!({"message": "404: Not Found", "code": 0})))
    } else {
        let (status, body, channel, message) = route(&inner, &method, &path, json_body.as_ref());
        made = (channel, message);
        (status, body)
    };

    if !inner.keep_files.load(Ordering::Relaxed) {
        for f in &mut files {
            f.data.truncate(64);
        }
    }
    let waiter = if status < 300 && path.ends_with("/callback") {
        path.split('/')
            .nth(2)
            .and_then(|id| inner.waiters.lock().unwrap().remove(id))
    } else {
        None
    };
    let rec = {
        let mut reqs = inner.requests.lock().unwrap();
        let rec = Recorded {
            n: reqs.len(),
            method,
            path,
            query,
            json: json_body,
            files,
            status,
            at: Instant::now(),
            channel: made.0,
            message_id: made.1,
        };
        reqs.push(rec.clone());
        rec
    };
    if let Some(w) = waiter {
        let _ = w.send(rec);
    }
    inner.bump();

    let code = StatusCode::from_u16(status).unwrap();
    match body {
        Some(b) => {
            let mut resp = (code, axum::Json(b.clone())).into_response();
            if status == 429 {
                let secs = b.get("retry_after").and_then(Value::as_f64).unwrap_or(0.1);
                resp.headers_mut()
                    .insert("retry-after", secs.to_string().parse().unwrap());
                resp.headers_mut()
                    .insert("x-ratelimit-scope", "user".parse().unwrap());
            }
            resp
        }
        None => code.into_response(),
    }
}

fn route(
    inner: &Inner,
    method: &Method,
    path: &str,
    body: Option<&Value>,
) -> (u16, Option<Value>, Option<u64>, Option<u64>) {
    let (status, reply) = match (
        method.as_str(),
        path.trim_start_matches('/')
            .split('/')
            .collect::<Vec<_>>()
            .as_slice(),
    ) {
        ("POST", ["interactions", _, token, "callback"]) => {
            return interaction_callback(inner, token, body);
        }
        ("POST", ["webhooks", _, token]) => {
            let (channel, id) = {
                let mut ixs = inner.interactions.lock().unwrap();
                let ix = ixs.entry((*token).to_string()).or_default();
                // The first followup after a defer is the deferred message itself.
                let id = match (ix.deferred, ix.followups, ix.original) {
                    (true, 0, Some(original)) => original,
                    _ => inner.next_id(),
                };
                ix.followups += 1;
                (ix.channel, id)
            };
            inner.messages.lock().unwrap().insert(id, channel);
            return (
                200,
                Some(message_with(id, channel, body)),
                Some(channel),
                Some(id),
            );
        }
        ("GET" | "PATCH", ["webhooks", _, token, "messages", which]) => {
            let ix = inner
                .interactions
                .lock()
                .unwrap()
                .get(*token)
                .cloned()
                .unwrap_or_default();
            let id = match *which {
                "@original" => ix.original.or(ix.clicked),
                other => other.parse().ok(),
            };
            let Some(id) = id else {
                return (
                    404,
                    Some(json!({"message": "Unknown Message", "code": 10008})),
                    None,
                    None,
                );
            };
            let changed = (method == Method::PATCH).then_some(id);
            return (
                200,
                Some(message_with(id, ix.channel, body)),
                changed.map(|_| ix.channel),
                changed,
            );
        }
        ("POST", ["channels", ch, "messages"]) => {
            let ch: u64 = ch.parse().unwrap_or(0);
            if inner
                .threads
                .lock()
                .unwrap()
                .get(&ch)
                .is_some_and(|t| t.archived)
            {
                return (
                    400,
                    Some(json!({"message": "Thread is archived", "code": 50083})),
                    None,
                    None,
                );
            }
            let nonce = enforced_nonce(body).map(|n| (ch.to_string(), n));
            if let Some(first) = nonce
                .as_ref()
                .and_then(|k| inner.nonces.lock().unwrap().get(k).cloned())
            {
                return (200, Some(first), None, None);
            }
            let id = inner.next_id();
            inner.messages.lock().unwrap().insert(id, ch);
            let msg = message_with(id, ch, body);
            if let Some(k) = nonce {
                inner.nonces.lock().unwrap().insert(k, msg.clone());
            }
            inner
                .created
                .lock()
                .unwrap()
                .push((ch.to_string(), body.cloned().unwrap_or(Value::Null)));
            return (200, Some(msg), Some(ch), Some(id));
        }
        ("POST", ["channels", ch, "messages", m, "threads"]) => {
            let (ch, m): (u64, u64) = (ch.parse().unwrap_or(0), m.parse().unwrap_or(0));
            return open_thread(inner, ch, m, body);
        }
        ("PATCH", ["channels", ch, "messages", m]) => {
            // An edit of a message the bot posted: its new state.
            let (ch, m): (u64, u64) = (ch.parse().unwrap_or(0), m.parse().unwrap_or(0));
            if inner.messages.lock().unwrap().get(&m) != Some(&ch) {
                return (
                    404,
                    Some(json!({"message": "Unknown Message", "code": 10008})),
                    None,
                    None,
                );
            }
            return (200, Some(message_with(m, ch, body)), Some(ch), Some(m));
        }
        ("PATCH", ["channels", t]) => {
            let t: u64 = t.parse().unwrap_or(0);
            let mut threads = inner.threads.lock().unwrap();
            let Some(thread) = threads.get_mut(&t) else {
                return (
                    404,
                    Some(json!({"message": "Unknown Channel", "code": 10003})),
                    None,
                    None,
                );
            };
            if let Some(b) = body {
                if let Some(name) = b.get("name").and_then(Value::as_str) {
                    if name.is_empty() || name.chars().count() > 100 {
                        return (400, Some(invalid_name()), None, None);
                    }
                    thread.name = name.to_string();
                }
                if let Some(a) = b.get("archived").and_then(Value::as_bool) {
                    thread.archived = a;
                }
                if let Some(d) = b.get("auto_archive_duration").and_then(Value::as_u64) {
                    thread.auto_archive = d;
                }
            }
            (200, Some(thread_json(thread)))
        }
        // A server's scheduled event (an arena's start): external, with its place, start and
        // end, seen by the server's members only, as Discord requires of one.
        ("POST", ["guilds", guild, "scheduled-events"]) => {
            let b = body.cloned().unwrap_or_default();
            let location = b["entity_metadata"]["location"]
                .as_str()
                .unwrap_or_default();
            let valid = b["entity_type"] == json!(3)
                && !location.is_empty()
                && b["scheduled_start_time"].is_string()
                && b["scheduled_end_time"].is_string()
                && b["privacy_level"] == json!(2)
                && b["name"].as_str().is_some_and(|n| !n.is_empty());
            if !valid {
                return (400, Some(invalid_name()), None, None);
            }
            let id = inner.next_id();
            (
                200,
                Some(json!({
                    "id": id.to_string(), "guild_id": guild, "channel_id": null,
                    "creator_id": APP_ID.to_string(), "name": b["name"],
                    "description": b["description"], "scheduled_start_time": b["scheduled_start_time"],
                    "scheduled_end_time": b["scheduled_end_time"], "privacy_level": 2, "status": 1,
                    "entity_type": 3, "entity_id": null, "entity_metadata": {"location": location},
                    "creator": null, "user_count": 0, "image": null
                })),
            )
        }
        ("GET", ["gateway"]) => (
            200,
            Some(json!({"url": format!("ws://127.0.0.1:{}/gw", inner.port)})),
        ),
        (m, seg) => return old_route(inner, m, seg, body),
    };
    (status, reply, None, None)
}

fn invalid_name() -> Value {
    json!({"message": "Invalid Form Body", "code": 50035,
           "errors": {"name": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH",
               "message": "Must be between 1 and 100 in length."}]}}})
}

fn thread_json(t: &Thread) -> Value {
    json!({
        "id": t.id.to_string(), "type": 11, "guild_id": GUILD_ID.to_string(),
        "parent_id": t.parent.to_string(), "name": t.name, "owner_id": APP_ID.to_string(),
        "member_count": 1, "message_count": 0,
        "thread_metadata": {"archived": t.archived, "auto_archive_duration": t.auto_archive,
            "archive_timestamp": "2025-01-01T00:00:00.000000+00:00", "locked": false},
    })
}

/// `POST /channels/{ch}/messages/{m}/threads`, refused as Discord refuses it.
fn open_thread(
    inner: &Inner,
    ch: u64,
    m: u64,
    body: Option<&Value>,
) -> (u16, Option<Value>, Option<u64>, Option<u64>) {
    if inner.no_threads.lock().unwrap().contains(&ch) {
        return (
            403,
            Some(json!({"message": "Missing Permissions", "code": 50013})),
            None,
            None,
        );
    }
    let name = body
        .and_then(|b| b.get("name"))
        .and_then(Value::as_str)
        .unwrap_or("");
    if name.is_empty() || name.chars().count() > 100 {
        return (400, Some(invalid_name()), None, None);
    }
    if inner.messages.lock().unwrap().get(&m) != Some(&ch) {
        return (
            404,
            Some(json!({"message": "Unknown Message", "code": 10008})),
            None,
            None,
        );
    }
    let mut threads = inner.threads.lock().unwrap();
    if threads.contains_key(&m) {
        return (
            400,
            Some(
                json!({"message": "A thread has already been created for this message",
                        "code": 160004}),
            ),
            None,
            None,
        );
    }
    let t = Thread {
        id: m,
        parent: ch,
        name: name.to_string(),
        archived: false,
        auto_archive: body
            .and_then(|b| b.get("auto_archive_duration"))
            .and_then(Value::as_u64)
            .unwrap_or(4320),
    };
    let json = thread_json(&t);
    threads.insert(m, t);
    (201, Some(json), None, None)
}

/// An interaction callback: a message (type 4) or a defer (5) makes the original message in
/// the interaction's channel; an update (7) changes the clicked message.
fn interaction_callback(
    inner: &Inner,
    token: &str,
    body: Option<&Value>,
) -> (u16, Option<Value>, Option<u64>, Option<u64>) {
    let kind = body.and_then(|b| b.get("type")).and_then(Value::as_u64);
    let mut ixs = inner.interactions.lock().unwrap();
    let ix = ixs.entry(token.to_string()).or_default();
    let made = match kind {
        Some(4 | 5) => {
            let id = inner.next_id();
            ix.original = Some(id);
            ix.deferred = kind == Some(5);
            inner.messages.lock().unwrap().insert(id, ix.channel);
            Some(id)
        }
        Some(7) => ix.clicked,
        _ => None,
    };
    (204, None, made.map(|_| ix.channel), made)
}

fn old_route(
    inner: &Inner,
    method: &str,
    seg: &[&str],
    body: Option<&Value>,
) -> (u16, Option<Value>, Option<u64>, Option<u64>) {
    let path = format!("/{}", seg.join("/"));
    let ws = format!("ws://127.0.0.1:{}/gw", inner.port);
    let (status, reply) = match (method, seg) {
        ("GET", ["gateway", "bot"]) => (
            200,
            Some(json!({"url": ws, "shards": 1, "session_start_limit":
                {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}})),
        ),
        ("GET", ["oauth2", "applications", "@me"]) => (
            200,
            Some(
                json!({"id": APP_ID.to_string(), "name": "cajitas", "icon": null,
                "description": "", "bot_public": true, "bot_require_code_grant": false,
                "verify_key": "00", "flags": 0}),
            ),
        ),
        ("GET", ["users", "@me"]) => (
            200,
            Some(json!({"id": APP_ID.to_string(), "username": "cajitas", "bot": true})),
        ),
        ("PUT", ["applications", _, "commands"])
        | ("PUT", ["applications", _, "guilds", _, "commands"]) => {
            let cmds = body
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .map(|mut c| {
                    c["id"] = json!(inner.next_id().to_string());
                    c["application_id"] = json!(APP_ID.to_string());
                    c["version"] = json!("1");
                    if c.get("type").is_none() {
                        c["type"] = json!(1);
                    }
                    c
                })
                .collect::<Vec<_>>();
            (200, Some(Value::Array(cmds)))
        }
        ("DELETE", ["webhooks", _, _, "messages", _]) => (204, None),
        _ => (
            404,
            Some(json!({"message": format!("fake: no route {method} {path}"), "code": 0})),
        ),
    };
    (status, reply, None, None)
}

async fn gateway(State(inner): State<Arc<Inner>>, ws: WebSocketUpgrade) -> Response {
    ws.on_upgrade(move |socket| gateway_conn(inner, socket))
}

async fn gateway_conn(inner: Arc<Inner>, mut socket: WebSocket) {
    let (tx, mut rx) = mpsc::unbounded_channel();
    *inner.gateway.lock().unwrap() = Some(tx.clone());
    inner.gw(GatewayEvent::Connected);
    let hello = json!({"op": 10, "d": {"heartbeat_interval": inner.heartbeat_ms}}).to_string();
    if socket.send(WsMessage::Text(hello.into())).await.is_err() {
        inner.gw(GatewayEvent::Disconnected);
        return;
    }
    loop {
        tokio::select! {
            msg = socket.recv() => {
                let Some(Ok(msg)) = msg else { break };
                let text = match msg {
                    WsMessage::Text(t) => t.to_string(),
                    WsMessage::Binary(b) => String::from_utf8_lossy(&b).into_owned(),
                    WsMessage::Close(_) => break,
                    _ => continue,
                };
                let Ok(v) = serde_json::from_str::<Value>(&text) else { continue };
                let reply = match v.get("op").and_then(Value::as_u64) {
                    Some(1) => {
                        inner.gw(GatewayEvent::Heartbeat);
                        Some(json!({"op": 11}))
                    }
                    Some(2) => {
                        let shard = v
                            .pointer("/d/shard")
                            .and_then(Value::as_array)
                            .map(|a| [a.first().and_then(Value::as_u64).unwrap_or(0), a.get(1).and_then(Value::as_u64).unwrap_or(1)])
                            .unwrap_or([0, 1]);
                        inner.identified.lock().unwrap().push((shard, Instant::now()));
                        inner.shard_gateways.lock().unwrap().insert(shard[0], tx.clone());
                        inner.gw(GatewayEvent::Identify);
                        let n = inner.sessions.fetch_add(1, Ordering::SeqCst) + 1;
                        let s = inner.seq.fetch_add(1, Ordering::SeqCst) + 1;
                        Some(json!({"op": 0, "s": s, "t": "READY", "d": {
                            "v": 10,
                            "user": {"id": APP_ID.to_string(), "username": "cajitas", "bot": true},
                            "guilds": [], "session_id": format!("fake-session-{n}"),
                            "resume_gateway_url": format!("ws://127.0.0.1:{}/gw", inner.port),
                            "shard": shard,
                            "application": {"id": APP_ID.to_string(), "flags": 0}}}))
                    }
                    Some(6) => {
                        let seq = v.pointer("/d/seq").and_then(Value::as_u64).unwrap_or(0);
                        inner.gw(GatewayEvent::Resume(seq));
                        let s = inner.seq.fetch_add(1, Ordering::SeqCst) + 1;
                        Some(json!({"op": 0, "s": s, "t": "RESUMED", "d": {}}))
                    }
                    _ => None,
                };
                if let Some(r) = reply
                    && socket.send(WsMessage::Text(r.to_string().into())).await.is_err()
                {
                    break;
                }
            }
            cmd = rx.recv() => {
                match cmd {
                    Some(GwCmd::Send(frame)) => {
                        if socket.send(WsMessage::Text(frame.into())).await.is_err() {
                            break;
                        }
                    }
                    Some(GwCmd::Close(code)) => {
                        let _ = socket
                            .send(WsMessage::Close(Some(CloseFrame { code, reason: "fake close".into() })))
                            .await;
                        break;
                    }
                    None => break,
                }
            }
        }
    }
    inner.gw(GatewayEvent::Disconnected);
}
