//! Runs the real `cajitas` binary against a fake Discord.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// A temporary directory removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// Creates a fresh directory under the system temp dir.
    pub fn new(tag: &str) -> Self {
        static N: AtomicU32 = AtomicU32::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        let p = std::env::temp_dir().join(format!(
            "cajitas-{tag}-{}-{}-{nanos}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&p).unwrap();
        Self(p)
    }

    /// The path.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The bot process. Killed on drop; its log is printed if the test is failing.
pub struct Bot {
    child: Option<Child>,
    /// Where its stderr goes.
    pub log: PathBuf,
}

/// How to start the bot.
pub struct BotOptions<'a> {
    /// The fake's base URL.
    pub api_base: &'a str,
    /// The database file.
    pub db: &'a Path,
    /// Where to write the log.
    pub log: PathBuf,
    /// Extra environment variables; an empty value removes the variable (e.g. `RUST_LOG`,
    /// to run with the shipped default).
    pub env: Vec<(&'a str, String)>,
}

impl Bot {
    /// Starts `cajitas run` with a fake token against the fake Discord.
    pub fn start(o: BotOptions<'_>) -> Bot {
        Bot::start_program(Path::new(env!("CARGO_BIN_EXE_cajitas")), o)
    }

    /// [`Bot::start`] with another `cajitas` binary (a bench compares builds).
    pub fn start_program(program: &Path, o: BotOptions<'_>) -> Bot {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&o.log)
            .unwrap();
        let mut cmd = Command::new(program);
        cmd.arg("run")
            .env("DISCORD_TOKEN", "MTAw.fake00.fakefakefake")
            .env("DISCORD_API_BASE", o.api_base)
            .env("CAJITAS_DB", o.db)
            .env(
                "RUST_LOG",
                "info,cajitas=debug,serenity=warn,serenity::client::dispatch=debug",
            )
            .env_remove("DISCORD_GUILD_ID")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(log));
        // `.env` files must not leak into tests: run from the temp dir.
        if let Some(dir) = o.db.parent() {
            cmd.current_dir(dir);
        }
        for (k, v) in &o.env {
            if v.is_empty() {
                cmd.env_remove(k);
            } else {
                cmd.env(k, v);
            }
        }
        let child = cmd.spawn().expect("spawn cajitas");
        Bot {
            child: Some(child),
            log: o.log,
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.as_ref().unwrap().id()
    }

    /// Sends a signal (e.g. "TERM", "KILL") to the process.
    pub fn signal(&self, sig: &str) {
        let status = Command::new("kill")
            .arg(format!("-{sig}"))
            .arg(self.pid().to_string())
            .status()
            .unwrap();
        assert!(status.success(), "kill -{sig} failed");
    }

    /// Waits for the process to exit (at most `timeout`), returning its exit code.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<i32> {
        let child = self.child.as_mut().unwrap();
        let deadline = std::time::Instant::now() + timeout;
        loop {
            if let Some(st) = child.try_wait().unwrap() {
                self.child = None;
                return st.code();
            }
            if std::time::Instant::now() > deadline {
                panic!("bot did not exit within {timeout:?}\n{}", self.log_text());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The log so far.
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        if std::thread::panicking() {
            eprintln!(
                "---- bot log ({}) ----\n{}",
                self.log.display(),
                self.log_text()
            );
        }
    }
}
