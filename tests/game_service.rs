//! The game service end to end: every ending, every refusal, persistence across a reopen, and
//! racing moves. All through the public API, on real databases: this file runs on SQLite files
//! (WAL + FULL), and `tests/game_service_postgres.rs` runs the same tests on a real PostgreSQL
//! server (the backend follows the test binary's name, see `support::db`).

mod support;

use std::sync::{Arc, Barrier, Mutex};
use std::time::Duration;

use cajitas::console::status_line;
use cajitas::game::tournament::roundrobin::Withdrawal;
use cajitas::game::{
    ChallengeState, ChannelRef, ColourChoice, GameError, GameService, Lang, ManualClock,
    RoundRobinTerms, ServiceOptions, UserRef,
};
use cajitas::store::TournamentStatus;
use cajitas_rules::{Color, DrawClaim, DrawReason, Outcome, Position, Uci, WinReason};

use support::db::{Backend, TestDb};

/// The backend of this test binary.
fn backend() -> Backend {
    Backend::of_target(env!("CARGO_CRATE_NAME"))
}

/// A test's own database (a SQLite file, or a PostgreSQL database), removed on drop.
fn temp_db(tag: &str) -> TestDb {
    TestDb::new(backend(), tag)
}

/// A service on its own temporary database, removed when the test is done with it.
struct Svc {
    svc: GameService,
    _db: TestDb,
}

impl std::ops::Deref for Svc {
    type Target = GameService;
    fn deref(&self) -> &GameService {
        &self.svc
    }
}

fn service(tag: &str) -> Svc {
    open_service(tag, ServiceOptions::default())
}

fn open_service(tag: &str, opts: ServiceOptions) -> Svc {
    let db = temp_db(tag);
    Svc {
        svc: db.open(opts),
        _db: db,
    }
}

fn alice() -> UserRef {
    UserRef::new(1, "alice", false)
}
fn bob() -> UserRef {
    UserRef::new(2, "bob", false)
}
fn carol() -> UserRef {
    UserRef::new(3, "carol", false)
}
fn robot() -> UserRef {
    UserRef::new(4, "robot", true)
}

const CH: ChannelRef = ChannelRef {
    guild: Some(10),
    channel: 100,
};

/// Alice (white) against Bob (black) in `CH`, through a challenge: a casual game, so that
/// takebacks are allowed (ratings have their own tests, `tests/ratings.rs`).
fn new_game(svc: &GameService) -> i64 {
    svc.challenges()
        .challenge_rated(&alice(), CH, Some(&bob()), ColourChoice::White, false)
        .unwrap();
    let v = svc.challenges().accept(&bob(), CH).unwrap();
    assert_eq!(v.white, alice());
    assert_eq!(v.black, bob());
    v.game_id
}

/// Plays `moves` alternately (the player to move plays each).
fn play(svc: &GameService, moves: &[&str]) -> cajitas::game::MoveResult {
    let mut last = None;
    for m in moves {
        let v = svc.queries().board(CH).unwrap();
        let who = v.player_to_move().clone();
        last = Some(
            svc.play()
                .play_move(&who, CH, m, Lang::En, false)
                .unwrap_or_else(|e| panic!("{m}: {e}")),
        );
    }
    last.expect("at least one move")
}

fn set_position(svc: &GameService, fen: &str) -> i64 {
    let pos = Position::from_fen(fen).unwrap();
    svc.challenges()
        .start_game(&alice(), &bob(), CH, &pos)
        .unwrap()
        .game_id
}

const SHUFFLE: [&str; 4] = ["Nf3", "Nf6", "Ng1", "Ng8"];

// ---- endings --------------------------------------------------------------------------

#[test]
fn checkmate() {
    let svc = service("mate");
    new_game(&svc);
    let r = play(&svc, &["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(r.san, "Qh4#");
    let v = r.view;
    assert_eq!(
        v.outcome,
        Some(Outcome::Decisive {
            winner: Color::Black,
            reason: WinReason::Checkmate
        })
    );
    assert!(v.finished && !v.aborted && v.check);
    assert_eq!(v.result, "0-1");
    assert_eq!(v.ply, 4);
    assert!(status_line(&v).contains("bob wins"), "{}", status_line(&v));
    let h = svc.queries().history(CH, 10).unwrap();
    assert_eq!(h.len(), 1);
    assert_eq!(h[0].termination, "checkmate");
    assert_eq!(h[0].result, "0-1");
    let pgn = svc.queries().pgn(CH).unwrap();
    for needle in [
        "[White \"alice\"]",
        "[Black \"bob\"]",
        "[Result \"0-1\"]",
        "Termination",
        "Qh4#",
    ] {
        assert!(pgn.contains(needle), "{needle} missing in\n{pgn}");
    }
    // The board of a finished game is still shown.
    assert_eq!(svc.queries().board(CH).unwrap().outcome, v.outcome);
}

#[test]
fn stalemate() {
    let svc = service("stalemate");
    new_game(&svc);
    // Sam Loyd's ten-move stalemate.
    let line = [
        "e3", "a5", "Qh5", "Ra6", "Qxa5", "h5", "h4", "Rah6", "Qxc7", "f6", "Qxd7+", "Kf7", "Qxb7",
        "Qd3", "Qxb8", "Qh7", "Qxc8", "Kg6", "Qe6",
    ];
    let v = play(&svc, &line).view;
    assert_eq!(
        v.outcome,
        Some(Outcome::Draw {
            reason: DrawReason::Stalemate
        })
    );
    assert_eq!(v.result, "1/2-1/2");
}

#[test]
fn dead_position() {
    let svc = service("dead");
    set_position(&svc, "8/8/8/8/2k5/8/1r6/K7 w - - 0 1");
    let v = play(&svc, &["Kxb2"]).view;
    assert_eq!(
        v.outcome,
        Some(Outcome::Draw {
            reason: DrawReason::DeadPosition
        })
    );
    assert_eq!(v.material, 0);
}

#[test]
fn threefold_claim_now() {
    let svc = service("3fold-now");
    new_game(&svc);
    play(&svc, &SHUFFLE);
    // Twice is not enough.
    assert!(matches!(
        svc.play().draw_claim(&alice(), CH),
        Err(GameError::NothingToClaim)
    ));
    let v = play(&svc, &SHUFFLE[..3]).view;
    assert!(v.claimable_now.is_empty());
    assert_eq!(v.claimable, vec![DrawClaim::ThreefoldRepetition]);
    assert!(
        status_line(&v).contains("with a move"),
        "{}",
        status_line(&v)
    );
    let v = play(&svc, &SHUFFLE[3..]).view;
    assert_eq!(v.claimable_now, vec![DrawClaim::ThreefoldRepetition]);
    assert!(
        status_line(&v).contains("may claim a draw now"),
        "{}",
        status_line(&v)
    );
    // Only the player to move claims.
    assert!(matches!(
        svc.play().draw_claim(&bob(), CH),
        Err(GameError::ClaimNotYourTurn)
    ));
    let v = svc.play().draw_claim(&alice(), CH).unwrap().view;
    assert_eq!(
        v.outcome,
        Some(Outcome::Draw {
            reason: DrawReason::ThreefoldClaim
        })
    );
    assert_eq!(
        svc.queries().history(CH, 5).unwrap()[0].termination,
        "threefold-repetition"
    );
}

#[test]
fn threefold_claim_with_a_move() {
    let svc = service("3fold-move");
    let id = new_game(&svc);
    play(&svc, &SHUFFLE);
    play(&svc, &SHUFFLE[..3]);
    // Black's Ng8 would repeat the start position a third time: claim with it.
    let r = svc
        .play()
        .play_move(&bob(), CH, "Ng8", Lang::En, true)
        .unwrap();
    assert_eq!(r.claimed, Some(DrawClaim::ThreefoldRepetition));
    assert_eq!(r.san, "Ng8");
    assert_eq!(
        r.view.outcome,
        Some(Outcome::Draw {
            reason: DrawReason::ThreefoldClaim
        })
    );
    // The move is written with the claim, not played.
    assert_eq!(r.view.ply, 7);
    assert_eq!(svc.queries().moves_uci(id).unwrap().len(), 7);
}

#[test]
fn fifty_move_claims() {
    // With the move: White's quiet move makes the 100th half-move.
    let svc = service("fifty");
    set_position(&svc, "4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    // A pawn-less quiet move with `claim`, but first a move that would not qualify: a capture
    // is impossible here, so try the claim in a position where nothing qualifies later.
    let r = svc
        .play()
        .play_move(&alice(), CH, "Ra2", Lang::En, true)
        .unwrap();
    assert_eq!(r.claimed, Some(DrawClaim::FiftyMoves));
    assert_eq!(r.view.ply, 0);
    assert_eq!(
        r.view.outcome,
        Some(Outcome::Draw {
            reason: DrawReason::FiftyMoveClaim
        })
    );

    // Now: the move is played without a claim, then Black claims.
    let svc = service("fifty-now");
    set_position(&svc, "4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    let v = play(&svc, &["Ra2"]).view;
    assert!(v.outcome.is_none());
    assert_eq!(v.claimable_now, vec![DrawClaim::FiftyMoves]);
    let v = svc.play().draw_claim(&bob(), CH).unwrap().view;
    assert_eq!(
        v.outcome,
        Some(Outcome::Draw {
            reason: DrawReason::FiftyMoveClaim
        })
    );
    assert_eq!(
        svc.queries().history(CH, 1).unwrap()[0].termination,
        "fifty-moves"
    );
}

#[test]
fn a_claim_that_does_not_qualify_changes_nothing() {
    let svc = service("bad-claim");
    new_game(&svc);
    let e = svc
        .play()
        .play_move(&alice(), CH, "e4", Lang::En, true)
        .unwrap_err();
    assert!(
        matches!(e, GameError::NothingToClaimWith(ref s) if s == "e4"),
        "{e}"
    );
    assert!(e.to_string().contains("not played"));
    let v = svc.queries().board(CH).unwrap();
    assert_eq!(v.ply, 0);
    assert!(v.outcome.is_none());
}

#[test]
fn fivefold_repetition_ends_the_game() {
    let svc = service("5fold");
    new_game(&svc);
    for _ in 0..3 {
        let v = play(&svc, &SHUFFLE).view;
        assert!(v.outcome.is_none());
    }
    let v = play(&svc, &SHUFFLE).view;
    assert_eq!(v.ply, 16);
    assert_eq!(
        v.outcome,
        Some(Outcome::Draw {
            reason: DrawReason::Fivefold
        })
    );
    assert!(matches!(
        svc.play().play_move(&alice(), CH, "Nf3", Lang::En, false),
        Err(GameError::GameOver)
    ));
}

#[test]
fn seventy_five_moves_end_the_game() {
    let svc = service("75");
    set_position(&svc, "4k3/8/8/8/8/8/8/R3K3 w - - 149 100");
    let v = play(&svc, &["Ra2"]).view;
    assert_eq!(
        v.outcome,
        Some(Outcome::Draw {
            reason: DrawReason::SeventyFiveMoves
        })
    );
}

#[test]
fn draw_by_agreement_and_the_life_of_an_offer() {
    let svc = service("agree");
    new_game(&svc);
    assert!(matches!(
        svc.play().draw_accept(&bob(), CH, None),
        Err(GameError::NoDrawOffer)
    ));
    let v = svc.play().draw_offer(&alice(), CH, None).unwrap().view;
    assert_eq!(v.draw_offer_by, Some(Color::White));
    assert!(matches!(
        svc.play().draw_offer(&alice(), CH, None),
        Err(GameError::DrawAlreadyOffered)
    ));
    assert!(matches!(
        svc.play().draw_accept(&alice(), CH, None),
        Err(GameError::OwnDrawOffer)
    ));
    assert!(matches!(
        svc.play().draw_accept(&carol(), CH, None),
        Err(GameError::NotAPlayer)
    ));
    // The offer stands while its maker moves ...
    let v = play(&svc, &["e4"]).view;
    assert_eq!(v.draw_offer_by, Some(Color::White));
    // ... and lapses when the opponent moves instead of answering.
    let v = play(&svc, &["e5"]).view;
    assert_eq!(v.draw_offer_by, None);
    // Decline keeps the game going.
    svc.play().draw_offer(&bob(), CH, None).unwrap();
    let v = svc.play().draw_decline(&alice(), CH, None).unwrap();
    assert_eq!(v.draw_offer_by, None);
    assert!(v.outcome.is_none());
    // A button from an older offer is stale.
    let v = svc.play().draw_offer(&alice(), CH, Some(2)).unwrap().view;
    assert_eq!(v.ply, 2);
    assert!(matches!(
        svc.play().draw_accept(&bob(), CH, Some(1)),
        Err(GameError::PositionChanged)
    ));
    let v = svc.play().draw_accept(&bob(), CH, Some(2)).unwrap().view;
    assert_eq!(
        v.outcome,
        Some(Outcome::Draw {
            reason: DrawReason::Agreement
        })
    );
    assert_eq!(v.draw_offer_by, None);
    assert_eq!(
        svc.queries().history(CH, 1).unwrap()[0].termination,
        "agreement"
    );
}

#[test]
fn a_counter_offer_is_an_agreement() {
    let svc = service("counter");
    new_game(&svc);
    svc.play().draw_offer(&alice(), CH, None).unwrap();
    let v = svc.play().draw_offer(&bob(), CH, None).unwrap().view;
    assert_eq!(
        v.outcome,
        Some(Outcome::Draw {
            reason: DrawReason::Agreement
        })
    );
}

#[test]
fn resignation() {
    let svc = service("resign");
    new_game(&svc);
    play(&svc, &["d4", "d5"]);
    assert!(matches!(
        svc.play().resign(&alice(), CH, Some(1)),
        Err(GameError::PositionChanged)
    ));
    assert!(matches!(
        svc.play().resign(&carol(), CH, None),
        Err(GameError::NotAPlayer)
    ));
    // Either player may resign, whoever is to move.
    let v = svc.play().resign(&bob(), CH, Some(2)).unwrap().view;
    assert_eq!(
        v.outcome,
        Some(Outcome::Decisive {
            winner: Color::White,
            reason: WinReason::Resignation
        })
    );
    assert_eq!(v.result, "1-0");
    let pgn = svc.queries().pgn(CH).unwrap();
    assert!(pgn.contains("1-0"), "{pgn}");
}

#[test]
fn abort_before_both_players_moved() {
    let svc = service("abort");
    new_game(&svc);
    let v = svc.play().abort(&bob(), CH).unwrap().view;
    assert!(v.aborted && v.finished);
    assert_eq!(v.outcome, None);
    assert_eq!(v.result, "*");
    // An aborted game is not in the history of finished games.
    assert!(svc.queries().history(CH, 10).unwrap().is_empty());
    assert!(svc.queries().pgn(CH).unwrap().contains("*"));

    // After White's first move, either player may still abort.
    new_game(&svc);
    play(&svc, &["e4"]);
    assert!(matches!(
        svc.play().abort(&carol(), CH),
        Err(GameError::NotAPlayer)
    ));
    assert!(svc.play().abort(&alice(), CH).unwrap().view.aborted);

    // Not once both have moved.
    new_game(&svc);
    play(&svc, &["e4", "e5"]);
    assert!(matches!(
        svc.play().abort(&alice(), CH),
        Err(GameError::AbortTooLate)
    ));
}

// ---- challenges -----------------------------------------------------------------------

#[test]
fn challenges_expire_and_are_replaced() {
    let clock = Arc::new(ManualClock::new(1_000_000));
    let opts = ServiceOptions {
        challenge_ttl: Duration::from_secs(60),
        ..ServiceOptions::with_clock(clock.clone())
    };
    let svc = open_service("expire", opts);
    let c = svc
        .challenges()
        .challenge(&alice(), CH, Some(&bob()), ColourChoice::Black)
        .unwrap();
    assert_eq!(c.expires_at - c.created_at, 60_000);
    assert_eq!(c.status, ChallengeState::Pending);
    clock.advance(Duration::from_millis(60_000));
    assert!(matches!(
        svc.challenges().accept(&bob(), CH),
        Err(GameError::ChallengeExpired)
    ));
    assert!(matches!(
        svc.challenges().decline(&bob(), CH),
        Err(GameError::ChallengeExpired)
    ));
    assert_eq!(
        svc.challenges()
            .pending_challenge(CH)
            .unwrap()
            .unwrap()
            .status,
        ChallengeState::Expired
    );
    // An expired challenge does not block a new one.
    let c2 = svc
        .challenges()
        .challenge(&carol(), CH, None, ColourChoice::Black)
        .unwrap();
    assert_ne!(c2.id, c.id);
    assert!(matches!(
        svc.challenges().accept_challenge(&bob(), CH, Some(c.id)),
        Err(GameError::ChallengeExpired)
    ));
    // The open challenge: Black for carol, so the acceptor is White.
    let v = svc
        .challenges()
        .accept_challenge(&bob(), CH, Some(c2.id))
        .unwrap();
    assert_eq!(v.white, bob());
    assert_eq!(v.black, carol());
}

#[test]
fn challenge_flow_and_its_refusals() {
    let svc = service("challenge");
    let other = ChannelRef {
        guild: Some(10),
        channel: 200,
    };
    assert!(matches!(
        svc.challenges().accept(&bob(), CH),
        Err(GameError::NoChallenge)
    ));
    assert!(matches!(
        svc.challenges().cancel(&bob(), CH),
        Err(GameError::NoChallenge)
    ));
    assert!(matches!(
        svc.challenges()
            .challenge(&alice(), CH, Some(&alice()), ColourChoice::Random),
        Err(GameError::CannotChallengeSelf)
    ));
    assert!(matches!(
        svc.challenges()
            .challenge(&alice(), CH, Some(&robot()), ColourChoice::Random),
        Err(GameError::CannotChallengeBot)
    ));
    assert!(matches!(
        svc.challenges()
            .challenge(&robot(), CH, None, ColourChoice::Random),
        Err(GameError::BotCannotPlay)
    ));
    let c = svc
        .challenges()
        .challenge(&alice(), CH, Some(&bob()), ColourChoice::Random)
        .unwrap();
    assert_eq!(c.opponent, Some(bob()));
    assert!(matches!(
        svc.challenges()
            .challenge(&carol(), CH, None, ColourChoice::Random),
        Err(GameError::ChallengePending)
    ));
    assert!(matches!(
        svc.challenges().accept(&carol(), CH),
        Err(GameError::NotChallenged)
    ));
    assert!(matches!(
        svc.challenges().decline(&carol(), CH),
        Err(GameError::NotChallenged)
    ));
    assert!(matches!(
        svc.challenges().accept(&alice(), CH),
        Err(GameError::OwnChallenge)
    ));
    assert!(matches!(
        svc.challenges().cancel(&bob(), CH),
        Err(GameError::NotChallenger)
    ));
    let d = svc.challenges().decline(&bob(), CH).unwrap();
    assert_eq!(d.status, ChallengeState::Declined);
    assert!(matches!(
        svc.challenges().accept_challenge(&bob(), CH, Some(c.id)),
        Err(GameError::ChallengeClosed("declined"))
    ));
    // Cancel.
    svc.challenges()
        .challenge(&alice(), CH, None, ColourChoice::Random)
        .unwrap();
    assert_eq!(
        svc.challenges().cancel(&alice(), CH).unwrap().status,
        ChallengeState::Cancelled
    );
    // An open challenge: anyone but a bot or the challenger accepts.
    svc.challenges()
        .challenge(&alice(), CH, None, ColourChoice::White)
        .unwrap();
    assert!(matches!(
        svc.challenges().accept(&robot(), CH),
        Err(GameError::BotCannotPlay)
    ));
    let v = svc.challenges().accept(&carol(), CH).unwrap();
    assert_eq!((v.white.id, v.black.id), (1, 3));
    // One game per channel ...
    assert!(matches!(
        svc.challenges()
            .challenge(&bob(), CH, None, ColourChoice::Random),
        Err(GameError::GameInProgress)
    ));
    // ... but a user may play in several channels.
    svc.challenges()
        .challenge(&alice(), other, Some(&bob()), ColourChoice::Random)
        .unwrap();
    let v2 = svc.challenges().accept(&bob(), other).unwrap();
    assert_ne!(v2.game_id, v.game_id);
    assert!(matches!(
        svc.challenges()
            .start_game(&alice(), &bob(), CH, &Position::new()),
        Err(GameError::GameInProgress)
    ));
    // A random colour gives each side to someone.
    assert_ne!(v2.white, v2.black);
}

#[test]
fn move_refusals_change_nothing() {
    let svc = service("refusals");
    assert!(matches!(
        svc.play().play_move(&alice(), CH, "e4", Lang::En, false),
        Err(GameError::NoGame)
    ));
    assert!(matches!(svc.queries().board(CH), Err(GameError::NoGame)));
    assert!(matches!(svc.queries().pgn(CH), Err(GameError::NoGame)));
    assert!(matches!(
        svc.play().resign(&alice(), CH, None),
        Err(GameError::NoGame)
    ));
    assert!(matches!(
        svc.play().draw_offer(&alice(), CH, None),
        Err(GameError::NoGame)
    ));
    assert!(
        svc.queries()
            .legal_moves_for(&alice(), CH)
            .unwrap()
            .is_empty()
    );
    new_game(&svc);
    play(&svc, &["e4"]);
    let before = svc.queries().board(CH).unwrap();
    let refusals: Vec<(GameError, &str)> = vec![
        (
            svc.play()
                .play_move(&carol(), CH, "e5", Lang::En, false)
                .unwrap_err(),
            "not a player",
        ),
        (
            svc.play()
                .play_move(&alice(), CH, "d4", Lang::En, false)
                .unwrap_err(),
            "not your turn",
        ),
        (
            svc.play()
                .play_move_at(&bob(), CH, "e5", Lang::En, false, Some(0))
                .unwrap_err(),
            "stale",
        ),
        (
            svc.play()
                .play_move(&bob(), CH, "Ke5", Lang::En, false)
                .unwrap_err(),
            "illegal",
        ),
        (
            svc.play()
                .play_move(&bob(), CH, "zz9", Lang::En, false)
                .unwrap_err(),
            "malformed",
        ),
        (
            svc.play()
                .play_move(&bob(), CH, &"e".repeat(33), Lang::En, false)
                .unwrap_err(),
            "too long",
        ),
        (
            svc.play()
                .play_move(&bob(), CH, "  ", Lang::En, false)
                .unwrap_err(),
            "empty",
        ),
    ];
    let kinds: Vec<&str> = refusals
        .iter()
        .map(|(e, _)| match e {
            GameError::NotAPlayer => "not a player",
            GameError::NotYourTurn => "not your turn",
            GameError::PositionChanged => "stale",
            GameError::Move(r) if r.to_string().contains("Ke") || r.to_string().len() > 5 => {
                if matches!(r.kind, cajitas_rules::ReadErrorKind::Malformed { .. }) {
                    "malformed"
                } else {
                    "illegal"
                }
            }
            GameError::TooLong { max: 32, .. } => "too long",
            GameError::EmptyMove => "empty",
            _ => "other",
        })
        .collect();
    let expected: Vec<&str> = refusals.iter().map(|(_, k)| *k).collect();
    assert_eq!(kinds, expected, "{refusals:?}");
    let mut messages: Vec<String> = refusals.iter().map(|(e, _)| e.to_string()).collect();
    assert!(refusals.iter().all(|(e, _)| e.is_refusal()));
    messages.sort();
    messages.dedup();
    assert_eq!(
        messages.len(),
        refusals.len(),
        "each refusal has its own message"
    );
    // Exactly 32 characters is not "too long" (it is read, and refused as a move).
    assert!(matches!(
        svc.play()
            .play_move(&bob(), CH, &"e".repeat(32), Lang::En, false),
        Err(GameError::Move(_))
    ));
    let after = svc.queries().board(CH).unwrap();
    assert_eq!(after.ply, before.ply);
    assert_eq!(after.position, before.position);
    assert!(!GameError::Failed(cajitas::game::Failure::Vanished("x".into())).is_refusal());
}

#[test]
fn spanish_letters_and_legal_moves() {
    let svc = service("lang");
    new_game(&svc);
    assert!(
        svc.queries()
            .legal_moves_for(&bob(), CH)
            .unwrap()
            .is_empty()
    );
    let legal = svc.queries().legal_moves_for(&alice(), CH).unwrap();
    assert_eq!(legal.len(), 20);
    assert!(legal.contains(&"Nf3".to_owned()));
    let r = svc
        .play()
        .play_move(&alice(), CH, "Cf3", Lang::Es, false)
        .unwrap();
    assert_eq!(r.san, "Nf3");
    assert_eq!(r.view.last_san.as_deref(), Some("Nf3"));
    assert_eq!(r.view.to_move, Color::Black);
    assert_eq!(r.view.sans(), vec!["Nf3"]);
    let r = svc
        .play()
        .play_move(&bob(), CH, "e7e5", Lang::En, false)
        .unwrap();
    assert_eq!(r.san, "e5");
}

#[test]
fn material_balance() {
    let svc = service("material");
    new_game(&svc);
    let v = play(&svc, &["e4", "d5", "exd5"]).view;
    assert_eq!(v.material, 1);
    let v = play(&svc, &["Qxd5"]).view;
    assert_eq!(v.material, 0);
}

// ---- persistence and concurrency ----------------------------------------------------

#[test]
fn a_game_survives_closing_and_reopening_the_database() {
    let path = temp_db("reopen");
    let id = {
        let svc = path.open(ServiceOptions::default());
        let id = new_game(&svc);
        play(&svc, &["e4", "c5", "Nf3"]);
        svc.play().draw_offer(&alice(), CH, None).unwrap();
        id
    };
    let svc = path.open(ServiceOptions::default());
    let v = svc.queries().board(CH).unwrap();
    assert_eq!(v.game_id, id);
    assert_eq!(v.ply, 3);
    assert_eq!(v.draw_offer_by, Some(Color::White));
    assert_eq!(v.sans(), vec!["e4", "c5", "Nf3"]);
    assert_eq!(
        v.position.fen(),
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    let v = play(&svc, &["d6", "d4", "cxd4"]).view;
    assert_eq!(v.ply, 6);
    assert_eq!(
        svc.queries().moves_uci(id).unwrap(),
        ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4"]
    );
}

#[test]
fn racing_moves_for_the_same_ply_land_once() {
    let svc = service("race-one");
    new_game(&svc);
    let barrier = Arc::new(Barrier::new(32));
    let handles: Vec<_> = (0..32)
        .map(|i| {
            let svc = svc.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let text = ["e4", "d4", "c4", "Nf3"][i % 4];
                barrier.wait();
                if i % 2 == 0 {
                    svc.play()
                        .play_move_at(&alice(), CH, text, Lang::En, false, Some(0))
                } else {
                    svc.play().play_move(&alice(), CH, text, Lang::En, false)
                }
            })
        })
        .collect();
    let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let won: Vec<_> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
    assert_eq!(won.len(), 1);
    for r in &results {
        match r {
            Ok(_) => {}
            Err(GameError::PositionChanged) | Err(GameError::NotYourTurn) => {}
            Err(e) => panic!("unexpected {e}"),
        }
    }
    assert_eq!(svc.queries().board(CH).unwrap().ply, 1);
}

#[test]
fn thirty_two_threads_play_one_game() {
    let svc = service("race-game");
    let id = new_game(&svc);
    const PLIES: u32 = 40;
    let acknowledged = Arc::new(Mutex::new(Vec::<(u32, String)>::new()));
    let barrier = Arc::new(Barrier::new(32));
    let handles: Vec<_> = (0..32usize)
        .map(|i| {
            let svc = svc.clone();
            let acknowledged = acknowledged.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let (me, colour) = if i % 2 == 0 {
                    (alice(), Color::White)
                } else {
                    (bob(), Color::Black)
                };
                barrier.wait();
                let mut lost = 0u32;
                loop {
                    let v = svc.queries().board(CH).unwrap();
                    if v.finished || v.ply >= PLIES {
                        return lost;
                    }
                    if v.to_move != colour {
                        std::thread::yield_now();
                        continue;
                    }
                    let legal = v.position.legal_moves();
                    let m = legal[(i + v.ply as usize) % legal.len()];
                    let text = Uci::from_move(m).to_string();
                    match svc
                        .play()
                        .play_move_at(&me, CH, &text, Lang::En, false, Some(v.ply))
                    {
                        Ok(r) => {
                            assert_eq!(r.view.ply, v.ply + 1);
                            acknowledged.lock().unwrap().push((v.ply, text));
                        }
                        // Another thread's move came first, or ended the game (a mate or a
                        // draw within the 40 plies, depending on who won each race).
                        Err(GameError::PositionChanged | GameError::GameOver) => lost += 1,
                        Err(e) => panic!("thread {i}: {e}"),
                    }
                }
            })
        })
        .collect();
    let lost: u32 = handles.into_iter().map(|h| h.join().unwrap()).sum();
    let mut acked = acknowledged.lock().unwrap().clone();
    acked.sort();
    let plies: Vec<u32> = acked.iter().map(|(p, _)| *p).collect();
    let n = plies.len() as u32;
    assert_eq!(
        plies,
        (0..n).collect::<Vec<_>>(),
        "exactly one move per ply"
    );
    let stored = svc.queries().moves_uci(id).unwrap();
    let acked_moves: Vec<String> = acked.into_iter().map(|(_, m)| m).collect();
    assert_eq!(
        stored, acked_moves,
        "the database holds exactly the acknowledged moves"
    );
    let v = svc.queries().board(CH).unwrap();
    assert_eq!(v.ply, n);
    assert!(n >= PLIES || v.finished);
    eprintln!("{n} plies, {lost} moves lost a race");
}

// ---- PGN --------------------------------------------------------------------------------

/// The PGN of the channel's game re-imports to the same moves and result.
fn pgn_round_trip(svc: &GameService, expected_result: &str) -> String {
    let text = svc.queries().pgn(CH).unwrap();
    let g = cajitas_rules::pgn::read_game(&text, Lang::En)
        .unwrap_or_else(|e| panic!("{}\n{text}", e.message()));
    let v = svc.queries().board(CH).unwrap();
    assert_eq!(g.game.position(), &v.position, "{text}");
    assert_eq!(g.game.sans(), v.sans(), "{text}");
    assert_eq!(
        g.result.map(|r| r.to_string()).as_deref(),
        Some(expected_result),
        "{text}"
    );
    assert_eq!(g.tag("White"), Some("alice"));
    assert_eq!(g.tag("Black"), Some("bob"));
    assert!(g.tag("Termination").is_some(), "{text}");
    text
}

#[test]
fn pgn_of_games_in_progress_and_ended_every_way() {
    let svc = service("pgn");
    new_game(&svc);
    play(&svc, &["e4", "e5", "Nf3"]);
    let text = pgn_round_trip(&svc, "*");
    assert!(text.contains("1. e4 e5 2. Nf3 *"), "{text}");
    svc.play().resign(&bob(), CH, None).unwrap();
    pgn_round_trip(&svc, "1-0");

    new_game(&svc);
    svc.play().draw_offer(&alice(), CH, None).unwrap();
    svc.play().draw_accept(&bob(), CH, None).unwrap();
    pgn_round_trip(&svc, "1/2-1/2");

    // A claim written with a move: the move is not in the PGN.
    new_game(&svc);
    play(&svc, &SHUFFLE);
    play(&svc, &SHUFFLE[..3]);
    svc.play()
        .play_move(&bob(), CH, "Ng8", Lang::En, true)
        .unwrap();
    let text = pgn_round_trip(&svc, "1/2-1/2");
    assert!(text.contains("4. Ng1 1/2-1/2"), "{text}");

    // A set position carries its FEN.
    let svc = service("pgn-fen");
    set_position(&svc, "4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    play(&svc, &["Ra2"]);
    svc.play().draw_claim(&bob(), CH).unwrap();
    let text = pgn_round_trip(&svc, "1/2-1/2");
    assert!(
        text.contains("[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 99 80\"]"),
        "{text}"
    );
}

#[test]
fn two_services_on_one_database_stay_coherent() {
    // Like the bot and `cajitas local` open on the same file: each caches rebuilt games, and
    // neither may act on a stale copy.
    let path = temp_db("two");
    let a = path.open(ServiceOptions::default());
    let b = path.open(ServiceOptions::default());
    new_game(&a);
    a.play()
        .play_move(&alice(), CH, "e4", Lang::En, false)
        .unwrap();
    assert_eq!(b.queries().board(CH).unwrap().ply, 1);
    b.play()
        .play_move(&bob(), CH, "e5", Lang::En, false)
        .unwrap();
    // `a` still holds the game at ply 1 in its cache.
    let r = a
        .play()
        .play_move(&alice(), CH, "Nf3", Lang::En, false)
        .unwrap();
    assert_eq!(r.view.sans(), ["e4", "e5", "Nf3"]);
    assert!(matches!(
        b.play()
            .play_move_at(&bob(), CH, "Nc6", Lang::En, false, Some(2)),
        Err(GameError::PositionChanged)
    ));
    b.play()
        .play_move(&bob(), CH, "Nc6", Lang::En, false)
        .unwrap();
    b.play().resign(&alice(), CH, None).unwrap();
    let v = a.queries().board(CH).unwrap();
    assert_eq!(v.ply, 4);
    assert_eq!(v.result, "0-1");
    assert!(a.queries().pgn(CH).unwrap().contains("[Result \"0-1\"]"));
    assert!(matches!(
        a.play().play_move(&alice(), CH, "Bc4", Lang::En, false),
        Err(GameError::GameOver)
    ));
}

// ---- hardening ------------------------------------------------------------------------

#[test]
fn only_the_challenger_closes_an_open_challenge() {
    let svc = service("open-decline");
    svc.challenges()
        .challenge(&alice(), CH, None, ColourChoice::White)
        .unwrap();
    // Mallory (carol) cannot make it go away for everyone.
    assert!(matches!(
        svc.challenges().decline(&carol(), CH),
        Err(GameError::OpenChallengeDecline)
    ));
    assert!(
        GameError::OpenChallengeDecline
            .to_string()
            .contains("Only the challenger")
    );
    assert!(matches!(
        svc.challenges().cancel(&carol(), CH),
        Err(GameError::NotChallenger)
    ));
    // It is still there: bob accepts it.
    let v = svc.challenges().accept(&bob(), CH).unwrap();
    assert_eq!((v.white.id, v.black.id), (1, 2));
}

#[test]
fn one_person_pings_another_at_most_five_times_in_ten_minutes() {
    let clock = Arc::new(ManualClock::new(1_000_000_000));
    let opts = ServiceOptions::with_clock(clock.clone());
    let db = temp_db("pings");
    let svc = db.open(opts.clone());
    for _ in 0..3 {
        svc.challenges()
            .challenge(&alice(), CH, Some(&bob()), ColourChoice::White)
            .unwrap();
        svc.challenges().cancel(&alice(), CH).unwrap();
        clock.advance(Duration::from_millis(60_000));
    }
    // The count is stored: a reopened service (a restart) goes on counting.
    drop(svc);
    let svc = db.open(opts);
    svc.challenges()
        .challenge(&alice(), CH, Some(&bob()), ColourChoice::White)
        .unwrap();
    svc.challenges().cancel(&alice(), CH).unwrap();
    // An open challenge pings nobody and is not counted.
    svc.challenges()
        .challenge(&alice(), CH, None, ColourChoice::White)
        .unwrap();
    svc.challenges().cancel(&alice(), CH).unwrap();
    // The fifth ping is a draw offer in a game (alice white, bob black).
    svc.challenges()
        .challenge(&bob(), CH, Some(&alice()), ColourChoice::Black)
        .unwrap();
    svc.challenges().accept(&alice(), CH).unwrap();
    svc.play().draw_offer(&alice(), CH, None).unwrap();
    svc.play().draw_decline(&bob(), CH, None).unwrap();
    let before = svc.queries().board(CH).unwrap();
    // The sixth is refused, with the wait: the first ping (at t0) leaves the window at
    // t0 + 600 s, and the clock is at t0 + 180 s.
    match svc.play().draw_offer(&alice(), CH, None) {
        Err(GameError::TooManyPings { wait_secs }) => assert_eq!(wait_secs, 420),
        other => panic!("expected TooManyPings, got {other:?}"),
    }
    let after = svc.queries().board(CH).unwrap();
    assert_eq!(after.draw_offer_by, None, "the refused offer left nothing");
    assert_eq!(after.ply, before.ply);
    // Bob may still ping alice, and carol may ping bob.
    svc.play().draw_offer(&bob(), CH, None).unwrap();
    svc.play().draw_decline(&alice(), CH, None).unwrap();
    // Once the oldest ping is 10 minutes old, alice may offer again.
    clock.advance(Duration::from_millis(420_000));
    svc.play().draw_offer(&alice(), CH, None).unwrap();
}

#[test]
fn announce_posts_the_game_through_the_notifier() {
    let recorder = Arc::new(cajitas::game::RecordingNotifier::default());
    let opts = ServiceOptions {
        notifier: recorder.clone(),
        ..ServiceOptions::default()
    };
    let svc = open_service("notify", opts);
    assert!(matches!(svc.announce(CH), Err(GameError::NoGame)));
    assert!(
        recorder.posts().is_empty(),
        "nothing to post, nothing posted"
    );
    new_game(&svc);
    play(&svc, &["e4"]);
    let v = svc.announce(CH).unwrap();
    let posts = recorder.posts();
    assert_eq!(posts.len(), 1);
    let p = &posts[0];
    assert_eq!(p.place, CH);
    assert_eq!(p.kind, cajitas::game::NoticeKind::GameState);
    assert_eq!(p.game.game_id, v.game_id);
    assert_eq!(p.game.ply, 1);
    assert_eq!(p.mentions, vec![alice().id, bob().id]);
}

#[test]
fn a_button_of_an_earlier_game_in_the_channel_is_refused_in_the_same_transaction() {
    let svc = service("seen");
    let first = new_game(&svc);
    svc.play().abort(&alice(), CH).unwrap();
    let second = new_game(&svc);
    assert_ne!(first, second);
    // Both games are at ply 0: only the game id tells the button of the first one apart.
    let old_button = cajitas::game::Seen {
        game: Some(first),
        ply: Some(0),
    };
    assert!(matches!(
        svc.play().resign(&alice(), CH, old_button),
        Err(GameError::PositionChanged)
    ));
    svc.play().draw_offer(&bob(), CH, None).unwrap();
    assert!(matches!(
        svc.play().draw_accept(&alice(), CH, old_button),
        Err(GameError::PositionChanged)
    ));
    let v = svc.queries().board(CH).unwrap();
    assert_eq!(v.game_id, second);
    assert!(!v.finished, "the second game goes on");
    let this_button = cajitas::game::Seen {
        game: Some(second),
        ply: Some(0),
    };
    assert!(
        svc.play()
            .resign(&alice(), CH, this_button)
            .unwrap()
            .view
            .finished
    );
}

// ---- takebacks --------------------------------------------------------------------------

/// Every row of every table, to check that a refusal changed nothing.
fn dump(db: &TestDb) -> Vec<String> {
    db.dump()
}

fn count(db: &TestDb, sql: &str) -> i64 {
    db.count(sql)
}

#[test]
fn takeback_of_one_ply_when_the_opponent_has_not_replied() {
    let db = temp_db("tb1");
    let svc = db.open(ServiceOptions::default());
    let id = new_game(&svc);
    play(&svc, &["e4", "e5", "Nf3"]);
    let asked = svc.play().takeback_request(&alice(), CH, None).unwrap();
    assert_eq!((asked.by, asked.plies, asked.ply), (Color::White, 1, 3));
    assert_eq!(asked.game.ply, 3, "asking changes nothing yet");
    let done = svc
        .play()
        .takeback_accept(
            &bob(),
            CH,
            cajitas::game::Seen {
                game: Some(id),
                ply: Some(3),
            },
        )
        .unwrap();
    assert_eq!((done.by, done.plies), (Color::White, 1));
    assert_eq!(done.game.ply, 2);
    assert_eq!(done.game.sans(), ["e4", "e5"]);
    assert_eq!(done.game.to_move, Color::White);
    let v = svc.queries().board(CH).unwrap();
    assert_eq!(v.ply, 2);
    assert_eq!(v.sans(), ["e4", "e5"]);
    assert_eq!(count(&db, "SELECT count(*) FROM moves"), 2);
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM takebacks WHERE status = 'accepted'"
        ),
        1
    );
    assert_eq!(
        count(&db, "SELECT count(*) FROM pings WHERE kind = 'takeback'"),
        1
    );
    // White plays another move; the game goes on from the position taken back to.
    play(&svc, &["Nc3", "Nc6"]);
    assert_eq!(
        svc.queries().board(CH).unwrap().sans(),
        ["e4", "e5", "Nc3", "Nc6"]
    );
    assert!(svc.queries().pgn(CH).unwrap().contains("2. Nc3 Nc6"));
}

#[test]
fn takeback_of_two_plies_when_the_opponent_replied_and_a_draw_offer_lapses() {
    let svc = service("tb2");
    new_game(&svc);
    play(&svc, &["e4", "e5", "Nf3", "Nc6"]);
    svc.play().draw_offer(&bob(), CH, None).unwrap();
    let asked = svc.play().takeback_request(&alice(), CH, None).unwrap();
    assert_eq!((asked.plies, asked.ply), (2, 4));
    let done = svc.play().takeback_accept(&bob(), CH, None).unwrap();
    assert_eq!(done.game.ply, 2);
    assert_eq!(done.game.sans(), ["e4", "e5"]);
    assert_eq!(done.game.draw_offer_by, None, "the standing offer lapsed");
    assert_eq!(
        done.game.position.fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    // Black asks for one ply back when it is their own move that was last.
    play(&svc, &["Nf3", "d6"]);
    let asked = svc.play().takeback_request(&bob(), CH, None).unwrap();
    assert_eq!((asked.by, asked.plies), (Color::Black, 1));
    svc.play().takeback_accept(&alice(), CH, None).unwrap();
    assert_eq!(svc.queries().board(CH).unwrap().sans(), ["e4", "e5", "Nf3"]);
}

#[test]
fn a_rewound_game_is_never_served_from_a_cache() {
    // Two services on one file, both caching, the clock standing still: after taking four
    // plies back and transposing to the same position with the same last move, neither may
    // serve the moves it cached before the takeback.
    let path = temp_db("tbcache");
    let clock = Arc::new(ManualClock::new(1_000_000));
    let a = path.open(ServiceOptions::with_clock(clock.clone()));
    let b = path.open(ServiceOptions::with_clock(clock));
    new_game(&a);
    play(&a, &["Nf3", "Nf6", "Nc3", "Nc6"]);
    assert_eq!(
        b.queries().board(CH).unwrap().sans(),
        ["Nf3", "Nf6", "Nc3", "Nc6"]
    );
    a.play().takeback_request(&alice(), CH, None).unwrap();
    a.play().takeback_accept(&bob(), CH, None).unwrap();
    a.play().takeback_request(&alice(), CH, None).unwrap();
    a.play().takeback_accept(&bob(), CH, None).unwrap();
    assert_eq!(a.queries().board(CH).unwrap().ply, 0);
    play(&a, &["Nc3", "Nf6", "Nf3", "Nc6"]);
    for s in [&a, &b] {
        let v = s.queries().board(CH).unwrap();
        assert_eq!(v.sans(), ["Nc3", "Nf6", "Nf3", "Nc6"]);
        assert!(
            s.queries()
                .pgn(CH)
                .unwrap()
                .contains("1. Nc3 Nf6 2. Nf3 Nc6")
        );
    }
}

#[test]
fn a_declined_takeback_leaves_the_game_as_it_was() {
    let svc = service("tbdecline");
    let id = new_game(&svc);
    play(&svc, &["e4", "e5"]);
    svc.play().takeback_request(&bob(), CH, None).unwrap();
    let declined = svc
        .play()
        .takeback_decline(
            &alice(),
            CH,
            cajitas::game::Seen {
                game: Some(id),
                ply: Some(2),
            },
        )
        .unwrap();
    assert_eq!(declined.game.ply, 2);
    assert_eq!(declined.plies, 1);
    assert!(matches!(
        svc.play().takeback_accept(&alice(), CH, None),
        Err(GameError::NoTakeback)
    ));
    assert_eq!(svc.queries().board(CH).unwrap().sans(), ["e4", "e5"]);
}

#[test]
fn takeback_refusals_leave_the_database_as_it_was() {
    let db = temp_db("tbrefuse");
    let svc = db.open(ServiceOptions::default());
    let id = new_game(&svc);
    let before = dump(&db);
    // Nobody has moved: nothing to take back.
    assert!(matches!(
        svc.play().takeback_request(&alice(), CH, None),
        Err(GameError::NothingToTakeBack)
    ));
    play(&svc, &["e4"]);
    assert!(matches!(
        svc.play().takeback_request(&bob(), CH, None),
        Err(GameError::NothingToTakeBack)
    ));
    assert_ne!(dump(&db), before);
    svc.play().takeback_request(&alice(), CH, None).unwrap();
    // A stale request: Black moved since it was asked.
    play(&svc, &["e5"]);
    let before = dump(&db);
    let seen = |ply| cajitas::game::Seen {
        game: Some(id),
        ply: Some(ply),
    };
    let refusals = [
        svc.play().takeback_accept(&bob(), CH, seen(1)).unwrap_err(),
        svc.play().takeback_accept(&bob(), CH, None).unwrap_err(),
        svc.play()
            .takeback_decline(&bob(), CH, seen(1))
            .unwrap_err(),
        svc.play().takeback_accept(&carol(), CH, None).unwrap_err(),
        svc.play().takeback_accept(&bob(), CH, Some(7)).unwrap_err(),
    ];
    assert!(matches!(refusals[0], GameError::PositionChanged));
    assert!(matches!(refusals[1], GameError::PositionChanged));
    assert!(matches!(refusals[2], GameError::PositionChanged));
    assert!(matches!(refusals[3], GameError::NotAPlayer));
    assert!(matches!(refusals[4], GameError::PositionChanged));
    // The requester cannot answer their own request; a button of another game is stale.
    svc.play().takeback_request(&alice(), CH, None).unwrap();
    let before_own = dump(&db);
    assert!(matches!(
        svc.play().takeback_accept(&alice(), CH, None),
        Err(GameError::OwnTakeback)
    ));
    assert!(matches!(
        svc.play().takeback_accept(
            &bob(),
            CH,
            cajitas::game::Seen {
                game: Some(id + 1),
                ply: Some(2)
            }
        ),
        Err(GameError::PositionChanged)
    ));
    assert_eq!(dump(&db), before_own);
    assert_ne!(before_own, before, "the second request was recorded");
    assert_eq!(svc.queries().board(CH).unwrap().sans(), ["e4", "e5"]);
    // After the game: refused, nothing written.
    svc.play().resign(&bob(), CH, None).unwrap();
    let over = dump(&db);
    assert!(matches!(
        svc.play().takeback_accept(&bob(), CH, None),
        Err(GameError::GameOver)
    ));
    assert!(matches!(
        svc.play().takeback_request(&alice(), CH, None),
        Err(GameError::GameOver)
    ));
    assert_eq!(dump(&db), over);
}

#[test]
fn takeback_requests_count_toward_the_ping_limit() {
    let svc = service("tbpings");
    new_game(&svc);
    play(&svc, &["e4"]);
    // The challenge was the first ping of the window.
    for _ in 1..cajitas::game::PING_LIMIT {
        svc.play().takeback_request(&alice(), CH, None).unwrap();
    }
    assert!(matches!(
        svc.play().takeback_request(&alice(), CH, None),
        Err(GameError::TooManyPings { .. })
    ));
}

#[test]
fn active_games_are_counted_in_every_place() {
    let svc = service("activecount");
    assert_eq!(svc.queries().active_game_count().unwrap(), 0);
    new_game(&svc);
    assert_eq!(svc.queries().active_game_count().unwrap(), 1);
    let other = ChannelRef {
        guild: Some(10),
        channel: 101,
    };
    svc.challenges()
        .start_game(&alice(), &carol(), other, &Position::new())
        .unwrap();
    assert_eq!(svc.queries().active_game_count().unwrap(), 2);
    svc.play().resign(&alice(), CH, None).unwrap();
    assert_eq!(svc.queries().active_game_count().unwrap(), 1);
}

#[test]
fn an_engine_move_is_claimed_by_one_player_until_its_claim_lapses() {
    let clock = Arc::new(ManualClock::new(1_000_000));
    let db = temp_db("engine-claims");
    // Two processes' services on one database, each with its engine player's id.
    let (a, b) = (
        db.open(ServiceOptions::with_clock(clock.clone())),
        db.open(ServiceOptions::with_clock(clock.clone())),
    );
    let game = new_game(&a);
    let lease = Duration::from_secs(90);
    assert!(a.engine().claim_engine_turn(game, 4, 111, lease).unwrap());
    assert!(
        !b.engine().claim_engine_turn(game, 4, 222, lease).unwrap(),
        "a holds it"
    );
    // a's retry renews its own claim.
    clock.advance(Duration::from_secs(60));
    assert!(a.engine().claim_engine_turn(game, 4, 111, lease).unwrap());
    clock.advance(Duration::from_secs(89));
    assert!(
        !b.engine().claim_engine_turn(game, 4, 222, lease).unwrap(),
        "renewed"
    );
    // a dies: one lease after its last claim, b takes the move.
    clock.advance(Duration::from_secs(1));
    assert!(b.engine().claim_engine_turn(game, 4, 222, lease).unwrap());
    assert!(!a.engine().claim_engine_turn(game, 4, 111, lease).unwrap());
    // The next move is anyone's, whoever held the last.
    assert!(a.engine().claim_engine_turn(game, 6, 111, lease).unwrap());
    // A reader that saw an older position never takes over the later one's live claim.
    assert!(!b.engine().claim_engine_turn(game, 4, 222, lease).unwrap());
    // A restart of the one process owning a SQLite file forgets its predecessor's claims;
    // with PostgreSQL another live process may hold them: they stay until they lapse.
    let freed = b.engine().release_own_engine_claims().unwrap();
    match backend() {
        Backend::Sqlite => {
            assert_eq!(freed, 1);
            assert!(b.engine().claim_engine_turn(game, 6, 222, lease).unwrap());
        }
        Backend::Postgres => {
            assert_eq!(freed, 0);
            assert!(!b.engine().claim_engine_turn(game, 6, 222, lease).unwrap());
        }
    }
}

// ---- Chess960 ---------------------------------------------------------------------------

/// Chess960 #100, `qbbnrnkr`: White castles short with the king staying on g1 (UCI `g1h1`,
/// the king onto its own rook), and Black mates on g2.
const C960_100: &str = "qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w KQkq - 0 1";
const C960_MATE: [&str; 8] = ["c3", "b6", "Ng3", "Qd5", "O-O", "Bb7", "d4", "Qxg2#"];

fn chess960_terms(n: u32, rated: bool) -> cajitas::game::ChallengeTerms {
    cajitas::game::ChallengeTerms {
        rated,
        variant: cajitas::game::Variant::chess960(n).unwrap(),
        ..cajitas::game::ChallengeTerms::new(ColourChoice::White)
    }
}

#[test]
fn a_chess960_game_from_its_challenge_to_mate_its_rating_and_its_rematch() {
    let svc = service("c960-mate");
    let c = svc
        .challenges()
        .challenge_with(&alice(), CH, Some(&bob()), chess960_terms(100, true))
        .unwrap();
    assert_eq!(c.variant.chess960_number(), Some(100));
    // The challenge says so, in both languages.
    let text = cajitas::i18n::challenges::challenge_text(
        Lang::En,
        cajitas::i18n::present::Presentation::Console,
        &c,
    );
    assert!(text.contains("Chess960 #100"), "{text}");
    let text = cajitas::i18n::challenges::challenge_text(
        Lang::Es,
        cajitas::i18n::present::Presentation::Console,
        &c,
    );
    assert!(text.contains("Chess960 n.º 100"), "{text}");
    let v = svc.challenges().accept(&bob(), CH).unwrap();
    assert_eq!(v.start.fen(), C960_100);
    assert!(v.start.castling_mode().is_chess960());
    assert_eq!(v.variant, cajitas::game::Variant::chess960(100).unwrap());
    assert_eq!(v.opening, None);
    let end = play(&svc, &C960_MATE).view;
    assert_eq!(
        end.outcome,
        Some(Outcome::Decisive {
            winner: Color::Black,
            reason: WinReason::Checkmate
        })
    );
    // Castling is stored as the king taking its own rook, and rebuilt from the database.
    assert_eq!(
        svc.queries().moves_uci(v.game_id).unwrap(),
        [
            "c2c3", "b7b6", "f1g3", "a8d5", "g1h1", "c8b7", "d2d4", "d5g2"
        ]
    );
    let pgn = svc.queries().replay(v.game_id).unwrap();
    assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
    assert!(pgn.contains(&format!("[FEN \"{C960_100}\"]")), "{pgn}");
    assert!(pgn.contains("[Event \"Rated Chess960 game\"]"), "{pgn}");
    assert!(pgn.contains("3. O-O Bb7 4. d4 Qxg2# 0-1"), "{pgn}");
    let back = cajitas_rules::pgn::read_game(&pgn, Lang::En).unwrap();
    assert_eq!(back.game.moves(), end.moves.as_slice());
    assert!(
        end.analysis_url()
            .starts_with("https://lichess.org/analysis/chess960/1b1nrnkr/pbpppppp/"),
        "{}",
        end.analysis_url()
    );
    // Its ratings are the server's Chess960 pool, whatever the clock.
    let stats = svc.ratings().stats(CH, &alice()).unwrap();
    let speeds: Vec<_> = stats.speeds.iter().map(|s| s.speed).collect();
    assert_eq!(speeds, [cajitas::game::Speed::Chess960]);
    let board = svc
        .ratings()
        .leaderboard(CH, cajitas::game::Speed::Chess960, 0, alice().id, None)
        .unwrap();
    assert_eq!(board.speed, cajitas::game::Speed::Chess960);
    let games = |me| match me {
        cajitas::game::ratings::MyStanding::Unranked { games, shown, .. } => {
            (games, shown.is_some())
        }
        other => panic!("{other:?}"),
    };
    assert_eq!(games(board.me), (1, true));
    let live = svc
        .ratings()
        .leaderboard(CH, cajitas::game::Speed::Live, 0, alice().id, None)
        .unwrap();
    assert_eq!(games(live.me), (0, false));
    // A rematch starts from the same position, colours swapped.
    let again = svc
        .challenges()
        .rematch(&alice(), v.game_id, false)
        .unwrap();
    assert_eq!(again.variant, v.variant);
    let v2 = svc.challenges().accept(&bob(), CH).unwrap();
    assert_eq!(v2.start.fen(), C960_100);
    assert_eq!(v2.white, bob());
}

#[test]
fn a_chess960_game_survives_a_reopen_and_takes_back_a_castling() {
    let path = temp_db("c960-reopen");
    let id = {
        let svc = path.open(ServiceOptions::default());
        svc.challenges()
            .challenge_with(&alice(), CH, Some(&bob()), chess960_terms(100, false))
            .unwrap();
        let id = svc.challenges().accept(&bob(), CH).unwrap().game_id;
        play(&svc, &C960_MATE[..5]);
        id
    };
    let svc = path.open(ServiceOptions::default());
    let v = svc.queries().board(CH).unwrap();
    assert_eq!(v.game_id, id);
    assert_eq!(
        v.position.fen(),
        "1bbnrnkr/p1pppppp/1p6/3q4/8/2P3N1/PP1PPPPP/QBBNRRK1 b kq - 3 3"
    );
    // Black takes nothing back; White takes back the castling, and castles again.
    svc.play().takeback_request(&alice(), CH, None).unwrap();
    let back = svc.play().takeback_accept(&bob(), CH, None).unwrap();
    assert_eq!(back.game.ply, 4);
    assert!(back.game.position.castling_mode().is_chess960());
    let v = play(&svc, &["O-O"]).view;
    assert_eq!(v.ply, 5);
    assert_eq!(svc.queries().moves_uci(id).unwrap()[4], "g1h1");
    // A refused castling (Black's king on g8 with a knight on f8) changes nothing.
    let err = svc
        .play()
        .play_move(&bob(), CH, "O-O", Lang::En, false)
        .unwrap_err();
    assert!(matches!(err, GameError::Move(_)), "{err}");
    assert_eq!(svc.queries().board(CH).unwrap().ply, 5);
}

// ---- round robins (issue 32) ------------------------------------------------------------

fn dan() -> UserRef {
    UserRef::new(5, "dan", false)
}

const RR_CH: ChannelRef = ChannelRef {
    guild: Some(10),
    channel: 300,
};

fn round_robin_terms(players: &[UserRef], double: bool) -> RoundRobinTerms {
    RoundRobinTerms {
        players: players.to_vec(),
        time: "1d".parse().unwrap(),
        double,
        rated: false,
        name: Some("Round robin 1d".into()),
    }
}

/// Where `user` plays their round robin game now.
fn rr_place(svc: &GameService, user: &UserRef) -> ChannelRef {
    svc.tournaments()
        .game_place_of(user.id)
        .unwrap()
        .unwrap_or_else(|| panic!("{} has no game", user.name))
}

/// `winner` beats `loser` in their game now (the loser resigns after a move each); `None`: a
/// draw by agreement.
fn rr_result(svc: &GameService, white: &UserRef, black: &UserRef, winner: Option<&UserRef>) {
    let place = rr_place(svc, white);
    assert_eq!(
        rr_place(svc, black),
        place,
        "{} and {} play each other",
        white.name,
        black.name
    );
    svc.play()
        .play_move(white, place, "e4", Lang::En, false)
        .unwrap();
    svc.play()
        .play_move(black, place, "e5", Lang::En, false)
        .unwrap();
    let done = match winner {
        Some(w) => {
            let loser = if w == white { black } else { white };
            svc.play().resign(loser, place, None).unwrap()
        }
        None => {
            svc.play().draw_offer(white, place, None).unwrap();
            svc.play().draw_accept(black, place, None).unwrap()
        }
    };
    svc.post_notices(done.notices);
}

/// The standings as (name, rank, points, SB).
fn rr_table(svc: &GameService) -> Vec<(String, Option<usize>, String, String)> {
    svc.tournaments()
        .round_robin_standings(RR_CH)
        .unwrap()
        .lines
        .iter()
        .map(|l| (l.user.name.clone(), l.rank, l.points.clone(), l.sb.clone()))
        .collect()
}

fn line(
    name: &str,
    rank: usize,
    points: &str,
    sb: &str,
) -> (String, Option<usize>, String, String) {
    (name.into(), Some(rank), points.into(), sb.into())
}

#[test]
fn a_round_robin_of_four_plays_its_berger_rounds_to_the_standings() {
    let svc = service("rr-four");
    let players = [alice(), bob(), carol(), dan()];
    let made = svc
        .tournaments()
        .create_round_robin(
            &alice(),
            RR_CH,
            &round_robin_terms(&players, false),
            Lang::En,
        )
        .unwrap();
    // Round 1 of FIDE's table for 4: 1-4, 2-3.
    let pairs: Vec<_> = made
        .notices
        .iter()
        .map(|n| (n.game.white.name.clone(), n.game.black.name.clone()))
        .collect();
    assert_eq!(
        pairs,
        [
            ("alice".into(), "dan".into()),
            ("bob".into(), "carol".into())
        ]
    );
    assert!(made.notices.iter().all(|n| n.mentions.len() == 2));
    // A second tournament in the channel is refused while this one runs.
    assert!(matches!(
        svc.tournaments().create_round_robin(
            &bob(),
            RR_CH,
            &round_robin_terms(&players, false),
            Lang::En
        ),
        Err(GameError::TournamentInChannel)
    ));
    rr_result(&svc, &alice(), &dan(), Some(&alice()));
    // Round 2 waits for round 1's last game.
    assert_eq!(
        svc.tournaments()
            .round_robin_standings(RR_CH)
            .unwrap()
            .round,
        1
    );
    rr_result(&svc, &bob(), &carol(), None);
    // Round 2: 4-3, 1-2.
    assert_eq!(
        svc.tournaments()
            .round_robin_standings(RR_CH)
            .unwrap()
            .round,
        2
    );
    rr_result(&svc, &dan(), &carol(), Some(&dan()));
    rr_result(&svc, &alice(), &bob(), None);
    // Round 3: 2-4, 3-1.
    rr_result(&svc, &bob(), &dan(), Some(&bob()));
    rr_result(&svc, &carol(), &alice(), Some(&alice()));
    // alice 2.5 (SB 1 + 1 + .5), bob 2 (SB .25 + 1.25 + 1), dan 1 (SB .5), carol .5 (SB 1).
    assert_eq!(
        rr_table(&svc),
        [
            line("alice", 1, "2.5", "2.5"),
            line("bob", 2, "2", "2.5"),
            line("dan", 3, "1", "0.5"),
            line("carol", 4, "0.5", "1"),
        ]
    );
    // The tournaments' round finishes it and posts the final standings.
    let round = svc.tournaments().run_due().unwrap();
    assert_eq!(round.news.len(), 1);
    let s = svc.tournaments().round_robin_standings(RR_CH).unwrap();
    assert_eq!(s.tournament.status, TournamentStatus::Finished);
    assert_eq!((s.round, s.rounds), (3, 3));
    assert!(
        svc.tournaments().run_due().unwrap().news.is_empty(),
        "finished once"
    );
}

#[test]
fn a_round_robin_refuses_bad_player_lists_and_changes_nothing() {
    let svc = service("rr-refusals");
    let t = svc.tournaments();
    let make = |players: &[UserRef]| {
        t.create_round_robin(
            &alice(),
            RR_CH,
            &round_robin_terms(players, false),
            Lang::En,
        )
    };
    assert!(matches!(
        make(&[alice(), bob()]),
        Err(GameError::RoundRobinPlayers { min: 3, max: 16 })
    ));
    let seventeen: Vec<UserRef> = (1..=17)
        .map(|i| UserRef::new(100 + i, &format!("p{i}"), false))
        .collect();
    assert!(matches!(
        make(&seventeen),
        Err(GameError::RoundRobinPlayers { .. })
    ));
    assert!(matches!(
        make(&[alice(), bob(), alice()]),
        Err(GameError::RoundRobinTwice)
    ));
    assert!(matches!(
        make(&[alice(), bob(), robot()]),
        Err(GameError::BotCannotPlay)
    ));
    assert!(matches!(
        t.round_robin_standings(RR_CH),
        Err(GameError::NoTournament)
    ));
    // Sixteen are fine, double: 30 rounds, 8 games at once.
    let sixteen = &seventeen[..16];
    let made = t
        .create_round_robin(&alice(), RR_CH, &round_robin_terms(sixteen, true), Lang::En)
        .unwrap();
    assert_eq!(made.notices.len(), 8);
    assert_eq!(t.round_robin_standings(RR_CH).unwrap().rounds, 30);
}

#[test]
fn a_withdrawal_before_half_cancels_and_after_half_forfeits() {
    // Before half: dan withdraws after round 1 (1 game of 3): his results vanish, and his
    // later games are never opened.
    let svc = service("rr-withdraw-early");
    let players = [alice(), bob(), carol(), dan()];
    svc.tournaments()
        .create_round_robin(
            &alice(),
            RR_CH,
            &round_robin_terms(&players, false),
            Lang::En,
        )
        .unwrap();
    // The arena's pause, withdrawal and berserk are not a round robin's.
    let t = svc.tournaments();
    assert!(matches!(
        t.pause(&dan(), RR_CH),
        Err(GameError::NoTournament)
    ));
    assert!(matches!(
        t.withdraw(&dan(), RR_CH),
        Err(GameError::NoTournament)
    ));
    assert!(matches!(t.berserk(&dan()), Err(GameError::NoArenaGame)));
    rr_result(&svc, &alice(), &dan(), Some(&dan()));
    rr_result(&svc, &bob(), &carol(), Some(&bob()));
    let w = svc
        .tournaments()
        .withdraw_round_robin(&dan(), RR_CH)
        .unwrap();
    assert_eq!(w.withdrawal, Withdrawal::Cancelled);
    assert!(matches!(
        svc.tournaments().withdraw_round_robin(&dan(), RR_CH),
        Err(GameError::NotInTournament)
    ));
    // Round 2 is open: dan-carol was never opened, alice-bob plays.
    assert!(
        svc.tournaments()
            .game_place_of(carol().id)
            .unwrap()
            .is_none()
    );
    rr_result(&svc, &alice(), &bob(), Some(&alice()));
    // Round 3: bob-dan never opened; carol-alice.
    rr_result(&svc, &carol(), &alice(), None);
    let table = rr_table(&svc);
    // alice: (loss to dan cancelled) w bob, d carol = 1.5; bob: w carol, l alice = 1;
    // carol: l bob, d alice = .5; dan last, unranked.
    assert_eq!(
        table,
        [
            line("alice", 1, "1.5", "1.25"),
            line("bob", 2, "1", "0.5"),
            line("carol", 3, "0.5", "0.75"),
            ("dan".into(), None, "0".into(), "0".into()),
        ]
    );

    // At half: dan withdraws in round 2 with 2 of his 3 games over: his results stay, and
    // his round-3 game is lost by forfeit.
    let svc = service("rr-withdraw-late");
    svc.tournaments()
        .create_round_robin(
            &alice(),
            RR_CH,
            &round_robin_terms(&players, false),
            Lang::En,
        )
        .unwrap();
    rr_result(&svc, &alice(), &dan(), Some(&dan()));
    rr_result(&svc, &bob(), &carol(), Some(&bob()));
    rr_result(&svc, &dan(), &carol(), None);
    // dan withdraws with alice-bob still going: 2 of 3 over.
    let w = svc
        .tournaments()
        .withdraw_round_robin(&dan(), RR_CH)
        .unwrap();
    assert_eq!(w.withdrawal, Withdrawal::Forfeits);
    rr_result(&svc, &alice(), &bob(), None);
    // Round 3: bob-dan is not opened (bob wins it by forfeit); carol-alice is played.
    assert!(svc.tournaments().game_place_of(bob().id).unwrap().is_none());
    rr_result(&svc, &carol(), &alice(), Some(&carol()));
    // bob: w carol, d alice, + over dan = 2.5, SB 1.5 + .25 + 1.5 = 3.25;
    // carol: l bob, d dan, w alice = 1.5, SB .75 + .5; dan: w alice, d carol, - to bob = 1.5,
    // SB .5 + .75: level with carol, they drew, rank 2 shared in seat order; alice .5.
    assert_eq!(
        rr_table(&svc),
        [
            line("bob", 1, "2.5", "3.25"),
            line("carol", 2, "1.5", "1.25"),
            line("dan", 2, "1.5", "1.25"),
            line("alice", 4, "0.5", "1.25"),
        ]
    );
}

#[test]
fn a_withdrawal_with_a_game_in_progress_loses_it() {
    let svc = service("rr-withdraw-playing");
    let players = [alice(), bob(), carol()];
    svc.tournaments()
        .create_round_robin(
            &alice(),
            RR_CH,
            &round_robin_terms(&players, false),
            Lang::En,
        )
        .unwrap();
    // Three players: round 1 is 2-3 (alice sits out).
    assert!(
        svc.tournaments()
            .game_place_of(alice().id)
            .unwrap()
            .is_none()
    );
    let place = rr_place(&svc, &bob());
    svc.play()
        .play_move(&bob(), place, "e4", Lang::En, false)
        .unwrap();
    let w = svc
        .tournaments()
        .withdraw_round_robin(&carol(), RR_CH)
        .unwrap();
    assert_eq!(w.withdrawal, Withdrawal::Cancelled);
    assert!(!w.notices.is_empty(), "the game's end is posted");
    let v = svc.queries().board(place).unwrap();
    assert!(v.finished);
    // Round 2 (1-2) opened at once; round 3 (3-1) will never be.
    assert_eq!(rr_place(&svc, &alice()), rr_place(&svc, &bob()));
}

#[path = "support/arena_sim.rs"]
mod arena_sim;

// Issue 32: an arena run by two services on one database (two processes), their scheduler
// rounds racing: nobody is ever paired while they play, and the standings kept game by game
// equal lichess's sheets recomputed from the games at the end.
#[test]
fn an_arena_run_by_two_processes_pairs_nobody_twice_and_scores_as_its_games() {
    use cajitas::game::RecordingNotifier;
    let clock = Arc::new(ManualClock::new(1_900_000_000_000));
    let db = temp_db("arena-two-processes");
    let services: Vec<(GameService, Arc<RecordingNotifier>)> = (0..2)
        .map(|_| {
            let notifier = Arc::new(RecordingNotifier::default());
            let opts = ServiceOptions {
                notifier: notifier.clone(),
                ..ServiceOptions::with_clock(clock.clone())
            };
            (db.open(opts), notifier)
        })
        .collect();
    let plan = arena_sim::Plan {
        players: 7,
        minutes: 30,
        seed: 32,
        extra_moves: 12,
    };
    let out = arena_sim::play(&services, &clock, CH, plan);
    assert!(out.games >= 40, "{out:?}");
    assert!(out.waves >= 20 && out.moves >= 2 * out.games, "{out:?}");
    assert!(!out.rounds_time.is_zero());
    assert_eq!(out.kept.len(), 7);
    for (user, points) in &out.kept {
        assert_eq!(out.recomputed[user], *points, "user {user}: {out:?}");
    }
    assert!(
        out.kept.windows(2).all(|w| w[0].1 >= w[1].1),
        "ranked by points: {out:?}"
    );
}

// Issue 32: a restart mid-arena loses nothing and doubles nothing. A process pairs a wave and
// dies before posting it: the next process posts those pairings once their claim lapses,
// once each, with the same nonces, and pairs nobody again meanwhile.
#[test]
fn a_restart_mid_arena_posts_the_lost_pairings_once_and_pairs_nobody_twice() {
    use cajitas::game::{ArenaTerms, EventScope, NoticeKind, RecordingNotifier, TimeControl};
    let clock = Arc::new(ManualClock::new(1_900_000_000_000));
    let db = temp_db("arena-restart");
    let players: Vec<UserRef> = (1..=4u64)
        .map(|i| UserRef::new(100 + i, &format!("p{i}"), false))
        .collect();
    let paired: Vec<i64> = {
        let first = db.open(ServiceOptions::with_clock(clock.clone()));
        let terms = ArenaTerms {
            minutes: 30,
            time: TimeControl::Live {
                base_secs: 180,
                increment_secs: 2,
            },
            rated: false,
            starts_in: Some(0),
            name: None,
        };
        first
            .tournaments()
            .create_arena(&players[0], CH, &terms, Lang::En)
            .unwrap();
        for p in &players[1..] {
            first.tournaments().join(p, CH).unwrap();
        }
        first.tournaments().run_due().unwrap();
        // The wave commits; the process dies before its posts go out.
        let wave = first.tournaments().run_due().unwrap();
        assert_eq!(wave.paired, 2);
        wave.notices.iter().map(|n| n.game.game_id).collect()
    };
    let notifier = Arc::new(RecordingNotifier::default());
    let second = db.open(ServiceOptions {
        notifier: notifier.clone(),
        ..ServiceOptions::with_clock(clock.clone())
    });
    let pairings = |n: &RecordingNotifier| -> Vec<(i64, String)> {
        n.posts()
            .into_iter()
            .filter(|p| matches!(p.kind, NoticeKind::Paired { .. }))
            .map(|p| (p.game.game_id, p.nonce.unwrap_or_default()))
            .collect()
    };
    // Still within the dead process's claim: nothing yet, and nobody paired again.
    assert_eq!(
        second.clocks().run_round(EventScope::All).unwrap().paired,
        0
    );
    assert!(pairings(&notifier).is_empty());
    // The claim lapsed (within the first-move grace): each lost post goes out once.
    clock.advance(Duration::from_secs(11));
    assert_eq!(
        second.clocks().run_round(EventScope::All).unwrap().paired,
        0
    );
    let posted = pairings(&notifier);
    let mut games: Vec<i64> = posted.iter().map(|(g, _)| *g).collect();
    games.sort_unstable();
    let mut expected = paired.clone();
    expected.sort_unstable();
    assert_eq!(games, expected, "{posted:?}");
    assert!(posted.iter().all(|(_, nonce)| nonce.starts_with("cjp")));
    clock.advance(Duration::from_secs(11));
    second.clocks().run_round(EventScope::All).unwrap();
    assert_eq!(pairings(&notifier).len(), 2, "posted once");
    // Each player has the one game they were paired for.
    for p in &players {
        let place = second.tournaments().game_place_of(p.id).unwrap().unwrap();
        let v = second.queries().board(place).unwrap();
        assert!(paired.contains(&v.game_id));
    }
}
