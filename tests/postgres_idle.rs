//! An idle bot process on PostgreSQL does not wake: its scheduler, the thread that follows the
//! other processes' deadlines and its LISTEN connection's thread sleep until something
//! happens. Alone in its test binary, so no other test's threads are counted.

mod support;

use std::time::Duration;

use cajitas::game::{GameService, ServiceOptions};
use cajitas::store::Database;

use support::postgres::{idle_following_scheduler, server_or_skip};

/// The context switches of this process's threads named `names` (Linux truncates a thread's
/// name to 15 bytes), by thread id.
fn wakeups_of(names: &[&str]) -> Vec<(String, String, u64)> {
    let mut out = Vec::new();
    for task in std::fs::read_dir("/proc/self/task").unwrap().flatten() {
        let dir = task.path();
        let name = std::fs::read_to_string(dir.join("comm")).unwrap_or_default();
        let name = name.trim();
        if !names.contains(&name) {
            continue;
        }
        let status = std::fs::read_to_string(dir.join("status")).unwrap_or_default();
        let switches: u64 = status
            .lines()
            .filter(|l| l.contains("ctxt_switches"))
            .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
            .sum();
        out.push((
            name.to_owned(),
            task.file_name().to_string_lossy().into_owned(),
            switches,
        ));
    }
    out.sort();
    out
}

/// The state of thread `tid` of this process (`S`: asleep, waiting for an event).
fn state_of(tid: &str) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/self/task/{tid}/stat")).ok()?;
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .next()?
        .chars()
        .next()
}

/// [`wakeups_of`] once the threads `names` are all there and asleep, twice in a row with the
/// same counts: done starting.
fn settled(names: &[&str]) -> Vec<(String, String, u64)> {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let mut last = None;
    loop {
        let now = wakeups_of(names);
        let asleep =
            now.len() == names.len() && now.iter().all(|(_, tid, _)| state_of(tid) == Some('S'));
        if asleep && last.as_ref() == Some(&now) {
            return now;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the threads never settled: {now:?}"
        );
        last = asleep.then_some(now);
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn an_idle_scheduler_following_the_other_processes_does_not_wake() {
    let Some(pg) = server_or_skip("an_idle_scheduler_following_the_other_processes_does_not_wake")
    else {
        return;
    };
    let db = pg.database("idle");
    let svc = GameService::open_db(
        &Database::Postgres(db.url.clone()),
        ServiceOptions::default(),
    )
    .unwrap();
    let sched = idle_following_scheduler(svc, &db.url);
    let names = ["cajitas-schedul", "cajitas-deadlin", "pg-listen"];
    let before = settled(&names);
    assert_eq!(before.len(), 3, "{before:?}");
    std::thread::sleep(Duration::from_secs(3));
    let after = wakeups_of(&names);
    assert_eq!(after, before, "idle threads woke up");
    sched.stop();
}
