//! `cajitas local` driven through a pipe, as a script would: the one runner the console
//! tests share.

// Each test binary uses some of these.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `cajitas local ARGS` in `dir` (its database `local.db` there, no `.env` from
/// elsewhere, no token), feeds it `script` and waits for it to end.
pub fn local(dir: &Path, args: &[&str], script: &str) -> Output {
    local_with_env(dir, args, &[], script)
}

/// [`local`] with these environment variables set on top (the rest of the environment
/// as the test's, less the variables a developer's shell might set for the bot).
pub fn local_with_env(dir: &Path, args: &[&str], env: &[(&str, String)], script: &str) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cajitas"));
    cmd.arg("local")
        .args(args)
        .current_dir(dir)
        .env("CAJITAS_DB", dir.join("local.db"))
        .env_remove("CAJITAS_CHALLENGE_TTL")
        .env_remove("CAJITAS_ENGINE")
        .env_remove("DISCORD_TOKEN")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}
