//! The IDENTIFY relay: with several processes on one PostgreSQL database, every gateway
//! connection of this process goes through a relay on loopback that holds each IDENTIFY until
//! this process has the advisory lock of its rate-limit bucket (`shard_id % max_concurrency`),
//! and keeps the lock until [`IDENTIFY_SPACING`] after Discord answered it.
//!
//! Why a relay: serenity 0.12 IDENTIFYs on every new shard connection, at the first boot and
//! whenever a session is lost (an invalidated session, a failed resume: the shard manager then
//! starts the shard afresh), and offers no hook before either. Every one of those connections
//! reads the client's gateway URL first, so pointing that URL at the relay puts every
//! IDENTIFY, whatever started it, behind the lock. The relay connects to Discord before it
//! accepts serenity's handshake (a gateway it cannot reach fails serenity's connect, as it
//! would without the relay), then passes the text, binary and close frames through in order,
//! Discord's close codes included (pings are answered at each hop; serenity's own close is
//! answered with its code once Discord has answered it); an IDENTIFY waits for the lock with
//! only heartbeats passing it.

use std::io::Read as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures_util::{SinkExt as _, StreamExt as _};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

use crate::discord::gateway::releaser::Releaser;
use crate::store::{Coordination, NamedLock};

/// How long after Discord's answer to an IDENTIFY (READY or an invalid session) its bucket
/// stays taken: Discord allows one IDENTIFY per bucket per 5 s.
pub const IDENTIFY_SPACING: Duration = Duration::from_secs(5);
/// How long an IDENTIFY may wait for its answer before the bucket's spacing starts anyway.
const ANSWER_WAIT: Duration = Duration::from_secs(30);
/// How long connecting to Discord's gateway (or reading serenity's request line) may take.
const CONNECT_WAIT: Duration = Duration::from_secs(10);
/// How long Discord's answer to serenity's close is waited for, to pass it back.
const CLOSE_WAIT: Duration = Duration::from_secs(2);
/// How many times a failure to ask the database for the lock is tried again, and how soon.
const LOCK_ATTEMPTS: u32 = 3;
const LOCK_RETRY: Duration = Duration::from_secs(1);
/// The longest client frame the relay reads to look for an IDENTIFY (serenity's are a few
/// hundred bytes); longer text frames pass through unread.
const PEEK_LIMIT: usize = 16 * 1024;

/// The relay's settings, shared by its connections.
struct Relay {
    /// The gateway URL serenity was given (`GET /gateway`), without a query.
    upstream: String,
    coordination: Arc<dyn Coordination>,
    max_concurrency: u32,
    /// One IDENTIFY of this process waits on the database at a time: each wait holds a
    /// blocking thread and a connection of the locks' pool until it gets its lock.
    asking: tokio::sync::Mutex<()>,
}

/// Opens the relay in front of `upstream` (the gateway URL serenity got from Discord) and
/// returns the loopback URL to give serenity instead. The listener lives as long as the
/// runtime.
pub async fn open(
    upstream: String,
    coordination: Arc<dyn Coordination>,
    max_concurrency: u32,
) -> std::io::Result<String> {
    let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
    let local = format!("ws://{}", listener.local_addr()?);
    let relay = Arc::new(Relay {
        upstream,
        coordination,
        max_concurrency: max_concurrency.max(1),
        asking: tokio::sync::Mutex::new(()),
    });
    tokio::spawn(async move {
        loop {
            match listener.accept().await {
                Ok((tcp, _)) => {
                    let relay = Arc::clone(&relay);
                    tokio::spawn(async move {
                        match Arc::clone(&relay).relay(tcp).await {
                            Ok(()) => {}
                            Err(e) if ordinary_end(&e) => {
                                tracing::debug!(error = %e, "gateway relay ended");
                            }
                            Err(e) => tracing::warn!(error = %e, "gateway relay ended"),
                        }
                    });
                }
                Err(e) => {
                    tracing::warn!(error = %e, "gateway relay could not accept");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
    });
    Ok(local)
}

/// Whether a relay ended as connections end: a side gone without a close handshake (serenity
/// drops its old connection to resume), or a frame after a close.
fn ordinary_end(e: &WsError) -> bool {
    use tokio_tungstenite::tungstenite::error::ProtocolError;
    matches!(
        e,
        WsError::ConnectionClosed
            | WsError::AlreadyClosed
            | WsError::Protocol(
                ProtocolError::ResetWithoutClosingHandshake | ProtocolError::SendAfterClosing
            )
    )
}

/// serenity's own limits for the gateway's frames: none (READY can be large).
fn config() -> WebSocketConfig {
    WebSocketConfig {
        max_message_size: None,
        max_frame_size: None,
        ..Default::default()
    }
}

impl Relay {
    /// Relays one of serenity's gateway connections to Discord's gateway.
    async fn relay(self: Arc<Self>, tcp: TcpStream) -> Result<(), WsError> {
        // Discord first: a gateway that cannot be reached fails serenity's own handshake
        // (dropped before it), and serenity retries as it would without the relay.
        let url = upstream_url(&self.upstream, request_query(&tcp).await.as_deref());
        // Each frame goes out at once on both hops (no Nagle): a relayed frame written while
        // the previous one is unacknowledged would otherwise wait for the peer's delayed ACK,
        // tens of milliseconds on an interaction.
        tcp.set_nodelay(true)?;
        let server = tokio::time::timeout(
            CONNECT_WAIT,
            tokio_tungstenite::connect_async_with_config(url, Some(config()), true),
        )
        .await
        .map_err(|_| WsError::Io(std::io::ErrorKind::TimedOut.into()))??
        .0;
        let client = tokio_tungstenite::accept_async_with_config(tcp, Some(config())).await?;
        let (client_tx, mut client_rx) = client.split();
        let client_tx = tokio::sync::Mutex::new(client_tx);
        let (mut server_tx, mut server_rx) = server.split();
        // An IDENTIFY of this connection waits for Discord's answer; the down pump tells.
        let awaiting = AtomicBool::new(false);
        let client_closing = AtomicBool::new(false);
        let answered = Arc::new(Notify::new());
        // Ok(true): serenity closed, and Discord's answering close should still reach it.
        let up = async {
            // While an IDENTIFY waits for its lock, heartbeats still go (Discord takes them
            // before IDENTIFY, and a shard that misses its acknowledgements reconnects);
            // anything else waits behind the IDENTIFY, in order.
            let mut waiting: Option<(Message, Vec<Message>)> = None;
            let (locked_tx, mut locked_rx) = tokio::sync::mpsc::channel::<Option<Releaser>>(1);
            loop {
                tokio::select! {
                    msg = client_rx.next() => {
                        let Some(msg) = msg else { return Ok(false) };
                        let msg = msg?;
                        let close = matches!(msg, Message::Close(_));
                        if let Some((_, held)) = &mut waiting {
                            if close || is_heartbeat(&msg) {
                                server_tx.send(msg).await?;
                            } else if forwardable(&msg) {
                                held.push(msg);
                            }
                        } else if let Some(shard) = identify_shard(&msg) {
                            let bucket = shard % self.max_concurrency;
                            let locked_tx = locked_tx.clone();
                            let relay = Arc::clone(&self);
                            tokio::spawn(async move {
                                // A guard sent to a connection that ended is dropped with
                                // the message: the Releaser releases it off the runtime.
                                let _ = locked_tx.send(relay.lock(bucket).await).await;
                            });
                            waiting = Some((msg, Vec::new()));
                        } else if forwardable(&msg) {
                            server_tx.send(msg).await?;
                        }
                        if close {
                            // tungstenite queued its echo of serenity's close: from here on
                            // nothing more may be sent to serenity.
                            client_closing.store(true, Ordering::SeqCst);
                            return Ok(true);
                        }
                    }
                    Some(guard) = locked_rx.recv() => {
                        let Some((identify, held)) = waiting.take() else { continue };
                        awaiting.store(true, Ordering::SeqCst);
                        release_after_answer(guard, Arc::clone(&answered));
                        server_tx.send(identify).await?;
                        for msg in held {
                            server_tx.send(msg).await?;
                        }
                    }
                }
            }
        };
        let down = async {
            while let Some(msg) = server_rx.next().await {
                let msg = msg?;
                if awaiting.load(Ordering::SeqCst) && answers_identify(&msg) {
                    awaiting.store(false, Ordering::SeqCst);
                    answered.notify_one();
                }
                let close = matches!(msg, Message::Close(_));
                if client_closing.load(Ordering::SeqCst) {
                    // serenity is closing: what Discord still says is not for it.
                    if close {
                        break;
                    }
                    continue;
                }
                if forwardable(&msg) {
                    client_tx.lock().await.send(msg).await?;
                }
                if close {
                    break;
                }
            }
            Ok::<_, WsError>(())
        };
        tokio::pin!(up, down);
        // Discord closing ends the relay. serenity closing does too, once Discord answered
        // it (or after CLOSE_WAIT) and serenity got its close echoed.
        let ended = tokio::select! {
            r = &mut up => match r {
                Ok(true) => {
                    let r = tokio::time::timeout(CLOSE_WAIT, &mut down).await.unwrap_or(Ok(()));
                    // Sends tungstenite's answer to serenity's close, which serenity waits
                    // for (unless a send to serenity was cut off half-way).
                    if let Ok(mut tx) = client_tx.try_lock() {
                        let _ = tx.close().await;
                    }
                    r
                }
                Ok(false) => Ok(()),
                Err(e) => Err(e),
            },
            r = &mut down => r,
        };
        // An IDENTIFY left unanswered by a connection that ended: its spacing starts now.
        if awaiting.load(Ordering::SeqCst) {
            answered.notify_one();
        }
        ended
    }

    /// Waits (off the runtime) for the bucket's lock, one IDENTIFY of this process at a
    /// time. A failure to ask the database (no connection) is tried again a few times; then
    /// the IDENTIFY goes without the lock, logged: a shard offline is worse.
    async fn lock(&self, bucket: u32) -> Option<Releaser> {
        let _one = self.asking.lock().await;
        let lock = NamedLock::Identify(bucket);
        for attempt in 1..=LOCK_ATTEMPTS {
            let c = Arc::clone(&self.coordination);
            let taken = match tokio::task::spawn_blocking(move || c.lock(lock)).await {
                Ok(r) => r.map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            };
            match taken {
                Ok(guard) => return Some(Releaser::new(guard)),
                Err(e) => {
                    tracing::warn!(error = %e, ?lock, attempt, "could not take the IDENTIFY lock");
                }
            }
            tokio::time::sleep(LOCK_RETRY).await;
        }
        tracing::warn!(?lock, "IDENTIFY without the shared lock");
        None
    }
}

/// Keeps `guard` until Discord answered the IDENTIFY (`answered`, or [`ANSWER_WAIT`] passed)
/// and [`IDENTIFY_SPACING`] more, then releases it (off the runtime), in a task of its own:
/// the connection's frames keep flowing meanwhile.
fn release_after_answer(guard: Option<Releaser>, answered: Arc<Notify>) {
    let Some(guard) = guard else { return };
    tokio::spawn(async move {
        let _ = tokio::time::timeout(ANSWER_WAIT, answered.notified()).await;
        tokio::time::sleep(IDENTIFY_SPACING).await;
        drop(guard);
    });
}

/// The URL to connect to for serenity's request: the gateway URL it was given with the query
/// it asked for, spelled as serenity's own `Url` would (`wss://gateway.discord.gg` has the path
/// `/`, and an HTTP request needs it).
fn upstream_url(upstream: &str, query: Option<&str>) -> String {
    let authority_only = upstream
        .split_once("://")
        .is_some_and(|(_, rest)| !rest.contains('/'));
    let base = if authority_only {
        format!("{upstream}/")
    } else {
        upstream.to_owned()
    };
    match query {
        Some(q) => format!("{base}?{q}"),
        None => base,
    }
}

/// The query of the WebSocket request waiting on `tcp` (serenity's `v=10`), read without
/// consuming it: the handshake reads the request itself afterwards. `None` when the request
/// line did not come within [`CONNECT_WAIT`] or has no query.
async fn request_query(tcp: &TcpStream) -> Option<String> {
    let mut buf = [0u8; 1024];
    let deadline = tokio::time::Instant::now() + CONNECT_WAIT;
    loop {
        let n = tokio::time::timeout_at(deadline, tcp.peek(&mut buf))
            .await
            .ok()?
            .ok()?;
        if n == 0 {
            return None;
        }
        if let Some(end) = buf[..n].windows(2).position(|w| w == b"\r\n") {
            // "GET /?v=10 HTTP/1.1"
            let line = std::str::from_utf8(&buf[..end]).ok()?;
            let target = line.split(' ').nth(1)?;
            return target.split_once('?').map(|(_, q)| q.to_owned());
        }
        if n == buf.len() {
            return None;
        }
        // Only part of the request line has come: look again shortly.
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Whether a client frame is a heartbeat (`op` 1).
fn is_heartbeat(msg: &Message) -> bool {
    client_frame(msg).is_some_and(|f| f.op == 1)
}

/// Frames the relay passes on: pings and pongs are answered at each hop by tungstenite.
fn forwardable(msg: &Message) -> bool {
    matches!(
        msg,
        Message::Text(_) | Message::Binary(_) | Message::Close(_)
    )
}

/// What the relay reads of a frame serenity sends: its `op` and its data (a heartbeat's is a
/// number, an IDENTIFY's an object with its shard).
#[derive(serde::Deserialize)]
struct ClientFrame {
    op: u8,
    #[serde(default)]
    d: serde_json::Value,
}

/// A text frame of serenity's, read (up to [`PEEK_LIMIT`]); `None` for anything else.
fn client_frame(msg: &Message) -> Option<ClientFrame> {
    match msg {
        Message::Text(t) if t.len() <= PEEK_LIMIT => serde_json::from_str(t).ok(),
        _ => None,
    }
}

/// The shard id of an IDENTIFY (`op` 2, `d.shard[0]`; shard 0 when it names none), `None`
/// for any other frame.
fn identify_shard(msg: &Message) -> Option<u32> {
    let f = client_frame(msg).filter(|f| f.op == 2)?;
    let id =
        f.d.pointer("/shard/0")
            .map_or(Some(0), serde_json::Value::as_u64)?;
    Some(u32::try_from(id).unwrap_or(u32::MAX))
}

/// Whether a gateway frame from Discord answers an IDENTIFY: READY, or an invalid session
/// (`op` 9). Compressed frames (serenity asks for payload compression) are inflated first.
fn answers_identify(msg: &Message) -> bool {
    #[derive(serde::Deserialize)]
    struct Head {
        op: u8,
        #[serde(default)]
        t: Option<String>,
    }
    let text = match msg {
        Message::Text(t) => std::borrow::Cow::Borrowed(t.as_str()),
        Message::Binary(b) => {
            let mut s = String::new();
            if flate2::read::ZlibDecoder::new(&b[..])
                .read_to_string(&mut s)
                .is_err()
            {
                return false;
            }
            std::borrow::Cow::Owned(s)
        }
        _ => return false,
    };
    match serde_json::from_str::<Head>(&text) {
        Ok(h) => h.op == 9 || (h.op == 0 && h.t.as_deref() == Some("READY")),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_identify_is_told_from_other_frames_with_its_shard() {
        let text = |t: &str| Message::Text(t.into());
        let identify = r#"{"op":2,"d":{"token":"x","shard":[3,8],"intents":1,"properties":{},"compress":true}}"#;
        assert_eq!(identify_shard(&text(identify)), Some(3));
        assert_eq!(
            identify_shard(&text(r#"{"op":2,"d":{"token":"x"}}"#)),
            Some(0)
        );
        assert_eq!(identify_shard(&text(r#"{"op":1,"d":12}"#)), None);
        let resume = r#"{"op":6,"d":{"token":"x","session_id":"s","seq":4}}"#;
        assert_eq!(identify_shard(&text(resume)), None);
        assert_eq!(identify_shard(&text("not json")), None);
        assert_eq!(
            identify_shard(&Message::Binary(identify.as_bytes().to_vec())),
            None
        );
        assert!(is_heartbeat(&text(r#"{"op":1,"d":12}"#)));
        assert!(is_heartbeat(&text(r#"{"op":1,"d":null}"#)));
        assert!(!is_heartbeat(&text(identify)));
        assert!(!is_heartbeat(&text(resume)));
    }

    #[test]
    fn ready_and_an_invalid_session_answer_an_identify_compressed_or_not() {
        use std::io::Write as _;
        let ready = r#"{"op":0,"s":1,"t":"READY","d":{"v":10}}"#;
        assert!(answers_identify(&Message::Text(ready.into())));
        assert!(answers_identify(&Message::Text(
            r#"{"op":9,"d":false}"#.into()
        )));
        assert!(!answers_identify(&Message::Text(
            r#"{"op":0,"s":2,"t":"GUILD_CREATE","d":{}}"#.into()
        )));
        assert!(!answers_identify(&Message::Text(r#"{"op":11}"#.into())));
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(ready.as_bytes()).unwrap();
        assert!(answers_identify(&Message::Binary(z.finish().unwrap())));
        assert!(!answers_identify(&Message::Binary(vec![1, 2, 3])));
    }

    #[tokio::test]
    async fn the_query_of_a_request_is_read_without_consuming_it_even_in_pieces() {
        use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
        let listener = TcpListener::bind(("127.0.0.1", 0)).await.unwrap();
        let addr = listener.local_addr().unwrap();
        // The expected queries are written out, not computed by splitting the request as the
        // code under test does.
        for (pieces, expected) in [
            (vec!["GET /?v=10 HTTP/1.1\r\nHost: x\r\n\r\n"], Some("v=10")),
            (
                vec!["GET /gw?v=10&encoding=json HT", "TP/1.1\r\n\r\n"],
                Some("v=10&encoding=json"),
            ),
            (vec!["GET /?v=", "1", "0 HTTP/1.1\r\n\r\n"], Some("v=10")),
            (vec!["GET / HTTP/1.1\r\n\r\n"], None),
        ] {
            let whole: String = pieces.concat();
            let writer = tokio::spawn(async move {
                let mut c = TcpStream::connect(addr).await.unwrap();
                for p in pieces {
                    c.write_all(p.as_bytes()).await.unwrap();
                    tokio::time::sleep(Duration::from_millis(30)).await;
                }
                c
            });
            let (mut tcp, _) = listener.accept().await.unwrap();
            assert_eq!(request_query(&tcp).await.as_deref(), expected, "{whole:?}");
            let _c = writer.await.unwrap();
            // Nothing was consumed: the handshake still reads the whole request.
            let mut got = vec![0u8; whole.len()];
            tcp.read_exact(&mut got).await.unwrap();
            assert_eq!(got, whole.as_bytes());
        }
    }

    /// Coordination whose locks come after `delay`, counted in `taken`.
    struct TestLocks {
        delay: Duration,
        taken: std::sync::atomic::AtomicUsize,
    }

    impl TestLocks {
        fn new(delay: Duration) -> Arc<TestLocks> {
            Arc::new(TestLocks {
                delay,
                taken: std::sync::atomic::AtomicUsize::new(0),
            })
        }
    }

    struct Held;
    impl crate::store::LockGuard for Held {}

    impl Coordination for TestLocks {
        fn lock(
            &self,
            _: NamedLock,
        ) -> Result<Box<dyn crate::store::LockGuard>, crate::store::StoreError> {
            std::thread::sleep(self.delay);
            self.taken.fetch_add(1, Ordering::SeqCst);
            Ok(Box::new(Held))
        }
        fn try_lock(
            &self,
            _: NamedLock,
        ) -> Result<Option<Box<dyn crate::store::LockGuard>>, crate::store::StoreError> {
            unreachable!("the relay waits for its lock")
        }
        fn notify(&self, _: &str, _: &str) -> Result<(), crate::store::StoreError> {
            Ok(())
        }
        fn listen(
            &self,
            _: &str,
        ) -> Result<Box<dyn crate::store::Wakeups>, crate::store::StoreError> {
            Err(crate::store::StoreError::Backend("not here".into()))
        }
    }

    #[test]
    fn the_upstream_url_is_the_gateway_url_with_serenitys_query() {
        assert_eq!(
            upstream_url("wss://gateway.discord.gg", Some("v=10")),
            "wss://gateway.discord.gg/?v=10"
        );
        assert_eq!(
            upstream_url("ws://127.0.0.1:9/gw", Some("v=10")),
            "ws://127.0.0.1:9/gw?v=10"
        );
        assert_eq!(
            upstream_url("ws://127.0.0.1:9/gw/", None),
            "ws://127.0.0.1:9/gw/"
        );
    }

    #[tokio::test]
    async fn a_gateway_that_cannot_be_reached_fails_the_handshake_itself() {
        // A port nobody listens on: bound, then closed.
        let closed = TcpListener::bind(("127.0.0.1", 0)).await.unwrap();
        let upstream = format!("ws://{}", closed.local_addr().unwrap());
        drop(closed);
        let relay = open(upstream, TestLocks::new(Duration::ZERO), 1)
            .await
            .unwrap();
        // serenity's connect fails (as it would against the gateway itself), rather than
        // opening a connection that then ends without a close code.
        let r = tokio_tungstenite::connect_async(format!("{relay}/?v=10")).await;
        assert!(
            r.is_err(),
            "the relay accepted a connection it could not carry"
        );
    }

    #[tokio::test]
    async fn frames_and_close_codes_pass_through_in_order_both_ways() {
        use tokio_tungstenite::tungstenite::protocol::CloseFrame;
        use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
        // A gateway that answers each text with its echo, then closes with 4004.
        let gw = TcpListener::bind(("127.0.0.1", 0)).await.unwrap();
        let upstream = format!("ws://{}", gw.local_addr().unwrap());
        let server = tokio::spawn(async move {
            let (tcp, _) = gw.accept().await.unwrap();
            let mut ws = tokio_tungstenite::accept_async(tcp).await.unwrap();
            for _ in 0..3 {
                let Some(Ok(Message::Text(t))) = ws.next().await else {
                    panic!("a text frame")
                };
                ws.send(Message::Text(format!("echo {t}"))).await.unwrap();
            }
            ws.send(Message::Close(Some(CloseFrame {
                code: CloseCode::Library(4004),
                reason: "auth".into(),
            })))
            .await
            .unwrap();
        });
        let mut ws = connect_through_relay(upstream, TestLocks::new(Duration::ZERO)).await;
        for t in [r#"{"op":1,"d":null}"#, "second", "third"] {
            ws.send(Message::Text(t.into())).await.unwrap();
            let Some(Ok(Message::Text(e))) = ws.next().await else {
                panic!("an echo")
            };
            assert_eq!(e, format!("echo {t}"));
        }
        match ws.next().await {
            Some(Ok(Message::Close(Some(f)))) => assert_eq!(u16::from(f.code), 4004),
            other => panic!("the gateway's close code, not {other:?}"),
        }
        server.await.unwrap();
    }

    /// Opens a relay in front of `upstream` and connects to it as serenity does.
    async fn connect_through_relay(
        upstream: String,
        locks: Arc<TestLocks>,
    ) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>> {
        let relay = open(upstream, locks, 1).await.unwrap();
        tokio_tungstenite::connect_async(format!("{relay}/?v=10"))
            .await
            .unwrap()
            .0
    }

    /// A gateway that records the text frames it gets, answers none, and answers a close.
    async fn recording_gateway() -> (String, tokio::sync::mpsc::UnboundedReceiver<String>) {
        let gw = TcpListener::bind(("127.0.0.1", 0)).await.unwrap();
        let upstream = format!("ws://{}", gw.local_addr().unwrap());
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(async move {
            let (tcp, _) = gw.accept().await.unwrap();
            let mut ws = tokio_tungstenite::accept_async(tcp).await.unwrap();
            // Reading on after a close sends tungstenite's answer to it.
            while let Some(Ok(msg)) = ws.next().await {
                if let Message::Text(t) = msg {
                    let _ = tx.send(t);
                }
            }
        });
        (upstream, rx)
    }

    #[tokio::test]
    async fn serenitys_close_is_answered_and_ends_the_relay() {
        use tokio_tungstenite::tungstenite::protocol::CloseFrame;
        use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
        let (upstream, _frames) = recording_gateway().await;
        let mut ws = connect_through_relay(upstream, TestLocks::new(Duration::ZERO)).await;
        ws.close(Some(CloseFrame {
            code: CloseCode::Library(4000),
            reason: "restart".into(),
        }))
        .await
        .unwrap();
        // serenity waits for the answer to its close (shard_runner's checked_shutdown).
        match tokio::time::timeout(Duration::from_secs(5), ws.next()).await {
            Ok(Some(Ok(Message::Close(Some(f))))) => assert_eq!(u16::from(f.code), 4000),
            other => panic!("the answer to the close, not {other:?}"),
        }
    }

    #[tokio::test]
    async fn an_identify_waits_for_its_lock_with_only_heartbeats_passing_it() {
        let (upstream, mut frames) = recording_gateway().await;
        let locks = TestLocks::new(Duration::from_millis(300));
        let mut ws = connect_through_relay(upstream, locks.clone()).await;
        let identify = r#"{"op":2,"d":{"token":"x","shard":[0,1]}}"#;
        let heartbeat = r#"{"op":1,"d":null}"#;
        let after = r#"{"op":3,"d":{"status":"online"}}"#;
        for t in [identify, heartbeat, after] {
            ws.send(Message::Text(t.into())).await.unwrap();
        }
        let mut got = Vec::new();
        while got.len() < 3 {
            let f = tokio::time::timeout(Duration::from_secs(5), frames.recv())
                .await
                .expect("the relay passed the frames on")
                .unwrap();
            if got.is_empty() {
                // The heartbeat went on while the IDENTIFY waited for its lock.
                assert_eq!(locks.taken.load(Ordering::SeqCst), 0, "{f}");
            }
            got.push(f);
        }
        assert_eq!(got, [heartbeat, identify, after]);
        assert_eq!(locks.taken.load(Ordering::SeqCst), 1);
    }
}
