//! `cajitas local`: play in the terminal without a Discord token, through the same
//! [game service](crate::game) and database as the bot, in a channel named `local`.
//!
//! Commands come one per line and mirror the slash commands (`help` lists them); in Spanish
//! their Spanish names work too ([`Command::parse_in`]), and a line that is no command but a
//! legal move for the side to move is played as `move`. Standard
//! input may be a pipe, so a whole session can be scripted; refusals print the service's
//! message and the session goes on. It ends with `quit` or at the end of the input, with exit
//! status 0 either way.
//!
//! It speaks the language of `--lang`, switched with `lang en|es` ([`ConsoleLang`]): every
//! text comes from the Fluent bundles ([`crate::i18n`], `console.ftl` and the shared
//! `cajitas.ftl`), moves are shown in that language's letters (`Cf3`), and the same language
//! decides how typed moves are read. The PGN stays English SAN; the ASCII board has no words.
//!
//! Everything the session prints goes through [`EscapeControls`]: a control character other
//! than the newline (in a player's name, say) is shown as a Rust-style escape, `\u{1b}` for
//! ESC, so no name can move the cursor, clear the screen or retitle the terminal.
//!
//! This file is the entry point (`cajitas local`'s flags, opening the service, the scheduler
//! and the engine, who the local users and channel are); [`Session`] (`session.rs`) holds the
//! session's state and runs each line; `print.rs` prints what a command returns, every fact
//! worded by [`crate::i18n`] with [`crate::i18n::Presentation::Console`], as Discord words it
//! with `Presentation::Discord`.

mod arena;
mod command;
mod engine;
mod notify;
mod print;
mod ratings;
mod roundrobin;
mod session;
mod terminal;

pub use command::{ArenaCommand, Command, CommandError, DrawAction, TakebackAction};

pub use notify::{ConsoleNotifier, Notices};
pub use print::{ascii_board, status_line, status_line_in};
pub use session::Session;
pub use terminal::{EscapeControls, LineRead, LineReader};

use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use std::sync::{Arc, Mutex};

use crate::config;
use crate::game::{ChannelRef, GameService, Lang, ServiceOptions, UserRef};
use crate::store::Database;
use crate::tr;

/// The name of the console's channel.
pub const LOCAL_CHANNEL_NAME: &str = "local";
/// Who acts until `as NAME` says otherwise.
pub const DEFAULT_USER: &str = "alice";
/// The longest input line read, in characters; a longer line is discarded whole, with a
/// message, and never held in memory (see [`LineReader`]).
pub const MAX_LINE_CHARS: usize = 500;
/// The most bytes held for one line: [`MAX_LINE_CHARS`] characters of up to 4 bytes, and a
/// `\r` before the newline.
const MAX_LINE_BYTES: usize = MAX_LINE_CHARS * 4 + 1;

/// Flags of `cajitas local`.
#[derive(Debug, Clone, clap::Args)]
pub struct LocalArgs {
    /// Act as this user (switch later with `as NAME`).
    #[arg(long = "as", value_name = "NAME", default_value = DEFAULT_USER)]
    pub as_user: String,
    /// The console's language, and how to read moves: `es` prints Spanish and reads R as rey
    /// (king) and D, T, A, C as queen, rook, bishop, knight; `en` prints English and reads R
    /// as rook.
    #[arg(long, value_parser = parse_lang, default_value = "en")]
    pub lang: Lang,
    /// `--db`, over `CAJITAS_DB` (the bot's database, by default).
    #[command(flatten)]
    pub db: config::DbArg,
    /// Where the PNG boards go (default: `cajitas-local-boards` beside a SQLite database, or
    /// in the current directory).
    #[arg(long, value_name = "DIR")]
    pub boards: Option<PathBuf>,
    /// Do not render PNG boards.
    #[arg(long)]
    pub no_png: bool,
}

fn parse_lang(s: &str) -> Result<Lang, String> {
    command::parse_lang(s).map_err(|e| e.to_string())
}
/// The stable id of a local user: a hash of the lower-cased name with the top bit set, so it
/// never equals a Discord snowflake (those stay below 2^63).
pub fn local_user_id(name: &str) -> u64 {
    // FNV-1a, 64 bits.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.trim().to_lowercase().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h | (1 << 63)
}

/// A local user.
pub fn local_user(name: &str) -> UserRef {
    UserRef::new(local_user_id(name), name, false)
}

/// The console's channel.
pub fn local_channel() -> ChannelRef {
    ChannelRef {
        guild: None,
        channel: local_user_id(LOCAL_CHANNEL_NAME),
    }
}

/// `cajitas local`: opens the database and runs the session on stdin/stdout.
pub fn main(args: LocalArgs, settings: config::Settings) -> ExitCode {
    let boards = (!args.no_png).then(|| {
        args.boards.clone().unwrap_or_else(|| {
            let parent = match &args.db.db {
                Database::Sqlite(path) => path.parent().filter(|p| !p.as_os_str().is_empty()),
                Database::Postgres(_) => None,
            };
            parent
                .map(Path::to_path_buf)
                .unwrap_or_else(|| PathBuf::from("."))
                .join("cajitas-local-boards")
        })
    });
    let lang = ConsoleLang::new(args.lang);
    crate::openings::prepare();
    let notifier =
        ConsoleNotifier::new(Box::new(EscapeControls::new(io::stdout())), boards.clone())
            .speaking(lang.clone());
    let notices = notifier.notices();
    // Every setting the bot checks is checked here too (the same `.env` serves both).
    let read = config::LocalConfig::try_from(settings);
    let (opts, engine_settings) = match read {
        Ok(config::LocalConfig {
            challenge_ttl,
            abandon_after,
            engine,
        }) => (
            ServiceOptions {
                challenge_ttl,
                abandon_after,
                notifier: std::sync::Arc::new(notifier),
                site: crate::game::Site::Console,
                engine_name: crate::engine::player_name(&engine),
                engine_games_per_user: engine.games_per_user,
                ..ServiceOptions::default()
            },
            engine,
        ),
        Err(e) => {
            eprintln!("error: {}", e.message(lang.get()));
            return ExitCode::from(2);
        }
    };
    // The computer, when there is an engine: its player is prepared first, so that the
    // service is opened with its port.
    let engine = crate::engine::pool_from(&engine_settings)
        .map(|pool| (pool, crate::engine::EnginePlayer::prepare()));
    let opts = ServiceOptions {
        engine_turns: engine.as_ref().map(|(_, player)| player.turns()),
        ..opts
    };
    let new_file = match &args.db.db {
        Database::Sqlite(path) => !path.exists(),
        Database::Postgres(_) => false,
    };
    let service = match GameService::open_db(&args.db.db, opts) {
        Ok(s) => {
            if new_file {
                // Said first, so that a mistyped path is seen before anything is played.
                let path = config::describe_db(&args.db.db);
                eprintln!("{}", tr!(args.lang, "console-new-database", path = path));
            }
            s
        }
        Err(e) => {
            // A PostgreSQL URL is shown without its password.
            let path = config::describe_db(&args.db.db);
            let text = tr!(
                args.lang,
                "console-cannot-open-db",
                path = path,
                error = e.chain()
            );
            eprintln!("{text}");
            return ExitCode::FAILURE;
        }
    };
    let stdin = io::stdin();
    let interactive = stdin.is_terminal();
    // The console's own games' deadlines and reminders (channel `local` only: `cajitas run`
    // on the same database skips them). What fell due while nobody ran is done, and printed,
    // before the first command is read.
    let _scheduler = crate::game::Scheduler::start_caught_up(
        service.clone(),
        crate::game::EventScope::Only(local_channel().channel),
    );
    // The computer, when there is an engine: it plays in the console's channel only.
    let engine = engine.map(|(pool, player)| {
        Arc::new(player.start_in(
            service.clone(),
            pool,
            crate::engine::player::RETRY_EVERY,
            crate::game::EventScope::Only(local_channel().channel),
        ))
    });
    let mut session = Session::with_lang(service, &args.as_user, lang);
    session.boards = boards;
    session.engine = engine;
    session.notices = Some(notices);
    // Not locked for the whole session: the notifier prints from other threads (the
    // scheduler's notices, the engine's failures) between the session's lines.
    match session.run(stdin.lock(), io::stdout(), interactive) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed stdout (e.g. piped into `head`) is not worth a failure status.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The console's language, shared by the session (which switches it with `lang`) and its
/// notifier: it decides both how moves are read and in which language everything is printed.
#[derive(Debug, Clone)]
pub struct ConsoleLang(Arc<Mutex<Lang>>);

impl ConsoleLang {
    /// Starts in `lang`.
    pub fn new(lang: Lang) -> ConsoleLang {
        ConsoleLang(Arc::new(Mutex::new(lang)))
    }

    /// The language now.
    pub fn get(&self) -> Lang {
        *self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Switches to `lang`.
    pub fn set(&self, lang: Lang) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = lang;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    #[test]
    fn the_consoles_channel_is_the_one_the_store_indexes() {
        // Migration 0012's partial index and the store's queries name this number.
        assert_eq!(local_channel().channel, crate::store::LOCAL_CHANNEL_ID);
        assert_eq!(
            crate::store::local_channel_sql!(),
            (crate::store::LOCAL_CHANNEL_ID as i64).to_string()
        );
        for m in [
            include_str!("../../migrations/0012_local_event_index.sql"),
            include_str!("../../migrations/postgres/0012_local_event_index.sql"),
        ] {
            assert!(m.contains(&format!(
                "channel_id = {}",
                crate::store::local_channel_sql!()
            )));
        }
    }

    #[test]
    fn local_ids_are_stable_and_outside_snowflakes() {
        assert_eq!(local_user_id("Alice"), local_user_id(" alice "));
        assert_ne!(local_user_id("alice"), local_user_id("bob"));
        assert!(local_user_id("alice") >= 1 << 63);
    }

    #[test]
    fn the_line_reader_never_holds_more_than_its_cap() {
        // 50 MB in one line, then two short lines (one with CRLF, the last without newline).
        let long = io::repeat(b'x').take(50 << 20);
        let input = io::BufReader::new(long.chain(&b"\nhelp\r\nquit"[..]));
        let mut r = LineReader::new(input, 100);
        let cap = r.buffer_capacity();
        assert!(cap < 200, "{cap}");
        assert_eq!(r.next_line().unwrap(), LineRead::TooLong);
        assert_eq!(r.buffer_capacity(), cap);
        assert_eq!(r.next_line().unwrap(), LineRead::Line(b"help"));
        assert_eq!(r.next_line().unwrap(), LineRead::Line(b"quit"));
        assert_eq!(r.next_line().unwrap(), LineRead::End);
        assert_eq!(r.buffer_capacity(), cap);

        // Exactly the cap is a line; one byte more is not, even when split across reads.
        let input = io::BufReader::with_capacity(7, &b"0123456789\n01234567890\n\n"[..]);
        let mut r = LineReader::new(input, 10);
        assert_eq!(r.next_line().unwrap(), LineRead::Line(b"0123456789"));
        assert_eq!(r.next_line().unwrap(), LineRead::TooLong);
        assert_eq!(r.next_line().unwrap(), LineRead::Line(b""));
        assert_eq!(r.next_line().unwrap(), LineRead::End);
        assert_eq!(r.buffer_capacity(), 10);
    }

    #[test]
    fn an_endless_line_is_read_in_constant_memory() {
        // What `< /dev/zero` gives: one line that never ends. Read 200 MB of it.
        let input = io::BufReader::new(io::repeat(0).take(200 << 20));
        let mut r = LineReader::new(input, MAX_LINE_BYTES);
        let cap = r.buffer_capacity();
        assert_eq!(r.next_line().unwrap(), LineRead::TooLong);
        assert_eq!(r.buffer_capacity(), cap);
        assert!(cap <= 2 * MAX_LINE_BYTES);
    }

    #[test]
    fn control_characters_are_escaped_and_the_rest_passes_through() {
        let mut out = EscapeControls::new(Vec::new());
        write!(out, "a\u{1b}[2Jb\u{7}\t\r\u{7f}\u{9b}ñ♘\\x\n").unwrap();
        // A character split across two writes, and a byte that is not UTF-8.
        let knight = "♘".as_bytes();
        out.write_all(&knight[..1]).unwrap();
        out.write_all(&knight[1..]).unwrap();
        out.write_all(b"\xff\n").unwrap();
        let text = String::from_utf8(out.into_inner()).unwrap();
        assert_eq!(
            text,
            "a\\u{1b}[2Jb\\u{7}\\u{9}\\u{d}\\u{7f}\\u{9b}ñ♘\\x\n♘\u{fffd}\n"
        );
    }
}
