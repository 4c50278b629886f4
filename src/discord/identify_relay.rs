//! The IDENTIFY relay: with several processes on one PostgreSQL database, every gateway
//! connection of this process goes through a relay on loopback that holds each IDENTIFY until
//! this process has the advisory lock of its rate-limit bucket (`shard_id % max_concurrency`),
//! and keeps the lock until [`IDENTIFY_SPACING`] after Discord answered it.
//!
//! Why a relay: serenity 0.12 sends IDENTIFY from inside its shard runner, on the first boot
//! and again whenever a session is lost (an invalidated session, a failed resume), and offers
//! no hook before either. Every one of those connections reads the client's gateway URL
//! first, so pointing that URL at the relay puts every IDENTIFY, whatever started it, behind
//! the lock. The relay passes every other frame through unchanged and in order (RESUME,
//! heartbeats, the dispatches), and closes one side when the other closes, with its code.

use std::io::Read as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures_util::{SinkExt as _, StreamExt as _};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use crate::store::{Coordination, LockGuard, NamedLock};

/// How long after Discord's answer to an IDENTIFY (READY or an invalid session) its bucket
/// stays taken: Discord allows one IDENTIFY per bucket per 5 s.
pub const IDENTIFY_SPACING: Duration = Duration::from_secs(5);
/// How long an IDENTIFY may wait for its answer before the bucket's spacing starts anyway.
const ANSWER_WAIT: Duration = Duration::from_secs(30);
/// The longest client frame the relay reads to look for an IDENTIFY (serenity's are a few
/// hundred bytes); longer text frames pass through unread.
const PEEK_LIMIT: usize = 16 * 1024;

/// The relay's settings, shared by its connections.
struct Relay {
    /// The gateway URL serenity was given (`GET /gateway`), without a query.
    upstream: String,
    coordination: Arc<dyn Coordination>,
    max_concurrency: u32,
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
        upstream: upstream.trim_end_matches('/').to_owned(),
        coordination,
        max_concurrency: max_concurrency.max(1),
    });
    tokio::spawn(async move {
        loop {
            match listener.accept().await {
                Ok((tcp, _)) => {
                    let relay = Arc::clone(&relay);
                    tokio::spawn(async move {
                        if let Err(e) = relay.relay(tcp).await {
                            tracing::warn!(error = %e, "gateway relay ended");
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
    // The handshake callback's error type is tungstenite's (an HTTP response), not ours.
    #[allow(clippy::result_large_err)]
    async fn relay(&self, tcp: TcpStream) -> Result<(), tokio_tungstenite::tungstenite::Error> {
        let mut query = None;
        let client = tokio_tungstenite::accept_hdr_async_with_config(
            tcp,
            |req: &Request, resp: Response| {
                query = req.uri().query().map(str::to_owned);
                Ok(resp)
            },
            Some(config()),
        )
        .await?;
        let url = match query {
            Some(q) => format!("{}?{q}", self.upstream),
            None => self.upstream.clone(),
        };
        let (mut client_tx, mut client_rx) = client.split();
        let server =
            match tokio_tungstenite::connect_async_with_config(url, Some(config()), false).await {
                Ok((server, _)) => server,
                Err(e) => {
                    // serenity sees the connection close and reconnects as it would have.
                    let _ = client_tx.send(Message::Close(None)).await;
                    return Err(e);
                }
            };
        let (mut server_tx, mut server_rx) = server.split();
        // An IDENTIFY of this connection waits for Discord's answer; the down pump tells.
        let awaiting = AtomicBool::new(false);
        let answered = Arc::new(Notify::new());
        let up = async {
            // While an IDENTIFY waits for its lock, heartbeats still go (Discord takes them
            // before IDENTIFY, and a shard that misses its acknowledgements reconnects);
            // anything else waits behind the IDENTIFY, in order.
            let mut waiting: Option<(Message, Vec<Message>)> = None;
            let (locked_tx, mut locked_rx) = tokio::sync::mpsc::channel(1);
            loop {
                tokio::select! {
                    msg = client_rx.next() => {
                        let Some(msg) = msg else { break };
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
                            let coordination = Arc::clone(&self.coordination);
                            let locked_tx = locked_tx.clone();
                            tokio::spawn(async move {
                                let _ = locked_tx.send(lock(coordination, bucket).await).await;
                            });
                            waiting = Some((msg, Vec::new()));
                        } else if forwardable(&msg) {
                            server_tx.send(msg).await?;
                        }
                        if close {
                            break;
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
            Ok::<_, tokio_tungstenite::tungstenite::Error>(())
        };
        let down = async {
            while let Some(msg) = server_rx.next().await {
                let msg = msg?;
                if awaiting.load(Ordering::SeqCst) && answers_identify(&msg) {
                    awaiting.store(false, Ordering::SeqCst);
                    answered.notify_one();
                }
                let close = matches!(msg, Message::Close(_));
                if forwardable(&msg) {
                    client_tx.send(msg).await?;
                }
                if close {
                    break;
                }
            }
            Ok::<_, tokio_tungstenite::tungstenite::Error>(())
        };
        // Either side closing ends the relay: the other side's half is dropped with it.
        let ended = tokio::select! {
            r = up => r,
            r = down => r,
        };
        // An IDENTIFY left unanswered by a connection that ended: its spacing starts now.
        if awaiting.load(Ordering::SeqCst) {
            answered.notify_one();
        }
        ended
    }
}

/// Waits (off the runtime) for the bucket's lock; `None` when the database could not be
/// asked, after logging it (the IDENTIFY then goes anyway: better than no shard).
async fn lock(coordination: Arc<dyn Coordination>, bucket: u32) -> Option<Box<dyn LockGuard>> {
    let lock = NamedLock::Identify(bucket);
    match tokio::task::spawn_blocking(move || coordination.lock(lock)).await {
        Ok(Ok(guard)) => Some(guard),
        Ok(Err(e)) => {
            tracing::warn!(error = %e, ?lock, "could not take the IDENTIFY lock");
            None
        }
        Err(e) => {
            tracing::warn!(error = %e, ?lock, "could not take the IDENTIFY lock");
            None
        }
    }
}

/// Keeps `guard` until Discord answered the IDENTIFY (`answered`, or [`ANSWER_WAIT`] passed)
/// and [`IDENTIFY_SPACING`] more, then releases it off the runtime, in a task of its own: the
/// connection's frames keep flowing meanwhile.
fn release_after_answer(guard: Option<Box<dyn LockGuard>>, answered: Arc<Notify>) {
    let Some(guard) = guard else { return };
    tokio::spawn(async move {
        let _ = tokio::time::timeout(ANSWER_WAIT, answered.notified()).await;
        tokio::time::sleep(IDENTIFY_SPACING).await;
        let _ = tokio::task::spawn_blocking(move || drop(guard)).await;
    });
}

/// Whether a client frame is a heartbeat (`op` 1).
fn is_heartbeat(msg: &Message) -> bool {
    #[derive(serde::Deserialize)]
    struct Head {
        op: u8,
    }
    match msg {
        Message::Text(t) if t.len() <= PEEK_LIMIT => {
            serde_json::from_str::<Head>(t).is_ok_and(|h| h.op == 1)
        }
        _ => false,
    }
}

/// Frames the relay passes on: pings and pongs are answered at each hop by tungstenite.
fn forwardable(msg: &Message) -> bool {
    matches!(
        msg,
        Message::Text(_) | Message::Binary(_) | Message::Close(_)
    )
}

/// The shard id of an IDENTIFY (`op` 2, `d.shard[0]`; shard 0 when it names none), `None`
/// for any other frame.
fn identify_shard(msg: &Message) -> Option<u32> {
    #[derive(serde::Deserialize)]
    struct Frame {
        op: u8,
        #[serde(default)]
        d: Option<Identify>,
    }
    #[derive(serde::Deserialize)]
    struct Identify {
        #[serde(default)]
        shard: Option<[u64; 2]>,
    }
    let Message::Text(text) = msg else {
        return None;
    };
    if text.len() > PEEK_LIMIT {
        return None;
    }
    let f: Frame = serde_json::from_str(text).ok()?;
    (f.op == 2).then(|| {
        f.d.and_then(|d| d.shard)
            .map_or(0, |[id, _]| u32::try_from(id).unwrap_or(u32::MAX))
    })
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
}
