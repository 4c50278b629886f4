//! `cajitas local` driven through a pipe, as a script would: the one runner the console
//! tests share.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `cajitas local ARGS` in `dir` (its database `local.db` there, no `.env` from
/// elsewhere, no token), feeds it `script` and waits for it to end.
pub fn local(dir: &Path, args: &[&str], script: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cajitas"))
        .arg("local")
        .args(args)
        .current_dir(dir)
        .env("CAJITAS_DB", dir.join("local.db"))
        .env_remove("CAJITAS_CHALLENGE_TTL")
        .env_remove("DISCORD_TOKEN")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}
