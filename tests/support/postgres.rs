//! A real, throwaway PostgreSQL server for the tests: `initdb` and `pg_ctl` from the machine's
//! PostgreSQL binaries on a temporary directory, listening only on a Unix socket in it, with
//! `fsync` left on. One server per test binary ([`server`]), one database per test
//! ([`PgServer::database`]); `CAJITAS_TEST_POSTGRES_URL`, when set, names an existing server
//! to use instead (a user allowed to create databases).
//!
//! `initdb` refuses to run as root: under root, the server runs as the `postgres` user
//! (`runuser -u postgres`). Without the binaries, [`server`] says why, and the tests print that
//! they were skipped; with [`REQUIRE_VAR`] set (as `.ci/run` does) such a skip fails the test.
//! Binaries that are there but fail to start a server fail the tests, with the reason.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

/// Where Debian puts the server binaries, one folder per major version
/// (`/usr/lib/postgresql/VERSION/bin`, as `.ci/run` looks for them); the newest is used.
/// `CAJITAS_TEST_POSTGRES_BIN` overrides it.
const DEBIAN_DIR: &str = "/usr/lib/postgresql";

/// The variable naming an existing server for the tests.
pub const URL_VAR: &str = "CAJITAS_TEST_POSTGRES_URL";

/// Set (to anything but empty or `0`) where PostgreSQL must be tested (`.ci/run` sets it): a
/// test that would be skipped for want of PostgreSQL's binaries fails instead.
pub const REQUIRE_VAR: &str = "CAJITAS_REQUIRE_PG";

/// Whether [`REQUIRE_VAR`] is set.
pub fn required() -> bool {
    std::env::var(REQUIRE_VAR).is_ok_and(|v| !matches!(v.trim(), "" | "0"))
}

/// A PostgreSQL server the tests may create databases on.
pub struct PgServer {
    /// The server's data directory (also its socket directory), when the tests started it.
    dir: Option<PathBuf>,
    /// The binaries it was started with.
    bin: Option<PathBuf>,
    /// Runs a command as the server's owner (`runuser -u postgres --` under root).
    as_owner: Vec<String>,
    /// A URL of the server, to the `postgres` database, for creating the tests' databases.
    admin_url: String,
}

/// The server of this test binary: started once, stopped when the binary exits (a watchdog
/// stops it even when the binary is killed). `Err` says why there is none: this machine has
/// no PostgreSQL binaries. Binaries that fail to start a server panic, with the reason (in
/// every test that asks: the failure is kept).
pub fn server() -> Result<&'static PgServer, String> {
    /// Why there is no server: no binaries, or they failed.
    enum NoServer {
        Absent(String),
        Failed(String),
    }
    static SERVER: OnceLock<Result<PgServer, NoServer>> = OnceLock::new();
    let server = SERVER.get_or_init(|| match std::env::var(URL_VAR) {
        Ok(url) if !url.trim().is_empty() => Ok(PgServer::existing(url.trim())),
        _ => match bin_dir() {
            Err(why) => Err(NoServer::Absent(why)),
            Ok(_) => PgServer::start(true).map_err(NoServer::Failed),
        },
    });
    match server {
        Ok(s) => Ok(s),
        Err(NoServer::Absent(why)) => Err(why.clone()),
        Err(NoServer::Failed(why)) => {
            panic!("the PostgreSQL binaries are there, but the test server did not start: {why}")
        }
    }
}

/// The server, or `None` after printing (past the test harness's capture) that the calling
/// test is skipped and why (a failure under [`REQUIRE_VAR`]).
pub fn server_or_skip(test: &str) -> Option<&'static PgServer> {
    match server() {
        Ok(s) => Some(s),
        Err(why) => {
            skipped(test, &why);
            None
        }
    }
}

/// Prints that `test` was skipped, straight to the process's stderr (not captured); under
/// [`REQUIRE_VAR`], fails the test instead.
pub fn skipped(test: &str, why: &str) {
    assert!(
        !required(),
        "{test}: no PostgreSQL server ({why}), and {REQUIRE_VAR} is set: PostgreSQL must be tested here"
    );
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {test}: no PostgreSQL server ({why})"
    );
}

fn bin_dir() -> Result<PathBuf, String> {
    if let Ok(dir) = std::env::var("CAJITAS_TEST_POSTGRES_BIN") {
        let dir = PathBuf::from(dir);
        if !dir.join("initdb").is_file() {
            return Err(format!(
                "no initdb in CAJITAS_TEST_POSTGRES_BIN={}",
                dir.display()
            ));
        }
        return Ok(dir);
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir(DEBIAN_DIR)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let major = e.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            (bin.join("initdb").is_file() && bin.join("pg_ctl").is_file()).then_some((major, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin).ok_or_else(|| {
        format!(
            "no initdb/pg_ctl in {DEBIAN_DIR}/*/bin (install Debian's `postgresql` package, or set {URL_VAR})"
        )
    })
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{cmd:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{cmd:?} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

impl PgServer {
    /// An existing server named by a URL.
    fn existing(url: &str) -> PgServer {
        PgServer {
            dir: None,
            bin: None,
            as_owner: Vec::new(),
            admin_url: url.to_owned(),
        }
    }

    /// Starts a new server on a fresh temporary directory. With `watchdog`, a small shell
    /// process stops it and removes the directory once this process is gone (for the shared
    /// server, which is never dropped); otherwise dropping the value does.
    pub fn start(watchdog: bool) -> Result<PgServer, String> {
        let bin = bin_dir()?;
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "cajitas-pg-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let as_owner: Vec<String> = if is_root() {
            run(Command::new("chown").arg("postgres:").arg(&dir))?;
            ["runuser", "-u", "postgres", "--"]
                .map(String::from)
                .to_vec()
        } else {
            Vec::new()
        };
        let data = dir.join("data");
        let owner_cmd = |exe: &str| {
            let mut c = match as_owner.split_first() {
                Some((first, rest)) => {
                    let mut c = Command::new(first);
                    c.args(rest).arg(bin.join(exe));
                    c
                }
                None => Command::new(bin.join(exe)),
            };
            c.current_dir(&dir);
            c
        };
        let server = PgServer {
            dir: Some(dir.clone()),
            bin: Some(bin.clone()),
            as_owner: as_owner.clone(),
            admin_url: format!("postgresql:///postgres?host={}&user=cajitas", dir.display()),
        };
        // From here on, dropping `server` stops what was started and removes the directory.
        run(owner_cmd("initdb")
            .args([
                "-A",
                "trust",
                "-U",
                "cajitas",
                "-E",
                "UTF8",
                "--no-locale",
                "-D",
            ])
            .arg(&data))?;
        run(owner_cmd("pg_ctl")
            .arg("-D")
            .arg(&data)
            .arg("-o")
            .arg(format!(
                "-k {} -c listen_addresses='' -c max_connections=200",
                dir.display()
            ))
            .arg("-l")
            .arg(dir.join("log"))
            .args(["-w", "start"]))?;
        if watchdog {
            let stop = format!(
                "while kill -0 {pid} 2>/dev/null; do sleep 1; done; {owner} {pg_ctl} -D {data} -m immediate stop >/dev/null 2>&1; rm -rf {dir}",
                pid = std::process::id(),
                owner = as_owner.join(" "),
                pg_ctl = bin.join("pg_ctl").display(),
                data = data.display(),
                dir = dir.display(),
            );
            Command::new("sh")
                .args(["-c", &stop])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .map_err(|e| format!("watchdog: {e}"))?;
        }
        Ok(server)
    }

    /// The directory of a server the tests started (its socket is there).
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The binary `exe` of the server's installation (`pgbench`, …), when the tests started it.
    pub fn bin(&self, exe: &str) -> Option<PathBuf> {
        self.bin.as_ref().map(|b| b.join(exe))
    }

    /// The URL of database `name` on this server.
    pub fn url_of(&self, name: &str) -> String {
        replace_db(&self.admin_url, name)
    }

    /// A new, empty database for one test, named after it; dropped with the value.
    pub fn database(&'static self, tag: &str) -> PgDatabase {
        static N: AtomicU32 = AtomicU32::new(0);
        let clean: String = tag
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .take(30)
            .collect();
        let name = format!(
            "t_{clean}_{}_{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        );
        off_runtime(|| {
            let mut admin = postgres::Client::connect(&self.admin_url, postgres::NoTls)
                .expect("connect to the test server");
            admin
                .batch_execute(&format!("CREATE DATABASE \"{name}\""))
                .expect("create a test database");
        });
        PgDatabase {
            server: self,
            url: self.url_of(&name),
            name,
        }
    }

    /// A role `user` that must log in with `password` (scram-sha-256, by a line put first in
    /// `pg_hba.conf`, the server reloaded), and the URL of database `db` as that role, without
    /// the password: the tests add the right or a wrong one. `None` on a server the tests did
    /// not start (its authentication is not theirs to change).
    pub fn password_user(&self, user: &str, password: &str, db: &str) -> Option<String> {
        let dir = self.dir.as_ref()?;
        let hba = dir.join("data").join("pg_hba.conf");
        let old = std::fs::read_to_string(&hba).expect("read pg_hba.conf");
        let line = format!("local all {user} scram-sha-256\n");
        if !old.starts_with(&line) {
            std::fs::write(&hba, format!("{line}{old}")).expect("write pg_hba.conf");
        }
        let (user, password) = (user.to_owned(), password.to_owned());
        off_runtime(|| {
            let mut admin = postgres::Client::connect(&self.admin_url, postgres::NoTls)
                .expect("connect to the test server");
            admin
                .batch_execute(&format!(
                    "DO $$ BEGIN
                         IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{user}') THEN
                             CREATE ROLE \"{user}\" LOGIN SUPERUSER;
                         END IF;
                     END $$;
                     ALTER ROLE \"{user}\" PASSWORD '{password}';
                     SELECT pg_reload_conf();"
                ))
                .expect("create the role");
        });
        let url = format!("postgresql:///{db}?host={}&user={user}", dir.display());
        // The reload is asynchronous: wait until a login without the password is refused.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while off_runtime(|| postgres::Client::connect(&url, postgres::NoTls).is_ok()) {
            assert!(
                std::time::Instant::now() < deadline,
                "the server never asked for the password"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        Some(url)
    }

    fn stop(&self) {
        if let (Some(dir), Some(bin)) = (&self.dir, &self.bin) {
            let mut c = match self.as_owner.split_first() {
                Some((first, rest)) => {
                    let mut c = Command::new(first);
                    c.args(rest).arg(bin.join("pg_ctl"));
                    c
                }
                None => Command::new(bin.join("pg_ctl")),
            };
            let _ = run(c
                .arg("-D")
                .arg(dir.join("data"))
                .args(["-m", "immediate", "stop"]));
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// `url` with its database replaced by `name`: `scheme://authority/NAME?query`.
fn replace_db(url: &str, name: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("postgresql", url));
    let (before_query, query) = match rest.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (rest, None),
    };
    let authority = before_query.split('/').next().unwrap_or("");
    match query {
        Some(q) => format!("{scheme}://{authority}/{name}?{q}"),
        None => format!("{scheme}://{authority}/{name}"),
    }
}

/// A database of the test server, dropped (connections and all) with the value.
pub struct PgDatabase {
    server: &'static PgServer,
    name: String,
    /// Its URL.
    pub url: String,
}

impl PgDatabase {
    /// A new client on it.
    pub fn client(&self) -> postgres::Client {
        off_runtime(|| {
            postgres::Client::connect(&self.url, postgres::NoTls)
                .expect("connect to the test database")
        })
    }
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        off_runtime(|| {
            if let Ok(mut admin) =
                postgres::Client::connect(&self.server.admin_url, postgres::NoTls)
            {
                let _ = admin.batch_execute(&format!(
                    "DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)",
                    self.name
                ));
            }
        });
    }
}

/// Runs `f` on a thread of its own: the blocking `postgres` client cannot run on a thread
/// that drives a tokio runtime (the async tests call these helpers too).
pub fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| s.spawn(f).join().unwrap())
}

/// Tests that measure time windows hold this while they run, so that they do not run at the
/// same time as each other: the one time-window lock of every suite (engine, PostgreSQL and
/// fake-Discord tests alike, in one binary or several): the file lock of
/// `support::serial::time_window`, on the same file (taken here by hand, for the benches that
/// include this file without the rest of `support`).
pub fn timing_lock() -> std::fs::File {
    let path = std::env::temp_dir().join("cajitas-time-window-tests.lock");
    let file = std::fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .expect("open the time-window lock file");
    file.lock().expect("take the time-window lock");
    file
}

/// A process's scheduler over all events of the database at `url`, run by `svc` and following
/// the other processes' deadlines (`LISTEN`, as `cajitas run` does with PostgreSQL), once it
/// sleeps without a plan (at most 5 s).
pub fn idle_following_scheduler(
    svc: cajitas::game::GameService,
    url: &str,
) -> cajitas::game::Scheduler {
    use cajitas::store::Store;
    let sched = cajitas::game::Scheduler::start(svc, cajitas::game::EventScope::All);
    let listener = cajitas::store::PostgresStore::open(url).unwrap();
    sched.follow(listener.coordination().unwrap().listen_deadlines().unwrap());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while !(sched.sleeping() && sched.planned().is_none()) {
        assert!(
            std::time::Instant::now() < deadline,
            "the scheduler never went idle"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    sched
}
