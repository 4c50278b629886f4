//! The work that follows an interaction's answer (a game's summary in its channel, its
//! thread's archive edit): run by a few threads of its own, in the order it came.
//!
//! Not tokio's blocking pool: a post retried after a failure waits there, and must not hold up
//! the commands. Not a thread per job either: the posts wait for the bot's global REST budget,
//! and at 40 game ends a second (the `discord` bench's sustained load) 60 threads waited at
//! once, each with a stack and a malloc arena (the bot's peak RSS went from 36 to 57 MB). Jobs
//! that wait here cost a box each.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, OnceLock};

/// A job to run once the interaction was answered.
pub type AfterAnswer = Box<dyn FnOnce() + Send + 'static>;

/// How many jobs run at once: enough that one channel whose posts fail and are retried (a
/// few seconds) does not stop the others, few enough to stay small.
pub const WORKERS: usize = 4;

/// Queues `job` for the workers (started with the first job).
pub fn run_after(job: AfterAnswer) {
    static QUEUE: OnceLock<Sender<AfterAnswer>> = OnceLock::new();
    let queue = QUEUE.get_or_init(|| {
        let (tx, rx) = channel::<AfterAnswer>();
        let rx = Arc::new(Mutex::new(rx));
        for _ in 0..WORKERS {
            let rx = Arc::clone(&rx);
            if let Err(e) = std::thread::Builder::new()
                .name("cajitas-after".into())
                .spawn(move || work(&rx))
            {
                tracing::warn!(error = %e, "could not start a worker for the work that follows an answer");
            }
        }
        tx
    });
    if queue.send(job).is_err() {
        tracing::warn!("no worker runs the work that follows an answer");
    }
}

/// One worker: takes the next job and runs it, until the queue closes. A job that panics
/// ends its own run, not the worker.
fn work(rx: &Mutex<Receiver<AfterAnswer>>) {
    loop {
        let next = rx.lock().unwrap_or_else(|p| p.into_inner()).recv();
        let Ok(job) = next else { return };
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).is_err() {
            tracing::warn!("the work that follows an answer panicked");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::time::Duration;

    /// Many jobs run on the same few threads, all of them, a panicking one included.
    #[test]
    fn jobs_share_a_few_threads_and_all_run() {
        let (tx, rx) = channel();
        run_after(Box::new(|| panic!("a job that fails")));
        for i in 0..200 {
            let tx = tx.clone();
            run_after(Box::new(move || {
                std::thread::sleep(Duration::from_millis(1));
                let _ = tx.send((i, std::thread::current().id()));
            }));
        }
        let mut seen = HashSet::new();
        let mut threads = HashSet::new();
        for _ in 0..200 {
            let (i, t) = rx
                .recv_timeout(Duration::from_secs(30))
                .expect("every job runs");
            seen.insert(i);
            threads.insert(t);
        }
        assert_eq!(seen.len(), 200);
        assert!(threads.len() <= WORKERS, "{} threads", threads.len());
    }
}
