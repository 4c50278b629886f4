//! Perft suites: every `tests/data/*.epd` file, each naming its source in a header
//! comment, read by one generic test. Lines are `FEN ;D1 n ;D2 n ...` with published
//! counts. Files whose name starts with `chess960` are read in Chess960 mode. By default each position runs every listed depth whose count is at most
//! [`NODE_BUDGET`] (seconds in the test profile); `cargo test -p cajitas-rules --release
//! -- --ignored` runs every listed depth.

use std::path::Path;

use cajitas_rules::{CastlingMode, Position, perft};

/// The largest published count the default test checks.
const NODE_BUDGET: u64 = 5_000_000;

struct Case {
    file: String,
    line: usize,
    fen: String,
    mode: CastlingMode,
    counts: Vec<(u32, u64)>,
}

fn load_cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/data exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "epd"))
        .collect();
    files.sort();
    assert!(files.len() >= 3, "expected the perft data files in {dir:?}");
    let mut cases = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable data file");
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let mode = if name.starts_with("chess960") {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        assert!(
            text.lines()
                .next()
                .is_some_and(|l| l.starts_with("# Source:")),
            "{name} must name its source in its first line"
        );
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let (d, n) = p.trim().split_once(' ').expect("`Dn count`");
                    let depth = d.trim_start_matches('D').parse().expect("depth");
                    (depth, n.trim().parse().expect("count"))
                })
                .collect::<Vec<_>>();
            assert!(!counts.is_empty(), "{name}:{}: no counts", i + 1);
            cases.push(Case {
                file: name.clone(),
                line: i + 1,
                fen,
                mode,
                counts,
            });
        }
    }
    cases
}

fn run(budget: u64) -> (usize, u64) {
    let cases = load_cases();
    let mut checked = 0;
    let mut nodes = 0;
    let mut failures = Vec::new();
    for case in &cases {
        let pos = Position::from_fen_with(&case.fen, case.mode)
            .unwrap_or_else(|e| panic!("{}:{}: {e}", case.file, case.line));
        for &(depth, expected) in &case.counts {
            if expected > budget {
                continue;
            }
            let got = perft(&pos, depth);
            checked += 1;
            nodes += got;
            if got != expected {
                failures.push(format!(
                    "{}:{}: {} depth {depth}: expected {expected}, got {got}",
                    case.file, case.line, case.fen
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
    (checked, nodes)
}

#[test]
fn perft_suites() {
    let (checked, nodes) = run(NODE_BUDGET);
    // Every file contributes: more than 126 positions in all, most at several depths.
    assert!(checked > 500, "only {checked} counts checked");
    eprintln!("{checked} perft counts checked, {nodes} nodes");
}

#[test]
#[ignore = "minutes: every published depth, run with --release -- --ignored"]
fn perft_suites_full() {
    run(u64::MAX);
}
