//! Habla español: a whole game through the fake Discord with every interaction in `es-ES`
//! never shows an English word, the same game in `en-US` never a Spanish one; and the
//! command registration carries the Spanish names and descriptions, within Discord's rules.

mod support;

use std::collections::HashSet;

use serde_json::{Value, json};
use support::fake_discord::{APP_ID, Channel, FakeUser, Recorded};
use support::world::{OFFER, WHITE, World, alice, assert_public_board, bob, carol};

/// Words only the English bundle uses (checked as whole words, ignoring case).
const ENGLISH: &[&str] = &[
    "the",
    "move",
    "moves",
    "played",
    "check",
    "checkmate",
    "white",
    "black",
    "draw",
    "offers",
    "accept",
    "accepts",
    "decline",
    "declines",
    "resign",
    "resigns",
    "resigned",
    "wins",
    "challenge",
    "challenges",
    "game",
    "last",
    "turn",
    "you",
    "your",
    "not",
    "button",
    "sorry",
    "ply",
    "board",
    "vs",
    "did",
    "mean",
    "bishop",
    "knight",
    "reach",
    "begins",
    "plays",
    "expires",
    "goes",
    "even",
    "yes",
    "really",
    "cannot",
    "notations",
    "coordinates",
    "play",
];

/// Words only the Spanish bundle uses (not the piece names: the English /help explains the
/// Spanish letters with them).
const SPANISH: &[&str] = &[
    "jugada",
    "juega",
    "juegan",
    "blancas",
    "negras",
    "tablas",
    "jaque",
    "partida",
    "desafío",
    "desafía",
    "rival",
    "abandona",
    "rechaza",
    "acepta",
    "ganan",
    "última",
    "quisiste",
    "decir",
    "turno",
    "contra",
    "semijugada",
    "aceptar",
    "rechazar",
    "empieza",
    "caduca",
    "seguro",
    "abandono",
    "puede",
    "llegar",
    "ningún",
    "igualado",
    "notaciones",
    "continúa",
    "ofrece",
    "aceptas",
    "juegas",
    "esta",
];

/// Everything a reply shows: content, embeds, button labels and the board's alt text. The
/// opening's name is left out (the embed field's label kept; in a thread's summary, the
/// name between " · " and the thread's link): lichess's names stay English in every language,
/// as lichess shows them.
fn shown(r: &Recorded) -> String {
    let mut s: String = r
        .text()
        .lines()
        .map(|l| match l.split_once(": ") {
            Some((label @ ("Opening" | "Apertura"), _)) => label.to_owned(),
            _ => match (l.find(" · "), l.rfind(": <#")) {
                (Some(a), Some(b)) if a < b => format!("{}{}", &l[..a], &l[b..]),
                _ => l.to_owned(),
            },
        })
        .collect::<Vec<_>>()
        .join("\n");
    let m = r.message();
    for row in m["components"].as_array().cloned().unwrap_or_default() {
        for c in row["components"].as_array().cloned().unwrap_or_default() {
            if let Some(l) = c["label"].as_str() {
                s.push('\n');
                s.push_str(l);
            }
        }
    }
    for a in r.attachments() {
        if let Some(d) = a["description"].as_str() {
            s.push('\n');
            s.push_str(d);
        }
    }
    s
}

fn words(text: &str) -> HashSet<String> {
    text.split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

#[track_caller]
fn assert_none_of(replies: &[Recorded], forbidden: &[&str]) {
    assert!(replies.len() > 10, "{} replies", replies.len());
    for r in replies {
        let text = shown(r);
        assert!(!text.is_empty(), "an empty reply: {:?}", r.json);
        assert!(
            !text.contains('\u{2068}') && !text.contains('\u{2069}'),
            "isolation marks in {text:?}"
        );
        assert!(
            !text.contains("cmd-") && !text.contains("error-") && !text.contains("read-"),
            "{text}"
        );
        let found: Vec<&&str> = forbidden
            .iter()
            .filter(|w| words(&text).contains(**w))
            .collect();
        assert!(found.is_empty(), "{found:?} in:\n{text}");
    }
}

struct Moves {
    knight_out: &'static str,
    knight_back: &'static str,
    illegal: &'static str,
}

/// Plays a whole game with every interaction in `locale` and returns every reply.
async fn whole_game(w: &World, locale: &str, m: &Moves) -> Vec<Recorded> {
    let fake = &w.fake;
    let ch = w.channel();
    let click = |user: &FakeUser, msg: &Recorded, id: &str| {
        let payload = w.channel().click(fake, user, locale, msg, id);
        async move { fake.interact(&payload).await }
    };
    let mut out = Vec::new();

    out.push(w.cmd(&alice(), locale, "help", &[]).await);
    // A refusal before any game.
    let none = w.mv(&alice(), locale, "e4").await;
    assert!(none.is_ephemeral());
    out.push(none);

    let payload = ch.command(
        fake,
        &alice(),
        locale,
        "challenge",
        &[
            ("opponent", json!(bob().id.to_string())),
            ("colour", json!(WHITE)),
        ],
        &[&bob()],
    );
    let challenge = fake.interact(&payload).await;
    assert!(!challenge.is_ephemeral(), "{}", challenge.text());
    let ids = challenge.custom_ids();
    assert_eq!(ids.len(), 2, "Accept and Decline");
    let from = fake.request_count();
    let accepted = click(&bob(), &challenge, &ids[0]).await;
    // The game's thread opens on the challenge message and gets the first board.
    let thread = challenge.message_id.unwrap();
    let first = fake.post_to(thread, from).await;
    assert_public_board(&first);
    w.play_in(Channel::thread(thread, ch.id));
    out.push(challenge);
    out.push(accepted);
    out.push(first);

    for (user, text) in [
        (alice(), "e4"),
        (bob(), "e5"),
        (alice(), m.knight_out),
        (bob(), m.knight_back),
    ] {
        let r = w.mv(&user, locale, text).await;
        assert_public_board(&r);
        out.push(r);
    }
    // An illegal move: an ephemeral explanation with suggestions.
    let illegal = w.mv(&alice(), locale, m.illegal).await;
    assert!(illegal.is_ephemeral(), "{}", illegal.text());
    assert!(
        illegal.text().contains('?'),
        "suggestions: {}",
        illegal.text()
    );
    out.push(illegal);
    // Not their game, not their turn.
    out.push(w.mv(&carol(), locale, "d4").await);
    out.push(w.mv(&bob(), locale, "d5").await);

    // A draw offer, declined with its button.
    let offer = w
        .cmd(&alice(), locale, "draw", &[("action", json!(OFFER))])
        .await;
    assert_public_board(&offer);
    let ids = offer.custom_ids();
    assert_eq!(ids.len(), 2, "{}", offer.text());
    let declined = click(&bob(), &offer, &ids[1]).await;
    out.push(offer);
    out.push(declined);

    out.push(w.cmd(&carol(), locale, "board", &[]).await);
    out.push(w.cmd(&carol(), locale, "history", &[]).await);

    // A resignation, confirmed with its button.
    let ask = w.cmd(&alice(), locale, "resign", &[]).await;
    assert!(ask.is_ephemeral());
    let ids = ask.custom_ids();
    let from = fake.request_count();
    let resigned = click(&alice(), &ask, &ids[0]).await;
    assert_public_board(&resigned);
    // The channel gets the one-line summary.
    out.push(fake.post_to(ch.id, from).await);
    out.push(ask);
    out.push(resigned);
    out.push(w.mv(&alice(), locale, "d4").await);
    out.push(w.cmd(&carol(), locale, "history", &[]).await);
    out.push(w.cmd(&carol(), locale, "pgn", &[]).await);
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_in_spanish_shows_no_english() {
    let w = World::start("es-game", vec![]).await;
    let replies = whole_game(
        &w,
        "es-ES",
        &Moves {
            knight_out: "Cf3",
            knight_back: "Cc6",
            illegal: "Ab6",
        },
    )
    .await;
    let all: Vec<String> = replies.iter().map(shown).collect();
    let joined = all.join("\n");
    for needle in [
        "juega **Cf3**",
        "Última jugada",
        "Ningún alfil puede llegar a b6",
        "¿Quisiste decir",
        "ofrece tablas",
        "rechaza las tablas",
        "abandona",
        "ganan las negras",
        "Juegan las blancas",
        "Apertura",
    ] {
        assert!(joined.contains(needle), "{needle:?} missing in:\n{joined}");
    }
    assert_none_of(&replies, ENGLISH);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_in_english_shows_no_spanish() {
    let w = World::start("en-game", vec![]).await;
    let replies = whole_game(
        &w,
        "en-US",
        &Moves {
            knight_out: "Nf3",
            knight_back: "Nc6",
            illegal: "Bb6",
        },
    )
    .await;
    let joined = replies.iter().map(shown).collect::<Vec<_>>().join("\n");
    for needle in [
        "played **Nf3**",
        "Last move",
        "No bishop can reach b6",
        "Did you mean",
    ] {
        assert!(joined.contains(needle), "{needle:?} missing in:\n{joined}");
    }
    assert_none_of(&replies, SPANISH);
}

/// Discord's rule for command and option names.
fn valid_name(s: &str) -> bool {
    let n = s.chars().count();
    (1..=32).contains(&n)
        && s.chars()
            .all(|c| c == '-' || c == '_' || c.is_alphanumeric())
        && s.to_lowercase() == s
}

fn localisations<'a>(v: &'a Value, key: &str, what: &str) -> Vec<&'a str> {
    ["es-ES", "es-419"]
        .iter()
        .map(|l| {
            v[key][l]
                .as_str()
                .unwrap_or_else(|| panic!("{what}: no {key} for {l}: {v}"))
        })
        .collect()
}

fn description_ok(s: &str) -> bool {
    (1..=100).contains(&s.chars().count())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registration_carries_valid_spanish_localisations() {
    let w = World::start("es-registration", vec![]).await;
    let put = w
        .fake
        .wait_request("command registration", 0, |r| {
            r.method == "PUT" && r.path == format!("/applications/{APP_ID}/commands")
        })
        .await;
    let commands = put.json.as_ref().unwrap().as_array().unwrap().clone();
    assert!(commands.len() >= 12);
    let mut command_names = HashSet::new();
    for c in &commands {
        let what = c["name"].as_str().unwrap().to_owned();
        for name in localisations(c, "name_localizations", &what) {
            assert!(valid_name(name), "{what}: {name:?}");
            command_names.insert(name.to_owned());
        }
        for d in localisations(c, "description_localizations", &what) {
            assert!(description_ok(d), "{what}: {d:?}");
        }
        assert!(description_ok(c["description"].as_str().unwrap()), "{c}");
        let mut option_names = HashSet::new();
        for o in c["options"].as_array().cloned().unwrap_or_default() {
            let what = format!("{what} {}", o["name"].as_str().unwrap());
            let es = localisations(&o, "name_localizations", &what);
            for name in &es {
                assert!(valid_name(name), "{what}: {name:?}");
            }
            assert!(
                option_names.insert(es[0].to_owned()),
                "{what}: duplicate option name"
            );
            for d in localisations(&o, "description_localizations", &what) {
                assert!(description_ok(d), "{what}: {d:?}");
            }
            let mut choice_names = HashSet::new();
            for ch in o["choices"].as_array().cloned().unwrap_or_default() {
                let what = format!("{what} {}", ch["name"]);
                for name in localisations(&ch, "name_localizations", &what) {
                    assert!(description_ok(name), "{what}: {name:?}");
                }
                assert!(choice_names.insert(ch["name_localizations"]["es-ES"].clone()));
            }
        }
    }
    // Unique among the commands, each Spanish name once per locale.
    assert_eq!(command_names.len(), commands.len(), "{command_names:?}");
    for name in ["desafiar", "jugada", "rendirse", "tablas", "tablero"] {
        assert!(command_names.contains(name), "{name}");
    }
}
