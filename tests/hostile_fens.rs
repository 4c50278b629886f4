//! Issue 12, item 8: arbitrary FENs, sensible or not, through what `cajitas replay --fen`,
//! `cajitas perft` (with and without `--divide`), `cajitas render` and a PGN `[FEN]` tag
//! run, as library calls (many FENs) and as the CLI (the issue's FEN): never a panic.
//! A FEN with more legal moves than the move list holds once panicked all of them.

use std::process::{Command, Output};

use cajitas::commands::perft::perft_lines;
use cajitas::commands::replay::{GameReport, replay};
use cajitas::render::{BoardView, Highlights, Orientation, RenderOptions, render, view::alt_text};
use cajitas_rules::{Board, CastlingMode, Fen, Lang, Position, Setup, san};

/// More legal moves (263) than the move list's 256.
const ISSUE_FEN: &str = "QQQQQQnk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1";

/// FENs that are valid, nearly valid, crowded or plain broken: seeded, so every run tries
/// the same ones.
fn fens(count: usize) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(12);
    let seeds = [
        Fen::INITIAL,
        ISSUE_FEN,
        "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ];
    let pieces = b"PNBRQKpnbrqk";
    let mut out: Vec<String> = seeds.iter().map(|s| s.to_string()).collect();
    while out.len() < count {
        let fen = match rng.usize(0..4) {
            // A position reached by random moves from a playable seed.
            3 => {
                let mut pos = loop {
                    if let Ok(pos) = Position::from_fen(seeds[rng.usize(0..seeds.len())]) {
                        break pos;
                    }
                };
                for _ in 0..rng.usize(0..60) {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.play(moves[rng.usize(0..moves.len())]);
                }
                pos.fen()
            }
            // Random placement, queens most likely, random side, rights and en passant.
            0 => {
                let mut board = Board::empty();
                let density = rng.f64();
                for i in 0..64 {
                    if rng.f64() < density {
                        let c = if rng.u8(0..3) == 0 {
                            pieces[rng.usize(0..pieces.len())]
                        } else {
                            b'Q'
                        };
                        let piece = cajitas_rules::Piece::from_char(c as char).unwrap();
                        board.set_piece_at(cajitas_rules::Square::new(i), piece);
                    }
                }
                let setup = Setup {
                    board,
                    turn: if rng.bool() {
                        cajitas_rules::Color::White
                    } else {
                        cajitas_rules::Color::Black
                    },
                    ..Setup::empty()
                };
                let fen = Fen(setup).to_string();
                let (place, _) = fen.split_once(' ').unwrap();
                let rights = ["-", "KQkq", "K", "q", "HAha"][rng.usize(0..5)];
                let ep = ["-", "e3", "d6", "a6", "h3"][rng.usize(0..5)];
                let side = if rng.bool() { "w" } else { "b" };
                format!(
                    "{place} {side} {rights} {ep} {} {}",
                    rng.u32(0..200),
                    rng.u32(0..500)
                )
            }
            // A seed with a few characters changed, dropped or doubled.
            1 => {
                let mut chars: Vec<char> = seeds[rng.usize(0..seeds.len())].chars().collect();
                for _ in 0..rng.usize(1..4) {
                    let i = rng.usize(0..chars.len());
                    match rng.u8(0..3) {
                        0 => chars[i] = pieces[rng.usize(0..pieces.len())] as char,
                        1 => {
                            chars.remove(i);
                        }
                        _ => chars.insert(i, chars[i]),
                    }
                    if chars.is_empty() {
                        break;
                    }
                }
                chars.into_iter().collect()
            }
            // Anything printable.
            _ => (0..rng.usize(0..80)).map(|_| rng.char(' '..='~')).collect(),
        };
        out.push(fen);
    }
    out
}

#[test]
fn arbitrary_fens_through_perft_replay_and_render_never_panic() {
    let small = RenderOptions {
        size: 128,
        orientation: Orientation::White,
        theme: "brown".into(),
    };
    let mut playable = 0;
    for fen in fens(400) {
        // Whatever the text, the board as placed can be drawn (no kings, 60 queens...).
        if let Ok(parsed) = fen.parse::<Fen>() {
            let view = BoardView::from(&parsed.0.board);
            render(&view, &Highlights::none(), &small).expect("render a parsed board");
        }
        // The PGN reader with the text as a FEN tag: its game fails or reads, and the game
        // after it still reads.
        // (Without the characters a tag value would need escaped.)
        let tag = fen.replace(['"', '\\'], "");
        let pgn = format!("[FEN \"{tag}\"]\n\n*\n\n[Event \"b\"]\n\n1. e4 *\n");
        let reports = replay(&pgn, &Position::new(), Lang::En);
        assert_eq!(reports.len(), 2, "{fen:?}: {reports:?}");
        assert!(reports[1].is_ok(), "{fen:?}: {reports:?}");
        // The reader takes Shredder-FEN castling letters as Chess960 (issue 31).
        let mode = CastlingMode::implied_by_fen(&tag);
        match (&reports[0], Position::from_fen_with(tag.trim(), mode)) {
            (GameReport::Played { .. }, Ok(_)) => {}
            (GameReport::Failed { error, .. }, Err(e)) => {
                assert!(error.contains("FEN tag"), "{fen:?}: {error}");
                assert!(error.contains(&e.to_string()), "{fen:?}: {error}");
            }
            (report, _) => panic!("{fen:?}: {report:?}"),
        }

        let Ok(pos) = Position::from_fen(&fen) else {
            continue;
        };
        playable += 1;
        // perft 2 and perft 1 --divide.
        let nodes = perft_lines(&pos, 2, false);
        assert!(nodes.last().unwrap().starts_with("nodes "), "{nodes:?}");
        let divide = perft_lines(&pos, 1, true);
        assert_eq!(divide.len(), pos.legal_moves().len() + 1, "{fen}");
        // replay --fen: no moves, then the first legal move.
        assert!(replay("", &pos, Lang::En)[0].is_ok(), "{fen}");
        if let Some(&m) = pos.legal_moves().first() {
            let r = replay(&san(&pos, m).to_string(), &pos, Lang::En);
            assert_eq!(r.len(), 1, "{fen}");
        }
        // render, as the bot draws it: the checked king's square highlighted.
        let view = BoardView::from(&pos);
        render(&view, &Highlights::after(&pos, None), &small).expect("render a position");
        assert!(!alt_text(&pos).is_empty());
    }
    assert!(playable >= 80, "only {playable} playable FENs were tried");
}

fn cajitas(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cajitas"))
        .args(args)
        .env_remove("DISCORD_TOKEN")
        .output()
        .unwrap()
}

/// The issue's FEN on every CLI path: exit 2 with the reason, not a panic (exit 101).
#[test]
fn the_issue_fen_is_refused_by_every_command() {
    let dir = std::env::temp_dir().join(format!("cajitas-hostile-fens-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("board.png");
    let png = png.to_str().unwrap();
    for args in [
        vec!["replay", "--fen", ISSUE_FEN],
        vec!["perft", "2", "--fen", ISSUE_FEN],
        vec!["perft", "1", "--divide", "--fen", ISSUE_FEN],
        vec!["render", "--fen", ISSUE_FEN, "-o", png],
    ] {
        let out = if args[0] == "replay" {
            Command::new(env!("CARGO_BIN_EXE_cajitas"))
                .args(&args)
                .env_remove("DISCORD_TOKEN")
                .stdin(std::process::Stdio::null())
                .output()
                .unwrap()
        } else {
            cajitas(&args)
        };
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("white has 27 pieces"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
