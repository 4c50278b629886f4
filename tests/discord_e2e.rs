//! End-to-end tests: the real `cajitas` binary against the fake Discord in `support/`.

mod support;

use support::bot::{Bot, BotOptions, TempDir};
use support::fake_discord::{APP_ID, Channel, FakeDiscord, FakeUser};

const HEARTBEAT_MS: u64 = 500;

struct World {
    fake: FakeDiscord,
    bot: Bot,
    dir: TempDir,
}

impl World {
    async fn start(tag: &str, env: Vec<(&str, String)>) -> World {
        let fake = FakeDiscord::start(HEARTBEAT_MS).await;
        let dir = TempDir::new(tag);
        let bot = Bot::start(BotOptions {
            api_base: &fake.base,
            db: &dir.path().join("cajitas.db"),
            log: dir.path().join("bot.log"),
            env,
        });
        fake.wait_ready(1).await;
        World { fake, bot, dir }
    }
}

fn alice() -> FakeUser {
    FakeUser::new(900_000_000_000_000_001, "alice")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn starts_registers_commands_logs_invite_and_answers_help() {
    let w = World::start("help", vec![]).await;
    let fake = &w.fake;

    // Registration: one bulk PUT of every command, globally.
    let put = fake
        .wait_request("command registration", 0, |r| {
            r.method == "PUT" && r.path == format!("/applications/{APP_ID}/commands")
        })
        .await;
    let names: Vec<String> = put
        .json
        .as_ref()
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect();
    assert!(names.contains(&"help".to_string()), "{names:?}");
    for c in put.json.as_ref().unwrap().as_array().unwrap() {
        assert!(
            !c["description"].as_str().unwrap_or("").is_empty(),
            "every command has a description: {c}"
        );
    }

    let ch = Channel::new(1_200_000_000_000_000_001);
    let cb = fake
        .interact(&ch.command(fake, &alice(), "en-US", "help", &[], &[]))
        .await;
    assert_eq!(cb.callback_type(), Some(4));
    assert!(cb.is_ephemeral());
    assert!(cb.content().contains("/move"), "{}", cb.content());
    assert!(cb.content().chars().count() <= 2000);

    // The invite URL with the client id from the application info and the minimal permissions.
    let log = w.bot.log_text();
    assert!(
        log.contains(&format!(
            "https://discord.com/oauth2/authorize?client_id={APP_ID}&permissions=274878024704&scope=bot%20applications.commands"
        )),
        "{log}"
    );
    assert!(!log.contains("fake00"), "the token must never be logged");
    assert!(
        fake.unknown_requests().is_empty(),
        "{:?}",
        fake.unknown_requests()
    );
    drop(w.dir);
}
