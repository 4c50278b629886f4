//! The FIDE draw law and outcomes of `Game` (articles 5, 6.9 and 9), one test per rule.

use cajitas_rules::{
    ClaimError, Color, DrawClaim, DrawReason, Game, Move, Outcome, PlayError, Position, WinReason,
};

/// The legal move written in UCI (`e2e4`, `e7e8q`, castling as `e1g1`).
fn uci(game: &Game, text: &str) -> Move {
    let pos = game.position();
    pos.legal_moves()
        .iter()
        .copied()
        .find(|m| {
            let promo = m
                .promotion()
                .map(|r| r.char().to_string())
                .unwrap_or_default();
            format!("{}{}{}", m.from(), m.to(), promo) == text
        })
        .unwrap_or_else(|| panic!("{text} is not legal in {}", pos.fen()))
}

fn play(game: &mut Game, moves: &str) {
    for text in moves.split_whitespace() {
        let m = uci(game, text);
        game.try_play(m).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

fn from_fen(fen: &str) -> Game {
    Game::from_position(Position::from_fen(fen).unwrap())
}

const DRAW: fn(DrawReason) -> Option<Outcome> = |reason| Some(Outcome::Draw { reason });

#[test]
fn checkmate_wins() {
    let mut game = Game::new();
    play(&mut game, "f2f3 e7e5 g2g4 d8h4");
    assert_eq!(
        game.outcome(),
        Some(Outcome::Decisive {
            winner: Color::Black,
            reason: WinReason::Checkmate
        })
    );
    let any = game.position().legal_moves().len();
    assert_eq!(any, 0);
    // No move after the end.
    let mut fresh = Game::new();
    play(&mut fresh, "f2f3 e7e5 g2g4");
    let mate = uci(&fresh, "d8h4");
    fresh.try_play(mate).unwrap();
    assert!(matches!(fresh.try_play(mate), Err(PlayError::GameOver(_))));
}

#[test]
fn stalemate_draws() {
    let mut game = from_fen("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    play(&mut game, "f1f7");
    assert_eq!(game.outcome(), DRAW(DrawReason::Stalemate));
    assert!(game.claimable().is_empty());
}

#[test]
fn dead_positions_per_case() {
    // King against king, after a capture.
    let mut game = from_fen("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1");
    assert_eq!(game.outcome(), None);
    play(&mut game, "e1d2");
    assert_eq!(game.outcome(), DRAW(DrawReason::DeadPosition));
    // King and bishop against king.
    let mut game = from_fen("4k3/8/8/8/8/8/3r4/4KB2 w - - 0 1");
    play(&mut game, "e1d2");
    assert_eq!(game.outcome(), DRAW(DrawReason::DeadPosition));
    // King and knight against king.
    let mut game = from_fen("4k3/8/8/8/8/8/3r4/4KN2 w - - 0 1");
    play(&mut game, "e1d2");
    assert_eq!(game.outcome(), DRAW(DrawReason::DeadPosition));
    // Bishops of both sides all on squares of one colour (c1 and f8 are dark).
    let game = from_fen("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1");
    assert_eq!(game.outcome(), DRAW(DrawReason::DeadPosition));
    // Not dead: bishops on both colours, two knights, a pawn, a rook.
    for fen in [
        "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1",
        "4kb2/8/8/8/8/8/8/3BK3 w - - 0 1",
        "4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
    ] {
        assert_eq!(from_fen(fen).outcome(), None, "{fen}");
    }
}

/// The knights leave and come back: the start position appears again every 4 plies.
const DANCE: &str = "g1f3 g8f6 f3g1 f6g8";

#[test]
fn threefold_claim_now_and_with_a_move() {
    let mut game = Game::new();
    play(&mut game, DANCE);
    assert_eq!(game.repetitions(), 2);
    assert!(game.claimable_now().is_empty());
    play(&mut game, "g1f3 g8f6 f3g1");
    // Black may claim by writing ...Ng8, which would make the third occurrence.
    assert!(game.claimable_now().is_empty());
    let back = uci(&game, "f6g8");
    let other = uci(&game, "b8c6");
    assert_eq!(
        game.claimable_with(back),
        vec![DrawClaim::ThreefoldRepetition]
    );
    assert!(game.claimable_with(other).is_empty());
    assert_eq!(game.claimable(), vec![DrawClaim::ThreefoldRepetition]);
    assert_eq!(
        game.clone().claim_draw(DrawClaim::ThreefoldRepetition),
        Err(ClaimError::NotRepeated { occurrences: 2 })
    );
    assert_eq!(
        game.clone()
            .claim_draw_with(other, DrawClaim::ThreefoldRepetition),
        Err(ClaimError::NotRepeated { occurrences: 1 })
    );
    // The claim with the move: the game is drawn and the move is NOT played.
    let mut claimed = game.clone();
    let fen_before = claimed.position().fen();
    assert_eq!(
        claimed.claim_draw_with(back, DrawClaim::ThreefoldRepetition),
        Ok(Outcome::Draw {
            reason: DrawReason::ThreefoldClaim
        })
    );
    assert_eq!(claimed.ply(), 7);
    assert_eq!(claimed.position().fen(), fen_before);
    assert!(matches!(
        claimed.try_play(back),
        Err(PlayError::GameOver(_))
    ));
    // Played instead, the position is there a third time: a claim now.
    game.try_play(back).unwrap();
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.outcome(), None, "threefold is not automatic");
    assert_eq!(game.claimable_now(), vec![DrawClaim::ThreefoldRepetition]);
    assert_eq!(
        game.claim_draw(DrawClaim::ThreefoldRepetition),
        Ok(Outcome::Draw {
            reason: DrawReason::ThreefoldClaim
        })
    );
    assert!(game.claimable_now().is_empty());
    assert!(matches!(
        game.claim_draw(DrawClaim::ThreefoldRepetition),
        Err(ClaimError::GameOver(_))
    ));
}

#[test]
fn fivefold_is_automatic_even_when_not_consecutive() {
    let mut game = Game::new();
    play(&mut game, DANCE); // 2nd
    play(&mut game, "b1c3 b8c6 c3b1 c6b8"); // 3rd, by another route
    play(&mut game, "g1h3 g8h6 h3g1 h6g8"); // 4th
    assert_eq!(game.repetitions(), 4);
    assert_eq!(game.outcome(), None);
    // A detour through other positions, then back a fifth time.
    play(&mut game, "b1a3 g8f6 a3b1 b8a6 g1f3 a6b8 f3g1 f6g8");
    assert_eq!(game.repetitions(), 5);
    assert_eq!(game.outcome(), DRAW(DrawReason::Fivefold));
    assert!(matches!(
        game.try_play(uci(&Game::new(), "e2e4")),
        Err(PlayError::GameOver(_))
    ));
}

#[test]
fn a_capture_or_pawn_move_ends_the_repetition_count() {
    let mut game = Game::new();
    play(&mut game, DANCE);
    play(&mut game, "e2e4 e7e5");
    play(&mut game, DANCE);
    play(&mut game, DANCE);
    assert_eq!(game.repetitions(), 3);
    play(&mut game, "d2d3 d7d6 c1d2 c8d7 d2c1 d7c8");
    assert_eq!(game.repetitions(), 2);
}

/// Black king a4, pawn d4, white rook h4: after e2-e4 the en passant square is set (a pawn
/// stands ready) but ...dxe3 would expose the king along the rank.
const PINNED_EP: &str = "6n1/8/8/8/k2p3R/8/4P1K1/8 w - - 0 1";
/// The same with the rook on h5: ...dxe3 e.p. is legal.
const LEGAL_EP: &str = "6n1/8/8/7R/k2p4/8/4P1K1/8 w - - 0 1";
/// Back to the position after e2-e4 twice, by a king and knight dance.
const EP_DANCE: &str = "g8f6 g2g1 f6g8 g1g2 g8f6 g2g1 f6g8 g1g2";

#[test]
fn an_unusable_en_passant_square_does_not_make_a_position_different() {
    let mut game = from_fen(PINNED_EP);
    play(&mut game, "e2e4");
    assert_eq!(
        game.position().ep_square().map(|s| s.to_string()),
        Some("e3".into())
    );
    assert_eq!(game.position().legal_ep_square(), None);
    play(&mut game, EP_DANCE);
    assert_eq!(game.position().ep_square(), None);
    assert_eq!(
        game.repetitions(),
        3,
        "FIDE 9.2.3: same possible moves, same position"
    );
    assert_eq!(game.claimable_now(), vec![DrawClaim::ThreefoldRepetition]);

    let mut game = from_fen(LEGAL_EP);
    play(&mut game, "e2e4");
    assert!(game.position().legal_ep_square().is_some());
    play(&mut game, EP_DANCE);
    assert_eq!(
        game.repetitions(),
        2,
        "with en passant possible the first one was a different position"
    );
    assert!(game.claimable_now().is_empty());
}

/// `Position::fide_key` is what the repetition count compares: the en passant square counts
/// only when the capture is legal.
#[test]
fn the_fide_key_keeps_only_a_capturable_en_passant_square() {
    let key = |fen: &str| Position::from_fen(fen).unwrap().fide_key();
    // White's e2-e4 leaves e3; Black's d4 pawn is pinned along the fourth rank, so the
    // capture is illegal: the same position as without the square.
    let pinned = Position::from_fen(PINNED_EP).unwrap();
    let mut pos = pinned.clone();
    pos.play(uci(&Game::from_position(pinned), "e2e4"));
    assert_eq!(pos.ep_square().map(|s| s.to_string()), Some("e3".into()));
    assert_eq!(pos.legal_ep_square(), None);
    let mut without = pos.to_setup();
    without.ep_square = None;
    let without = Position::from_setup(without).unwrap();
    assert_ne!(
        pos, without,
        "the positions differ by their stored en passant square"
    );
    assert_eq!(pos.fide_key(), without.fide_key());

    // The same with a capture that is legal: different positions for FIDE.
    let legal = Position::from_fen(LEGAL_EP).unwrap();
    let mut pos = legal.clone();
    pos.play(uci(&Game::from_position(legal), "e2e4"));
    assert!(pos.legal_ep_square().is_some());
    let mut without = pos.to_setup();
    without.ep_square = None;
    let without = Position::from_setup(without).unwrap();
    assert_ne!(pos.fide_key(), without.fide_key());

    // The move counters are not part of the key; the side to move and castling rights are.
    assert_eq!(
        key("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"),
        key("4k3/8/8/8/8/8/8/R3K3 w Q - 37 60")
    );
    assert_ne!(
        key("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"),
        key("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    );
    assert_ne!(
        key("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
        key("4k3/8/8/8/8/8/8/R3K3 b - - 0 1")
    );
}

#[test]
fn castling_rights_make_positions_different() {
    let mut game = Game::new();
    // The king steps out and back: same placement, but White has lost castling rights.
    play(&mut game, "e2e4 e7e5 e1e2 e8e7 e2e1 e7e8");
    play(&mut game, "e1e2 e8e7 e2e1 e7e8");
    assert_eq!(game.repetitions(), 2);
}

#[test]
fn fifty_move_claims() {
    let fen = |h: u32| format!("4k3/8/8/8/8/8/4P3/R3K3 w - - {h} 80");
    // Already 50 moves each: a claim now.
    let mut game = from_fen(&fen(100));
    assert_eq!(game.claimable_now(), vec![DrawClaim::FiftyMoves]);
    assert_eq!(game.claimable(), vec![DrawClaim::FiftyMoves]);
    assert_eq!(
        game.claim_draw(DrawClaim::FiftyMoves),
        Ok(Outcome::Draw {
            reason: DrawReason::FiftyMoveClaim
        })
    );
    // One ply short: only with a move that is neither a capture nor a pawn move.
    let mut game = from_fen(&fen(99));
    assert!(game.claimable_now().is_empty());
    assert_eq!(
        game.clone().claim_draw(DrawClaim::FiftyMoves),
        Err(ClaimError::NotFiftyMoves { halfmoves: 99 })
    );
    let rook = uci(&game, "a1a7");
    let pawn = uci(&game, "e2e4");
    assert_eq!(game.claimable_with(rook), vec![DrawClaim::FiftyMoves]);
    assert!(game.claimable_with(pawn).is_empty());
    assert_eq!(game.claimable(), vec![DrawClaim::FiftyMoves]);
    assert_eq!(
        game.clone().claim_draw_with(pawn, DrawClaim::FiftyMoves),
        Err(ClaimError::NotFiftyMoves { halfmoves: 0 })
    );
    assert_eq!(
        game.claim_draw_with(rook, DrawClaim::FiftyMoves),
        Ok(Outcome::Draw {
            reason: DrawReason::FiftyMoveClaim
        })
    );
    assert_eq!(
        game.ply(),
        0,
        "the move written with the claim is not played"
    );
    // Two plies short: nothing.
    assert!(from_fen(&fen(98)).claimable().is_empty());
    // An illegal move with a claim.
    let mut game = from_fen(&fen(99));
    let illegal = uci(&Game::new(), "g1f3");
    assert_eq!(
        game.claim_draw_with(illegal, DrawClaim::FiftyMoves),
        Err(ClaimError::IllegalMove(illegal))
    );
}

#[test]
fn seventy_five_moves_end_the_game_but_a_mate_on_that_move_stands() {
    let fen = "7k/8/6K1/8/8/8/8/R7 w - - 149 120";
    let mut game = from_fen(fen);
    assert_eq!(game.claimable_now(), vec![DrawClaim::FiftyMoves]);
    play(&mut game, "a1a7");
    assert_eq!(game.position().halfmoves(), 150);
    assert_eq!(game.outcome(), DRAW(DrawReason::SeventyFiveMoves));

    let mut game = from_fen(fen);
    play(&mut game, "a1a8");
    assert_eq!(game.position().halfmoves(), 150);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Decisive {
            winner: Color::White,
            reason: WinReason::Checkmate
        })
    );
    // A position already past 75 moves is a game already over.
    assert_eq!(
        from_fen("7k/8/6K1/8/8/8/8/R7 w - - 150 120").outcome(),
        DRAW(DrawReason::SeventyFiveMoves)
    );
}

#[test]
fn application_endings() {
    let mut game = Game::new();
    assert_eq!(
        game.agree_draw(),
        Ok(Outcome::Draw {
            reason: DrawReason::Agreement
        })
    );
    assert!(game.resign(Color::White).is_err());

    let mut game = Game::new();
    assert_eq!(
        game.timeout(Color::White),
        Ok(Outcome::Decisive {
            winner: Color::Black,
            reason: WinReason::Timeout
        })
    );
    // The side whose flag stands has only its king: FIDE 6.9 draw.
    let mut game = from_fen("4k3/8/8/8/8/8/4PPPP/4K3 w - - 0 1");
    assert_eq!(
        game.timeout(Color::White),
        Ok(Outcome::Draw {
            reason: DrawReason::TimeoutVsInsufficientMaterial
        })
    );
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let mut game = Game::new();
    play(&mut game, "e2e4");
    let stale = uci(&Game::new(), "d2d4");
    // d2d4 is still legal for White, but it is Black's move.
    assert_eq!(game.try_play(stale), Err(PlayError::IllegalMove(stale)));
    assert_eq!(game.ply(), 1);
    assert!(!PlayError::IllegalMove(stale).to_string().is_empty());
}

#[test]
fn outcome_texts() {
    let o = Outcome::Decisive {
        winner: Color::White,
        reason: WinReason::Checkmate,
    };
    assert_eq!(o.to_string(), "white wins by checkmate");
    assert_eq!(
        ClaimError::NotFiftyMoves { halfmoves: 99 }.to_string(),
        "no 50-move draw: 49 moves by each player without a pawn move or a capture (99 plies), 50 are needed"
    );
}
