//! The Prometheus endpoint of `CAJITAS_METRICS`: the process's metrics, recorded through the
//! `metrics` facade wherever they happen, rendered by `metrics-exporter-prometheus` in the
//! text exposition format and served by a small HTTP/1.1 listener of our own.
//!
//! Why our own listener rather than the exporter's `http-listener` feature: that feature
//! brings hyper 1 and its server stack into the bot's build, for one `GET` answered with a
//! string. Ours is a tokio task: it reads at most [`MAX_REQUEST`] bytes of a request head
//! within [`READ_TIMEOUT`], answers `GET /metrics` (200), any other path (404) or method
//! (405), and closes the connection. At most [`MAX_CONNECTIONS`] requests are answered at
//! once, a slot taken only once a request head has arrived: a client that connects and says
//! nothing holds no slot, only one of the [`MAX_PENDING`] connections read at once, and for
//! [`READ_TIMEOUT`] at most; so idle sockets never delay a scrape. It never blocks the
//! runtime: the values that need
//! the database or a lock (the active games, the gateway latency, the engine queue) are
//! read by the [`Refresh`] hook the front end installs, off the runtime's workers where
//! they block, at most once a second however often the endpoint is scraped.
//!
//! Names and meanings: the README's "Metrics" section; [`describe`] gives each its `# HELP`.

use std::future::Future;
use std::net::{SocketAddr, TcpListener as StdListener};
use std::pin::Pin;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// The largest request head read (the request line and headers); longer ones get a 431.
pub const MAX_REQUEST: usize = 8 * 1024;
/// How long a client may take to send its request head (a scraper sends it at once).
pub const READ_TIMEOUT: Duration = Duration::from_secs(2);
/// How many scrapes are answered at once (slots taken once a request head has arrived).
pub const MAX_CONNECTIONS: usize = 8;
/// How many connections may be waiting for their request head at once; more wait in the
/// kernel's backlog.
pub const MAX_PENDING: usize = 256;
/// The shortest time between two refreshes of the sampled values.
const REFRESH_EVERY: Duration = Duration::from_secs(1);
/// The longest a refresh may take before the scrape is answered with the values as they are.
const REFRESH_TIMEOUT: Duration = Duration::from_secs(2);
/// How often the recorder's upkeep runs (it drains the histograms' pending samples).
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// Interactions, by command and outcome (counter).
pub const INTERACTIONS: &str = "cajitas_interactions_total";
/// From an interaction's arrival to its first callback, seconds (histogram).
pub const FIRST_CALLBACK: &str = "cajitas_interaction_first_callback_seconds";
/// Moves played, by who played them (counter).
pub const MOVES: &str = "cajitas_moves_total";
/// Games in progress (gauge, read from the database at scrape).
pub const ACTIVE_GAMES: &str = "cajitas_active_games";
/// How late the scheduler handled a due event, seconds (histogram).
pub const SCHEDULER_LAG: &str = "cajitas_scheduler_lag_seconds";
/// Engine searches waiting for a process (gauge, read at scrape).
pub const ENGINE_QUEUE: &str = "cajitas_engine_queue_depth";
/// REST calls that failed, by call and status (counter).
pub const REST_ERRORS: &str = "cajitas_rest_errors_total";
/// REST calls serenity's ratelimiter held back (a 429 retried, or a bucket waited out).
pub const REST_RATE_LIMITED: &str = "cajitas_rest_rate_limited_total";
/// The gateway's heartbeat latency of each shard, seconds (gauge, read at scrape).
pub const GATEWAY_LATENCY: &str = "cajitas_gateway_latency_seconds";

/// The first-callback buckets: Discord's window is 3 s, the bot defers at 1.5 s.
const CALLBACK_BUCKETS: &[f64] = &[
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0,
];
/// The scheduler-lag buckets: a round is prompt within milliseconds; a busy or stopped
/// process shows up in the seconds and minutes.
const LAG_BUCKETS: &[f64] = &[
    0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 30.0, 60.0, 300.0, 3600.0,
];

/// Refreshes the sampled gauges just before a scrape renders them.
pub type Refresh = Arc<dyn Fn() -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// The recorder's handle, installed once per process.
static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the Prometheus recorder as the process's `metrics` recorder (once; later calls
/// return the same handle) and describes every metric. Without it, every `metrics` macro
/// is a no-op: nothing is recorded unless `CAJITAS_METRICS` is set.
pub fn install() -> anyhow::Result<PrometheusHandle> {
    if let Some(h) = HANDLE.get() {
        return Ok(h.clone());
    }
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Full(FIRST_CALLBACK.into()), CALLBACK_BUCKETS)?
        .set_buckets_for_metric(Matcher::Full(SCHEDULER_LAG.into()), LAG_BUCKETS)?
        .install_recorder()?;
    describe();
    Ok(HANDLE.get_or_init(|| handle).clone())
}

/// The `# HELP` line of every metric.
pub fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram};
    describe_counter!(
        INTERACTIONS,
        "Interactions handled, by command (or button, autocomplete) and outcome: ok, refused, \
         failed, restarting (refused during a shutdown), redelivered (dropped as a repeat)."
    );
    describe_histogram!(
        FIRST_CALLBACK,
        metrics::Unit::Seconds,
        "From an interaction's arrival at this process to its first callback (reply or defer)."
    );
    describe_counter!(
        MOVES,
        "Moves played through this process, by who played them (player, engine); its rate is the moves per second."
    );
    describe_gauge!(
        ACTIVE_GAMES,
        "Games in progress in the database (every process's), counted at scrape."
    );
    describe_histogram!(
        SCHEDULER_LAG,
        metrics::Unit::Seconds,
        "How late this process's scheduler handled a due timeout or reminder (now minus its due time), by kind."
    );
    describe_gauge!(
        ENGINE_QUEUE,
        "Engine searches waiting for a free engine process, at scrape."
    );
    describe_counter!(
        REST_ERRORS,
        "Discord REST calls that failed, by call and status (an HTTP status such as 429 or 500, or network)."
    );
    describe_counter!(
        REST_RATE_LIMITED,
        "REST calls serenity's ratelimiter held back before retrying or sending: a 429 (global or per route) or a bucket waited out."
    );
    describe_gauge!(
        GATEWAY_LATENCY,
        metrics::Unit::Seconds,
        "The gateway heartbeat's round trip of each shard of this process, at scrape."
    );
}

/// The endpoint's socket, bound at start (so that a taken port stops the bot before it
/// connects to Discord).
#[derive(Debug)]
pub struct Endpoint {
    listener: StdListener,
}

impl Endpoint {
    /// Binds `addr` (port 0: any free port, logged).
    pub fn bind(addr: SocketAddr) -> std::io::Result<Endpoint> {
        let listener = StdListener::bind(addr)?;
        listener.set_nonblocking(true)?;
        Ok(Endpoint { listener })
    }

    /// The bound address.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves `handle`'s metrics on this socket from the current tokio runtime, until the
    /// runtime ends. `refresh`, once set on the returned [`Server`], runs before a scrape.
    pub fn serve(self, handle: PrometheusHandle) -> std::io::Result<Server> {
        let listener = TcpListener::from_std(self.listener)?;
        let server = Server {
            inner: Arc::new(Inner {
                handle,
                slots: Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS)),
                refresh: Mutex::new(None),
                last_refresh: tokio::sync::Mutex::new(None),
            }),
        };
        let upkeep = server.inner.handle.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(UPKEEP_EVERY);
            loop {
                every.tick().await;
                upkeep.run_upkeep();
            }
        });
        let inner = Arc::clone(&server.inner);
        let pending = Arc::new(tokio::sync::Semaphore::new(MAX_PENDING));
        tokio::spawn(async move {
            loop {
                let Ok(reading) = Arc::clone(&pending).acquire_owned().await else {
                    return;
                };
                match listener.accept().await {
                    Ok((stream, _)) => {
                        let inner = Arc::clone(&inner);
                        tokio::spawn(async move {
                            inner.answer(stream, reading).await;
                        });
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "metrics: accept failed");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                }
            }
        });
        Ok(server)
    }
}

/// The running endpoint.
#[derive(Clone)]
pub struct Server {
    inner: Arc<Inner>,
}

impl Server {
    /// Sets what runs before a scrape renders (at most once a second).
    pub fn set_refresh(&self, refresh: Refresh) {
        *self.inner.refresh.lock().unwrap_or_else(|p| p.into_inner()) = Some(refresh);
    }
}

struct Inner {
    handle: PrometheusHandle,
    /// The slots of the requests being answered ([`MAX_CONNECTIONS`]).
    slots: Arc<tokio::sync::Semaphore>,
    refresh: Mutex<Option<Refresh>>,
    last_refresh: tokio::sync::Mutex<Option<Instant>>,
}

impl Inner {
    async fn refresh(&self) {
        let Some(refresh) = self
            .refresh
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
        else {
            return;
        };
        // One refresh at a time, and none if the last one is recent.
        let mut last = self.last_refresh.lock().await;
        if last.is_some_and(|t| t.elapsed() < REFRESH_EVERY) {
            return;
        }
        if tokio::time::timeout(REFRESH_TIMEOUT, refresh())
            .await
            .is_err()
        {
            tracing::warn!("metrics: refreshing the sampled values took over {REFRESH_TIMEOUT:?}");
        }
        *last = Some(Instant::now());
    }

    /// Reads the request head (holding `reading`, one of the [`MAX_PENDING`]), then answers
    /// it in one of the [`MAX_CONNECTIONS`] slots.
    async fn answer(&self, mut stream: TcpStream, reading: tokio::sync::OwnedSemaphorePermit) {
        let head = match tokio::time::timeout(READ_TIMEOUT, read_head(&mut stream)).await {
            Ok(Ok(head)) => head,
            Ok(Err(Head::TooLarge)) => {
                let _ = respond(&mut stream, 431, "request too large\n").await;
                return;
            }
            Ok(Err(Head::Closed)) | Err(_) => return,
        };
        drop(reading);
        let Ok(_slot) = self.slots.acquire().await else {
            return;
        };
        let (status, body) = match route(&head) {
            Route::Metrics => {
                self.refresh().await;
                (200, self.handle.render())
            }
            Route::NotFound => (404, "not found: the metrics are at /metrics\n".to_owned()),
            Route::BadMethod => (405, "only GET\n".to_owned()),
            Route::BadRequest => (400, "bad request\n".to_owned()),
        };
        let _ = respond(&mut stream, status, &body).await;
    }
}

enum Head {
    TooLarge,
    Closed,
}

/// Reads up to the blank line that ends a request head, at most [`MAX_REQUEST`] bytes.
async fn read_head(stream: &mut TcpStream) -> Result<Vec<u8>, Head> {
    let mut head = Vec::with_capacity(512);
    let mut buf = [0u8; 1024];
    loop {
        let n = stream.read(&mut buf).await.map_err(|_| Head::Closed)?;
        if n == 0 {
            return Err(Head::Closed);
        }
        head.extend_from_slice(&buf[..n]);
        if head.windows(4).any(|w| w == b"\r\n\r\n") || head.windows(2).any(|w| w == b"\n\n") {
            return Ok(head);
        }
        if head.len() > MAX_REQUEST {
            return Err(Head::TooLarge);
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
enum Route {
    Metrics,
    NotFound,
    BadMethod,
    BadRequest,
}

/// What a request head asks for: only `GET /metrics` (a query string is ignored) is served.
fn route(head: &[u8]) -> Route {
    let line = head.split(|&b| b == b'\n').next().unwrap_or_default();
    let Ok(line) = std::str::from_utf8(line) else {
        return Route::BadRequest;
    };
    let mut parts = line.trim_end_matches('\r').split(' ');
    let (Some(method), Some(target), Some(version)) = (parts.next(), parts.next(), parts.next())
    else {
        return Route::BadRequest;
    };
    if !version.starts_with("HTTP/1.") || parts.next().is_some() {
        return Route::BadRequest;
    }
    if method != "GET" {
        return Route::BadMethod;
    }
    match target.split('?').next() {
        Some("/metrics") => Route::Metrics,
        _ => Route::NotFound,
    }
}

async fn respond(stream: &mut TcpStream, status: u16, body: &str) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        _ => "Request Header Fields Too Large",
    };
    let content_type = if status == 200 {
        "text/plain; version=0.0.4; charset=utf-8"
    } else {
        "text/plain; charset=utf-8"
    };
    let head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(body.as_bytes()).await?;
    stream.shutdown().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_get_metrics_is_served() {
        assert_eq!(route(b"GET /metrics HTTP/1.1\r\n\r\n"), Route::Metrics);
        assert_eq!(route(b"GET /metrics?x=1 HTTP/1.0\r\n\r\n"), Route::Metrics);
        assert_eq!(route(b"GET / HTTP/1.1\r\n\r\n"), Route::NotFound);
        assert_eq!(route(b"GET /metrics/x HTTP/1.1\r\n\r\n"), Route::NotFound);
        assert_eq!(route(b"POST /metrics HTTP/1.1\r\n\r\n"), Route::BadMethod);
        assert_eq!(route(b"GET /metrics\r\n\r\n"), Route::BadRequest);
        assert_eq!(route(b"GET /metrics SPDY/3\r\n\r\n"), Route::BadRequest);
        assert_eq!(route(b"\xff\xfe\r\n\r\n"), Route::BadRequest);
    }

    #[tokio::test]
    async fn the_endpoint_answers_and_caps_requests() {
        let handle = install().unwrap();
        metrics::counter!("cajitas_test_total").increment(3);
        let ep = Endpoint::bind("127.0.0.1:0".parse().unwrap()).unwrap();
        let addr = ep.local_addr().unwrap();
        let server = ep.serve(handle).unwrap();
        let refreshed = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let r = Arc::clone(&refreshed);
        server.set_refresh(Arc::new(move || {
            let r = Arc::clone(&r);
            Box::pin(async move {
                r.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                metrics::gauge!("cajitas_test_sampled").set(7.0);
            })
        }));
        let get = |req: Vec<u8>| async move {
            let mut s = TcpStream::connect(addr).await.unwrap();
            s.write_all(&req).await.unwrap();
            let mut out = String::new();
            s.read_to_string(&mut out).await.unwrap();
            out
        };
        let ok = get(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".to_vec()).await;
        assert!(ok.starts_with("HTTP/1.1 200 OK\r\n"), "{ok}");
        assert!(ok.contains("text/plain; version=0.0.4"), "{ok}");
        assert!(ok.contains("\ncajitas_test_total 3\n"), "{ok}");
        assert!(ok.contains("\ncajitas_test_sampled 7\n"), "{ok}");
        // A second scrape within a second does not refresh again.
        get(b"GET /metrics HTTP/1.1\r\n\r\n".to_vec()).await;
        assert_eq!(refreshed.load(std::sync::atomic::Ordering::SeqCst), 1);
        let nf = get(b"GET /secret HTTP/1.1\r\n\r\n".to_vec()).await;
        assert!(nf.starts_with("HTTP/1.1 404"), "{nf}");
        // One byte over the cap, so the server has read all of it when it refuses.
        let mut big = b"GET /metrics HTTP/1.1\r\nX: ".to_vec();
        big.resize(MAX_REQUEST + 1, b'a');
        let too_big = get(big).await;
        assert!(too_big.starts_with("HTTP/1.1 431"), "{too_big}");
    }
}
