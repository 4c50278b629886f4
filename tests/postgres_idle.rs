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
    std::thread::sleep(Duration::from_millis(200));
    let before = wakeups_of(&names);
    assert_eq!(before.len(), 3, "{before:?}");
    std::thread::sleep(Duration::from_secs(3));
    let after = wakeups_of(&names);
    assert_eq!(after, before, "idle threads woke up");
    sched.stop();
}
