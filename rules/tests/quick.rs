//! A fast sanity check of move generation (the full suites live in `perft.rs`).

use cajitas_rules::{Position, perft};

#[test]
fn start_position_low_depths() {
    let pos = Position::new();
    // Published counts (chessprogramming wiki, "Perft Results", initial position).
    assert_eq!(perft(&pos, 1), 20);
    assert_eq!(perft(&pos, 2), 400);
    assert_eq!(perft(&pos, 3), 8_902);
    assert_eq!(perft(&pos, 4), 197_281);
}

#[test]
fn kiwipete_low_depths() {
    // Published counts (chessprogramming wiki, "Perft Results", position 2).
    let pos =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    assert_eq!(perft(&pos, 1), 48);
    assert_eq!(perft(&pos, 2), 2_039);
    assert_eq!(perft(&pos, 3), 97_862);
}
