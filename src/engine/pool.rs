//! The pool of engine processes shared by every game and analysis.
//!
//! Requests wait in one queue, served fairly: people take turns (round robin over the persons
//! requests are for, whatever the number of games each has), and within a person's turn
//! their requesters (games, analyses) take turns, so neither one person's twenty games nor an
//! analysis of a long game starves another person's move. A request still queued at its deadline is answered
//! with [`EngineError::Expired`] by the pool's reaper, not left waiting.
//!
//! Each worker is a thread of its own (never the async runtime's, never the service's
//! blocking pool) owning one process, started lazily under `nice -n 19`. A process that
//! crashes, does not answer within the request's time plus [`PoolConfig::margin`], or
//! answers a move the rules refuse, is killed and restarted, and the request is tried once
//! more; a second failure is answered with [`EngineError::Failed`].
//!
//! Idle work (the search for puzzles in finished games) goes through [`Pool::idle_lane`]: a
//! handle whose requests wait in a lane of their own, behind everything else. A worker takes
//! an idle request only when no other request is queued and no other search is running, and
//! one idle request runs at a time; an idle request never expires in the queue (it has no
//! one waiting for it). A game's move or an analysis therefore never queues behind idle work:
//! at worst it waits for the one idle search already running (a fraction of a second at the
//! finder's node budget) before a process is free.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use cajitas_rules::{Move, Position, Uci};

use super::uci::{EngineCommand, Limits, Process, ProcessError, Score};

/// One line of a multi-PV search, its first move checked by the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PvLine {
    /// The line's first move, legal in the request's position.
    pub first: Move,
    /// Its score, from the side to move's point of view.
    pub score: Score,
    /// Its depth.
    pub depth: u32,
}

/// How the pool runs its engines.
#[derive(Debug, Clone)]
pub struct PoolConfig {
    /// How each process is started.
    pub command: EngineCommand,
    /// How many processes (at least 1).
    pub processes: usize,
    /// `Hash` per process, in MB.
    pub hash_mb: u32,
    /// `Threads` per process.
    pub threads: u32,
    /// How much longer than its move time a search may take before the process counts as
    /// hung.
    pub margin: Duration,
}

/// A search to run.
#[derive(Debug, Clone)]
pub struct SearchRequest {
    /// The person the search is for (the human player of a game against the engine, the
    /// person who asked for an analysis): people are served in turn.
    pub person: u64,
    /// What asks (a game id, an analysis): one person's requesters are served in turn.
    pub requester: u64,
    /// The game's start position. A Chess960 game is searched with `UCI_Chess960` on (the
    /// mode of [`SearchRequest::position`] says which).
    pub start_fen: String,
    /// The moves played since, in UCI.
    pub moves: Vec<String>,
    /// The position to search (after `moves`), to check the engine's answer against.
    pub position: Position,
    /// What the search is limited by.
    pub limits: Limits,
    /// When the answer is no longer wanted: a request still queued then is answered with
    /// [`EngineError::Expired`].
    pub deadline: Instant,
}

/// What a search found, checked by the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move, legal in the request's position.
    pub best: Move,
    /// The same, in UCI.
    pub uci: Uci,
    /// The score from the side to move's point of view, if the engine gave one.
    pub score: Option<Score>,
    /// The depth of the score.
    pub depth: u32,
    /// Each line the search was asked for ([`Pool::search_lines`]), best first, as last
    /// reported: one for an ordinary search (none if the engine gave no score), fewer than
    /// asked when the position has fewer moves.
    pub lines: Vec<PvLine>,
}

/// Why a request got no move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// It waited in the queue past its deadline.
    #[error("the engine was busy until the request's deadline")]
    Expired,
    /// The engine failed twice (crash, hang, illegal or unreadable move).
    #[error("the engine failed twice: {0}")]
    Failed(String),
    /// The position has no legal move: there is nothing to search.
    #[error("the position has no legal move")]
    NoMove,
    /// The pool is shutting down.
    #[error("the engine pool is closed")]
    Closed,
}

type Reply = Box<dyn FnOnce(Result<SearchResult, EngineError>) + Send>;

struct Job {
    req: SearchRequest,
    /// How many lines (`MultiPV`).
    multipv: u32,
    reply: Reply,
}

/// The queue: people take turns, and each person's requesters (games, analyses) take turns
/// among themselves, so one person with twenty games waits as long as another with one.
#[derive(Default)]
struct Queue {
    /// People with queued requests, in turn order.
    people: VecDeque<u64>,
    /// Each such person's requesters with queued requests, in turn order.
    turns: HashMap<u64, VecDeque<u64>>,
    /// Each (person, requester)'s queued requests, oldest first.
    lines: HashMap<(u64, u64), VecDeque<Job>>,
    /// Idle requests ([`Pool::idle_lane`]), oldest first.
    idle: VecDeque<Job>,
    /// Searches of the ordinary queue running now.
    running: usize,
    /// Whether an idle search is running now.
    idle_running: bool,
    closed: bool,
}

/// What a worker took from the queue.
enum Taken {
    /// An ordinary request.
    Ordinary(Job),
    /// An idle one.
    Idle(Job),
}

impl Queue {
    fn push(&mut self, job: Job) {
        let (person, requester) = (job.req.person, job.req.requester);
        let line = self.lines.entry((person, requester)).or_default();
        if line.is_empty() {
            let turns = self.turns.entry(person).or_default();
            if turns.is_empty() {
                self.people.push_back(person);
            }
            turns.push_back(requester);
        }
        line.push_back(job);
    }

    fn pop(&mut self) -> Option<Job> {
        let person = self.people.pop_front()?;
        let turns = self.turns.get_mut(&person)?;
        let requester = turns.pop_front()?;
        let line = self.lines.get_mut(&(person, requester))?;
        let job = line.pop_front();
        if line.is_empty() {
            self.lines.remove(&(person, requester));
        } else {
            turns.push_back(requester);
        }
        if turns.is_empty() {
            self.turns.remove(&person);
        } else {
            self.people.push_back(person);
        }
        job
    }

    /// The next request a free worker runs, counted as running: an ordinary one in turn;
    /// else an idle one, when no search at all is running.
    fn take(&mut self) -> Option<Taken> {
        if let Some(job) = self.pop() {
            self.running += 1;
            return Some(Taken::Ordinary(job));
        }
        if self.running == 0 && !self.idle_running {
            let job = self.idle.pop_front()?;
            self.idle_running = true;
            return Some(Taken::Idle(job));
        }
        None
    }

    /// A search taken by [`Queue::take`] is over.
    fn done(&mut self, idle: bool) {
        if idle {
            self.idle_running = false;
        } else {
            self.running = self.running.saturating_sub(1);
        }
    }

    /// Takes out every request past its deadline; returns them and the next deadline.
    fn expire(&mut self, now: Instant) -> (Vec<Job>, Option<Instant>) {
        let mut expired = Vec::new();
        let mut next: Option<Instant> = None;
        for line in self.lines.values_mut() {
            let mut kept = VecDeque::with_capacity(line.len());
            for job in line.drain(..) {
                if job.req.deadline <= now {
                    expired.push(job);
                } else {
                    next = Some(next.map_or(job.req.deadline, |n| n.min(job.req.deadline)));
                    kept.push_back(job);
                }
            }
            *line = kept;
        }
        self.lines.retain(|_, l| !l.is_empty());
        let lines = &self.lines;
        for (person, turns) in &mut self.turns {
            turns.retain(|r| lines.contains_key(&(*person, *r)));
        }
        self.turns.retain(|_, t| !t.is_empty());
        let turns = &self.turns;
        self.people.retain(|p| turns.contains_key(p));
        (expired, next)
    }

    fn len(&self) -> usize {
        self.lines.values().map(VecDeque::len).sum()
    }

    /// Every queued request, ordinary and idle (the pool is closing).
    fn drain(&mut self) -> Vec<Job> {
        let mut jobs: Vec<Job> = std::iter::from_fn(|| self.pop()).collect();
        jobs.extend(self.idle.drain(..));
        jobs
    }
}

/// Counters, for tests and logs.
#[derive(Debug, Default)]
pub struct PoolStats {
    /// Processes started (restarts included).
    pub started: AtomicU64,
    /// Failures seen (each one kills its process).
    pub failures: AtomicU64,
    /// Requests answered with a move.
    pub answered: AtomicU64,
    /// Requests expired in the queue.
    pub expired: AtomicU64,
}

struct Shared {
    config: PoolConfig,
    queue: Mutex<Queue>,
    /// Workers wait here for work; the reaper for the next deadline.
    ready: Condvar,
    stats: PoolStats,
}

impl Shared {
    fn queue(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The pool. Cheap to clone; the workers stop when the last clone is dropped.
#[derive(Clone)]
pub struct Pool {
    shared: Arc<Shared>,
    _owner: Arc<Owner>,
    /// Whether this handle's requests go to the idle lane ([`Pool::idle_lane`]).
    idle: bool,
}

/// Closes the queue when the last [`Pool`] handle goes.
struct Owner(Arc<Shared>);

impl Drop for Owner {
    fn drop(&mut self) {
        let jobs: Vec<Job> = {
            let mut q = self.0.queue();
            q.closed = true;
            q.drain()
        };
        self.0.ready.notify_all();
        for job in jobs {
            (job.reply)(Err(EngineError::Closed));
        }
    }
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool")
            .field("config", &self.shared.config)
            .finish_non_exhaustive()
    }
}

impl Pool {
    /// Starts the workers (the processes start with their first request).
    pub fn new(config: PoolConfig) -> Pool {
        let shared = Arc::new(Shared {
            config,
            queue: Mutex::new(Queue::default()),
            ready: Condvar::new(),
            stats: PoolStats::default(),
        });
        for i in 0..shared.config.processes.max(1) {
            let s = Arc::clone(&shared);
            std::thread::Builder::new()
                .name(format!("cajitas-engine-{i}"))
                .spawn(move || worker(&s))
                .expect("spawn an engine worker thread");
        }
        let s = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("cajitas-engine-reaper".into())
            .spawn(move || reaper(&s))
            .expect("spawn the engine reaper thread");
        Pool {
            _owner: Arc::new(Owner(Arc::clone(&shared))),
            shared,
            idle: false,
        }
    }

    /// A handle on the same pool whose requests are idle work: they wait behind every
    /// ordinary request, run only when no other search runs, one at a time, and never
    /// expire in the queue (see the module's documentation).
    pub fn idle_lane(&self) -> Pool {
        Pool {
            idle: true,
            ..self.clone()
        }
    }

    /// Whether this handle's requests are idle work.
    pub fn is_idle_lane(&self) -> bool {
        self.idle
    }

    /// How many idle requests wait, and whether one runs.
    pub fn idle_load(&self) -> (usize, bool) {
        let q = self.shared.queue();
        (q.idle.len(), q.idle_running)
    }

    /// The configuration.
    pub fn config(&self) -> &PoolConfig {
        &self.shared.config
    }

    /// The counters.
    pub fn stats(&self) -> &PoolStats {
        &self.shared.stats
    }

    /// How many requests wait in the queue.
    pub fn queued(&self) -> usize {
        self.shared.queue().len()
    }

    /// Queues `req`; `reply` is called once with the answer, on a pool thread.
    pub fn submit(
        &self,
        req: SearchRequest,
        reply: impl FnOnce(Result<SearchResult, EngineError>) + Send + 'static,
    ) {
        self.submit_lines(req, 1, reply);
    }

    /// [`Pool::submit`] for a search of `multipv` lines (`MultiPV`, 1 to
    /// [`MAX_MULTIPV`](super::uci::MAX_MULTIPV)): the answer's [`SearchResult::lines`].
    pub fn submit_lines(
        &self,
        req: SearchRequest,
        multipv: u32,
        reply: impl FnOnce(Result<SearchResult, EngineError>) + Send + 'static,
    ) {
        let reply: Reply = Box::new(reply);
        if req.position.legal_moves().is_empty() {
            return reply(Err(EngineError::NoMove));
        }
        {
            let mut q = self.shared.queue();
            if q.closed {
                drop(q);
                return reply(Err(EngineError::Closed));
            }
            let job = Job {
                req,
                multipv,
                reply,
            };
            if self.idle {
                q.idle.push_back(job);
            } else {
                q.push(job);
            }
        }
        self.shared.ready.notify_all();
    }

    /// Queues `req` and waits for its answer (blocking: never on an async runtime worker).
    pub fn search(&self, req: SearchRequest) -> Result<SearchResult, EngineError> {
        self.search_lines(req, 1)
    }

    /// [`Pool::search`] of `multipv` lines (see [`Pool::submit_lines`]).
    pub fn search_lines(
        &self,
        req: SearchRequest,
        multipv: u32,
    ) -> Result<SearchResult, EngineError> {
        let (tx, rx) = std::sync::mpsc::channel();
        self.submit_lines(req, multipv, move |r| {
            let _ = tx.send(r);
        });
        rx.recv().unwrap_or(Err(EngineError::Closed))
    }
}

/// Answers the requests that passed their deadline in the queue, as soon as they do.
fn reaper(s: &Shared) {
    let mut q = s.queue();
    loop {
        if q.closed {
            return;
        }
        let (expired, next) = q.expire(Instant::now());
        if !expired.is_empty() {
            drop(q);
            for job in expired {
                s.stats.expired.fetch_add(1, Ordering::Relaxed);
                (job.reply)(Err(EngineError::Expired));
            }
            q = s.queue();
            continue;
        }
        let wait = next.map_or(Duration::from_secs(1), |n| {
            n.saturating_duration_since(Instant::now())
        });
        q = s
            .ready
            .wait_timeout(q, wait.max(Duration::from_millis(1)))
            .unwrap_or_else(|p| p.into_inner())
            .0;
    }
}

fn worker(s: &Shared) {
    let mut process: Option<Process> = None;
    loop {
        let (job, idle) = {
            let mut q = s.queue();
            loop {
                if q.closed {
                    return;
                }
                match q.take() {
                    Some(Taken::Ordinary(job)) => break (job, false),
                    Some(Taken::Idle(job)) => break (job, true),
                    None => {}
                }
                q = s.ready.wait(q).unwrap_or_else(|p| p.into_inner());
            }
        };
        let result = run(s, &mut process, &job, idle);
        // Counted as over before the reply: an idle search waiting for this one may start.
        s.queue().done(idle);
        s.ready.notify_all();
        (job.reply)(result);
    }
}

/// Runs one request taken from the queue (an idle one never expires: see the module).
fn run(
    s: &Shared,
    process: &mut Option<Process>,
    job: &Job,
    idle: bool,
) -> Result<SearchResult, EngineError> {
    if !idle && job.req.deadline <= Instant::now() {
        s.stats.expired.fetch_add(1, Ordering::Relaxed);
        return Err(EngineError::Expired);
    }
    let mut result = Err(EngineError::Failed(String::new()));
    for attempt in 1..=2 {
        match attempt_search(s, process, &job.req, job.multipv) {
            Ok(found) => {
                s.stats.answered.fetch_add(1, Ordering::Relaxed);
                result = Ok(found);
                break;
            }
            Err(why) => {
                s.stats.failures.fetch_add(1, Ordering::Relaxed);
                tracing::warn!(attempt, error = %why, "engine failure: the process is restarted");
                // Whatever state it is in, it is not trusted again.
                drop(process.take());
                result = Err(EngineError::Failed(why));
            }
        }
    }
    result
}

/// One try: start the process if needed, search, check the move with the rules.
fn attempt_search(
    s: &Shared,
    process: &mut Option<Process>,
    req: &SearchRequest,
    multipv: u32,
) -> Result<SearchResult, String> {
    if process.is_none() {
        let options = [
            ("Hash", s.config.hash_mb.max(1).to_string()),
            ("Threads", s.config.threads.max(1).to_string()),
        ];
        let p = Process::start(&s.config.command, &options).map_err(|e| e.to_string())?;
        s.stats.started.fetch_add(1, Ordering::Relaxed);
        tracing::debug!(pid = p.pid(), "engine process started");
        *process = Some(p);
    }
    let p = process.as_mut().ok_or("no process")?;
    let budget = req.limits.patience() + s.config.margin;
    let raw = p
        .search_lines(
            &req.start_fen,
            &req.moves,
            req.position.castling_mode().is_chess960(),
            req.limits,
            multipv,
            budget,
        )
        .map_err(|e: ProcessError| e.to_string())?;
    let uci: Uci = raw
        .bestmove
        .parse()
        .map_err(|_| format!("unreadable move {:?}", cap(&raw.bestmove)))?;
    let best = uci
        .to_move(&req.position)
        .map_err(|_| format!("illegal move {uci}"))?;
    // The first line is the best move's (its score the search's); the others' first moves
    // are checked as the best move is.
    let first = raw.score.map(|score| PvLine {
        first: best,
        score,
        depth: raw.depth,
    });
    let others = raw
        .lines
        .iter()
        .skip(1)
        .map(|l| {
            let first = l
                .first
                .parse::<Uci>()
                .ok()
                .and_then(|u| u.to_move(&req.position).ok())
                .ok_or_else(|| format!("illegal line {:?}", cap(&l.first)))?;
            Ok(PvLine {
                first,
                score: l.score,
                depth: l.depth,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let lines = first.into_iter().chain(others).collect();
    Ok(SearchResult {
        best,
        uci,
        score: raw.score,
        depth: raw.depth,
        lines,
    })
}

/// At most 16 characters of an engine's text, for a log line.
fn cap(s: &str) -> String {
    s.chars().take(16).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(person: u64, requester: u64, deadline: Instant) -> Job {
        Job {
            req: SearchRequest {
                person,
                requester,
                start_fen: String::new(),
                moves: Vec::new(),
                position: Position::new(),
                limits: Limits {
                    movetime: Duration::from_millis(1),
                    nodes: None,
                    depth: None,
                    skill: None,
                    fresh: false,
                },
                deadline,
            },
            multipv: 1,
            reply: Box::new(|_| {}),
        }
    }

    fn order(q: &mut Queue) -> Vec<(u64, u64)> {
        std::iter::from_fn(|| q.pop())
            .map(|j| (j.req.person, j.req.requester))
            .collect()
    }

    #[test]
    fn idle_work_runs_alone_after_everything_else_one_at_a_time_and_never_expires() {
        let now = Instant::now();
        let later = now + Duration::from_secs(60);
        let mut q = Queue::default();
        // Two idle searches wait (one past its deadline), then a game asks for a move.
        q.idle.push_back(job(0, 7, now));
        q.idle.push_back(job(0, 8, later));
        q.push(job(1, 1, later));
        // The move is taken first, though it came last.
        assert!(matches!(q.take(), Some(Taken::Ordinary(j)) if j.req.requester == 1));
        // While it runs, a free worker takes no idle work.
        assert!(q.take().is_none());
        // The reaper leaves idle work alone, even past its deadline.
        let (expired, _) = q.expire(now + Duration::from_secs(1));
        assert!(expired.is_empty());
        assert_eq!(q.idle.len(), 2);
        // The move is over: one idle search starts, and only one.
        q.done(false);
        assert!(matches!(q.take(), Some(Taken::Idle(j)) if j.req.requester == 7));
        assert!(q.take().is_none());
        // A move asked now is taken at once by a free worker, beside the idle search...
        q.push(job(2, 2, later));
        assert!(matches!(q.take(), Some(Taken::Ordinary(j)) if j.req.requester == 2));
        // ...and the next idle search waits for both to end.
        q.done(true);
        assert!(q.take().is_none());
        q.done(false);
        assert!(matches!(q.take(), Some(Taken::Idle(j)) if j.req.requester == 8));
        q.done(true);
        assert!(q.take().is_none());
        // Closing answers the idle work with the rest.
        q.idle.push_back(job(0, 9, later));
        q.push(job(3, 3, later));
        assert_eq!(q.drain().len(), 2);
    }

    #[test]
    fn requesters_take_turns_and_late_requests_expire() {
        let later = Instant::now() + Duration::from_secs(60);
        let mut q = Queue::default();
        // Person 9's analysis queues five positions, then two people's games ask a move each.
        for _ in 0..5 {
            q.push(job(9, 100, later));
        }
        q.push(job(1, 1, later));
        q.push(job(2, 2, later));
        assert_eq!(
            order(&mut q).iter().map(|o| o.1).collect::<Vec<_>>(),
            vec![100, 1, 2, 100, 100, 100, 100]
        );
        // Expired requests leave the queue; the rest keep their turns.
        let now = Instant::now();
        q.push(job(1, 1, now));
        q.push(job(2, 2, later));
        q.push(job(1, 1, later));
        let (expired, next) = q.expire(now + Duration::from_millis(1));
        assert_eq!(expired.len(), 1);
        assert_eq!(next, Some(later));
        assert_eq!(order(&mut q), vec![(1, 1), (2, 2)]);
        assert_eq!(q.len(), 0);
        assert!(q.people.is_empty() && q.turns.is_empty());
    }

    #[test]
    fn people_take_turns_whatever_the_number_of_their_games() {
        let later = Instant::now() + Duration::from_secs(60);
        let mut q = Queue::default();
        // Person A has twenty games waiting for a move, person B one, then A's games ask again.
        for game in 1..=20 {
            q.push(job(0xA, game, later));
        }
        q.push(job(0xB, 99, later));
        for game in 1..=3 {
            q.push(job(0xA, game, later));
        }
        let served = order(&mut q);
        // B is served second, not 21st; A's games take turns among themselves.
        assert_eq!(served[0], (0xA, 1));
        assert_eq!(served[1], (0xB, 99));
        let a: Vec<u64> = served[2..].iter().map(|o| o.1).collect();
        let mut expected: Vec<u64> = (2..=20).collect();
        expected.extend(1..=3);
        assert_eq!(a, expected);
        // Expiry keeps the turns consistent: B's expired request takes B out of the turns.
        let now = Instant::now();
        q.push(job(0xA, 1, later));
        q.push(job(0xB, 99, now));
        q.push(job(0xA, 2, later));
        let (expired, _) = q.expire(now + Duration::from_millis(1));
        assert_eq!(expired.len(), 1);
        assert_eq!(order(&mut q), vec![(0xA, 1), (0xA, 2)]);
    }
}
