//! Ratings in `cajitas local`: a rated game shows both changes, `stats` prints the results
//! and writes the rating chart beside the boards, `leaderboard` lists the console's pool,
//! and `cajitas ratings rebuild` recomputes the same ratings.

#[path = "support/bot.rs"]
mod bot;
#[path = "support/console.rs"]
mod console;

use std::process::Command;

use console::local;

/// alice (white) mates bob with the scholar's mate.
const RATED_GAME: &str = "\
challenge bob white
as bob
accept
as alice
move e4
as bob
move e5
as alice
move Qh5
as bob
move Nc6
as alice
move Bc4
as bob
move Nf6
as alice
move Qxf7#
";

/// The console's stderr is the player's terminal: by default it logs warnings only (no
/// "INFO rusqlite_migration: Database migrated" at start), without colour codes when it is not
/// a terminal, and the chart of one game draws without tiny-skia's "empty paths" warning. Its
/// first line says the database was new.
#[test]
fn the_console_logs_nothing_for_a_new_database_and_a_chart_of_one_game() {
    let dir = bot::TempDir::new("console-quiet");
    let boards = dir.path().join("boards");
    let mut child = Command::new(env!("CARGO_BIN_EXE_cajitas"))
        .args(["local", "--boards", boards.to_str().unwrap()])
        .current_dir(dir.path())
        .env("CAJITAS_DB", dir.path().join("local.db"))
        .env("CAJITAS_ENGINE", "off")
        .env_remove("RUST_LOG")
        .env_remove("CAJITAS_CHALLENGE_TTL")
        .env_remove("DISCORD_TOKEN")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{RATED_GAME}stats\nquit\n").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("Rating chart: "), "{stdout}");
    let mut lines = stderr.lines();
    let first = lines.next().unwrap_or_default();
    assert!(
        first.contains("A new database was created") && first.contains("local.db"),
        "{stderr}"
    );
    let rest: Vec<&str> = lines.collect();
    assert!(rest.is_empty(), "nothing else on stderr: {stderr}");
    assert!(!stderr.contains('\u{1b}'), "no colour codes: {stderr:?}");
}

#[test]
fn a_rated_console_game_then_stats_with_a_chart_and_the_leaderboard() {
    let dir = bot::TempDir::new("console-ratings");
    let boards = dir.path().join("boards");
    let script = format!(
        "{RATED_GAME}stats\nstats bob\nleaderboard\nleaderboard live\nchallenge bob white rated:false\nas bob\naccept\nas alice\nmove e4\ntakeback\nquit\n"
    );
    let out = local(dir.path(), &["--boards", boards.to_str().unwrap()], &script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    // Both changes, with the provisional marks of new players.
    assert!(stdout.contains("alice 1500? → 1"), "{stdout}");
    assert!(stdout.contains("bob 1500? → 1"), "{stdout}");
    assert!(stdout.contains("? (+"), "{stdout}");
    assert!(stdout.contains("? (\u{2212}"), "{stdout}");
    // Stats: one rated game, a win with white, the streak and the last game.
    assert!(stdout.contains("Stats · alice"), "{stdout}");
    assert!(stdout.contains("Correspondence: 1"), "{stdout}");
    assert!(stdout.contains("With white: +1 =0 −0"), "{stdout}");
    assert!(stdout.contains("Streak: 1 win"), "{stdout}");
    assert!(stdout.contains("won against bob (game 1)"), "{stdout}");
    assert!(stdout.contains("lost against alice (game 1)"), "{stdout}");
    // The charts, as PNGs beside the boards.
    let charts: Vec<_> = std::fs::read_dir(&boards)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("rating-"))
        .collect();
    assert_eq!(charts.len(), 2, "{stdout}");
    for c in charts {
        let bytes = std::fs::read(c.path()).unwrap();
        let mut r = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        let mut buf = vec![0; r.output_buffer_size().unwrap()];
        let info = r.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (960, 540));
    }
    assert!(stdout.contains("Rating chart: "), "{stdout}");
    // One game is not enough for the leaderboard.
    assert!(stdout.contains("Leaderboard · Correspondence"), "{stdout}");
    assert!(
        stdout.contains("Nobody is on this leaderboard yet"),
        "{stdout}"
    );
    assert!(stdout.contains("Leaderboard · Live"), "{stdout}");
    assert!(stdout.contains("1 rated game of the 5 needed"), "{stdout}");
    // A casual game allows takebacks.
    assert!(stdout.contains("Casual (unrated)."), "{stdout}");
    assert!(stdout.contains("Rated."), "{stdout}");
    assert!(stdout.contains("asks to take back"), "{stdout}");

    // The rebuild gives the same ratings.
    let rebuild = Command::new(env!("CARGO_BIN_EXE_cajitas"))
        .args(["ratings", "rebuild"])
        .env("CAJITAS_DB", dir.path().join("local.db"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&rebuild.stdout);
    assert!(rebuild.status.success(), "{text}");
    assert!(
        text.contains("Ratings rebuilt: 1 rated game, 2 ratings."),
        "{text}"
    );
    let again = local(dir.path(), &["--no-png"], "stats\nquit\n");
    let after = String::from_utf8_lossy(&again.stdout);
    let line = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("Correspondence: "))
            .map(str::to_owned)
    };
    assert_eq!(line(&after), line(&stdout), "{after}");
}

#[test]
fn takebacks_are_refused_in_a_rated_console_game() {
    let dir = bot::TempDir::new("console-rated-takeback");
    let out = local(
        dir.path(),
        &["--no-png"],
        "challenge bob white\nas bob\naccept\nas alice\nmove e4\ntakeback\nquit\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("Takebacks are not allowed in rated games."),
        "{stdout}"
    );
}
