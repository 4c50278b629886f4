//! The scheduler: one blocking thread per front end that ends games on time and sends the
//! reminders, at the deadlines stored with each game.
//!
//! It lives here, beside the service it drives, because everything it does is the service's
//! work (transactions on the store, the rules' ending, the [`Notifier`](super::Notifier)'s
//! posts, all blocking) and nothing of it is Discord's: `cajitas run` and `cajitas local`
//! start the same code, each for its own games ([`EventScope`]).
//!
//! - **Events** are `(game, seq, kind)` (see [`crate::store::ClockEvents`]); each game has at
//!   most one pending, kept in the game's own row (its kind and due time, indexed on the due
//!   time) and replaced by every move and takeback in the write the move makes anyway.
//! - **A round** ([`Clocks::run_round`]) claims the due events in batches, each taken
//!   off its game (only while it is still the game's pending event) and recorded done, as a
//!   row of `clock_events` with its id, in the transaction that acts on it (a timeout ends the
//!   game there), then claims the done events' posts (a lease of [`POST_LEASE`], in a short
//!   transaction: with PostgreSQL another process's scheduler skips them), posts them with the
//!   nonce `cj` + the event's id in base 36 (Discord drops a repeat), then marks them posted.
//!   A crash between the claim and the mark leaves the claim to lapse: then any scheduler
//!   posts the event again, with the same nonce.
//! - **Sleeping**: between rounds the thread waits on a condition variable until the earliest
//!   pending event (one index walk, O(log n)); nothing wakes it while nothing is due. An
//!   operation that schedules an earlier event rings its [`Doorbell`].
//! - **At start** it gives the games from before clocks their abandonment period from now,
//!   then runs a round: everything that fell due while the bot was down, each event once.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use super::notify::{Notice, NoticeKind};
use super::ratings;
use super::time_control::{ClockState, TimeControl};
use super::{GameError, GameService};
use crate::store::{EventKind, EventRow, EventScope, GameRow, GameStatus, Tx};

/// How many events one transaction claims, and one posting pass posts.
const BATCH: usize = 256;
/// How many posts go out at once (each blocks on its request).
const POST_THREADS: usize = 4;
/// How soon a failed post (or a failed round) is tried again.
const RETRY: Duration = Duration::from_secs(30);
/// How long a claim on a post holds (see [`crate::store::ClockEvents::claim_posts`]): the
/// claimant posts and marks it posted well within it; if it dies first, another scheduler
/// posts the event once the claim lapses (with the same nonce).
pub const POST_LEASE: Duration = Duration::from_secs(60);
/// The longest single wait: a guard against a wall clock set back, never reached while the
/// deadlines are nearer (a thread with nothing due wakes at most once an hour).
const MAX_WAIT: Duration = Duration::from_secs(3600);

/// The nonce of an event's post: `cj` and the event's id in base 36 (at most 15 characters,
/// within Discord's 25).
///
/// ```
/// assert_eq!(cajitas::game::nonce(35), "cjz");
/// assert_eq!(cajitas::game::nonce(36), "cj10");
/// assert_eq!(cajitas::game::nonce(i64::MAX).len(), 15);
/// ```
pub fn nonce(event_id: i64) -> String {
    let mut n = event_id.unsigned_abs();
    let mut digits = Vec::new();
    loop {
        let d = (n % 36) as u8;
        digits.push(if d < 10 { b'0' + d } else { b'a' + d - 10 });
        n /= 36;
        if n == 0 {
            break;
        }
    }
    digits.reverse();
    format!("cj{}", String::from_utf8_lossy(&digits))
}

/// What the scheduler thread is doing, as the service's operations see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Plan {
    /// Running a round (or no scheduler is running): a ring is noted for after the round.
    #[default]
    Awake,
    /// Sleeping until this time (Unix ms).
    Until(i64),
    /// Sleeping with nothing pending.
    Idle,
}

#[derive(Debug, Default)]
struct Bell {
    plan: Plan,
    rung: bool,
    stop: bool,
}

/// Wakes the scheduler early: the service rings it when an operation schedules an event
/// before the time the scheduler sleeps until.
#[derive(Debug, Default)]
pub(crate) struct Doorbell {
    bell: Mutex<Bell>,
    cv: Condvar,
}

impl Doorbell {
    fn lock(&self) -> MutexGuard<'_, Bell> {
        self.bell.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// An event now falls due at `due`: wake the scheduler if it sleeps past it.
    pub(crate) fn ring_if_before(&self, due: i64) {
        let mut b = self.lock();
        let wake = match b.plan {
            Plan::Awake => {
                b.rung = true;
                false
            }
            Plan::Until(t) => due < t,
            Plan::Idle => true,
        };
        if wake {
            b.rung = true;
            self.cv.notify_all();
        }
    }

    /// Wake the scheduler now (something is waiting to be posted).
    pub(crate) fn ring(&self) {
        let mut b = self.lock();
        b.rung = true;
        self.cv.notify_all();
    }
}

/// What one round did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Round {
    /// Events claimed and marked done (games ended on time, reminders due).
    pub claimed: usize,
    /// Posts delivered (and marked posted).
    pub posted: usize,
    /// Posts that failed (they are tried again later, with the same nonce).
    pub failed: usize,
    /// Tournament pairings made (each game started; see [`super::Tournaments::run_due`]).
    pub paired: usize,
}

/// The scheduler thread of one service (see the module documentation). Stopped and joined
/// when dropped.
#[derive(Debug)]
pub struct Scheduler {
    bell: Arc<Doorbell>,
    wakeups: Arc<AtomicU64>,
    thread: Option<JoinHandle<()>>,
}

impl Scheduler {
    /// Starts the scheduler of `svc` for the events of `scope`. Blocking work only: call it
    /// from anywhere; the thread is its own.
    pub fn start(svc: GameService, scope: EventScope) -> Scheduler {
        Scheduler::spawn(svc, scope, false)
    }

    /// [`Scheduler::start`], with the start-up work and the first round run on the calling
    /// thread before it returns: whatever fell due while nobody ran is done, and its notices
    /// posted, by then (`cajitas local` reads its first command only after them).
    pub fn start_caught_up(svc: GameService, scope: EventScope) -> Scheduler {
        start_up(&svc, scope);
        match svc.clocks().run_round(scope) {
            Ok(round) if round.claimed + round.posted + round.failed > 0 => {
                tracing::info!(?round, "scheduler round at start");
            }
            Ok(_) => {}
            // The thread tries again.
            Err(e) => tracing::warn!(error = %e.chain(), "scheduler round at start failed"),
        }
        Scheduler::spawn(svc, scope, true)
    }

    fn spawn(svc: GameService, scope: EventScope, started_up: bool) -> Scheduler {
        let bell = Arc::clone(&svc.inner.bell);
        {
            let mut b = bell.lock();
            b.stop = false;
            b.plan = Plan::Awake;
        }
        let wakeups = Arc::new(AtomicU64::new(0));
        let thread = {
            let (bell, wakeups) = (Arc::clone(&bell), Arc::clone(&wakeups));
            std::thread::Builder::new()
                .name("cajitas-scheduler".into())
                .spawn(move || {
                    if !started_up {
                        start_up(&svc, scope);
                    }
                    run(svc, scope, &bell, &wakeups)
                })
                .expect("the scheduler thread starts")
        };
        Scheduler {
            bell,
            wakeups,
            thread: Some(thread),
        }
    }

    /// How many times the thread woke from a wait (a deadline reached, a ring, or a
    /// spurious wake-up of the condition variable).
    pub fn wakeups(&self) -> u64 {
        self.wakeups.load(Ordering::SeqCst)
    }

    /// When the thread sleeps until (Unix ms), `None` while it runs a round or has nothing
    /// pending.
    pub fn planned(&self) -> Option<i64> {
        match self.bell.lock().plan {
            Plan::Until(t) => Some(t),
            _ => None,
        }
    }

    /// Whether the thread sleeps (with or without a pending event).
    pub fn sleeping(&self) -> bool {
        self.bell.lock().plan != Plan::Awake
    }

    /// Whether it was asked to wake (rung) and has not taken the ring yet. It counts a ring
    /// in [`wakeups`](Self::wakeups) before it clears this: read this first, then the count,
    /// and a ring shows in one or the other (a test's proof that something did not wake it).
    pub fn ring_pending(&self) -> bool {
        self.bell.lock().rung
    }

    /// Wakes the thread for a round now (tests move a [`ManualClock`](super::ManualClock)
    /// forward, then poke).
    pub fn poke(&self) {
        self.bell.ring();
    }

    /// Wakes this scheduler when another process announces a deadline (`wakeups` of the
    /// store's `Coordination::listen_deadlines`, PostgreSQL's `LISTEN cajitas_deadline`; the payload is
    /// the due time, Unix ms) earlier than the one it sleeps until. An empty or unreadable
    /// payload (a reconnection, which may have missed one) wakes it for a look. The listening
    /// thread notices that the scheduler stopped at its next look, within a minute, and ends
    /// (its LISTEN connection's thread within another).
    pub fn follow(&self, wakeups: Box<dyn crate::store::Wakeups>) {
        let bell = Arc::clone(&self.bell);
        let spawned = std::thread::Builder::new()
            .name("cajitas-deadlines".into())
            .spawn(move || {
                loop {
                    // Asleep until a notification; once a minute it looks whether the
                    // scheduler stopped (no idle wake-ups between).
                    let payload = wakeups.wait(Duration::from_secs(60));
                    if bell.lock().stop {
                        return;
                    }
                    match payload.map(|p| p.trim().parse::<i64>()) {
                        None => {}
                        Some(Ok(due)) => bell.ring_if_before(due),
                        Some(Err(_)) => bell.ring(),
                    }
                }
            });
        if let Err(e) = spawned {
            tracing::warn!(error = %e, "scheduler: cannot follow the other processes' deadlines");
        }
    }

    /// Stops the thread and waits for it (a round in progress finishes first).
    pub fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        {
            let mut b = self.bell.lock();
            b.stop = true;
            self.bell.cv.notify_all();
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Scheduler {
    fn drop(&mut self) {
        self.halt();
    }
}

/// Before the first round: the games from before clocks get their abandonment period, and
/// the post claims a killed predecessor left are freed.
fn start_up(svc: &GameService, scope: EventScope) {
    if let Err(e) = svc.clocks().adopt_unclocked_games() {
        tracing::warn!(error = %e.chain(), "scheduler: could not adopt the games from before clocks");
    }
    if let Err(e) = svc.clocks().release_own_post_claims(scope) {
        tracing::warn!(error = %e.chain(), "scheduler: could not free the posts a stopped process claimed");
    }
}

fn run(svc: GameService, scope: EventScope, bell: &Doorbell, wakeups: &AtomicU64) {
    loop {
        {
            let mut b = bell.lock();
            if b.stop {
                return;
            }
            b.plan = Plan::Awake;
            b.rung = false;
        }
        let mut next = match svc.clocks().run_round(scope) {
            Ok(round) => {
                if round.claimed + round.posted + round.failed + round.paired > 0 {
                    tracing::info!(?round, "scheduler round");
                }
                let next = svc.clocks().next_wake(scope).unwrap_or_else(|e| {
                    tracing::warn!(error = %e.chain(), "scheduler: next event");
                    Some(svc.now() + RETRY.as_millis() as i64)
                });
                if round.failed > 0 {
                    let retry = svc.now() + RETRY.as_millis() as i64;
                    Some(next.map_or(retry, |n| n.min(retry)))
                } else {
                    next
                }
            }
            Err(e) => {
                tracing::warn!(error = %e.chain(), "scheduler round failed");
                Some(svc.now() + RETRY.as_millis() as i64)
            }
        };
        let mut b = bell.lock();
        if b.stop {
            return;
        }
        if b.rung {
            continue;
        }
        b.plan = next.map_or(Plan::Idle, Plan::Until);
        loop {
            let wait = match next {
                Some(t) => {
                    let now = svc.now();
                    if t <= now {
                        break;
                    }
                    Some(Duration::from_millis((t - now) as u64).min(MAX_WAIT))
                }
                None => None,
            };
            b = match wait {
                Some(d) => match bell.cv.wait_timeout(b, d) {
                    Ok((g, _)) => g,
                    Err(p) => p.into_inner().0,
                },
                None => bell.cv.wait(b).unwrap_or_else(|p| p.into_inner()),
            };
            wakeups.fetch_add(1, Ordering::SeqCst);
            if b.stop || b.rung {
                break;
            }
            // A deadline reached, or spurious: the loop checks the time again.
            next = match b.plan {
                Plan::Until(t) => Some(t),
                _ => None,
            };
        }
    }
}

/// Clocks: the scheduler's calls into the service, which run the timed events (reminders,
/// timeouts, the abandonment of untimed games) and post what they did; the clock of each game
/// itself is kept by `time_control.rs`. From [`GameService::clocks`].
#[derive(Debug, Clone, Copy)]
pub struct Clocks<'a> {
    pub(super) svc: &'a GameService,
}

impl Clocks<'_> {
    /// One round of the scheduler for the events of `scope`, at the service's time: every
    /// due event claimed (each done in the transaction that acts on it), then every done
    /// event posted and marked posted. The scheduler thread runs rounds; tests with a
    /// [`ManualClock`](super::ManualClock) call it directly.
    pub fn run_round(&self, scope: EventScope) -> Result<Round, GameError> {
        let mut round = Round::default();
        // Until nothing is due: a claimed reminder may schedule a timeout already due.
        loop {
            let n = self.claim_due(scope, BATCH)?;
            round.claimed += n;
            if n == 0 {
                break;
            }
        }
        // The tournaments' work: starts, pairing waves, ends; their posts once committed.
        let t = self.svc.tournaments().run_due()?;
        round.paired += t.paired;
        self.svc.post_notices(t.notices);
        self.svc.tournaments().post_news(&t.news);
        loop {
            let (posted, failed, seen) = self.post_done(scope, BATCH)?;
            round.posted += posted;
            round.failed += failed;
            if seen < BATCH || failed > 0 {
                break;
            }
        }
        Ok(round)
    }

    /// When the next pending event of `scope` falls due.
    pub fn next_due(&self, scope: EventScope) -> Result<Option<i64>, GameError> {
        self.svc.read(|tx| Ok(tx.next_event_due(scope)?))
    }

    /// When the scheduler of `scope` has work next: the earliest pending event, or a post
    /// left unposted (a failed post's retry, a dead process's lapsing claim).
    fn next_wake(&self, scope: EventScope) -> Result<Option<i64>, GameError> {
        self.svc.read(|tx| {
            let due = tx.next_event_due(scope)?;
            let post = tx.next_post_due(scope)?;
            let tournament = tx.next_tournament_due()?;
            Ok([due, post, tournament].into_iter().flatten().min())
        })
    }

    /// With a database this process owns (SQLite: no other process may hold a claim), frees
    /// the post claims of `scope` a killed predecessor left, so they go out now rather than
    /// when their lease lapses. With a shared database (PostgreSQL) another live process may
    /// hold them: nothing is freed, and a dead one's claims lapse. Returns how many.
    pub fn release_own_post_claims(&self, scope: EventScope) -> Result<usize, GameError> {
        if self.svc.shared_database() {
            return Ok(0);
        }
        self.svc
            .write(|tx, _now| Ok(tx.release_post_claims(scope)?))
    }

    /// Gives the active games from before clocks (untimed) their abandonment period from
    /// now, with their reminder. Returns how many.
    pub fn adopt_unclocked_games(&self) -> Result<usize, GameError> {
        let abandon = self.svc.abandon_ms();
        self.svc.write(|tx, now| {
            let adopted = tx.adopt_unclocked_games(now, abandon)?;
            for &(game, channel, seq, ply) in &adopted {
                let c = ClockState {
                    white_ms: 0,
                    black_ms: 0,
                    clock_at: now,
                    deadline: now.saturating_add(abandon),
                };
                self.svc
                    .schedule(tx, game, channel, seq, TimeControl::Untimed, &c, ply)?;
            }
            Ok(adopted.len())
        })
    }

    /// Claims at most `limit` due events of `scope` in one transaction: each is marked done
    /// there, with what it does (a timeout ends its game; a reminder schedules the timeout).
    fn claim_due(&self, scope: EventScope, limit: usize) -> Result<usize, GameError> {
        let mut out = Vec::new();
        let claimed = self.svc.write(|tx, now| {
            let due = tx.due_events(scope, now, limit)?;
            let mut claimed = Vec::with_capacity(due.len());
            for ev in &due {
                self.svc.event_handled(ev, now);
                // Taken off its game only when it is still the game's pending event (same
                // seq, kind and due time): a game that moved on or ended has nothing to do
                // or post.
                if !tx.claim_event(ev)? {
                    continue;
                }
                if let Some(row) = tx.game(ev.game_id)? {
                    claimed.push((ev, row));
                }
            }
            // The games this batch may rate hold their players' ratings from here to the
            // commit. Taken all at once, in the order every transaction takes them: taken
            // game by game, the batch could hold one player's rating while waiting for
            // another's that a person's game, ending at the same moment, holds while
            // waiting for the first.
            let players: Vec<_> = claimed
                .iter()
                .filter(|(ev, _)| ev.kind == EventKind::Timeout)
                .filter_map(|(_, row)| ratings::ratings_at_stake(row))
                .flatten()
                .collect();
            tx.lock_ratings(&players)?;
            for (ev, row) in claimed {
                self.handle_event(tx, ev, row, now, &mut out)?;
            }
            Ok(due.len())
        })?;
        // The endings' notices (a thread's summary), now that they are committed.
        for notice in out {
            if let Err(e) = self.svc.inner.opts.notifier.post(&notice) {
                tracing::warn!(game = notice.game.game_id, error = %e, "a notice was not posted");
            }
        }
        Ok(claimed)
    }

    fn handle_event(
        &self,
        tx: &dyn Tx,
        ev: &EventRow,
        row: GameRow,
        now: i64,
        out: &mut Vec<Notice>,
    ) -> Result<(), GameError> {
        let tc = TimeControl::from_row(row.tc);
        let record = || tx.record_event(row.id, row.channel, ev.seq, ev.kind, ev.due_at, now);
        match ev.kind {
            EventKind::Timeout => {
                let late = tc.is_timed() && row.clock.deadline.is_some_and(|d| now >= d);
                if !late {
                    return Ok(());
                }
                record()?;
                let l = self.svc.load(tx, row)?;
                self.svc.flag(tx, l, now, out)?;
            }
            EventKind::Reminder => {
                record()?;
                if let Some(deadline) = row.clock.deadline {
                    tx.schedule_event(
                        row.id,
                        row.channel,
                        row.clock.seq,
                        EventKind::Timeout,
                        deadline,
                    )?;
                }
            }
            EventKind::IdleReminder => {
                record()?;
            }
        }
        Ok(())
    }

    /// Claims at most `limit` done events of `scope` to post (a short transaction of its
    /// own), posts them, and marks the delivered ones posted (the others are tried again
    /// after [`RETRY`], by whichever scheduler claims them). Returns (delivered, failed,
    /// claimed).
    fn post_done(
        &self,
        scope: EventScope,
        limit: usize,
    ) -> Result<(usize, usize, usize), GameError> {
        let lease = POST_LEASE.as_millis() as i64;
        let events = self
            .svc
            .write(|tx, now| Ok(tx.claim_posts(scope, now, now.saturating_add(lease), limit)?))?;
        if events.is_empty() {
            return Ok((0, 0, 0));
        }
        let notices = self.svc.read(|tx| {
            let mut notices = Vec::with_capacity(events.len());
            for ev in &events {
                notices.push(self.notice_for(tx, ev)?);
            }
            Ok(notices)
        })?;
        let notifier = &self.svc.inner.opts.notifier;
        let results: Vec<bool> = std::thread::scope(|s| {
            let chunk = notices.len().div_ceil(POST_THREADS).max(1);
            let handles: Vec<_> = notices
                .chunks(chunk)
                .map(|part| {
                    s.spawn(move || {
                        part.iter()
                            .map(|n| match n {
                                None => true,
                                Some(n) => match notifier.post(n) {
                                    Ok(_) => true,
                                    Err(e) => {
                                        tracing::warn!(error = %e, nonce = ?n.nonce, "scheduled post failed");
                                        false
                                    }
                                },
                            })
                            .collect::<Vec<bool>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_default())
                .collect()
        });
        let delivered: Vec<i64> = events
            .iter()
            .zip(&results)
            .filter(|(_, ok)| **ok)
            .map(|(e, _)| e.id)
            .collect();
        let retry = RETRY.as_millis() as i64;
        self.svc.write(|tx, now| {
            for (ev, ok) in events.iter().zip(&results) {
                if *ok {
                    tx.mark_posted(ev.id, now)?;
                } else {
                    tx.retry_post(ev.id, now.saturating_add(retry))?;
                }
            }
            Ok(())
        })?;
        let posted = notices
            .iter()
            .zip(&results)
            .filter(|(n, ok)| n.is_some() && **ok)
            .count();
        Ok((posted, events.len() - delivered.len(), events.len()))
    }

    /// The post of a done event, or `None` when it has nothing to say any more (a reminder
    /// whose game moved on).
    fn notice_for(&self, tx: &dyn Tx, ev: &EventRow) -> Result<Option<Notice>, GameError> {
        let Some(row) = tx.game(ev.game_id)? else {
            return Ok(None);
        };
        // The game's thread, when it has one, else its channel.
        let place = super::ChannelRef {
            guild: row.guild,
            channel: row.thread.unwrap_or(row.channel),
        };
        let fresh = row.status == GameStatus::Active && row.clock.seq == ev.seq;
        let finished = row.status != GameStatus::Active;
        let (kind, ok) = match ev.kind {
            EventKind::Timeout => (NoticeKind::TimedOut, finished),
            EventKind::Reminder => (NoticeKind::Reminder, fresh),
            EventKind::IdleReminder => (NoticeKind::IdleReminder, fresh),
        };
        if !ok {
            return Ok(None);
        }
        let mut game = self.svc.view(self.svc.load(tx, row)?)?;
        if kind == NoticeKind::TimedOut && game.rated {
            // The final message shows both players' changes, as every other ending's does.
            game.rating_changes =
                GameService::rating_changes_in(tx, game.game_id, &game.white, &game.black)?;
        }
        if kind == NoticeKind::TimedOut {
            // A tournament game: the points it gave, as after every other ending.
            game.tournament = GameService::tournament_points_in(tx, game.game_id)?;
        }
        let mentions = match kind {
            // Only the player to move is pinged by a reminder.
            NoticeKind::Reminder | NoticeKind::IdleReminder => vec![game.player_to_move().id],
            _ => vec![game.white.id, game.black.id],
        };
        Ok(Some(Notice {
            place,
            kind,
            game,
            mentions,
            nonce: Some(nonce(ev.id)),
        }))
    }
}
