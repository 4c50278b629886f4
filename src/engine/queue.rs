//! Who may analyse now: one analysis in progress per person, at most a configured number
//! running at once (`CAJITAS_ANALYSES`, by default the engine's processes), and the rest
//! waiting in the order they came, each knowing its place ("2 ahead of you").
//!
//! In-process and blocking, like the pool: a ticket waits on the analysis's own thread.

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// The analyses of one process.
#[derive(Clone)]
pub struct AnalysisQueue {
    shared: Arc<Shared>,
}

struct Shared {
    state: Mutex<State>,
    changed: Condvar,
    max_running: usize,
}

#[derive(Default)]
struct State {
    running: usize,
    /// Waiting tickets, first come first.
    waiting: VecDeque<u64>,
    /// People with an analysis in progress (running or waiting).
    people: HashSet<u64>,
    next_ticket: u64,
}

impl Shared {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A person asked for a second analysis while their first is in progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("this person already has an analysis in progress")]
pub struct AlreadyAnalysing;

/// One analysis's place: running, or waiting. Dropping it frees the place.
pub struct AnalysisTicket {
    shared: Arc<Shared>,
    id: u64,
    person: u64,
    running: bool,
}

impl std::fmt::Debug for AnalysisQueue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnalysisQueue")
            .field("max_running", &self.shared.max_running)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for AnalysisTicket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnalysisTicket")
            .field("person", &self.person)
            .field("running", &self.running)
            .finish_non_exhaustive()
    }
}

impl AnalysisQueue {
    /// A queue that runs at most `max_running` analyses at once (at least 1).
    pub fn new(max_running: usize) -> AnalysisQueue {
        AnalysisQueue {
            shared: Arc::new(Shared {
                state: Mutex::new(State::default()),
                changed: Condvar::new(),
                max_running: max_running.max(1),
            }),
        }
    }

    /// How many analyses may run at once.
    pub fn max_running(&self) -> usize {
        self.shared.max_running
    }

    /// `person` asks for an analysis: a ticket that runs at once when there is room and
    /// nobody waits, else waits its turn; refused while the person has one in progress.
    pub fn enter(&self, person: u64) -> Result<AnalysisTicket, AlreadyAnalysing> {
        let mut st = self.shared.state();
        if !st.people.insert(person) {
            return Err(AlreadyAnalysing);
        }
        st.next_ticket += 1;
        let id = st.next_ticket;
        let running = st.running < self.shared.max_running && st.waiting.is_empty();
        if running {
            st.running += 1;
        } else {
            st.waiting.push_back(id);
        }
        Ok(AnalysisTicket {
            shared: Arc::clone(&self.shared),
            id,
            person,
            running,
        })
    }

    /// How many analyses run now, and how many wait.
    pub fn load(&self) -> (usize, usize) {
        let st = self.shared.state();
        (st.running, st.waiting.len())
    }
}

impl AnalysisTicket {
    /// How many analyses wait ahead of this one; 0 once it runs.
    pub fn ahead(&self) -> usize {
        if self.running {
            return 0;
        }
        let st = self.shared.state();
        st.waiting.iter().position(|&t| t == self.id).unwrap_or(0)
    }

    /// Whether it runs.
    pub fn is_running(&self) -> bool {
        self.running
    }

    /// Blocks until this analysis may run, calling `place(ahead)` each time the number of
    /// analyses waiting ahead of it changes (and once at the start).
    pub fn wait_turn(&mut self, mut place: impl FnMut(usize)) {
        if self.running {
            return;
        }
        let mut shown = None;
        let mut st = self.shared.state();
        loop {
            if st.waiting.front() == Some(&self.id) && st.running < self.shared.max_running {
                st.waiting.pop_front();
                st.running += 1;
                self.running = true;
                drop(st);
                // The next in line may run too, if there is room for it.
                self.shared.changed.notify_all();
                return;
            }
            let ahead = st.waiting.iter().position(|&t| t == self.id).unwrap_or(0);
            if shown != Some(ahead) {
                shown = Some(ahead);
                drop(st);
                place(ahead);
                st = self.shared.state();
                continue;
            }
            st = self
                .shared
                .changed
                .wait(st)
                .unwrap_or_else(|p| p.into_inner());
        }
    }
}

impl Drop for AnalysisTicket {
    fn drop(&mut self) {
        let mut st = self.shared.state();
        if self.running {
            st.running -= 1;
        } else {
            st.waiting.retain(|&t| t != self.id);
        }
        st.people.remove(&self.person);
        drop(st);
        self.shared.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_analysis_per_person_and_the_rest_wait_in_order_knowing_their_place() {
        let q = AnalysisQueue::new(2);
        let a = q.enter(1).unwrap();
        let b = q.enter(2).unwrap();
        assert!(a.is_running() && b.is_running());
        assert_eq!(q.enter(1).unwrap_err(), AlreadyAnalysing);
        let c = q.enter(3).unwrap();
        let mut d = q.enter(4).unwrap();
        assert!(!c.is_running() && !d.is_running());
        assert_eq!((c.ahead(), d.ahead()), (0, 1));
        assert_eq!(q.load(), (2, 2));
        // D waits on a thread of its own and hears its place as it changes.
        let (tx, places) = std::sync::mpsc::channel();
        let waiter = std::thread::spawn(move || {
            d.wait_turn(|ahead| {
                let _ = tx.send(ahead);
            });
            d
        });
        assert_eq!(places.recv().unwrap(), 1);
        // C leaves before its turn (its person gave up): D is next in line, still no room.
        drop(c);
        assert_eq!(places.recv().unwrap(), 0);
        // A finishes: D runs.
        drop(a);
        let d = waiter.join().unwrap();
        assert!(d.is_running());
        assert_eq!(q.load(), (2, 0));
        // Person 1 may ask again now that theirs is over; it waits for room.
        let again = q.enter(1).unwrap();
        assert!(!again.is_running());
        drop((b, d, again));
        assert_eq!(q.load(), (0, 0));
    }
}
