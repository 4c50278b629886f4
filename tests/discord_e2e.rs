//! End-to-end tests: the real `cajitas` binary against the fake Discord in `support/`.

mod support;

use serde_json::json;
use support::fake_discord::{APP_ID, Channel, FakeUser};
use support::world::{OFFER, WHITE, World, alice, assert_public_board, assert_refused, bob, carol};

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
    let log = w.bot().log_text();
    assert!(
        log.contains(&format!(
            "https://discord.com/oauth2/authorize?client_id={APP_ID}&permissions=309237763072&scope=bot%20applications.commands"
        )),
        "{log}"
    );
    assert!(!log.contains("fake00"), "the token must never be logged");
    assert!(
        fake.unknown_requests().is_empty(),
        "{:?}",
        fake.unknown_requests()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_to_checkmate_in_mixed_notations() {
    let w = World::start("mate", vec![]).await;
    let fake = &w.fake;

    let payload = w.channel().command(
        fake,
        &alice(),
        "en-US",
        "challenge",
        &[
            ("opponent", json!(bob().id.to_string())),
            ("colour", json!(WHITE)),
        ],
        &[&bob()],
    );
    let challenge = fake.interact(&payload).await;
    assert!(
        challenge.content().contains(&bob().mention()),
        "{}",
        challenge.text()
    );
    let ids = challenge.custom_ids();
    assert_eq!(ids.len(), 2, "Accept and Decline: {ids:?}");

    // carol may not accept a challenge addressed to bob.
    let refused = w.click(&carol(), &challenge, &ids[0]).await;
    assert_refused(&refused, "not addressed to you");

    // bob accepts with the button: the game's thread opens on the challenge message, which
    // links to it, and the thread gets the first board.
    let from = fake.request_count();
    let accepted = w.click(&bob(), &challenge, &ids[0]).await;
    assert_eq!(accepted.callback_type(), Some(7), "{:?}", accepted.json);
    assert!(accepted.custom_ids().is_empty(), "the buttons are gone");
    assert!(accepted.text().contains(&alice().mention()));
    let thread = challenge.message_id.unwrap();
    assert!(
        accepted.text().contains(&format!("<#{thread}>")),
        "{}",
        accepted.text()
    );
    assert_public_board(&fake.post_to(thread, from).await);

    // Pressing Accept again: the challenge is gone.
    let again = w.click(&bob(), &challenge, &ids[0]).await;
    assert!(again.is_ephemeral(), "{}", again.text());
    w.play_in(support::fake_discord::Channel::thread(
        thread,
        w.parent().id,
    ));

    // Scholar's mate in SAN, coordinates, Spanish letters (es-ES) and lower case. Each move
    // is announced in the mover's language (the server setting is `auto`): Spanish letters
    // for es-ES and es-419; the PGN below shows what was played.
    let moves = [
        (alice(), "en-US", "e4", "e4"),
        (bob(), "en-US", "e7e5", "e5"),
        (alice(), "es-ES", "Ac4", "Ac4"),
        (bob(), "en-US", "nc6", "Nc6"),
        (alice(), "es-419", "Dh5", "Dh5"),
        (bob(), "en-US", "g8f6", "Nf6"),
        (alice(), "en-US", "Qxf7#", "Qxf7#"),
    ];
    let mut last = None;
    for (i, (user, locale, text, san)) in moves.iter().enumerate() {
        let r = w.mv(user, locale, text).await;
        assert_eq!(r.callback_type(), Some(4), "move {i} {text}: {}", r.text());
        assert_public_board(&r);
        assert!(
            r.text().contains(san),
            "move {text} shows {san}: {}",
            r.text()
        );
        // The opening under the board, its label in the mover's language, the name in English.
        let opening = match i {
            0 => "King's Pawn Game",
            1 => "C20 King's Pawn Game",
            _ => "C23 Bishop's Opening",
        };
        let label = if locale.starts_with("es") {
            "Apertura"
        } else {
            "Opening"
        };
        assert!(
            r.text().contains(opening) && r.text().contains(label),
            "move {text}: {}",
            r.text()
        );
        last = Some(r);
    }
    let last = last.unwrap();
    let text = last.text();
    assert!(text.contains("Checkmate"), "{text}");
    assert!(
        text.contains(&format!("{} (white) wins", alice().mention())),
        "{text}"
    );
    // The final message links to lichess's analysis board, the moves in English SAN.
    let analysis = "https://lichess.org/analysis/pgn/e4_e5_Bc4_Nc6_Qh5_Nf6_Qxf7%23";
    assert_eq!(last.link_urls(), [analysis], "{:?}", last.json);

    // /pgn attaches the game; the rules crate reads it back to the same position and result.
    let pgn = w.cmd(&carol(), "en-US", "pgn", &[]).await;
    assert!(
        pgn.content().contains("lichess.org/paste"),
        "{}",
        pgn.text()
    );
    assert_eq!(pgn.link_urls(), [analysis], "{:?}", pgn.json);
    let file = pgn.file("game.pgn").expect("game.pgn attached");
    let text = String::from_utf8(file.data.clone()).unwrap();
    let read = cajitas_rules::pgn::read_game(&text, cajitas_rules::Lang::En).expect("valid PGN");
    let mut pos = cajitas_rules::Position::new();
    for san in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"] {
        let m = cajitas_rules::read_move(&pos, san, cajitas_rules::Lang::En).unwrap();
        pos.play(m);
    }
    assert_eq!(read.game.position().fen(), pos.fen(), "{text}");
    assert_eq!(
        read.outcome(),
        Some(cajitas_rules::Outcome::Decisive {
            winner: cajitas_rules::Color::White,
            reason: cajitas_rules::WinReason::Checkmate
        }),
        "{text}"
    );
    assert_eq!(read.tag("Result"), Some("1-0"), "{text}");
    assert_eq!(read.tag("ECO"), Some("C23"), "{text}");
    assert_eq!(read.tag("Opening"), Some("Bishop's Opening"), "{text}");

    // After the game: a move is refused.
    let after = w.mv(&bob(), "en-US", "e5e4").await;
    assert_refused(&after, "over");
    assert!(
        fake.unknown_requests().is_empty(),
        "{:?}",
        fake.unknown_requests()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autocomplete_offers_legal_moves_only_to_the_player_to_move() {
    let w = World::start("autocomplete", vec![]).await;
    let fake = &w.fake;
    w.start_game().await;

    let ac = |user: &FakeUser, locale: &str, partial: &str| {
        w.channel()
            .autocomplete(fake, user, locale, "move", "move", partial)
    };
    // Labels in the reader's notation; values in coordinates, read the same in any language.
    let r = fake.interact(&ac(&alice(), "en-US", "N")).await;
    assert_eq!(r.callback_type(), Some(8));
    let names: Vec<String> = r.choices().into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["Na3", "Nc3", "Nf3", "Nh3"]);
    let values: Vec<String> = r.choices().into_iter().map(|(_, v)| v).collect();
    assert_eq!(values, ["b1a3", "b1c3", "g1f3", "g1h3"]);

    let r = fake.interact(&ac(&alice(), "en-US", "")).await;
    assert_eq!(r.choices().len(), 20);
    assert!(r.choices().len() <= 25);

    // Coordinates and Spanish letters match too.
    let r = fake.interact(&ac(&alice(), "en-US", "g1")).await;
    let names: Vec<String> = r.choices().into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["Nf3", "Nh3"]);
    let r = fake.interact(&ac(&alice(), "es-ES", "C")).await;
    let names: Vec<String> = r.choices().into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["Ca3", "Cc3", "Cf3", "Ch3"]);
    let values: Vec<String> = r.choices().into_iter().map(|(_, v)| v).collect();
    assert_eq!(values, ["b1a3", "b1c3", "g1f3", "g1h3"]);

    // bob is not to move, carol is not playing: nothing.
    for user in [bob(), carol()] {
        let r = fake.interact(&ac(&user, "en-US", "")).await;
        assert_eq!(r.callback_type(), Some(8));
        assert!(r.choices().is_empty(), "{:?}", r.choices());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_are_ephemeral() {
    let w = World::start("refusals", vec![]).await;
    // No game yet.
    assert_refused(&w.mv(&alice(), "en-US", "e4").await, "no game");
    w.start_game().await;

    assert_refused(&w.mv(&carol(), "en-US", "e4").await, "not playing");
    assert_refused(
        &w.cmd(&carol(), "en-US", "resign", &[]).await,
        "not playing",
    );
    assert_refused(&w.mv(&bob(), "en-US", "e5").await, "not your turn");
    let malformed = w.mv(&alice(), "en-US", "hello").await;
    assert!(malformed.is_ephemeral(), "{}", malformed.text());
    let illegal = w.mv(&alice(), "en-US", "e5").await;
    assert!(illegal.is_ephemeral(), "{}", illegal.text());
    assert!(
        illegal.text().contains("e4") || illegal.text().contains("e3"),
        "suggestions: {}",
        illegal.text()
    );
    // Nothing was played: alice can still play e4.
    assert_public_board(&w.mv(&alice(), "en-US", "e4").await);

    // A stale draw button: offered at one ply, answered after a move.
    let offer = w
        .cmd(&bob(), "en-US", "draw", &[("action", json!(OFFER))])
        .await;
    assert_public_board(&offer);
    let accept_id = offer.custom_ids()[0].clone();
    // The offer stands while bob moves, and lapses when alice moves instead of answering.
    assert_public_board(&w.mv(&bob(), "en-US", "e5").await);
    assert_public_board(&w.mv(&alice(), "en-US", "Nf3").await);
    let stale = w.click(&alice(), &offer, &accept_id).await;
    assert_refused(&stale, "expired");
    assert!(w.fake.unknown_requests().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draws_resignation_and_abort() {
    let w = World::start("endings", vec![]).await;
    w.start_game().await;
    // abort before the second move
    assert_public_board(&w.mv(&alice(), "en-US", "d4").await);
    let aborted = w.cmd(&bob(), "en-US", "abort", &[]).await;
    assert_public_board(&aborted);
    assert!(aborted.text().contains("aborted"), "{}", aborted.text());

    // a draw offer declined with its button, then one accepted: drawn.
    w.start_game().await;
    assert_public_board(&w.mv(&alice(), "en-US", "e4").await);
    assert_public_board(&w.mv(&bob(), "en-US", "e5").await);
    let offer = w
        .cmd(&alice(), "en-US", "draw", &[("action", json!(OFFER))])
        .await;
    let ids = offer.custom_ids();
    // The offerer cannot answer their own offer.
    assert!(w.click(&alice(), &offer, &ids[0]).await.is_ephemeral());
    let declined = w.click(&bob(), &offer, &ids[1]).await;
    assert_eq!(declined.callback_type(), Some(7));
    assert!(declined.text().contains("goes on"), "{}", declined.text());
    assert_public_board(&w.mv(&alice(), "en-US", "Nf3").await);
    let offer = w
        .cmd(&bob(), "en-US", "draw", &[("action", json!(OFFER))])
        .await;
    let accepted = w.click(&alice(), &offer, &offer.custom_ids()[0]).await;
    assert_public_board(&accepted);
    assert!(
        accepted.text().contains("Draw by agreement"),
        "{}",
        accepted.text()
    );

    // resignation with confirmation
    w.start_game().await;
    assert_public_board(&w.mv(&alice(), "en-US", "e4").await);
    let ask = w.cmd(&bob(), "en-US", "resign", &[]).await;
    assert!(ask.is_ephemeral());
    let confirm = ask.custom_ids();
    assert_eq!(confirm.len(), 1);
    // only bob's button
    assert_refused(
        &w.click(&alice(), &ask, &confirm[0]).await,
        "player who asked",
    );
    let resigned = w.click(&bob(), &ask, &confirm[0]).await;
    assert_eq!(resigned.callback_type(), Some(4));
    assert_public_board(&resigned);
    assert!(resigned.text().contains("resigned"), "{}", resigned.text());
    assert!(resigned.text().contains("1-0"), "{}", resigned.text());

    // /board shows the last game, /history lists the finished ones.
    assert_public_board(&w.cmd(&carol(), "en-US", "board", &[]).await);
    let hist = w.cmd(&carol(), "en-US", "history", &[]).await;
    let text = hist.text();
    assert!(text.contains("1/2-1/2") && text.contains("1-0"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_accepted_and_one_refused_as_stale() {
    let w = World::start("takeback", vec![]).await;
    // Takebacks are refused in rated games: a casual one.
    w.start_game_with(&w.channel(), &alice(), &bob(), &[("rated", json!(false))])
        .await;
    assert_public_board(&w.mv(&alice(), "en-US", "e4").await);
    assert_public_board(&w.mv(&bob(), "en-US", "e5").await);
    assert_public_board(&w.mv(&alice(), "en-US", "Nf3").await);

    // alice asks before bob replied: one ply. The request shows the board and two buttons.
    let ask = w.cmd(&alice(), "en-US", "takeback", &[]).await;
    assert_public_board(&ask);
    assert!(ask.text().contains(&bob().mention()), "{}", ask.text());
    assert!(ask.text().contains("their last move"), "{}", ask.text());
    let ids = ask.custom_ids();
    assert_eq!(ids.len(), 2, "Accept and Decline: {ids:?}");
    // The requester cannot answer their own request; a bystander is not a player.
    assert!(w.click(&alice(), &ask, &ids[0]).await.is_ephemeral());
    assert!(w.click(&carol(), &ask, &ids[0]).await.is_ephemeral());
    let accepted = w.click(&bob(), &ask, &ids[0]).await;
    assert_eq!(accepted.callback_type(), Some(7), "{:?}", accepted.json);
    assert_public_board(&accepted);
    assert!(accepted.custom_ids().is_empty(), "the buttons are gone");
    assert!(
        accepted.text().contains("one move taken back"),
        "{}",
        accepted.text()
    );
    // Pressing Accept again: the request is gone.
    assert_refused(&w.click(&bob(), &ask, &ids[0]).await, "expired");
    // White is to move again, at ply 2: Nc3 instead of Nf3.
    assert_public_board(&w.mv(&alice(), "en-US", "Nc3").await);

    // bob asks after alice replied to his last move (e5): two plies. Then
    // bob moves on instead, so the request is stale: its button is refused, the game
    // untouched.
    let ask = w.cmd(&bob(), "en-US", "takeback", &[]).await;
    assert!(
        ask.text().contains("their last move and the reply"),
        "{}",
        ask.text()
    );
    let ids = ask.custom_ids();
    assert_public_board(&w.mv(&bob(), "en-US", "Nc6").await);
    let stale = w.click(&alice(), &ask, &ids[0]).await;
    assert_refused(&stale, "expired");
    let board = w.cmd(&carol(), "en-US", "board", &[]).await;
    assert!(board.text().contains("Nc6"), "{}", board.text());
    let pgn = w.cmd(&carol(), "en-US", "pgn", &[]).await;
    let text = String::from_utf8(pgn.file("game.pgn").unwrap().data.clone()).unwrap();
    assert!(text.contains("1. e4 e5 2. Nc3 Nc6"), "{text}");
    assert!(w.fake.unknown_requests().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chess960_game_to_mate_with_a_castling_and_its_pgn_replayed() {
    let w = World::start("chess960", vec![]).await;
    let fake = &w.fake;
    let payload = w.channel().command(
        fake,
        &alice(),
        "en-US",
        "challenge",
        &[
            ("opponent", json!(bob().id.to_string())),
            ("colour", json!(WHITE)),
            ("variant", json!(1)),
            ("position", json!(100)),
        ],
        &[&bob()],
    );
    let challenge = fake.interact(&payload).await;
    assert!(
        challenge.text().contains("Chess960 #100"),
        "{}",
        challenge.text()
    );
    let ids = challenge.custom_ids();
    let accepted = w.click(&bob(), &challenge, &ids[0]).await;
    assert_eq!(accepted.callback_type(), Some(7), "{:?}", accepted.json);
    let thread = challenge.message_id.unwrap();
    w.play_in(support::fake_discord::Channel::thread(
        thread,
        w.parent().id,
    ));
    // Chess960 #100 (qbbnrnkr): White castles short with the king staying on g1, typed as
    // the king onto its own rook; Black's O-O is refused (a knight on f8); Black mates.
    let moves = [
        (alice(), "c3", "c3"),
        (bob(), "b6", "b6"),
        (alice(), "Ng3", "Ng3"),
        (bob(), "Qd5", "Qd5"),
        (alice(), "g1h1", "O-O"),
        (bob(), "Bb7", "Bb7"),
        (alice(), "d4", "d4"),
        (bob(), "Qxg2#", "Qxg2#"),
    ];
    let mut last = None;
    for (i, (user, text, san)) in moves.iter().enumerate() {
        if i == 5 {
            let refused = w.mv(&bob(), "en-US", "O-O").await;
            assert!(refused.is_ephemeral(), "{}", refused.text());
        }
        let r = w.mv(user, "en-US", text).await;
        assert_eq!(r.callback_type(), Some(4), "move {i} {text}: {}", r.text());
        assert_public_board(&r);
        assert!(r.text().contains(san), "{text} shows {san}: {}", r.text());
        assert!(r.text().contains("Chess960 #100"), "{}", r.text());
        assert!(!r.text().contains("Opening"), "no opening: {}", r.text());
        last = Some(r);
    }
    let last = last.unwrap();
    assert!(last.text().contains("Checkmate"), "{}", last.text());
    let analysis = "https://lichess.org/analysis/chess960/1b1nrnkr/pbpppppp/1p6/8/3P4/2P3N1/PP2PPqP/QBBNRRK1_w_kq_-_0_5";
    assert_eq!(last.link_urls(), [analysis], "{:?}", last.json);
    // /board in Spanish names the variant too.
    let board = w.cmd(&carol(), "es-ES", "board", &[]).await;
    assert!(
        board.text().contains("Chess960 n.º 100"),
        "{}",
        board.text()
    );

    // /pgn: the Variant, SetUp and FEN tags, and `cajitas replay` reads it back to the mate.
    let pgn = w.cmd(&carol(), "en-US", "pgn", &[]).await;
    let file = pgn.file("game.pgn").expect("game.pgn attached");
    let text = String::from_utf8(file.data.clone()).unwrap();
    assert!(text.contains("[Variant \"Chess960\"]"), "{text}");
    assert!(
        text.contains("[FEN \"qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w KQkq - 0 1\"]"),
        "{text}"
    );
    let out = support::replay::replay(&[], text.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let lines = support::replay::lines(&out);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["status"], "checkmate", "{}", lines[0]);
    assert_eq!(lines[0]["winner"], "black");
    assert_eq!(lines[0]["plies"], 8);
    assert_eq!(
        lines[0]["fen"],
        "1b1nrnkr/pbpppppp/1p6/8/3P4/2P3N1/PP2PPqP/QBBNRRK1 w kq - 0 5"
    );
    assert!(
        fake.unknown_requests().is_empty(),
        "{:?}",
        fake.unknown_requests()
    );
}
