//! The token, and the database password, never reach a log line.

use std::io::Write;
use std::sync::{Arc, Mutex};

use cajitas::config::{ApiBase, BotConfig, Secret};
use cajitas::store::Database;

#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn startup_log_never_contains_the_token() {
    startup_log_with(Database::Sqlite("x.db".into()), "x.db");
}

#[test]
fn startup_log_never_contains_the_database_password() {
    startup_log_with(
        Database::Postgres(
            "postgres://cajitas:db-pa55word@db.internal:5432/cajitas?password=db-pa55word".into(),
        ),
        "postgres://[redacted]@db.internal:5432/cajitas",
    );
}

fn startup_log_with(db: Database, shown: &str) {
    let token = "MTAwMDAw.very-secret.tokenvalue";
    let buf = Buf::default();
    let writer = buf.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    let cfg = BotConfig {
        token: Secret::new(token),
        guild_id: Some(1),
        db,
        api_base: Some(ApiBase {
            url: "http://127.0.0.1:1".into(),
            trusted_proxy: false,
        }),
        challenge_ttl: std::time::Duration::from_secs(900),
        pieces: Default::default(),
        message_moves: false,
        blocking_threads: 2,
        shards: None,
        threads: true,
        abandon_after: cajitas::game::DEFAULT_ABANDON_AFTER,
        engine: Default::default(),
        metrics: None,
    };
    tracing::subscriber::with_default(subscriber, || {
        cfg.log_summary();
        tracing::debug!(?cfg, "config");
        tracing::info!(token = ?cfg.token, "token field");
    });
    let logged = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
    assert!(logged.contains("starting cajitas"), "{logged}");
    assert!(logged.contains(shown), "{logged}");
    assert!(!logged.contains("pa55word"), "{logged}");
    assert!(!logged.contains(token), "{logged}");
    assert!(!logged.contains("very-secret"), "{logged}");
}
