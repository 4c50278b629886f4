//! One lock for the tests that measure time windows (engine searches and budgets, the fake
//! Discord's timings): taken, they never run at the same time as each other on the 2-core
//! machine, whether in one test binary (threads) or in several (processes, e.g. nextest).
//! A file lock, released when the guard drops (or the process dies).

#![allow(dead_code)]

use std::fs::File;

/// Holds the time-window lock.
pub struct TimeWindow {
    _file: File,
}

/// Waits for the time-window lock.
pub fn time_window() -> TimeWindow {
    let path = std::env::temp_dir().join("cajitas-time-window-tests.lock");
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .expect("open the time-window lock file");
    file.lock().expect("take the time-window lock");
    TimeWindow { _file: file }
}
