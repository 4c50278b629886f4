//! Puzzles on Discord (issue 30): the real `cajitas` binary against the fake Discord.
//! `/puzzle id:…` posts the heading, the opponent's move and the board with Hint, Solution
//! and Next; `/move` answers the caller's open puzzle when they play no game there; only the
//! solver's buttons act; a wrong move fails and shows the solution with the rating change.

mod support;

use axum::http::Method;
use serde_json::json;
use support::fake_discord::{Channel, FakeUser, Recorded};
use support::world::{CHANNEL, World, alice, assert_refused, bob};

#[track_caller]
fn assert_puzzle_board(r: &support::fake_discord::Recorded) {
    assert!(!r.is_ephemeral(), "expected a public reply: {}", r.text());
    let png = r
        .file("board.png")
        .unwrap_or_else(|| panic!("no board.png in {:?}", r.json));
    assert!(png.data.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
}

async fn puzzle(
    w: &World,
    user: &FakeUser,
    locale: &str,
    id: &str,
) -> support::fake_discord::Recorded {
    w.cmd(user, locale, "puzzle", &[("id", json!(id))]).await
}

/// `/puzzle` with `options` typed by `user` in the helpers' channel, where games get threads:
/// the puzzle gets a thread of its own, opened on the answer (its heading), which then links
/// to it; the puzzle is posted in the thread, where the helpers play from then on. Returns
/// that post.
async fn in_thread(
    w: &World,
    user: &FakeUser,
    locale: &str,
    options: &[(&str, serde_json::Value)],
) -> Recorded {
    w.play_in(w.parent());
    let from = w.fake.request_count();
    let r = w.cmd_in(&w.parent(), user, locale, "puzzle", options).await;
    assert!(!r.is_ephemeral(), "{}", r.text());
    let message = r.message_id.expect("the answer is a message");
    w.fake
        .wait_request("the puzzle's thread", from, |q| {
            q.method == Method::POST && q.path.ends_with(&format!("/messages/{message}/threads"))
        })
        .await;
    let thread = w.fake.thread(message).expect("a thread on the answer");
    assert_eq!(thread.parent, CHANNEL);
    let word = if locale.starts_with("es") {
        "Problema "
    } else {
        "Puzzle "
    };
    assert!(thread.name.starts_with(word), "{}", thread.name);
    assert!(
        thread.name.ends_with(&format!(" · {}", user.name)),
        "{}",
        thread.name
    );
    let post = w.fake.post_to(thread.id, from).await;
    // The answer in the channel now links to the thread.
    let linked = w
        .fake
        .wait_request("the answer's link", from, |q| {
            q.method == Method::PATCH
                && q.path.contains("/messages/@original")
                && q.content().contains(&format!("<#{}>", thread.id))
        })
        .await;
    assert!(linked.content().starts_with(word), "{}", linked.content());
    w.play_in(Channel::thread(thread.id, CHANNEL));
    post
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_solved_with_move_and_its_buttons_for_the_solver_only() {
    let w = World::start("puzzles", vec![]).await;
    let p = in_thread(&w, &alice(), "en-US", &[("id", json!("002X3"))]).await;
    assert_puzzle_board(&p);
    let text = p.content();
    assert!(
        text.starts_with("Puzzle 002X3 · rating 970 · White to move"),
        "{text}"
    );
    assert!(text.contains("[puzzle] Rxa3"), "{text}");
    let ids = p.custom_ids();
    assert_eq!(ids.len(), 3, "Hint, Solution, Next: {ids:?}");

    // bob's clicks on alice's buttons are refused.
    assert_refused(&w.click(&bob(), &p, &ids[0]).await, "");
    // bob has no puzzle: his move goes to the games, where there is none.
    assert!(w.mv(&bob(), "en-US", "Qa8+").await.is_ephemeral());

    // Autocomplete offers the puzzle's legal moves to its solver.
    let ac = w
        .channel()
        .autocomplete(&w.fake, &alice(), "en-US", "move", "move", "Qa");
    let names: Vec<String> = w
        .fake
        .interact(&ac)
        .await
        .choices()
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert!(names.contains(&"Qa8+".to_string()), "{names:?}");

    // Hint: the piece, publicly.
    let hint = w.click(&alice(), &p, &ids[0]).await;
    assert!(
        hint.text().contains("move the queen on g2"),
        "{}",
        hint.text()
    );

    // alice answers with /move; the bot replies; then mate.
    let m = w.mv(&alice(), "en-US", "Qa8+").await;
    assert_puzzle_board(&m);
    assert!(m.content().contains("[puzzle] Qb8"), "{}", m.content());
    // A Spanish move; the public answer follows the interaction's locale (`auto`).
    let m = w.mv(&alice(), "es-ES", "Dxb8#").await;
    assert!(
        m.content()
            .starts_with("Problema 002X3 · puntuación 970 · juegan blancas"),
        "{}",
        m.content()
    );
    assert!(m.content().contains("Resuelto"), "{}", m.content());
    // The hinted attempt is not rated: no rating line.
    assert!(!m.content().contains(" → "), "{}", m.content());
    assert_eq!(m.custom_ids().len(), 1, "only Next once solved");

    // The old buttons have expired.
    assert_refused(&w.click(&alice(), &p, &ids[1]).await, "expired");

    // A rated attempt that fails: the wrong move, Failed, the change, the solution.
    let p = in_thread(&w, &alice(), "en-US", &[("id", json!("001KR"))]).await;
    let f = w.mv(&alice(), "en-US", "h3").await;
    let text = f.content();
    for needle in [
        "h3 is not the move.",
        "Failed",
        &format!("{} 1500? → ", alice().mention()),
        "Solution: Rf8#",
    ] {
        assert!(text.contains(needle), "{needle:?} in {text}");
    }
    // Next gives another puzzle.
    let ids = p.custom_ids();
    let next = w.click(&alice(), &f, &f.custom_ids()[0]).await;
    assert!(next.content().starts_with("Puzzle "), "{}", next.content());
    assert_eq!(next.custom_ids().len(), 3, "{ids:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_in_spanish_and_refusals() {
    let w = World::start("puzzles-es", vec![]).await;
    let r = w
        .cmd(
            &alice(),
            "es-ES",
            "puzzle",
            &[("theme", json!("nosuchtheme"))],
        )
        .await;
    assert_refused(&r, "nosuchtheme");
    let r = puzzle(&w, &alice(), "es-ES", "zzzzz").await;
    assert_refused(&r, "zzzzz");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_streak_without_a_hint_ends_at_the_first_mistake() {
    let w = World::start("puzzle-streak", vec![]).await;
    let p = in_thread(&w, &alice(), "en-US", &[("mode", json!(0))]).await;
    assert_puzzle_board(&p);
    let text = p.content();
    assert!(text.starts_with("Puzzle Streak: "), "{text}");
    assert!(text.contains("\nPuzzle "), "{text}");
    // Solution and Next only: a streak gives no hints.
    let ids = p.custom_ids();
    assert_eq!(ids.len(), 2, "Solution, Next: {ids:?}");
    let given_up = w.click(&alice(), &p, &ids[0]).await;
    let text = given_up.text();
    assert!(text.contains("Failed"), "{text}");
    assert!(
        text.contains("Streak over: 0 solved · your best streak: 0"),
        "{text}"
    );
    // In Spanish, `/problema modo:racha`.
    let p = in_thread(&w, &bob(), "es-ES", &[("mode", json!(0))]).await;
    assert!(
        p.content().starts_with("Racha de problemas: "),
        "{}",
        p.content()
    );
    // The puzzle leaderboards: nobody is on them yet.
    let lb = w
        .cmd(&alice(), "en-US", "leaderboard", &[("speed", json!(3))])
        .await;
    let text = lb.text();
    assert!(text.contains("Leaderboard · Puzzle Streak"), "{text}");
    assert!(
        text.contains("You have no Puzzle Streak record here yet."),
        "{text}"
    );
    let lb = w
        .cmd(&alice(), "es-ES", "leaderboard", &[("speed", json!(2))])
        .await;
    let text = lb.text();
    assert!(text.contains("Clasificación · Problemas"), "{text}");
    assert!(
        text.contains("Aún no apareces: 0 intentos puntuados de los 5 necesarios"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daily_puzzle_is_posted_once_and_solved_privately_with_a_live_count() {
    use cajitas::game::{GameService, ServiceOptions};
    use cajitas::store::Database;
    use std::time::Duration;

    let mut w = World::start("daily-puzzle", vec![]).await;
    let ch = w.channel();
    // The server's daily puzzle at 00:00 UTC in this channel (due at once, every day); the
    // bot restarted on it posts it at start.
    w.bot().signal("TERM");
    w.bot_mut().wait_exit(Duration::from_secs(15));
    w.bot = None;
    {
        let g = GameService::open_db(&Database::Sqlite(w.db()), ServiceOptions::default()).unwrap();
        g.daily().configure(ch.guild.unwrap(), ch.id, 0).unwrap();
    }
    let from = w.fake.requests().len();
    w.restart().await;
    let post = w.fake.post_to(ch.id, from).await;
    let text = post.content();
    assert!(text.starts_with("Daily puzzle · "), "{text}");
    assert!(text.contains("0 solved · 0 failed"), "{text}");
    assert!(post.file("board.png").is_some());
    let ids = post.custom_ids();
    assert_eq!(ids.len(), 1, "Solve: {ids:?}");

    // bob's attempt is his own and private; giving up fails it and the post's count moves.
    let solve = w.click(&bob(), &post, &ids[0]).await;
    assert!(solve.is_ephemeral(), "{}", solve.text());
    assert!(solve.text().contains("[puzzle] "), "{}", solve.text());
    let buttons = solve.custom_ids();
    assert_eq!(buttons.len(), 3, "Hint, Solution, Next: {buttons:?}");
    let from = w.fake.requests().len();
    let failed = w.click(&bob(), &solve, &buttons[1]).await;
    assert!(failed.is_ephemeral());
    assert!(failed.text().contains("Failed"), "{}", failed.text());
    let edit = w
        .fake
        .wait_request("the daily post's count", from, |r| {
            r.method == "PATCH"
                && r.path
                    .starts_with(&format!("/channels/{}/messages/", ch.id))
        })
        .await;
    let body = edit.json.clone().unwrap_or_default().to_string();
    assert!(body.contains("0 solved · 1 failed"), "{body}");

    // Restarted the same day: no second post.
    w.bot().signal("TERM");
    w.bot_mut().wait_exit(Duration::from_secs(15));
    w.bot = None;
    w.restart().await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let dailies = w
        .fake
        .created_messages(ch.id)
        .into_iter()
        .filter(|m| {
            m["content"]
                .as_str()
                .is_some_and(|c| c.starts_with("Daily puzzle"))
        })
        .count();
    assert_eq!(dailies, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn where_games_get_no_thread_a_puzzle_is_played_in_the_channel() {
    let w = World::start(
        "puzzles-no-threads",
        vec![("CAJITAS_THREADS", "off".into())],
    )
    .await;
    let p = puzzle(&w, &alice(), "en-US", "002X3").await;
    assert_puzzle_board(&p);
    assert!(
        p.content().starts_with("Puzzle 002X3 · "),
        "{}",
        p.content()
    );
    assert!(w.fake.threads().is_empty());
    let m = w.mv(&alice(), "en-US", "Qa8+").await;
    assert!(m.content().contains("[puzzle] Qb8"), "{}", m.content());
}

/// `/settings` with `options` by `user` in the helpers' channel: a manager (Manage Server) or
/// not, `daily-channel` naming `channel` when given (resolved as Discord sends a channel).
fn settings_payload(
    w: &World,
    user: &FakeUser,
    locale: &str,
    options: &[(&str, serde_json::Value)],
    channel: Option<u64>,
    manager: bool,
) -> serde_json::Value {
    let mut options = options.to_vec();
    if let Some(c) = channel {
        options.push(("daily-channel", json!(c.to_string())));
    }
    let mut v = w
        .parent()
        .command(&w.fake, user, locale, "settings", &options, &[]);
    if let Some(c) = channel {
        for o in v["data"]["options"].as_array_mut().unwrap() {
            if o["name"] == "daily-channel" {
                o["type"] = json!(7);
            }
        }
        v["data"]["resolved"] = json!({"channels": {c.to_string(): {
            "id": c.to_string(), "name": "daily", "type": 0,
            "permissions": support::fake_discord::PERMISSIONS}}});
    }
    if manager {
        let p: u64 = support::fake_discord::PERMISSIONS.parse().unwrap();
        v["member"]["permissions"] = json!((p | 0x20).to_string());
    }
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_daily_puzzle_takes_a_channel_and_an_hour() {
    use cajitas::game::{GameService, ServiceOptions};
    use cajitas::store::Database;
    let w = World::start("daily-settings", vec![]).await;
    let guild = w.parent().guild.unwrap();
    let other = CHANNEL + 7;
    let w = &w;
    let set = async |options: &[(&str, serde_json::Value)], channel, manager, locale| {
        let p = settings_payload(w, &alice(), locale, options, channel, manager);
        w.fake.interact(&p).await
    };
    let setting = || {
        let g = GameService::open_db(&Database::Sqlite(w.db()), ServiceOptions::default()).unwrap();
        g.daily()
            .setting(guild)
            .unwrap()
            .map(|s| (s.channel, s.hour))
    };
    // Only a manager may.
    let r = set(&[("daily-hour", json!(5))], Some(other), false, "en-US").await;
    assert!(
        r.is_ephemeral() && r.text().contains("Manage Server"),
        "{}",
        r.text()
    );
    assert_eq!(setting(), None);
    // A channel alone, with no hour set before: the hour is asked for.
    let r = set(&[], Some(other), true, "en-US").await;
    assert!(
        r.text().contains("Give the daily puzzle's hour too"),
        "{}",
        r.text()
    );
    assert_eq!(setting(), None);
    // `daily-channel:#other daily-hour:5`.
    let r = set(&[("daily-hour", json!(5))], Some(other), true, "en-US").await;
    assert!(r.is_ephemeral());
    assert_eq!(
        r.text(),
        format!("The daily puzzle will be posted in <#{other}> every day at 05:00 UTC.")
    );
    assert_eq!(setting(), Some((other, 5)));
    // The hour alone: posted where typed, as before.
    let r = set(&[("daily-hour", json!(7))], None, true, "en-US").await;
    assert_eq!(
        r.text(),
        "The daily puzzle will be posted in this channel every day at 07:00 UTC."
    );
    assert_eq!(setting(), Some((CHANNEL, 7)));
    // The channel alone keeps the hour; in Spanish.
    let r = set(&[], Some(other), true, "es-ES").await;
    assert_eq!(
        r.text(),
        format!("El problema del día se publicará en <#{other}> cada día a las 07:00 UTC.")
    );
    assert_eq!(setting(), Some((other, 7)));
}
