//! The `cajitas` binary's command line: help, and `run` without a token.

#[path = "support/bot.rs"]
mod bot;

use std::process::Command;

/// The command, run in a temporary working directory (so a developer's own `.env` is not
/// read) that is removed when the command is dropped.
struct Cajitas {
    cmd: Command,
    _dir: bot::TempDir,
}

impl std::ops::Deref for Cajitas {
    type Target = Command;
    fn deref(&self) -> &Command {
        &self.cmd
    }
}

impl std::ops::DerefMut for Cajitas {
    fn deref_mut(&mut self) -> &mut Command {
        &mut self.cmd
    }
}

fn cajitas() -> Cajitas {
    let dir = bot::TempDir::new("cli");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cajitas"));
    cmd.current_dir(dir.path()).env_remove("DISCORD_TOKEN");
    Cajitas { cmd, _dir: dir }
}

#[test]
fn run_without_token_exits_2_with_help() {
    for args in [&["run"][..], &[][..]] {
        let out = cajitas().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "args {args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("DISCORD_TOKEN"), "{err}");
        assert!(err.contains("developers/applications"), "{err}");
        assert!(err.contains("cajitas local"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let out = cajitas()
        .arg("run")
        .env("DISCORD_TOKEN", "")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn empty_optional_variables_mean_unset() {
    // `.env.example` ships `DISCORD_GUILD_ID=` and the like: empty is not an error.
    let out = cajitas()
        .arg("run")
        .env("DISCORD_GUILD_ID", "")
        .env("CAJITAS_DB", "")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("DISCORD_TOKEN is not set"), "{err}");
}

#[test]
fn bad_guild_id_exits_2_before_connecting() {
    let out = cajitas()
        .arg("run")
        .env("DISCORD_TOKEN", "not-a-real-token")
        .env("DISCORD_GUILD_ID", "my-server")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("DISCORD_GUILD_ID must be"), "{err}");
    assert!(!err.contains("not-a-real-token"), "{err}");
}

#[test]
fn help_lists_subcommands_and_hides_env_values() {
    let out = cajitas()
        .arg("--help")
        .env("CAJITAS_DB", "/very/secret/place.db")
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("run"), "{help}");
    let out = cajitas()
        .args(["run", "--help"])
        .env("CAJITAS_DB", "/very/secret/place.db")
        .env("DISCORD_TOKEN", "tok-should-not-show")
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("--db"), "{help}");
    assert!(!help.contains("/very/secret/place.db"), "{help}");
    assert!(!help.contains("tok-should-not-show"), "{help}");
    assert!(!help.contains("--token"), "{help}");
}

/// The files in the command's working directory.
fn files_in(c: &Cajitas) -> Vec<String> {
    std::fs::read_dir(c._dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// `cajitas local` reads the settings `cajitas run` reads, and refuses what the bot refuses
/// (they share one `.env`), with exit 2 before it opens anything.
#[test]
fn the_console_refuses_the_settings_the_bot_refuses() {
    for (var, value) in [
        ("CAJITAS_BLOCKING_THREADS", "0"),
        ("CAJITAS_BLOCKING_THREADS", "65"),
        ("CAJITAS_BLOCKING_THREADS", "x"),
        ("CAJITAS_THREADS", "sometimes"),
        ("CAJITAS_SHARDS", "3"),
        ("CAJITAS_METRICS", "localhost:9100"),
        ("DISCORD_GUILD_ID", "my-server"),
        ("CAJITAS_ABANDON_DAYS", "0"),
    ] {
        let mut c = cajitas();
        c.args(["local", "--no-png"])
            .env_remove("CAJITAS_DB")
            .env("CAJITAS_ENGINE", "off")
            .env(var, value)
            .stdin(std::process::Stdio::null());
        let out = c.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{var}={value}: {err}");
        assert!(err.contains(var), "{var}={value}: {err}");
        assert_eq!(files_in(&c), Vec::<String>::new(), "nothing opened");
    }
}

/// The tools that read a deployment refuse a database file that is not there (exit 2),
/// instead of creating an empty one and reporting "0 rated games".
#[test]
fn tools_that_read_a_deployment_refuse_a_missing_database_file() {
    for args in [
        &["ratings", "rebuild"][..],
        &["ratings", "rebuild", "--db", "typo.db"][..],
        &[
            "migrate",
            "--from",
            "typo.db",
            "--to",
            "postgres://u:pa55@127.0.0.1:1/x",
        ][..],
    ] {
        let mut c = cajitas();
        c.args(args).env_remove("CAJITAS_DB");
        let out = c.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("no such database file"), "{args:?}: {err}");
        assert!(!err.contains("pa55"), "{err}");
        assert_eq!(
            files_in(&c),
            Vec::<String>::new(),
            "{args:?} created a file"
        );
    }
}

/// Issue 26: a reader that went away (`cajitas migrate … | head -1`) once made the printing
/// commands panic (exit 101, "failed printing to stdout: Broken pipe"). Each now ends
/// quietly: status 0 and nothing on stderr, as the console already did. The pipe's reading
/// end is closed before the command starts, so its first line meets EPIPE every time.
#[test]
fn every_printing_command_ends_quietly_on_a_closed_stdout() {
    let cases: [&[&str]; 6] = [
        // The first line ("copying …") comes before any connection: no server needed (the
        // source must exist: the tools that read a deployment refuse a missing file).
        &[
            "migrate",
            "--from",
            "source.db",
            "--to",
            "postgres://u:secret@127.0.0.1:1/x",
        ],
        &["perft", "2", "--divide"],
        &["replay"],
        &["ratings", "rebuild", "--db", "r.db"],
        &["render", "-o", "/dev/stdout", "--size", "128"],
        &["--help"],
    ];
    for args in cases {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let mut c = cajitas();
        // An empty file is an empty SQLite database: a deployment for migrate and ratings.
        for db in ["source.db", "r.db"] {
            std::fs::write(c._dir.path().join(db), b"").unwrap();
        }
        let out = c
            .args(args)
            .env_remove("CAJITAS_DB")
            .stdin(std::process::Stdio::null())
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe"),
            "{args:?}: {err}"
        );
    }
}

/// A PostgreSQL server that is not there is one clear message, at once (no 10 s wait, no
/// `ERROR r2d2` lines), for a URL and a libpq keyword/value string alike; the string is
/// never a file named after it, and its password is never printed.
#[test]
fn an_unreachable_postgresql_is_one_message_at_once() {
    for db in [
        "postgres://u:pa55@127.0.0.1:1/x",
        "host=127.0.0.1 port=1 user=u password=pa55 dbname=x",
    ] {
        let mut c = cajitas();
        c.args(["ratings", "rebuild"])
            .env("CAJITAS_DB", db)
            .env_remove("RUST_LOG");
        let started = std::time::Instant::now();
        let out = c.output().unwrap();
        let took = started.elapsed();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{db}: {err}");
        assert!(took < std::time::Duration::from_secs(2), "{took:?}: {err}");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(err.contains("error connecting to server"), "{err}");
        assert!(!err.contains("pa55") && !err.contains("r2d2"), "{err}");
        assert_eq!(files_in(&c), Vec::<String>::new(), "{db}: a file was made");
    }
}

/// An invalid `RUST_LOG` is named in a warning (it was silently replaced by the default), and
/// no log line has colour codes when stderr is not a terminal.
#[test]
fn an_invalid_rust_log_is_named_in_a_warning() {
    let mut c = cajitas();
    c.args(["local", "--no-png"])
        .env_remove("CAJITAS_DB")
        .env("CAJITAS_ENGINE", "off")
        .env("RUST_LOG", "not a [filter")
        .stdin(std::process::Stdio::null());
    let out = c.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("WARN"), "{err}");
    assert!(err.contains("RUST_LOG=\"not a [filter\""), "{err}");
    assert!(!err.contains('\u{1b}'), "colour codes in {err:?}");
}

/// Issue 26: `render -o x.png` without `--fen` draws the initial position.
#[test]
fn render_without_a_fen_draws_the_initial_position() {
    let cmd = cajitas();
    let dir = cmd.get_current_dir().unwrap().to_path_buf();
    let mut cmd = cmd;
    let out = cmd.args(["render", "-o", "start.png"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let drawn = std::fs::read(dir.join("start.png")).unwrap();
    let out = cajitas()
        .args([
            "render",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "-o",
            "/dev/stdout",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        drawn, out.stdout,
        "the same board as --fen of the initial position"
    );
}

/// Issue 26: `replay --help` says one JSON line per game (it prints one per game).
#[test]
fn replay_help_says_one_line_per_game() {
    let out = cajitas().args(["replay", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("one JSON line per game"), "{help}");
    assert!(!help.contains("as one JSON line"), "{help}");
}
