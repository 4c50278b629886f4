//! The game layer against an independent count: seeded random games (biased toward quiet
//! moves so that repetitions and long reversible stretches happen), where after every ply
//! the repetition count of `Game` must equal the number of earlier positions in the WHOLE
//! game with the same shakmaty Zobrist hash (legal en passant only, FIDE 9.2.3), and the
//! automatic endings and claims must follow from those counts and shakmaty's outcome.

use cajitas_rules::{Color, DrawClaim, DrawReason, Game, Move, Outcome, WinReason};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Position as _};

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

fn to_shakmaty(pos: &Chess, m: Move) -> shakmaty::Move {
    let promo = m
        .promotion()
        .map(|r| r.char().to_string())
        .unwrap_or_default();
    format!("{}{}{}", m.from(), m.to(), promo)
        .parse::<shakmaty::uci::UciMove>()
        .unwrap()
        .to_move(pos)
        .unwrap()
}

#[test]
fn repetitions_and_endings_match_an_independent_count() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut seen_threefold = 0;
    let mut seen_fivefold = 0;
    for _ in 0..300 {
        let mut game = Game::new();
        let mut shak = Chess::default();
        let mut history = vec![shak.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0];
        while game.outcome().is_none() && game.ply() < 400 {
            let moves = game.position().legal_moves();
            let quiet: Vec<Move> = moves.iter().copied().filter(|m| !m.is_zeroing()).collect();
            let m = if !quiet.is_empty() && rng.below(10) != 0 {
                // Prefer undoing the previous move of the same side, to make repetitions.
                let back = game.moves().len().checked_sub(2).map(|i| game.moves()[i]);
                match back.and_then(|b| {
                    quiet
                        .iter()
                        .find(|q| q.from() == b.to() && q.to() == b.from())
                }) {
                    Some(&q) if rng.below(2) == 0 => q,
                    _ => quiet[rng.below(quiet.len())],
                }
            } else {
                moves[rng.below(moves.len())]
            };
            let sm = to_shakmaty(&shak, m);
            shak.play_unchecked(sm);
            game.try_play(m).unwrap();
            let key = shak.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
            let count = 1 + history.iter().filter(|&&k| k == key).count() as u32;
            history.push(key);
            assert_eq!(game.repetitions(), count, "{}", game.position().fen());
            let expected = match shak.outcome() {
                shakmaty::Outcome::Known(shakmaty::KnownOutcome::Decisive { winner }) => {
                    Some(Outcome::Decisive {
                        winner: if winner == shakmaty::Color::White {
                            Color::White
                        } else {
                            Color::Black
                        },
                        reason: WinReason::Checkmate,
                    })
                }
                shakmaty::Outcome::Known(shakmaty::KnownOutcome::Draw) => Some(Outcome::Draw {
                    reason: if shak.is_stalemate() {
                        DrawReason::Stalemate
                    } else {
                        DrawReason::DeadPosition
                    },
                }),
                shakmaty::Outcome::Unknown if count >= 5 => Some(Outcome::Draw {
                    reason: DrawReason::Fivefold,
                }),
                shakmaty::Outcome::Unknown if shak.halfmoves() >= 150 => Some(Outcome::Draw {
                    reason: DrawReason::SeventyFiveMoves,
                }),
                shakmaty::Outcome::Unknown => None,
            };
            assert_eq!(game.outcome(), expected, "{}", game.position().fen());
            if game.outcome().is_none() {
                let now = game.claimable_now();
                assert_eq!(now.contains(&DrawClaim::ThreefoldRepetition), count >= 3);
                assert_eq!(
                    now.contains(&DrawClaim::FiftyMoves),
                    shak.halfmoves() >= 100
                );
                seen_threefold += usize::from(count >= 3);
            }
            seen_fivefold += usize::from(count >= 5);
        }
    }
    assert!(
        seen_threefold > 50,
        "the games must exercise repetitions: {seen_threefold}"
    );
    assert!(
        seen_fivefold > 5,
        "and fivefold repetitions: {seen_fivefold}"
    );
}
