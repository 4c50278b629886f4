//! `cajitas perft DEPTH [--fen FEN] [--chess960] [--divide]`: counts the leaf nodes of the
//! legal move tree (single-threaded, bulk counting). The last line on stdout is exactly
//! `nodes N`; timing goes to stderr. `--chess960` (implied by Shredder-FEN castling letters)
//! reads the FEN in Chess960 mode; `--divide` then writes castling as king-takes-rook.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use cajitas_rules::{CastlingMode, Position, perft};

/// Flags of `cajitas perft`.
#[derive(Debug, Clone, clap::Args)]
pub struct PerftArgs {
    /// How many plies deep to count.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=30))]
    pub depth: u32,
    /// Start from this FEN instead of the initial position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Count Chess960 moves: castling by the 960 rule, castling rights on any rook of the
    /// first rank. Implied when the FEN names castling rooks by file (Shredder-FEN, `HAha`).
    #[arg(long)]
    pub chess960: bool,
    /// First print `UCI: count` for every legal move at the root (castling as king-takes-rook
    /// in Chess960).
    #[arg(long)]
    pub divide: bool,
}

/// The position `cajitas perft` counts from: the initial position, or `fen` read in
/// Chess960 mode when asked for or when its castling field names rooks by file.
pub fn perft_position(fen: Option<&str>, chess960: bool) -> Result<Position, String> {
    let Some(fen) = fen else {
        return Ok(if chess960 {
            Position::from_fen_with(cajitas_rules::Fen::INITIAL, CastlingMode::Chess960)
                .map_err(|e| e.to_string())?
        } else {
            Position::new()
        });
    };
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::implied_by_fen(fen)
    };
    Position::from_fen_with(fen, mode).map_err(|e| {
        // X-FEN `KQkq` cannot say Chess960 by itself: say so when that is the way out.
        if mode == CastlingMode::Standard
            && Position::from_fen_with(fen, CastlingMode::Chess960).is_ok()
        {
            format!("{e} (a Chess960 position? add --chess960)")
        } else {
            e.to_string()
        }
    })
}

/// The output lines of a perft run: the divide lines (if asked), then `nodes N`.
pub fn perft_lines(pos: &Position, depth: u32, divide: bool) -> Vec<String> {
    let mut lines = Vec::new();
    let total = if divide && depth > 0 {
        let mut total = 0;
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let n = perft(&child, depth - 1);
            lines.push(format!("{}: {n}", pos.uci(m)));
            total += n;
        }
        total
    } else {
        perft(pos, depth)
    };
    lines.push(format!("nodes {total}"));
    lines
}

/// Runs `cajitas perft`: exit 0, or 2 with a message naming the FEN field at fault.
pub fn run(args: &PerftArgs) -> ExitCode {
    let pos = match perft_position(args.fen.as_deref(), args.chess960) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let lines = perft_lines(&pos, args.depth, args.divide);
    let elapsed = start.elapsed();
    let mut out = std::io::stdout().lock();
    for line in &lines {
        if let Err(e) = writeln!(out, "{line}") {
            super::stdout_failed(&e);
        }
    }
    let nodes: u64 = lines
        .last()
        .and_then(|l| l.strip_prefix("nodes "))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let secs = elapsed.as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.1} Mnps",
        secs,
        if secs > 0.0 {
            nodes as f64 / secs / 1e6
        } else {
            0.0
        }
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_lines_sum_to_the_total() {
        let lines = perft_lines(&Position::new(), 2, true);
        assert_eq!(lines.len(), 21);
        assert!(lines.contains(&"e2e4: 20".to_string()));
        assert_eq!(lines.last().unwrap(), "nodes 400");
    }

    #[test]
    fn chess960_divide_writes_castling_as_king_takes_rook() {
        // Published: 21 moves, 528 at depth 2 (chessprogramming.org Chess960 perft results).
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        // Shredder letters imply Chess960; the flag gives the same.
        for chess960 in [false, true] {
            let pos = perft_position(Some(fen), chess960).unwrap();
            assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
            assert_eq!(perft_lines(&pos, 2, false), ["nodes 528"]);
        }
        // KQkq is X-FEN for the same rights: Chess960 only with the flag.
        let xfen = fen.replace("HFhf", "KQkq");
        let err = perft_position(Some(&xfen), false).unwrap_err();
        assert!(
            err.ends_with("(a Chess960 position? add --chess960)"),
            "{err}"
        );
        let err = perft_position(Some("8/8/8/8/8/8/8/K7 w - - 0 1"), false).unwrap_err();
        assert!(!err.contains("--chess960"), "{err}");
        let pos = perft_position(Some(&xfen), true).unwrap();
        let lines = perft_lines(&pos, 1, true);
        assert_eq!(lines.len(), 22);
        assert_eq!(lines.last().unwrap(), "nodes 21");
        // The king on g1 castles short with the h1 rook without moving: g1h1.
        let pos = perft_position(Some("4k3/8/8/8/8/8/8/4K1R1 w G - 0 1"), false).unwrap();
        assert!(perft_lines(&pos, 1, true).contains(&"e1g1: 1".to_string()));
        let pos = perft_position(Some("4k3/8/8/8/8/8/8/RK5R w HA - 0 1"), false).unwrap();
        let lines = perft_lines(&pos, 1, true);
        assert!(lines.contains(&"b1a1: 1".to_string()), "{lines:?}");
        assert!(lines.contains(&"b1h1: 1".to_string()), "{lines:?}");
        // The standard start: castling rights as KQkq, standard unless asked.
        assert_eq!(
            perft_position(None, true).unwrap().castling_mode(),
            CastlingMode::Chess960
        );
        assert_eq!(
            perft_position(None, false).unwrap().castling_mode(),
            CastlingMode::Standard
        );
    }

    #[test]
    fn castling_and_promotion_in_uci() {
        let pos = Position::from_fen("r3k3/1P6/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let ucis: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|m| cajitas_rules::Uci::from_move(*m).to_string())
            .collect();
        assert!(ucis.contains(&"e1g1".to_string()));
        assert!(ucis.contains(&"b7a8n".to_string()));
    }
}
