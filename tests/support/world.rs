//! A fake Discord, a temporary database and the real bot, with helpers to play.

#![allow(dead_code)]

use serde_json::{Value, json};

use super::bot::{Bot, BotOptions, TempDir};
use super::db::{Backend, TestDb};
use super::fake_discord::{Channel, FakeDiscord, FakeUser, Recorded};

/// The heartbeat interval the fake announces.
pub const HEARTBEAT_MS: u64 = 500;
/// The channel the helpers play in.
pub const CHANNEL: u64 = 1_200_000_000_000_000_001;

/// The `colour` option's value for white (poise sends choices as their index).
pub const WHITE: u64 = 0;
/// The `/draw action` values: offer, accept, decline, claim.
pub const OFFER: u64 = 0;
/// See [`OFFER`].
pub const ACCEPT: u64 = 1;
/// See [`OFFER`].
pub const DECLINE: u64 = 2;
/// See [`OFFER`].
pub const CLAIM: u64 = 3;

/// alice (white in the helpers' games).
pub fn alice() -> FakeUser {
    FakeUser::new(900_000_000_000_000_001, "alice")
}

/// bob (black).
pub fn bob() -> FakeUser {
    FakeUser::new(900_000_000_000_000_002, "bob")
}

/// carol (not playing).
pub fn carol() -> FakeUser {
    FakeUser::new(900_000_000_000_000_003, "carol")
}

/// The fake, the bot and its directory.
pub struct World {
    /// The fake Discord.
    pub fake: FakeDiscord,
    /// The bot (None while stopped).
    pub bot: Option<Bot>,
    /// Holds the database and the logs.
    pub dir: TempDir,
    /// Extra environment for the bot.
    pub env: Vec<(&'static str, String)>,
    starts: usize,
    /// The PostgreSQL database, when the test binary runs on PostgreSQL (its name ends in
    /// `_postgres`, see `support::db`); `None`: the SQLite file [`World::db`].
    pub postgres: Option<TestDb>,
    /// Where the helpers play: the thread of the last game started, or the channel.
    playing: std::sync::Mutex<Option<Channel>>,
}

impl World {
    /// Starts a fake and the bot, and waits until READY was processed.
    pub async fn start(tag: &str, env: Vec<(&'static str, String)>) -> World {
        let fake = FakeDiscord::start(HEARTBEAT_MS).await;
        let dir = TempDir::new(tag);
        let postgres = match Backend::of_target(env!("CARGO_CRATE_NAME")) {
            Backend::Postgres => Some(TestDb::new(Backend::Postgres, tag)),
            Backend::Sqlite => None,
        };
        let mut w = World {
            fake,
            bot: None,
            dir,
            env,
            starts: 0,
            postgres,
            playing: std::sync::Mutex::new(None),
        };
        w.restart().await;
        w
    }

    /// The database file.
    pub fn db(&self) -> std::path::PathBuf {
        self.dir.path().join("cajitas.db")
    }

    /// Starts the bot again (after it stopped) on the same database.
    pub async fn restart(&mut self) {
        assert!(self.bot.is_none(), "stop the bot first");
        self.starts += 1;
        let bot = Bot::start(BotOptions {
            api_base: &self.fake.base,
            db: &self.db(),
            log: self.dir.path().join(format!("bot-{}.log", self.starts)),
            env: self
                .env
                .iter()
                .map(|(k, v)| (*k, v.clone()))
                .chain(
                    self.postgres
                        .as_ref()
                        .map(|db| ("CAJITAS_DB", db.env_value())),
                )
                .collect(),
        });
        self.bot = Some(bot);
        self.fake.wait_ready(self.starts).await;
        if self.postgres.is_some() {
            let log = self.bot().log_text();
            assert!(log.contains("postgresql:///t_"), "not on PostgreSQL: {log}");
        }
    }

    /// The running bot.
    pub fn bot(&self) -> &Bot {
        self.bot.as_ref().expect("bot running")
    }

    /// The running bot.
    pub fn bot_mut(&mut self) -> &mut Bot {
        self.bot.as_mut().expect("bot running")
    }

    /// Where the helpers play: the thread of the last game they started (a game gets its
    /// own thread), or the helpers' channel.
    pub fn channel(&self) -> Channel {
        self.playing
            .lock()
            .unwrap()
            .clone()
            .unwrap_or_else(|| Channel::new(CHANNEL))
    }

    /// The helpers' channel itself (where challenges are made).
    pub fn parent(&self) -> Channel {
        Channel::new(CHANNEL)
    }

    /// Plays in `ch` from now on.
    pub fn play_in(&self, ch: Channel) {
        *self.playing.lock().unwrap() = Some(ch);
    }

    /// Sends `/name options...` as `user` in `ch` and returns the callback.
    pub async fn cmd_in(
        &self,
        ch: &Channel,
        user: &FakeUser,
        locale: &str,
        name: &str,
        options: &[(&str, Value)],
    ) -> Recorded {
        let payload = ch.command(&self.fake, user, locale, name, options, &[]);
        self.fake.interact(&payload).await
    }

    /// Sends `/name options...` as `user` and returns the callback.
    pub async fn cmd(
        &self,
        user: &FakeUser,
        locale: &str,
        name: &str,
        options: &[(&str, Value)],
    ) -> Recorded {
        self.cmd_in(&self.channel(), user, locale, name, options)
            .await
    }

    /// `/move text` as `user`.
    pub async fn mv(&self, user: &FakeUser, locale: &str, text: &str) -> Recorded {
        self.cmd(user, locale, "move", &[("move", json!(text))])
            .await
    }

    /// Clicks `custom_id` on `message` as `user`.
    pub async fn click(&self, user: &FakeUser, message: &Recorded, custom_id: &str) -> Recorded {
        let payload = self
            .channel()
            .click(&self.fake, user, "en-US", message, custom_id);
        self.fake.interact(&payload).await
    }

    /// `white` challenges `black` in `ch` (as white), `black` accepts with /accept.
    pub async fn start_game_in(
        &self,
        ch: &Channel,
        white: &FakeUser,
        black: &FakeUser,
    ) -> Recorded {
        self.start_game_with(ch, white, black, &[]).await
    }

    /// [`World::start_game_in`] with more `/challenge` options (`rated`, …).
    pub async fn start_game_with(
        &self,
        ch: &Channel,
        white: &FakeUser,
        black: &FakeUser,
        more: &[(&str, Value)],
    ) -> Recorded {
        let mut options = vec![
            ("opponent", json!(black.id.to_string())),
            ("colour", json!(WHITE)),
        ];
        options.extend(more.iter().cloned());
        let payload = ch.command(&self.fake, white, "en-US", "challenge", &options, &[black]);
        let c = self.fake.interact(&payload).await;
        assert_eq!(c.callback_type(), Some(4), "{:?}", c.json);
        assert!(!c.is_ephemeral(), "{}", c.text());
        let from = self.fake.request_count();
        let acc = self.cmd_in(ch, black, "en-US", "accept", &[]).await;
        assert!(!acc.is_ephemeral(), "{}", acc.text());
        // With a thread: the answer links to it, and the thread gets the first board.
        let thread = self
            .fake
            .threads()
            .into_iter()
            .find(|t| Some(t.id) == c.message_id && t.parent == ch.id);
        match thread {
            Some(t) => {
                assert!(
                    acc.text().contains(&format!("<#{}>", t.id)),
                    "{}",
                    acc.text()
                );
                let board = self.fake.post_to(t.id, from).await;
                assert_public_board(&board);
                self.play_in(Channel::thread(t.id, ch.id));
                board
            }
            None => {
                assert_public_board(&acc);
                self.play_in(ch.clone());
                acc
            }
        }
    }

    /// alice challenges bob (alice white) in the helpers' channel, bob accepts with /accept;
    /// the helpers then play where the game is (its thread).
    pub async fn start_game(&self) -> Recorded {
        self.start_game_in(&self.parent(), &alice(), &bob()).await
    }
}

/// A public message with the game embed and a PNG `board.png` with alt text.
#[track_caller]
pub fn assert_public_board(r: &Recorded) {
    assert!(!r.is_ephemeral(), "expected a public reply: {}", r.text());
    assert_eq!(r.embeds().len(), 1, "{}", r.text());
    let png = r
        .file("board.png")
        .unwrap_or_else(|| panic!("no board.png in {:?}", r.json));
    assert!(png.data.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    let att = r.attachments();
    let a = att
        .iter()
        .find(|a| a["filename"] == "board.png")
        .expect("attachment descriptor");
    assert!(
        a["description"]
            .as_str()
            .is_some_and(|d| !d.is_empty() && d.chars().count() <= 1024),
        "alt text as the description: {a}"
    );
    assert_eq!(
        r.embeds()[0]["image"]["url"],
        "attachment://board.png",
        "the embed shows the attached board"
    );
}

/// An ephemeral refusal containing `needle`.
#[track_caller]
pub fn assert_refused(r: &Recorded, needle: &str) {
    assert_eq!(r.callback_type(), Some(4), "{:?}", r.json);
    assert!(r.is_ephemeral(), "refusals are ephemeral: {}", r.text());
    assert!(
        r.text().to_lowercase().contains(&needle.to_lowercase()),
        "expected {needle:?} in {:?}",
        r.text()
    );
    assert!(r.files.is_empty());
}

/// The embed field `name` of a reply.
pub fn field(r: &Recorded, name: &str) -> Option<String> {
    r.embeds().first()?["fields"]
        .as_array()?
        .iter()
        .find(|f| f["name"] == name)
        .and_then(|f| f["value"].as_str().map(String::from))
}
