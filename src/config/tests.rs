//! The configuration's checks, each variable's conversion, and the table against
//! `.env.example`.

use std::collections::BTreeSet;
use std::path::PathBuf;

use clap::CommandFactory;

use super::engine::find_engine;
use super::values::*;
use super::*;

#[test]
fn missing_or_blank_token_is_an_error() {
    let token = |raw: Option<&str>| token_from(raw.map(Secret::new).as_ref());
    assert_eq!(token(None), Err(ConfigError::MissingToken));
    assert_eq!(token(Some("")), Err(ConfigError::MissingToken));
    assert_eq!(token(Some("  ")), Err(ConfigError::MissingToken));
    assert_eq!(token(Some(" abc ")).unwrap().expose(), "abc");
}

#[test]
fn guild_id_empty_means_global_and_garbage_is_refused() {
    assert_eq!(guild_id_from(None), Ok(None));
    assert_eq!(guild_id_from(Some("")), Ok(None));
    assert_eq!(guild_id_from(Some("  ")), Ok(None));
    assert_eq!(guild_id_from(Some("42")), Ok(Some(42)));
    assert!(matches!(
        guild_id_from(Some("abc")),
        Err(ConfigError::BadGuildId(_))
    ));
    assert!(matches!(
        guild_id_from(Some("0")),
        Err(ConfigError::BadGuildId(_))
    ));
}

#[test]
fn empty_db_path_means_the_default() {
    let db = |raw| parse_db(raw).unwrap_or_else(|e| match e {});
    assert_eq!(db(""), Database::Sqlite(PathBuf::from(DEFAULT_DB)));
    assert_eq!(db(" x.db "), Database::Sqlite(PathBuf::from("x.db")));
    assert_eq!(
        db("postgres://u@h/d"),
        Database::Postgres("postgres://u@h/d".into())
    );
    assert_eq!(
        DbArg::default().db,
        Database::Sqlite(PathBuf::from(DEFAULT_DB))
    );
}

#[test]
fn debug_output_redacts_the_token() {
    let token = "MTAw.secret-token-value.xyz";
    let cfg = BotConfig {
        token: Secret::new(token),
        guild_id: Some(7),
        db: Database::Postgres("postgres://u:pa55w0rd@db.internal/cajitas".into()),
        api_base: None,
        challenge_ttl: crate::game::DEFAULT_CHALLENGE_TTL,
        pieces: crate::render::PieceSource::Cajitas,
        message_moves: false,
        blocking_threads: 2,
        shards: None,
        threads: true,
        abandon_after: crate::game::DEFAULT_ABANDON_AFTER,
        engine: EngineSettings::default(),
        metrics: None,
    };
    let debug = format!("{cfg:?} {cfg:#?} {}", cfg.token);
    assert!(!debug.contains(token), "{debug}");
    assert!(!debug.contains("secret-token"), "{debug}");
    assert!(debug.contains("redacted"));
    assert!(!debug.contains("pa55w0rd"), "{debug}");
}

/// The raw settings show no secret either: the token, a proxy's credentials in the API
/// base, the database's password.
#[test]
fn debug_output_of_the_settings_redacts_the_secrets() {
    let settings = Settings {
        token: Some(Secret::new("MTAw.secret-token-value.xyz")),
        api_base: Some(Secret::new("https://u:pr0xy-pa55@proxy.internal")),
        db: DbArg {
            db: Database::Postgres("postgres://u:pa55w0rd@db.internal/cajitas".into()),
        },
        ..Settings::default()
    };
    let debug = format!("{settings:?} {settings:#?}");
    for secret in ["secret-token", "pr0xy-pa55", "pa55w0rd"] {
        assert!(!debug.contains(secret), "{debug}");
    }
}

#[test]
fn shards_are_first_last_of_total() {
    assert_eq!(shards_from(None).unwrap(), None);
    assert_eq!(shards_from(Some(" ")).unwrap(), None);
    let r = shards_from(Some("0-3/8")).unwrap().unwrap();
    assert_eq!((r.first, r.last, r.total, r.count()), (0, 3, 8, 4));
    let r = shards_from(Some(" 1-1/2 ")).unwrap().unwrap();
    assert_eq!((r.first, r.last, r.total, r.count()), (1, 1, 2, 1));
    for bad in [
        "3",
        "0-3",
        "4-3/8",
        "0-8/8",
        "a-b/c",
        "0-1/0",
        "-1-2/4",
        "0-1/70000",
    ] {
        let e = shards_from(Some(bad)).unwrap_err().to_string();
        assert!(e.contains("CAJITAS_SHARDS"), "{bad}: {e}");
    }
}

#[test]
fn the_database_is_a_postgres_url_or_a_sqlite_path() {
    let pg = |u: &str| matches!(parse_db(u).unwrap(), Database::Postgres(_));
    assert!(pg("postgres://cajitas@db/cajitas"));
    assert!(pg("postgresql:///cajitas?host=/run/postgresql"));
    assert!(pg(" POSTGRESQL://x/y"));
    assert_eq!(
        parse_db("").unwrap(),
        Database::Sqlite(PathBuf::from(DEFAULT_DB))
    );
    assert_eq!(
        parse_db("postgres.db").unwrap(),
        Database::Sqlite(PathBuf::from("postgres.db"))
    );
    assert_eq!(
        parse_db("./postgres://x").unwrap(),
        Database::Sqlite(PathBuf::from("./postgres://x"))
    );
    let url =
        Database::Postgres("postgres://bot:s3cr3t@db.internal:5432/cajitas?sslmode=disable".into());
    let shown = describe_db(&url);
    assert!(!shown.contains("s3cr3t"), "{shown}");
    assert_eq!(shown, "postgres://[redacted]@db.internal:5432/cajitas");
    // A libpq keyword/value string is PostgreSQL too, shown without its password.
    let kv = "host=/run/postgresql port=5433 user=bot password='s3 cr3t' dbname=cajitas";
    assert!(pg(kv));
    assert!(pg(" PASSWORD=x host=db"));
    assert!(!pg("my=file.db"));
    assert!(!pg("hosts=x"));
    assert_eq!(
        describe_db(&parse_db(kv).unwrap()),
        "host=/run/postgresql port=5433 user=bot dbname=cajitas"
    );
    let bad = describe_db(&parse_db("host=x password=s3cr3t nonsense=1").unwrap());
    assert!(!bad.contains("s3cr3t"), "{bad}");
}

#[test]
fn urls_lose_their_secrets_in_logs() {
    assert_eq!(
        redact_url("https://user:pa55@proxy.internal:8443/base?key=s3cret#x"),
        "https://[redacted]@proxy.internal:8443/base"
    );
    assert_eq!(redact_url("http://127.0.0.1:9"), "http://127.0.0.1:9");
    // A password with `/`, `?` or `#` in it, which PostgreSQL's parser accepts.
    for (url, shown) in [
        ("postgres://bot:ab/cd@db/x", "postgres://[redacted]@db/x"),
        ("postgres://bot:pa?ss@db/x", "postgres://[redacted]@db/x"),
        (
            "postgres://bot:p#w@db:5432/x?sslmode=off",
            "postgres://[redacted]@db:5432/x",
        ),
        ("postgresql://bot:p@w@db/x", "postgresql://[redacted]@db/x"),
        (
            "postgresql:///cajitas?host=/run/postgresql",
            "postgresql:///cajitas",
        ),
    ] {
        assert_eq!(redact_url(url), shown, "{url}");
    }
    let e = api_base_from(Some("https://u:pa55@x.example/?t=s3cret"), None)
        .unwrap_err()
        .to_string();
    assert!(!e.contains("pa55") && !e.contains("s3cret"), "{e}");
}

#[test]
fn the_api_base_must_be_loopback_unless_trusted() {
    let ok = |u: &str| api_base_from(Some(u), None);
    for u in [
        "http://127.0.0.1:8080",
        "http://127.1.2.3",
        "http://localhost:1/",
        "http://LOCALHOST",
        "http://[::1]:9000",
    ] {
        let b = ok(u).unwrap().unwrap();
        assert!(!b.trusted_proxy, "{u}");
        assert!(!b.url.ends_with('/'), "{u}");
    }
    assert_eq!(ok("").unwrap(), None);
    assert_eq!(api_base_from(None, Some("1")).unwrap(), None);
    for u in [
        "https://discord.example",
        "http://10.0.0.1:8080",
        "http://127.0.0.1.evil.example",
        "http://localhost.evil.example",
        "http://user@127.0.0.1@evil.example",
        "http://[::2]:80",
        "http://[::ffff:127.0.0.1]:1",
        "http://0.0.0.0:1",
        "https://127.0.0.1",
        "ftp://127.0.0.1",
    ] {
        assert!(
            matches!(ok(u), Err(ConfigError::UntrustedApiBase(_))),
            "{u} must be refused"
        );
    }
    let proxy = api_base_from(Some("https://proxy.internal/"), Some("1"))
        .unwrap()
        .unwrap();
    assert!(proxy.trusted_proxy);
    assert_eq!(proxy.url, "https://proxy.internal");
    assert!(api_base_from(Some("https://proxy.internal"), Some("0")).is_err());
    let msg = ok("https://x.example").unwrap_err().to_string();
    assert!(msg.contains("DISCORD_API_BASE") && msg.contains(API_BASE_TRUSTED_VAR));
}

#[test]
fn the_ttl_is_read_from_text() {
    let d = crate::game::DEFAULT_CHALLENGE_TTL;
    assert_eq!(challenge_ttl_from(None).unwrap(), d);
    assert_eq!(challenge_ttl_from(Some(" ")).unwrap(), d);
    assert_eq!(
        challenge_ttl_from(Some("90")).unwrap(),
        std::time::Duration::from_secs(90)
    );
    for bad in ["0", "-5", "ten", "99999999"] {
        let e = challenge_ttl_from(Some(bad)).unwrap_err().to_string();
        assert!(e.contains("CAJITAS_CHALLENGE_TTL"), "{e}");
    }
}

#[test]
fn switches_and_thread_counts() {
    for on in ["1", "true", "YES", " on "] {
        assert!(switch_from(Some(on)), "{on}");
    }
    for off in ["", "0", "no", "off", "enable"] {
        assert!(!switch_from(Some(off)), "{off}");
    }
    assert!(!switch_from(None));
    assert!(blocking_threads_from(None).unwrap() >= 1);
    assert!(blocking_threads_from(None).unwrap() <= DEFAULT_THREADS_MAX);
    // An 8-core machine gets two threads per pool, not eight arenas' worth each.
    assert_eq!(default_threads(8), 2);
    assert_eq!(default_threads(2), 2);
    assert_eq!(default_threads(1), 1);
    assert_eq!(blocking_threads_from(Some("3")).unwrap(), 3);
    for bad in ["0", "x", "1000"] {
        assert!(matches!(
            blocking_threads_from(Some(bad)),
            Err(ConfigError::BadBlockingThreads(_))
        ));
    }
}

#[test]
fn threads_are_auto_unless_off() {
    for auto in [None, Some(""), Some("auto"), Some(" AUTO ")] {
        assert!(threads_from(auto).unwrap(), "{auto:?}");
    }
    assert!(!threads_from(Some("off")).unwrap());
    assert!(matches!(
        threads_from(Some("sometimes")),
        Err(ConfigError::BadThreads(_))
    ));
}

#[test]
fn the_metrics_address_is_explicit() {
    assert_eq!(metrics_from(None).unwrap(), None);
    assert_eq!(metrics_from(Some("  ")).unwrap(), None);
    let addr = |s: &str| metrics_from(Some(s)).unwrap().unwrap().to_string();
    assert_eq!(addr("127.0.0.1:9100"), "127.0.0.1:9100");
    assert_eq!(addr(" 9100 "), "127.0.0.1:9100");
    assert_eq!(addr("[::1]:9100"), "[::1]:9100");
    assert_eq!(addr("0.0.0.0:9100"), "0.0.0.0:9100");
    assert_eq!(addr("10.1.2.3:80"), "10.1.2.3:80");
    for bad in [
        "localhost:9100",
        "127.0.0.1",
        "127.0.0.1:99999",
        ":9100",
        "x",
        "-1",
    ] {
        let e = metrics_from(Some(bad)).unwrap_err().to_string();
        assert!(e.contains(METRICS_VAR) && e.contains(bad), "{bad}: {e}");
    }
}

#[test]
fn the_abandonment_period_is_read_in_days() {
    let day = std::time::Duration::from_secs(86_400);
    assert_eq!(abandon_after_from(None).unwrap(), 7 * day);
    assert_eq!(abandon_after_from(Some(" ")).unwrap(), 7 * day);
    assert_eq!(abandon_after_from(Some("3")).unwrap(), 3 * day);
    for bad in ["0", "366", "-1", "x", "1.5"] {
        assert!(matches!(
            abandon_after_from(Some(bad)),
            Err(ConfigError::BadAbandonDays(_))
        ));
    }
}

#[test]
fn missing_token_message_helps() {
    let msg = ConfigError::MissingToken.to_string();
    assert!(msg.contains("DISCORD_TOKEN"));
    assert!(msg.contains("discord.com/developers"));
    assert!(msg.contains("cajitas local"));
}

/// The bot needs the token; the console checks every other setting as the bot does.
#[test]
fn the_bot_needs_a_token_and_the_console_checks_the_rest() {
    let none = Settings::default();
    assert_eq!(
        BotConfig::try_from(none.clone()).unwrap_err(),
        ConfigError::MissingToken
    );
    let local = LocalConfig::try_from(none).unwrap();
    assert_eq!(local.challenge_ttl, crate::game::DEFAULT_CHALLENGE_TTL);
    assert_eq!(local.abandon_after, crate::game::DEFAULT_ABANDON_AFTER);
    let bad_shards = Settings {
        shards: Some("3".into()),
        ..Settings::default()
    };
    assert!(matches!(
        LocalConfig::try_from(bad_shards.clone()),
        Err(ConfigError::BadShards(_))
    ));
    let with_token = Settings {
        token: Some(Secret::new(" tok ")),
        ..bad_shards
    };
    assert!(matches!(
        BotConfig::try_from(with_token.clone()),
        Err(ConfigError::BadShards(_))
    ));
    let cfg = BotConfig::try_from(Settings {
        shards: Some("0-1/2".into()),
        pieces: Some("dejavu".into()),
        message_moves: Some("yes".into()),
        ..with_token
    })
    .unwrap();
    assert_eq!(cfg.token.expose(), "tok");
    assert_eq!(cfg.shards.map(|s| s.count()), Some(2));
    assert_eq!(cfg.pieces, crate::render::PieceSource::DejaVu);
    assert!(cfg.message_moves);
    assert_eq!(cfg.db, Database::Sqlite(PathBuf::from(DEFAULT_DB)));
}

/// The variables of the table, but the hidden one (`PATH`, the system's).
fn table() -> BTreeSet<String> {
    Settings::command()
        .get_arguments()
        .filter(|a| !a.is_hide_set())
        .filter_map(|a| a.get_env())
        .map(|v| v.to_string_lossy().into_owned())
        .collect()
}

/// `.env.example` documents every variable of the table, and nothing more; every argument of
/// the table reads a variable and says what it is for.
#[test]
fn env_example_documents_every_variable_and_nothing_more() {
    let example = include_str!("../../.env.example");
    let documented: BTreeSet<String> = example
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .filter_map(|l| l.split_once('='))
        .map(|(var, _)| var.trim().to_string())
        .collect();
    Settings::command().debug_assert();
    assert_eq!(documented, table());
    for var in [METRICS_VAR, API_BASE_TRUSTED_VAR, PIECES_VAR] {
        assert!(table().contains(var), "{var}");
    }
    for arg in Settings::command().get_arguments() {
        assert!(
            arg.get_env().is_some(),
            "{} reads no variable",
            arg.get_id()
        );
        assert!(
            arg.get_help().is_some(),
            "{} is not documented",
            arg.get_id()
        );
    }
}

/// Nothing but the table reads the environment: no `std::env::var` anywhere in `src/`.
#[test]
fn only_the_table_reads_the_environment() {
    let calls = ["env::var(", "env::var_os(", "env::vars("];
    let mut offenders = Vec::new();
    let mut dirs = vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs")
                && !path.ends_with("config/tests.rs")
            {
                let text = std::fs::read_to_string(&path).unwrap();
                if calls.iter().any(|c| text.contains(c)) {
                    offenders.push(path.display().to_string());
                }
            }
        }
    }
    assert_eq!(offenders, Vec::<String>::new());
}

#[test]
fn the_engine_is_found_in_order() {
    let dir = std::env::temp_dir().join(format!("cajitas-find-engine-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    let mine = dir.join("my-engine");
    std::fs::write(&mine, "").unwrap();
    let on_path = dir.join("bin").join("stockfish");
    std::fs::write(&on_path, "").unwrap();
    let nowhere = dir.join("nowhere");
    let path = std::env::join_paths([dir.join("empty"), dir.join("bin")]).unwrap();
    // CAJITAS_ENGINE first, then PATH, then Debian's place.
    assert_eq!(
        find_engine(Some(mine.as_os_str()), Some(&path), &nowhere).unwrap(),
        Some(mine.clone())
    );
    assert_eq!(
        find_engine(None, Some(&path), &nowhere).unwrap(),
        Some(on_path)
    );
    assert_eq!(
        find_engine(Some("".as_ref()), None, &mine).unwrap(),
        Some(mine.clone())
    );
    assert_eq!(find_engine(None, None, &nowhere).unwrap(), None);
    assert_eq!(
        find_engine(Some("off".as_ref()), Some(&path), &mine).unwrap(),
        None
    );
    // A named engine that is not there is an error that says what to do.
    let err = find_engine(Some(nowhere.as_os_str()), Some(&path), &mine).unwrap_err();
    assert!(err.to_string().contains("apt install stockfish"), "{err}");
    // A bare name is looked up on PATH (issue 26), not in the working folder.
    assert_eq!(
        find_engine(Some("stockfish".as_ref()), Some(&path), &nowhere).unwrap(),
        Some(dir.join("bin").join("stockfish"))
    );
    let err = find_engine(Some("my-engine".as_ref()), Some(&path), &nowhere).unwrap_err();
    assert!(err.to_string().contains("not a program on PATH"), "{err}");
    // `stockfish` not on PATH: Debian's place, as without CAJITAS_ENGINE.
    let debian = dir.join("bin").join("stockfish");
    assert_eq!(
        find_engine(Some("stockfish".as_ref()), None, &debian).unwrap(),
        Some(debian.clone())
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn engine_numbers_are_checked() {
    let engine = |s: Settings| {
        EngineSettings::try_from(&Settings {
            engine: Some("off".into()),
            ..s
        })
    };
    let three = Settings {
        engine_processes: Some("3".into()),
        engine_hash: Some("".into()),
        ..Settings::default()
    };
    let s = engine(three.clone()).unwrap();
    assert_eq!((s.processes, s.hash_mb, s.threads), (3, 16, 1));
    assert!(s.processes >= 1 && default_engine_processes() >= 1);
    for bad in ["0", "-1", "x", "65"] {
        let e = engine(Settings {
            engine_processes: Some(bad.into()),
            ..Settings::default()
        })
        .unwrap_err();
        assert!(e.to_string().contains("CAJITAS_ENGINE_PROCESSES"), "{e}");
    }
    assert!(
        engine(Settings {
            engine_hash: Some("99999".into()),
            ..Settings::default()
        })
        .is_err()
    );
    assert!(
        engine(Settings {
            engine_threads: Some("0".into()),
            ..Settings::default()
        })
        .is_err()
    );
    // The limits: analyses at once default to the processes; games per person to 2.
    assert_eq!(
        (s.analysis_nodes, s.analyses, s.games_per_user),
        (DEFAULT_ANALYSIS_NODES, 3, 2)
    );
    let s = engine(Settings {
        analysis_nodes: Some("250000".into()),
        analyses: Some("1".into()),
        engine_games_per_user: Some("5".into()),
        ..three.clone()
    })
    .unwrap();
    assert_eq!(
        (s.analysis_nodes, s.analyses, s.games_per_user),
        (250_000, 1, 5)
    );
    for (nodes, analyses, games, var) in [
        (Some("12"), None, None, "CAJITAS_ANALYSIS_NODES"),
        (None, Some("0"), None, "CAJITAS_ANALYSES"),
        (None, None, Some("0"), "CAJITAS_ENGINE_GAMES_PER_USER"),
        (None, None, Some("two"), "CAJITAS_ENGINE_GAMES_PER_USER"),
    ] {
        let e = engine(Settings {
            analysis_nodes: nodes.map(Into::into),
            analyses: analyses.map(Into::into),
            engine_games_per_user: games.map(Into::into),
            ..three.clone()
        })
        .unwrap_err();
        assert!(e.to_string().contains(var), "{e}");
    }
}

/// Every refusal is worded in both languages (the Fluent files), names its variable in both,
/// and shows the value given as a quoted, escaped string.
#[test]
fn every_config_error_is_worded_in_english_and_spanish() {
    let all = [
        ConfigError::MissingToken,
        ConfigError::BadGuildId("x\u{1b}".into()),
        ConfigError::UntrustedApiBase("http://x".into()),
        ConfigError::BadChallengeTtl("0".into()),
        ConfigError::BadShards("9/1".into()),
        ConfigError::BadThreads("maybe".into()),
        ConfigError::BadBlockingThreads("0".into()),
        ConfigError::BadAbandonDays("0".into()),
        ConfigError::BadNumber {
            var: "CAJITAS_ENGINE_HASH",
            min: "1".into(),
            max: "1024".into(),
            value: "big".into(),
        },
        ConfigError::EngineNotOnPath("nosuchfish".into()),
        ConfigError::EngineNotAFile("/nowhere/fish".into()),
        ConfigError::BadMetrics("here".into()),
    ];
    for e in &all {
        let en = e.message(Lang::En);
        let es = e.message(Lang::Es);
        assert_eq!(e.to_string(), en, "Display is the English");
        assert_ne!(en, es, "{e:?} is not translated");
        let var = en.split_whitespace().next().unwrap().trim_end_matches('.');
        assert!(
            var.starts_with("CAJITAS") || var.starts_with("DISCORD"),
            "{e:?} does not start with its variable: {en}"
        );
        assert!(es.contains(var), "{var} missing in Spanish: {es}");
        assert!(
            !en.contains("{$") && !es.contains("{$"),
            "unfilled: {en} / {es}"
        );
    }
    assert!(
        ConfigError::BadGuildId("x\u{1b}".into())
            .message(Lang::Es)
            .contains(r#""x\u{1b}""#)
    );
    assert!(
        ConfigError::MissingToken
            .message(Lang::En)
            .starts_with("DISCORD_TOKEN is not set.\n")
    );
}
