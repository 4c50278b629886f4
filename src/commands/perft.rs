//! `cajitas perft DEPTH [--fen FEN] [--divide]`: counts the leaf nodes of the legal
//! move tree (single-threaded, bulk counting). The last line on stdout is exactly
//! `nodes N`; timing goes to stderr.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use cajitas_rules::{Position, Uci, perft};

/// Flags of `cajitas perft`.
#[derive(Debug, Clone, clap::Args)]
pub struct PerftArgs {
    /// How many plies deep to count.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=30))]
    pub depth: u32,
    /// Start from this FEN instead of the initial position.
    #[arg(long)]
    pub fen: Option<String>,
    /// First print `UCI: count` for every legal move at the root.
    #[arg(long)]
    pub divide: bool,
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
            lines.push(format!("{}: {n}", Uci::from_move(m)));
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
    let pos = match super::start_position(args.fen.as_deref()) {
        Ok(pos) => pos,
        Err(code) => return code,
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
    fn castling_and_promotion_in_uci() {
        let pos = Position::from_fen("r3k3/1P6/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let ucis: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|m| Uci::from_move(*m).to_string())
            .collect();
        assert!(ucis.contains(&"e1g1".to_string()));
        assert!(ucis.contains(&"b7a8n".to_string()));
    }
}
