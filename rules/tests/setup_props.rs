//! Property tests (issue 12, item 8): arbitrary setups, valid or not, go through validation,
//! perft 1 and 2, and the PGN reader (as a `[FEN]` tag), and nothing panics. Boards crowded
//! with queens around a sheltered king are generated on purpose: they have far more legal
//! moves than any real position, and once overflowed the move list.

use cajitas_rules::{
    Bitboard, Board, Color, FenError, Game, Lang, MAX_MOVES, Piece, Position, PositionErrorKind,
    Role, Setup, Square, perft, pgn, san,
};
use proptest::prelude::*;

const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

fn piece(color: bool, role: usize) -> Piece {
    Piece {
        color: if color { Color::White } else { Color::Black },
        role: ROLES[role],
    }
}

/// Any placement: each square empty or any piece (kings included, so their count varies).
fn any_board() -> impl Strategy<Value = Board> {
    prop::collection::vec(prop::option::weighted(0.4, (any::<bool>(), 0..6usize)), 64).prop_map(
        |cells| {
            let mut board = Board::empty();
            for (i, cell) in cells.into_iter().enumerate() {
                if let Some((color, role)) = cell {
                    board.set_piece_at(Square::new(i as u32), piece(color, role));
                }
            }
            board
        },
    )
}

/// One king each on distinct squares, then each other square empty or a piece (no king),
/// white's queens most likely.
fn kings_and_crowd() -> impl Strategy<Value = Board> {
    let cell = prop::option::weighted(
        0.6,
        prop_oneof![
            5 => Just((true, 4usize)),
            1 => (any::<bool>(), 0..5usize),
        ],
    );
    (0..64u8, 0..63u8, prop::collection::vec(cell, 64)).prop_map(|(wk, bk, cells)| {
        let bk = if bk >= wk { bk + 1 } else { bk };
        let mut board = Board::empty();
        for (i, cell) in cells.into_iter().enumerate() {
            if let Some((color, role)) = cell {
                board.set_piece_at(Square::new(i as u32), piece(color, role));
            }
        }
        board.set_piece_at(Square::new(u32::from(wk)), piece(true, 5));
        board.set_piece_at(Square::new(u32::from(bk)), piece(false, 5));
        board
    })
}

/// The issue's shape: black's king on h8 behind a knight on g8 and pawns on g7 and h7
/// (no queen, rook or bishop can reach it), white's king anywhere else, and white queens
/// (some rooks and bishops) dense on the rim and sparse inside, where they see the most.
fn sheltered_king_among_queens() -> impl Strategy<Value = Board> {
    let shelter = [Square::G8, Square::H8, Square::G7, Square::H7];
    (
        0.5f64..1.0,
        0.0f64..0.3,
        0..60usize,
        prop::collection::vec((0.0f64..1.0, 0..8u8), 64),
    )
        .prop_map(move |(rim, inside, wk, cells)| {
            let mut board = Board::empty();
            board.set_piece_at(Square::G8, piece(false, 1));
            board.set_piece_at(Square::H8, piece(false, 5));
            board.set_piece_at(Square::G7, piece(false, 0));
            board.set_piece_at(Square::H7, piece(false, 0));
            let free: Vec<Square> = (0..64u32)
                .map(Square::new)
                .filter(|s| !shelter.contains(s))
                .collect();
            for (i, &sq) in free.iter().enumerate() {
                let (roll, kind) = cells[i];
                let on_rim = matches!(sq.index() % 8, 0 | 7) || matches!(sq.index() / 8, 0 | 7);
                if i == wk {
                    board.set_piece_at(sq, piece(true, 5));
                } else if roll < if on_rim { rim } else { inside } {
                    let role = match kind {
                        0 => 2,
                        1 => 3,
                        _ => 4,
                    };
                    board.set_piece_at(sq, piece(true, role));
                }
            }
            board
        })
}

/// The issue's FEN (263 legal moves), with a few squares changed: around the most moves a
/// placement can have, above and below the move list's 256.
fn near_the_issue_fen() -> impl Strategy<Value = Board> {
    let edit = (0..64u32, prop::option::of(0..5usize));
    prop::collection::vec(edit, 0..6).prop_map(|edits| {
        let fen: cajitas_rules::Fen = "QQQQQQnk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1"
            .parse()
            .unwrap();
        let mut board = fen.0.board;
        for (sq, role) in edits {
            let sq = Square::new(sq);
            if matches!(board.role_at(sq), Some(Role::King)) {
                continue;
            }
            board.remove_piece_at(sq);
            if let Some(role) = role {
                board.set_piece_at(sq, piece(true, role));
            }
        }
        board
    })
}

/// Material a game can produce, placed anywhere (pawns off the back ranks): for each side
/// a king, up to 8 pawns, up to the initial pieces, and up to as many extra queens as pawns
/// are missing. With `sheltered`, black has only the issue's sheltered king (h8, with g8,
/// g7, h7), so that white, to move, can have nearly the most legal moves a position has.
fn producible_material(sheltered: bool) -> impl Strategy<Value = Board> {
    let side = (
        0..=8usize,
        0..=1usize,
        0..=2usize,
        0..=2usize,
        0..=2usize,
        0..=8usize,
    );
    (
        side.clone(),
        side,
        Just((0..64u32).collect::<Vec<u32>>()).prop_shuffle(),
    )
        .prop_map(move |(white, black, squares)| {
            let mut board = Board::empty();
            let shelter = [Square::G8, Square::H8, Square::G7, Square::H7];
            if sheltered {
                board.set_piece_at(Square::G8, piece(false, 1));
                board.set_piece_at(Square::H8, piece(false, 5));
                board.set_piece_at(Square::G7, piece(false, 0));
                board.set_piece_at(Square::H7, piece(false, 0));
            }
            let mut free = squares
                .into_iter()
                .map(Square::new)
                .filter(|s| !sheltered || !shelter.contains(s));
            let mut pawn_squares = Vec::new();
            let sides = if sheltered {
                vec![(true, white)]
            } else {
                vec![(true, white), (false, black)]
            };
            for (color, (pawns, queen, rooks, bishops, knights, extra)) in sides {
                let extra = extra.min(8 - pawns);
                let roles = std::iter::once(5)
                    .chain(std::iter::repeat_n(4, queen + extra))
                    .chain(std::iter::repeat_n(3, rooks))
                    .chain(std::iter::repeat_n(2, bishops))
                    .chain(std::iter::repeat_n(1, knights));
                for role in roles {
                    if let Some(sq) = free.next() {
                        board.set_piece_at(sq, piece(color, role));
                    }
                }
                pawn_squares.push((color, pawns));
            }
            let mut rest: Vec<Square> =
                free.filter(|s| (1..7).contains(&(s.index() / 8))).collect();
            for (color, pawns) in pawn_squares {
                for _ in 0..pawns {
                    if let Some(sq) = rest.pop() {
                        board.set_piece_at(sq, piece(color, 0));
                    }
                }
            }
            board
        })
}

/// A board with the side to move chosen so that the other side is not in check, when
/// either will do: far more of these are playable.
fn playable_turn(board: impl Strategy<Value = Board>) -> impl Strategy<Value = Setup> {
    (board, any::<bool>(), 0..100u32).prop_map(|(board, white, halfmoves)| {
        let setup = |turn| Setup {
            board: board.clone(),
            turn,
            halfmoves,
            ..Setup::empty()
        };
        let first = setup(if white { Color::White } else { Color::Black });
        if Position::from_setup(first.clone()).is_ok() {
            first
        } else {
            setup(!first.turn)
        }
    })
}

/// Any turn, castling rights (most often none), en passant square (most often none) and
/// clocks, on any board.
fn any_setup(board: impl Strategy<Value = Board>) -> impl Strategy<Value = Setup> {
    let corners = vec![Square::A1, Square::H1, Square::A8, Square::H8];
    (
        board,
        any::<bool>(),
        prop::option::weighted(0.3, prop::sample::subsequence(corners, 1..=4)),
        prop::option::weighted(0.1, (0..8u32, any::<bool>())),
        any::<u32>(),
        any::<u32>(),
    )
        .prop_map(|(board, white, rights, ep, halfmoves, fullmoves)| Setup {
            board,
            turn: if white { Color::White } else { Color::Black },
            castling_rights: rights
                .unwrap_or_default()
                .into_iter()
                .fold(Bitboard::EMPTY, |b, s| b | s),
            ep_square: ep.map(|(file, sixth)| Square::new(if sixth { 40 } else { 16 } + file)),
            halfmoves: halfmoves % 200,
            fullmoves,
        })
}

fn setup() -> impl Strategy<Value = Setup> {
    prop_oneof![
        1 => any_setup(any_board()),
        2 => any_setup(kings_and_crowd()),
        2 => any_setup(producible_material(false)),
        3 => playable_turn(producible_material(false)),
        3 => playable_turn(producible_material(true)),
        // White to move among its queens, nothing else in the way of a valid setup.
        3 => (
            prop_oneof![sheltered_king_among_queens(), near_the_issue_fen()],
            0..100u32,
        )
            .prop_map(|(board, halfmoves)| Setup {
                board,
                halfmoves,
                ..Setup::empty()
            }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn arbitrary_setups_never_panic(setup in setup()) {
        let fen = cajitas_rules::Fen(setup.clone()).to_string();
        // The PGN reader, with the setup as its FEN tag, then a normal game after it.
        let first = match Position::from_setup(setup.clone()) {
            Ok(pos) => {
                let moves = pos.legal_moves();
                prop_assert!(moves.len() <= 218, "{} legal moves in {fen}", moves.len());
                prop_assert!(moves.len() <= MAX_MOVES);
                prop_assert_eq!(perft(&pos, 1), moves.len() as u64, "{}", fen);
                let mut two = 0;
                for &m in &moves {
                    let mut child = pos.clone();
                    child.play(m);
                    two += child.legal_moves().len() as u64;
                }
                prop_assert_eq!(perft(&pos, 2), two, "{}", fen);
                // The same position from its own FEN.
                let again = Position::from_fen(&pos.fen());
                prop_assert_eq!(again.as_ref(), Ok(&pos));
                moves.first().map(|&m| san(&pos, m).to_string())
            }
            Err(e) => {
                prop_assert!(!e.errors.is_empty());
                prop_assert!(!e.to_string().is_empty());
                // A side with more than 16 pieces is always refused.
                for color in Color::ALL {
                    if setup.board.by_color(color).count() > 16 {
                        prop_assert!(e.errors.iter().any(|k| matches!(
                            k,
                            PositionErrorKind::TooMuchMaterial { color: c, .. } if *c == color
                        )), "{fen}: {e}");
                    }
                }
                None
            }
        };
        let text = format!(
            "[Event \"a\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1{} {} *\n\n[Event \"b\"]\n\n1. e4 e5 *\n",
            if setup.turn == Color::White { "." } else { "..." },
            first.as_deref().unwrap_or(""),
        );
        let games: Vec<_> = pgn::read_games(&text, Lang::En).unwrap().collect();
        prop_assert_eq!(games.len(), 2, "{}", text);
        match (&games[0], Position::from_fen(&fen)) {
            (Ok(g), Ok(_)) => prop_assert_eq!(g.game.ply(), usize::from(first.is_some())),
            // Over before the first move (75 moves, a dead position): the move is refused.
            (Err(e), Ok(pos)) => {
                prop_assert!(first.is_some() && Game::from_position(pos).outcome().is_some());
                prop_assert!(matches!(e.kind, pgn::PgnErrorKind::GameOver(_)), "{fen}: {e}");
            }
            (Err(e), Err(fen_error)) => {
                prop_assert_eq!(&e.kind, &pgn::PgnErrorKind::Fen(fen_error));
            }
            (got, _) => prop_assert!(false, "{fen}: {got:?}"),
        }
        prop_assert_eq!(games[1].as_ref().map(|g| g.game.ply()).ok(), Some(2));
    }
}

/// The issue's FEN in a PGN file no longer stops the games after it.
#[test]
fn the_issue_fen_in_a_pgn_file_fails_its_game_only() {
    let text = "[FEN \"QQQQQQnk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1\"]\n\n1. Qa1 *\n\n\
                [Event \"b\"]\n\n1. e4 *\n";
    let games: Vec<_> = pgn::read_games(text, Lang::En).unwrap().collect();
    assert_eq!(games.len(), 2);
    let e = games[0].as_ref().unwrap_err();
    assert!(
        matches!(&e.kind, pgn::PgnErrorKind::Fen(FenError::Position(_))),
        "{e}"
    );
    assert!(e.to_string().contains("white has 27 pieces"), "{e}");
    assert_eq!(games[1].as_ref().unwrap().game.sans(), ["e4"]);
}
