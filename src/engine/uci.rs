//! One engine process speaking UCI over its standard input and output.
//!
//! Nothing the process says is trusted: its lines are read through a bounded reader (a line
//! longer than [`MAX_LINE`] bytes is dropped, never held in memory whole), numbers are parsed
//! with overflow checks, and every wait has a deadline. The move it answers is checked by the
//! caller ([`super::pool`]) against the rules.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::{Duration, Instant};

/// The longest line read from an engine, in bytes. Longer lines are skipped as they arrive.
pub const MAX_LINE: usize = 4096;

/// The nice value written to the engine's own autogroup (`/proc/PID/autogroup`).
///
/// Linux schedules the sessions of processes outside any CPU cgroup as groups (autogroups,
/// `kernel.sched_autogroup_enabled`), each weighing as one nice-0 process whatever its
/// tasks' priorities. An engine in the bot's session, even under `SCHED_IDLE`, spends the
/// bot's group's share and keeps the group always runnable, so a bot thread that wakes
/// waits behind other sessions' turns: on the shared 2-core machine a searching engine in
/// the bot's session tripled a waking thread's p99 delay (10 ms against 3.7 ms idle), and in
/// a session of its own at autogroup nice 19 left it as without an engine (3.9 ms). Started
/// under `setsid`, the engine gets a session (an autogroup) of its own, then the lowest
/// weight. Where autogroups do not apply (a systemd service's cgroup), it changes nothing.
pub const AUTOGROUP_NICE: i32 = 19;

/// How long an engine may take to start and answer `uci` and `isready` (Stockfish loads its
/// network first; niced on a busy machine, that can take seconds).
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);

/// How to start an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineCommand {
    /// The program.
    pub program: PathBuf,
    /// Its arguments (none for Stockfish; the tests' fake engine takes its script).
    pub args: Vec<String>,
    /// Whether to start it at the lowest priority: through `nice -n 19` (the crate denies
    /// unsafe code, so the priority is set by the `nice` program rather than by
    /// `setpriority`), itself under `chrt --idle 0` where `chrt` exists (Linux's
    /// `SCHED_IDLE`: the engine runs only when no other process wants the core; a merely
    /// niced engine still cost human games' p99 latency several times over on 2 cores),
    /// itself under `setsid` where it exists, its session's autogroup then set to nice 19
    /// (see [`AUTOGROUP_NICE`]).
    pub nice: bool,
}

/// A score from the side to move's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

impl Score {
    /// The same score from the other side's point of view.
    pub fn flip(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(cp.saturating_neg()),
            Score::Mate(m) => Score::Mate(m.saturating_neg()),
        }
    }
}

/// What one search ended with, as the engine said it (the move still unchecked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawSearch {
    /// The text after `bestmove`.
    pub bestmove: String,
    /// The last score reported, if any.
    pub score: Option<Score>,
    /// The depth of that score.
    pub depth: u32,
    /// The last report of each line of a multi-PV search (`MultiPV`), best first: one line
    /// for an ordinary search, fewer than asked when the position has fewer moves.
    pub lines: Vec<RawLine>,
}

/// One line of a (multi-PV) search as last reported: its score, depth and first move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawLine {
    /// The score from the side to move's point of view.
    pub score: Score,
    /// Its depth.
    pub depth: u32,
    /// The line's first move, as the engine wrote it (unchecked).
    pub first: String,
}

/// The most lines a multi-PV search may ask for (`MultiPV`): more than any position has moves
/// would be pointless, and a line is a few hundred bytes an engine sends at every depth.
pub const MAX_MULTIPV: u32 = 64;

/// How a process failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProcessError {
    /// It could not be started.
    #[error("could not start the engine: {0}")]
    Spawn(String),
    /// It closed its output (crashed or quit).
    #[error("the engine process ended")]
    Ended,
    /// It did not answer in time.
    #[error("the engine did not answer within {0:?}")]
    Timeout(Duration),
    /// Writing to it failed.
    #[error("could not write to the engine: {0}")]
    Write(String),
    /// It said something that is not UCI where UCI was expected.
    #[error("the engine answered {0:?}")]
    Protocol(String),
}

/// What the search is limited by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The time to think (`go movetime`). With [`Limits::nodes`], an upper bound on it (the
    /// search ends at whichever comes first), or zero for none: then only the nodes end it.
    pub movetime: Duration,
    /// The number of nodes to search (`go nodes`): the same work whatever the machine's
    /// load, unlike a move time.
    pub nodes: Option<u64>,
    /// The deepest depth, if any.
    pub depth: Option<u32>,
    /// `Skill Level` (0–20); `None` for full strength.
    pub skill: Option<u8>,
    /// Search from an empty hash table on one thread (`ucinewgame`, `Threads 1`): with a
    /// node budget, the same position then gives the same answer every time, whatever the
    /// process searched before.
    pub fresh: bool,
}

/// The slowest search speed a node budget without a time bound is given time for, in nodes
/// per second: a single Stockfish 15.1 thread searches about 1 M nodes a second on this
/// project's 2-core machines, and a niced engine on a busy one far fewer.
pub const SLOWEST_NPS: u64 = 25_000;

impl Limits {
    /// A search of `nodes` nodes at full strength from an empty hash on one thread, capped at
    /// `depth` when given, and not bounded in time: an analysis's.
    pub fn fresh_nodes(nodes: u64, depth: Option<u32>) -> Limits {
        Limits {
            movetime: Duration::ZERO,
            nodes: Some(nodes),
            depth,
            skill: None,
            fresh: true,
        }
    }

    /// Whether only the nodes (or the depth) end the search, not the time.
    pub fn unbounded_in_time(&self) -> bool {
        self.nodes.is_some() && self.movetime.is_zero()
    }

    /// How long the search may go without a word from the engine before it counts as hung
    /// (the pool adds its margin): the move time when there is one; for a search bounded by
    /// nodes only, the time its nodes take at [`SLOWEST_NPS`], counted again from each line
    /// the engine prints (a starved engine on a busy machine is slow, not hung: it still
    /// reports its progress).
    pub fn patience(&self) -> Duration {
        if self.unbounded_in_time() {
            let n = self.nodes.unwrap_or(0);
            Duration::from_millis(n.saturating_mul(1000) / SLOWEST_NPS)
        } else {
            self.movetime
        }
    }

    /// The `go` command for these limits.
    pub fn go(&self) -> String {
        let mut go = match self.nodes {
            Some(n) => format!("go nodes {}", n.max(1)),
            None => format!("go movetime {}", self.movetime.as_millis().max(1)),
        };
        if self.nodes.is_some() && !self.movetime.is_zero() {
            go.push_str(&format!(" movetime {}", self.movetime.as_millis()));
        }
        if let Some(d) = self.depth {
            go.push_str(&format!(" depth {d}"));
        }
        go
    }
}

/// How many times its patience a search bounded by nodes only may last in all, however
/// often the engine reports progress.
pub const UNBOUNDED_SEARCH_CAP: u32 = 30;

enum Line {
    Text(String),
    /// A line over [`MAX_LINE`] bytes, skipped.
    TooLong,
}

/// A running engine.
pub struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
    skill: Option<u8>,
    /// The `MultiPV` it runs with now (1, the engine's default, until a search asks more).
    multipv: u32,
    /// The `Threads` it runs with now, and the one it was started with.
    threads: u32,
    base_threads: u32,
    /// Whether `UCI_Chess960` is on (it starts off, the UCI default).
    chess960: bool,
    autogroup: Autogroup,
}

/// What became of the engine's autogroup when it started (see [`AUTOGROUP_NICE`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Autogroup {
    /// Not started under `setsid`, or no autogroups here (no `/proc/PID/autogroup`), or the
    /// engine shares the bot's autogroup: nothing was written.
    NotApplicable,
    /// The kernel took the write: the engine's autogroup weighs as nice [`AUTOGROUP_NICE`].
    Lowered,
    /// The kernel's rate limit (one change per 100 ms from the whole machine without
    /// `CAP_SYS_ADMIN`) answered `EAGAIN` for the whole second the start waits.
    Busy,
    /// The kernel refused the write: its error.
    Refused(String),
}

impl std::fmt::Debug for Process {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Process")
            .field("pid", &self.child.id())
            .finish_non_exhaustive()
    }
}

/// Reads `input` line by line into `out`, never holding more than [`MAX_LINE`] bytes of a
/// line: the rest of a longer line is read and thrown away, and the line is reported as
/// [`Line::TooLong`]. Ends at end of file, or when the receiver is gone.
fn read_lines(input: impl Read, out: SyncSender<Line>) {
    let mut input = BufReader::with_capacity(8192, input);
    let mut line = Vec::with_capacity(256);
    let mut too_long = false;
    loop {
        let (done, used) = match input.fill_buf() {
            Ok([]) | Err(_) => return,
            Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    if !too_long {
                        if line.len() + i > MAX_LINE {
                            too_long = true;
                        } else {
                            line.extend_from_slice(&buf[..i]);
                        }
                    }
                    (true, i + 1)
                }
                None => {
                    if !too_long {
                        if line.len() + buf.len() > MAX_LINE {
                            too_long = true;
                            line.clear();
                        } else {
                            line.extend_from_slice(buf);
                        }
                    }
                    (false, buf.len())
                }
            },
        };
        input.consume(used);
        if done {
            let msg = if too_long {
                Line::TooLong
            } else {
                let text = String::from_utf8_lossy(&line);
                Line::Text(text.trim_end_matches('\r').to_owned())
            };
            if out.send(msg).is_err() {
                return;
            }
            line.clear();
            too_long = false;
        }
    }
}

impl Process {
    /// Starts the engine and makes it ready: `uci` (waiting for `uciok`), the options, then
    /// `isready` (waiting for `readyok`).
    pub fn start(cmd: &EngineCommand, options: &[(&str, String)]) -> Result<Process, ProcessError> {
        // The ways to start it, lowest priority first; a wrapper program that is missing
        // (no `chrt`, no `nice`) falls through to the next.
        let mut ways: Vec<Vec<std::ffi::OsString>> = Vec::new();
        let program = cmd.program.clone().into_os_string();
        if cmd.nice {
            ways.push(
                ["setsid", "chrt", "--idle", "0", "nice", "-n", "19"]
                    .iter()
                    .map(Into::into)
                    .chain([program.clone()])
                    .collect(),
            );
            ways.push(
                ["chrt", "--idle", "0", "nice", "-n", "19"]
                    .iter()
                    .map(Into::into)
                    .chain([program.clone()])
                    .collect(),
            );
            ways.push(
                ["nice", "-n", "19"]
                    .iter()
                    .map(Into::into)
                    .chain([program.clone()])
                    .collect(),
            );
        }
        ways.push(vec![program]);
        let mut last = ProcessError::Spawn("no way to start it".into());
        for (i, way) in ways.iter().enumerate() {
            let more = i + 1 < ways.len();
            match Self::launch(way, cmd, options) {
                Ok(p) => return Ok(p),
                // A wrapper that is missing, or that could not do its part (a `chrt` refused
                // by the system ends before the engine says a word): try the next way.
                Err(e @ (ProcessError::Spawn(_) | ProcessError::Ended)) if more => {
                    tracing::debug!(wrapper = ?way[0], error = %e, "starting the engine without this wrapper");
                    last = e;
                }
                Err(e) => return Err(e),
            }
        }
        Err(last)
    }

    /// Starts `way` (wrappers, then the program) with the engine's arguments and makes it
    /// ready.
    fn launch(
        way: &[std::ffi::OsString],
        cmd: &EngineCommand,
        options: &[(&str, String)],
    ) -> Result<Process, ProcessError> {
        let mut child = Command::new(&way[0])
            .args(&way[1..])
            .args(&cmd.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| ProcessError::Spawn(e.to_string()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ProcessError::Spawn("no pipes".into()));
        };
        let (tx, rx) = sync_channel(64);
        std::thread::Builder::new()
            .name("cajitas-uci-read".into())
            .spawn(move || read_lines(stdout, tx))
            .map_err(|e| ProcessError::Spawn(e.to_string()))?;
        let mut p = Process {
            child,
            stdin,
            lines: rx,
            skill: None,
            multipv: 1,
            threads: 1,
            base_threads: 1,
            chess960: false,
            autogroup: Autogroup::NotApplicable,
        };
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        p.send("uci")?;
        p.wait_for(deadline, |l| l == "uciok")?;
        for (name, value) in options {
            p.send(&format!("setoption name {name} value {value}"))?;
            if *name == "Threads"
                && let Ok(n) = value.parse::<u32>()
            {
                p.threads = n;
                p.base_threads = n;
            }
        }
        p.send("isready")?;
        p.wait_for(deadline, |l| l == "readyok")?;
        if way[0] == "setsid" {
            // `setsid` made a new session (it does not fork: the child leads no process
            // group) and exec'd the rest, so the engine's pid is the child's; after the
            // handshake the engine runs, in its session.
            p.autogroup = lower_autogroup(p.pid());
        }
        Ok(p)
    }

    /// The process id (for logs).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// What became of the engine's autogroup at its start.
    pub fn autogroup(&self) -> &Autogroup {
        &self.autogroup
    }

    fn send(&mut self, line: &str) -> Result<(), ProcessError> {
        self.stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.write_all(b"\n"))
            .and_then(|()| self.stdin.flush())
            .map_err(|e| ProcessError::Write(e.to_string()))
    }

    /// The next line before `deadline`; over-long lines are skipped.
    fn next_line(&mut self, deadline: Instant) -> Result<String, ProcessError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Line::Text(t)) => return Ok(t),
                Ok(Line::TooLong) => {
                    tracing::debug!(
                        pid = self.pid(),
                        "skipped an engine line over {MAX_LINE} bytes"
                    );
                }
                Err(RecvTimeoutError::Timeout) => return Err(ProcessError::Timeout(left)),
                Err(RecvTimeoutError::Disconnected) => return Err(ProcessError::Ended),
            }
        }
    }

    fn wait_for(
        &mut self,
        deadline: Instant,
        done: impl Fn(&str) -> bool,
    ) -> Result<(), ProcessError> {
        loop {
            if done(self.next_line(deadline)?.trim()) {
                return Ok(());
            }
        }
    }

    /// Searches the position after `moves` from `start_fen` within `limits`, waiting at
    /// most `budget` for `bestmove` (for a search bounded by nodes only, at most `budget` for
    /// each line; see [`Limits::patience`]). With `chess960`, `UCI_Chess960` is on first (a
    /// pooled process serves both kinds of game: the option is set whenever it changes), and
    /// castling in `moves` and in the answer is the king taking its own rook.
    pub fn search(
        &mut self,
        start_fen: &str,
        moves: &[String],
        chess960: bool,
        limits: Limits,
        budget: Duration,
    ) -> Result<RawSearch, ProcessError> {
        self.search_lines(start_fen, moves, chess960, limits, 1, budget)
    }

    /// [`Process::search`] with `multipv` lines (`MultiPV`, at most [`MAX_MULTIPV`]): the
    /// answer's [`RawSearch::lines`] holds the last report of each, best first.
    pub fn search_lines(
        &mut self,
        start_fen: &str,
        moves: &[String],
        chess960: bool,
        limits: Limits,
        multipv: u32,
        budget: Duration,
    ) -> Result<RawSearch, ProcessError> {
        let deadline = Instant::now() + budget;
        if self.chess960 != chess960 {
            self.send(&format!("setoption name UCI_Chess960 value {chess960}"))?;
            self.chess960 = chess960;
        }
        let skill = limits.skill.unwrap_or(20).min(20);
        if self.skill != Some(skill) {
            self.send(&format!("setoption name Skill Level value {skill}"))?;
            self.skill = Some(skill);
        }
        let multipv = multipv.clamp(1, MAX_MULTIPV);
        if self.multipv != multipv {
            self.send(&format!("setoption name MultiPV value {multipv}"))?;
            self.multipv = multipv;
        }
        let threads = if limits.fresh { 1 } else { self.base_threads };
        if self.threads != threads {
            self.send(&format!("setoption name Threads value {threads}"))?;
            self.threads = threads;
        }
        if limits.fresh {
            // An empty hash table: what this process searched before cannot change the answer.
            self.send("ucinewgame")?;
            self.send("isready")?;
            self.wait_for(deadline, |l| l == "readyok")?;
        }
        let mut position = format!("position fen {start_fen}");
        if !moves.is_empty() {
            position.push_str(" moves");
            for m in moves {
                position.push(' ');
                position.push_str(m);
            }
        }
        self.send(&position)?;
        self.send(&limits.go())?;
        let mut score = None;
        let mut depth = 0;
        let mut lines: Vec<Option<RawLine>> = vec![None; multipv as usize];
        // A search bounded by nodes only may take long on a busy machine: the engine counts as
        // hung when it is silent for `budget`, and the search may last at most
        // UNBOUNDED_SEARCH_CAP times that in all.
        let sliding = limits.unbounded_in_time();
        let mut deadline = deadline;
        let cap = Instant::now() + budget.saturating_mul(UNBOUNDED_SEARCH_CAP);
        loop {
            let line = self.next_line(deadline)?;
            if sliding {
                deadline = (Instant::now() + budget).min(cap);
            }
            let mut words = line.split_ascii_whitespace();
            match words.next() {
                Some("bestmove") => {
                    let best = words.next().unwrap_or("").to_owned();
                    return Ok(RawSearch {
                        bestmove: best,
                        score,
                        depth,
                        // The lines in order, up to the first never reported.
                        lines: lines.into_iter().map_while(|l| l).collect(),
                    });
                }
                Some("info") => {
                    if let Some(info) = parse_line(&line) {
                        if info.index == 1 {
                            score = Some(info.score);
                            depth = info.depth;
                        }
                        if let (Some(slot), Some(first)) =
                            (lines.get_mut(info.index as usize - 1), info.first)
                        {
                            *slot = Some(RawLine {
                                score: info.score,
                                depth: info.depth,
                                first: first.to_owned(),
                            });
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // A polite engine quits at once; anything else is killed.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Gives the autogroup of process `pid` (a session of its own) the weight of
/// [`AUTOGROUP_NICE`]; where the kernel has no autogroups (or refuses), nothing changes, and
/// the answer says which.
fn lower_autogroup(pid: u32) -> Autogroup {
    let path = format!("/proc/{pid}/autogroup");
    let (Ok(theirs), Ok(mine)) = (
        std::fs::read_to_string(&path),
        std::fs::read_to_string("/proc/self/autogroup"),
    ) else {
        return Autogroup::NotApplicable;
    };
    if !an_autogroup_of_its_own(&theirs, &mine) {
        return Autogroup::NotApplicable;
    }
    // Without CAP_SYS_ADMIN the kernel takes one autogroup change per 100 ms from the whole
    // machine and answers EAGAIN to the rest (engines starting together, other programs):
    // try again for up to a second before giving up.
    let give_up = Instant::now() + Duration::from_secs(1);
    loop {
        match std::fs::write(&path, AUTOGROUP_NICE.to_string()) {
            Ok(()) => return Autogroup::Lowered,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if Instant::now() >= give_up {
                    tracing::debug!(pid, "the kernel's rate limit kept the engine's autogroup");
                    return Autogroup::Busy;
                }
                std::thread::sleep(Duration::from_millis(25));
            }
            Err(e) => {
                tracing::debug!(pid, error = %e, "could not lower the engine's autogroup");
                return Autogroup::Refused(e.to_string());
            }
        }
    }
}

/// Whether the engine's autogroup (the text of its `/proc/PID/autogroup`) is one of its own,
/// never the bot's (`mine`): compared by the name before " nice". The kernel prints nothing
/// for the root autogroup (a process whose session never called `setsid`, such as one run
/// straight from a container's init), so an empty `mine` is a group too, and differs from
/// any the engine's `setsid` made; an empty `theirs` means the engine has none of its own.
fn an_autogroup_of_its_own(theirs: &str, mine: &str) -> bool {
    match theirs.split_whitespace().next() {
        Some(theirs) => mine.split_whitespace().next() != Some(theirs),
        None => false,
    }
}

/// The score and depth of an `info` line, when it has a main-line score (bounds and
/// multi-PV lines other than the first are ignored).
pub fn parse_info(line: &str) -> Option<(Score, u32)> {
    parse_line(line)
        .filter(|info| info.index == 1)
        .map(|info| (info.score, info.depth))
}

/// What an `info` line with a score says of one line of the search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineInfo<'a> {
    /// Which line (`multipv`, 1 when not given), 1 to [`MAX_MULTIPV`].
    pub index: u32,
    /// Its score, from the side to move's point of view.
    pub score: Score,
    /// Its depth (0 when not given).
    pub depth: u32,
    /// The first move of its `pv`, if it has one.
    pub first: Option<&'a str>,
}

/// The line an `info` line reports, when it has an exact score (bounds are ignored, and so is
/// a `multipv` outside 1 to [`MAX_MULTIPV`]).
pub fn parse_line(line: &str) -> Option<LineInfo<'_>> {
    let mut words = line.split_ascii_whitespace();
    let mut depth = None;
    let mut score = None;
    let mut index = 1;
    let mut first = None;
    while let Some(w) = words.next() {
        match w {
            "depth" => depth = words.next().and_then(|d| d.parse::<u32>().ok()),
            "multipv" => match words.next().and_then(|n| n.parse::<u32>().ok()) {
                Some(n @ 1..=MAX_MULTIPV) => index = n,
                _ => return None,
            },
            "lowerbound" | "upperbound" => return None,
            "score" => {
                score = match (
                    words.next(),
                    words.next().and_then(|n| n.parse::<i32>().ok()),
                ) {
                    (Some("cp"), Some(n)) => Some(Score::Cp(n)),
                    (Some("mate"), Some(n)) => Some(Score::Mate(n)),
                    _ => return None,
                }
            }
            // Everything after `pv` is moves, and after `string` free text.
            "pv" => {
                first = words.next();
                break;
            }
            "string" => break,
            _ => {}
        }
    }
    Some(LineInfo {
        index,
        score: score?,
        depth: depth.unwrap_or(0),
        first,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engines_autogroup_is_lowered_only_when_it_is_not_the_bots() {
        // A bot in a session of its own, and a bot run straight from a container's init (the
        // root autogroup, which the kernel prints as nothing): CI ran the second way, and the
        // engine's own group was left at nice 0.
        assert!(an_autogroup_of_its_own(
            "/autogroup-45098 nice 0\n",
            "/autogroup-45097 nice 0\n"
        ));
        assert!(an_autogroup_of_its_own("/autogroup-45098 nice 0\n", ""));
        // The same group as the bot's (no setsid), or none of its own: never written.
        assert!(!an_autogroup_of_its_own(
            "/autogroup-45098 nice 0\n",
            "/autogroup-45098 nice 0\n"
        ));
        assert!(!an_autogroup_of_its_own("", ""));
        assert!(!an_autogroup_of_its_own("", "/autogroup-45098 nice 0\n"));
    }

    fn lines_of(bytes: Vec<u8>) -> Vec<Option<String>> {
        let (tx, rx) = sync_channel(1024);
        read_lines(std::io::Cursor::new(bytes), tx);
        rx.into_iter()
            .map(|l| match l {
                Line::Text(t) => Some(t),
                Line::TooLong => None,
            })
            .collect()
    }

    #[test]
    fn long_lines_are_skipped_not_kept() {
        let mut input = b"uciok\r\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 1 << 20));
        input.extend_from_slice(b"\nbestmove e2e4\n");
        input.extend(std::iter::repeat_n(b'y', MAX_LINE));
        input.extend_from_slice(b"\n");
        let got = lines_of(input);
        assert_eq!(
            got,
            vec![
                Some("uciok".into()),
                None,
                Some("bestmove e2e4".into()),
                Some("y".repeat(MAX_LINE))
            ]
        );
    }

    #[test]
    fn info_lines_are_read_carefully() {
        assert_eq!(
            parse_info("info depth 12 seldepth 15 multipv 1 score cp -34 nodes 1 pv e2e4 e7e5"),
            Some((Score::Cp(-34), 12))
        );
        assert_eq!(
            parse_info("info depth 9 score mate -3 pv a1a2"),
            Some((Score::Mate(-3), 9))
        );
        assert_eq!(parse_info("info depth 9 score cp 20 lowerbound"), None);
        assert_eq!(parse_info("info depth 9 score cp 99999999999999"), None);
        assert_eq!(parse_info("info string score cp 5"), None);
        assert_eq!(parse_info("info depth 3 multipv 2 score cp 5"), None);
    }

    #[test]
    fn every_line_of_a_multi_pv_search_is_read_with_its_first_move() {
        let line = |l| parse_line(l).map(|i| (i.index, i.score, i.depth, i.first));
        assert_eq!(
            line("info depth 14 seldepth 20 multipv 2 score cp -41 nodes 9 pv d2d4 d7d5 c2c4"),
            Some((2, Score::Cp(-41), 14, Some("d2d4")))
        );
        assert_eq!(
            line("info depth 5 score mate 2 pv h5f7"),
            Some((1, Score::Mate(2), 5, Some("h5f7")))
        );
        assert_eq!(
            line("info depth 5 score cp 3"),
            Some((1, Score::Cp(3), 5, None))
        );
        // A line number out of range, a bound, or no score: nothing.
        assert_eq!(line("info depth 5 multipv 0 score cp 3 pv e2e4"), None);
        assert_eq!(line("info depth 5 multipv 65 score cp 3 pv e2e4"), None);
        assert_eq!(line("info depth 5 multipv x score cp 3 pv e2e4"), None);
        assert_eq!(
            line("info depth 5 multipv 2 score cp 3 upperbound pv e2e4"),
            None
        );
        assert_eq!(line("info depth 5 multipv 2 pv e2e4"), None);
    }
}
