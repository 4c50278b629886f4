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
