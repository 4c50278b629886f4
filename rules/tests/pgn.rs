//! PGN import and export: real game files, round trips, and malformed input.

use cajitas_rules::pgn::{self, PgnErrorKind, PgnGame, PgnResult, Tags};
use cajitas_rules::{Color, DrawReason, Game, Lang, Outcome, Position, WinReason};

const HISTORICAL: &str = include_str!("data/pgn/historical.pgn");
const LICHESS: &str = include_str!("data/pgn/lichess.pgn");

fn read_all(text: &str) -> Vec<PgnGame> {
    pgn::read_games(text, Lang::En)
        .unwrap()
        .map(|g| g.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn mate(winner: Color) -> Option<Outcome> {
    Some(Outcome::Decisive {
        winner,
        reason: WinReason::Checkmate,
    })
}

#[test]
fn historical_games_import_without_error() {
    assert!(HISTORICAL.starts_with('\u{feff}'), "the file keeps its BOM");
    assert!(
        HISTORICAL.contains("\r\n"),
        "the file keeps its CRLF line ends"
    );
    let games = read_all(HISTORICAL);
    let expect: [(&str, usize, Option<Outcome>, PgnResult); 8] = [
        ("Morphy, Paul", 33, mate(Color::White), PgnResult::WhiteWins),
        (
            "Anderssen, Adolf",
            45,
            mate(Color::White),
            PgnResult::WhiteWins,
        ),
        (
            "Anderssen, Adolf",
            47,
            mate(Color::White),
            PgnResult::WhiteWins,
        ),
        (
            "Byrne, Donald",
            82,
            mate(Color::Black),
            PgnResult::BlackWins,
        ),
        ("Kasparov, Garry", 87, None, PgnResult::WhiteWins),
        (
            "Reti, Richard",
            21,
            mate(Color::White),
            PgnResult::WhiteWins,
        ),
        (
            "Lasker, Edward",
            35,
            mate(Color::White),
            PgnResult::WhiteWins,
        ),
        ("Adams, Edwin", 45, None, PgnResult::WhiteWins),
    ];
    assert_eq!(games.len(), expect.len());
    for (g, (white, plies, outcome, result)) in games.iter().zip(expect) {
        assert_eq!(g.tag("White"), Some(white));
        assert_eq!(g.game.ply(), plies, "{white}");
        assert_eq!(g.game.outcome(), outcome, "{white}");
        assert_eq!(g.result, Some(result), "{white}");
        assert_eq!(g.outcome().map(|o| o.pgn_result()), Some(result), "{white}");
    }
    // The Opera game's tags, accents and all.
    assert_eq!(games[0].tag("Site"), Some("Paris, Théâtre-Italien"));
    assert_eq!(games[0].line, 3);
    // A game that ended by resignation is read as one.
    assert_eq!(
        games[4].outcome(),
        Some(Outcome::Decisive {
            winner: Color::White,
            reason: WinReason::Resignation
        })
    );
}

#[test]
fn lichess_exports_import_without_error() {
    let games = read_all(LICHESS);
    assert_eq!(games.len(), 4);
    assert_eq!(games[0].game.ply(), 7);
    assert_eq!(games[0].game.outcome(), mate(Color::White));
    // From a position, with SetUp.
    assert_eq!(games[1].game.start().fen(), "7k/8/6K1/8/8/8/8/R7 w - - 0 1");
    assert_eq!(games[1].game.outcome(), mate(Color::White));
    // FEN without SetUp, Black to move.
    assert_eq!(games[2].game.start().turn(), Color::Black);
    assert_eq!(games[2].game.ply(), 4);
    assert_eq!(games[2].result, Some(PgnResult::Unknown));
    assert_eq!(games[2].outcome(), None);
    // The fivefold repetition ends the game by itself.
    assert_eq!(
        games[3].game.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::Fivefold
        })
    );
}

#[test]
fn export_then_import_gives_the_same_moves_and_result() {
    for text in [HISTORICAL, LICHESS] {
        for original in read_all(text) {
            let finished = original.finished_game();
            let written = pgn::write_game(&finished, &original.export_tags());
            assert!(
                written.lines().all(|l| l.chars().count() <= 80),
                "{written}"
            );
            let again =
                pgn::read_game(&written, Lang::En).unwrap_or_else(|e| panic!("{e}\n{written}"));
            assert_eq!(again.game.moves(), original.game.moves());
            assert_eq!(again.game.start(), original.game.start());
            assert_eq!(
                again.result,
                original
                    .result
                    .filter(|r| *r != PgnResult::Unknown)
                    .or(Some(PgnResult::Unknown))
            );
            assert_eq!(again.outcome(), original.outcome());
            for name in [
                "Event", "Site", "Date", "White", "Black", "ECO", "WhiteElo", "FEN",
            ] {
                assert_eq!(again.tag(name), original.tag(name), "{name}");
            }
        }
    }
}

#[test]
fn export_format() {
    let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 40").unwrap();
    let mut game = Game::from_position(pos);
    for text in ["Kd7", "e4", "Kd6"] {
        let m = cajitas_rules::read_move(game.position(), text, Lang::En).unwrap();
        game.try_play(m).unwrap();
    }
    game.resign(Color::Black).unwrap();
    let tags = Tags {
        event: "Cajitas \"casual\"".into(),
        site: "Discord".into(),
        date: Tags::date(2026, 11, 29),
        round: "-".into(),
        white: "Ana\\B".into(),
        black: "Bo\nC".into(),
        extra: vec![
            ("WhiteElo".into(), "1500".into()),
            ("Result".into(), "0-1".into()),
            ("bad name".into(), "x".into()),
        ],
    };
    let text = pgn::write_game(&game, &tags);
    assert_eq!(
        text,
        "[Event \"Cajitas \\\"casual\\\"\"]\n[Site \"Discord\"]\n[Date \"2026.11.29\"]\n\
         [Round \"-\"]\n[White \"Ana\\\\B\"]\n[Black \"Bo C\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n\
         [FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n[Termination \"Normal\"]\n[WhiteElo \"1500\"]\n\
         \n40... Kd7 41. e4 Kd6 1-0\n"
    );
    // Long games wrap at 80 columns, and every token survives.
    let long = read_all(HISTORICAL).remove(4).finished_game();
    let text = pgn::write_game(&long, &Tags::default());
    let movetext: Vec<&str> = text.split("\n\n").nth(1).unwrap().lines().collect();
    assert!(movetext.len() > 5);
    assert!(movetext.iter().all(|l| l.len() <= 80 && !l.ends_with(' ')));
    assert!(
        movetext
            .iter()
            .take(movetext.len() - 1)
            .all(|l| l.len() > 70),
        "lines are filled"
    );
    assert!(
        movetext
            .join(" ")
            .contains("24. Rxd4 cxd4 25. Re7+ Kb6 26. Qxd4+")
    );
    assert!(text.ends_with(" 1-0\n"));
}

#[test]
fn spanish_and_lenient_moves_inside_pgn() {
    let g = pgn::read_game(
        "1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 4. Axc6 dxc6 5. 0-0 *",
        Lang::Es,
    )
    .unwrap();
    assert_eq!(g.game.ply(), 9);
    let g = pgn::read_game("1.e2e4 e7e5 2.Ng1f3 Nb8c6 3.Bb5 a6 *", Lang::En).unwrap();
    assert_eq!(g.game.ply(), 6);
}

fn first_error(text: &str) -> pgn::PgnError {
    pgn::read_games(text, Lang::En)
        .unwrap()
        .find_map(Result::err)
        .expect("an error")
}

#[test]
fn malformed_pgn_names_the_line() {
    // An illegal move.
    let e = first_error("[Event \"x\"]\n[Site \"y\"]\n\n1. e4 e5\n2. Nf3 Nc6\n3. Bb5 Nf3 *\n");
    assert_eq!((e.line, e.ply, e.input.as_str()), (6, 5, "Nf3"));
    assert!(matches!(e.kind, PgnErrorKind::Move(_)));
    assert!(e.to_string().starts_with("line 6: 3... Nf3: "), "{e}");
    // Not a move at all.
    let e = first_error("1. e4 e5\n2. Xx9 *");
    assert_eq!((e.line, e.ply, e.input.as_str()), (2, 2, "Xx9"));
    // A comment never closed.
    let e = first_error("[Event \"x\"]\n1. e4 {what\nnever ends\n1-0\n");
    assert_eq!(e.line, 2);
    assert!(e.to_string().contains("never closed"), "{e}");
    // A tag pair never closed.
    let e = first_error("[Event \"x\"]\n[White \"Ana]\n1. e4 *");
    assert_eq!(e.line, 2);
    assert!(
        e.to_string().starts_with("line 2: malformed tag pair"),
        "{e}"
    );
    // A variation never closed.
    let e = first_error("1. e4 e5\n2. Nf3 (2. f4 exf4\n3. Bc4 *");
    assert_eq!(e.line, 2);
    // A FEN tag that is no position.
    let e = first_error("[Event \"x\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 *");
    assert!(matches!(e.kind, PgnErrorKind::Fen(_)), "{e}");
    assert_eq!(e.line, 1);
    // Another variant.
    let e = first_error("[Variant \"Crazyhouse\"]\n1. e4 *");
    assert!(e.to_string().contains("Crazyhouse"), "{e}");
    // A move after the game ended.
    let e = first_error("1. f3 e5 2. g4 Qh4# 3. e4 0-1");
    assert!(matches!(e.kind, PgnErrorKind::GameOver(_)), "{e}");
    assert_eq!((e.ply, e.input.as_str()), (4, "e4"));
    // A stray brace.
    let e = first_error("\n1. e4 } e5 *");
    assert_eq!(e.line, 2);
}

#[test]
fn a_failing_game_does_not_stop_the_others() {
    let text = "[Event \"1\"]\n1. e4 *\n\n[Event \"2\"]\n1. e5 *\n\n[Event \"3\"]\n1. d4 *\n";
    let games: Vec<_> = pgn::read_games(text, Lang::En).unwrap().collect();
    assert_eq!(games.len(), 3);
    assert!(games[0].is_ok() && games[2].is_ok());
    assert_eq!(games[1].as_ref().unwrap_err().line, 5);
}

#[test]
fn caps() {
    // 2,001 plies are too many (2,000 pass: see the splitter's unit tests).
    let too_many = "Nf3 Nf6 Ng1 Ng8 ".repeat(501);
    let e = first_error(&too_many);
    assert!(e.to_string().contains("2000"), "{e}");
    assert_eq!(e.ply, 2000);
    // 64 MiB.
    let huge = " ".repeat(pgn::MAX_FILE_BYTES + 1);
    let e = pgn::read_games(&huge, Lang::En).err().expect("too large");
    assert!(matches!(e.kind, PgnErrorKind::TooLarge { .. }));
    assert!(e.to_string().contains("64 MiB"), "{e}");
}

/// Issue 12, item 6: a chain of move numbers glued to each other (`1.1.1.…e4`) once recursed
/// per number and overflowed the stack (the process aborted). It reads as one move number.
#[test]
fn a_long_chain_of_glued_move_numbers_reads_without_overflow() {
    let text = format!("{{c}} {}e4 *", "1.".repeat(100_000));
    // On a small stack, as test threads and the bot's worker threads have.
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let g = pgn::read_game(&text, Lang::En).map_err(|e| e.to_string())?;
            Ok::<_, String>((g.game.sans(), g.result))
        })
        .unwrap();
    let (sans, result) = handle.join().expect("no stack overflow").unwrap();
    assert_eq!(sans, ["e4"]);
    assert_eq!(result, Some(PgnResult::Unknown));
}

/// Issue 12, item 7 (its speed is measured in `benches/pgn_tags.rs`): many tag pairs on one
/// line read as they would on separate lines, and a broken one there names its own text.
#[test]
fn many_tags_on_one_line() {
    let tags: String = (0..900).map(|i| format!("[T{i} \"v{i}\"]")).collect();
    let g = pgn::read_game(&format!("{tags}\n1. e4 *"), Lang::En).unwrap();
    assert_eq!(g.tags.len(), 900);
    assert_eq!(g.tag("T0"), Some("v0"));
    assert_eq!(g.tag("T899"), Some("v899"));
    assert_eq!(g.game.sans(), ["e4"]);

    // Over the cap of 1,000 tag pairs: that game fails, the next one reads.
    let tags = "[T \"v\"]".repeat(5000);
    let games: Vec<_> =
        pgn::read_games(&format!("{tags}\n1. e4 *\n\n[A \"b\"]\n1. d4 *"), Lang::En)
            .unwrap()
            .collect();
    assert_eq!(games.len(), 2);
    let e = games[0].as_ref().unwrap_err();
    assert!(e.to_string().contains("more than 1000 tag pairs"), "{e}");
    assert_eq!(games[1].as_ref().unwrap().game.sans(), ["d4"]);

    // A broken tag after 500 good ones on the same line: the error shows the broken tag's
    // start, capped, not the rest of the line.
    let good = "[T \"v\"]".repeat(500);
    let text = format!("{good}[Bad x] {good}\n1. e4 *");
    let e = first_error(&text);
    assert_eq!(e.line, 1);
    assert!(e.to_string().contains("malformed tag pair"), "{e}");
    assert!(e.input.starts_with("[Bad x] [T"), "{:?}", e.input);
    assert!(e.input.chars().count() <= 65, "{:?}", e.input);
}

/// Issue 12, item 9: an error message echoes at most `pgn::MAX_ECHO_CHARS` characters of the
/// text at fault (then `…`), however long that text is.
#[test]
fn error_messages_echo_a_capped_input() {
    let long = "N".repeat(1 << 20);
    let cap = pgn::MAX_ECHO_CHARS + 100;
    let shown = format!("{}\u{2026}", "N".repeat(pgn::MAX_ECHO_CHARS));
    // A move that cannot be read.
    let e = first_error(&format!("[Event \"x\"]\n1. {long} *"));
    assert!(matches!(e.kind, PgnErrorKind::Move(_)), "{e}");
    let message = e.to_string();
    assert!(message.len() < cap, "{} bytes", message.len());
    assert!(
        message.starts_with(&format!("line 2: 1. {shown}: ")),
        "{message}"
    );
    // A move after the game ended.
    let e = first_error(&format!("1. f3 e5 2. g4 Qh4# 3. {long} 0-1"));
    assert!(matches!(e.kind, PgnErrorKind::GameOver(_)), "{e}");
    assert!(
        e.to_string().len() < cap + 40,
        "{} bytes",
        e.to_string().len()
    );
    assert!(e.to_string().contains(&shown), "{e}");
    // A variant tag.
    let e = first_error(&format!("[Variant \"{long}\"]\n1. e4 *"));
    assert!(matches!(e.kind, PgnErrorKind::Variant(_)), "{e}");
    assert!(e.to_string().len() < cap, "{} bytes", e.to_string().len());
    assert!(e.to_string().contains(&shown), "{e}");
    // A FEN tag.
    let e = first_error(&format!("[FEN \"{long}\"]\n1. e4 *"));
    assert!(matches!(e.kind, PgnErrorKind::Fen(_)), "{e}");
    assert!(e.to_string().len() < cap, "{} bytes", e.to_string().len());
    // Short texts are shown whole.
    assert_eq!(pgn::echo("Nf4"), "Nf4");
    assert_eq!(pgn::echo(&long), shown);
}

/// A Chess960 game from #0 (`bbqnnrkr`) with both sides castling short, where the king
/// stays on g1/g8 and only the rook moves.
fn chess960_game() -> Game {
    let start = cajitas_rules::Chess960::position(0).unwrap();
    let mut game = Game::from_position(start);
    for text in ["f4", "f5", "Rf3", "Rf6", "O-O", "O-O", "Rg3", "Rg6"] {
        let m = cajitas_rules::read_move(game.position(), text, Lang::En)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        game.play(m);
    }
    game
}

#[test]
fn chess960_games_write_variant_setup_and_x_fen() {
    let game = chess960_game();
    let text = pgn::write_game(&game, &Tags::default());
    assert!(text.contains("[Variant \"Chess960\"]\n"), "{text}");
    assert!(text.contains("[SetUp \"1\"]\n"), "{text}");
    assert!(
        text.contains("[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]"),
        "{text}"
    );
    assert!(text.contains("3. O-O O-O"), "{text}");
    let back = pgn::read_game(&text, Lang::En).unwrap();
    assert_eq!(back.game.moves(), game.moves());
    assert!(back.game.start().castling_mode().is_chess960());
    assert_eq!(back.game.position().fen(), game.position().fen());

    // #518 is the standard position, but a Chess960 game still says so and gives its FEN.
    let standard = Game::from_position(cajitas_rules::Chess960::STANDARD.to_position());
    let text = pgn::write_game(&standard, &Tags::default());
    assert!(text.contains("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n"), "{text}");
    // A standard game has no Variant tag.
    assert!(!pgn::write_game(&Game::new(), &Tags::default()).contains("Variant"));
}

#[test]
fn the_chess960_variant_tag_reads_the_fen_in_chess960_mode() {
    // A king on b1 castling long with its rook on a1: legal only in Chess960, and only
    // when the FEN is read so (KQkq means the outermost rooks).
    let movetext = "1. O-O-O O-O-O 2. Kb1 *";
    let fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1";
    for variant in [
        "Chess960",
        "chess960",
        "Fischerandom",
        "FISCHERANDOM",
        " Chess960 ",
    ] {
        let text = format!("[Variant \"{variant}\"]\n[FEN \"{fen}\"]\n\n{movetext}");
        let g = pgn::read_game(&text, Lang::En).unwrap_or_else(|e| panic!("{variant}: {e}"));
        assert_eq!(g.game.moves().len(), 3, "{variant}");
        assert_eq!(
            g.game.position().fen(),
            "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/1K1R3R b - - 3 2"
        );
    }
    // Without the tag the same FEN is standard chess: no castling there.
    let err = pgn::read_game(&format!("[FEN \"{fen}\"]\n\n{movetext}"), Lang::En).unwrap_err();
    assert!(
        matches!(err.kind, PgnErrorKind::Fen(_) | PgnErrorKind::Move(_)),
        "{err}"
    );
    // Shredder-FEN letters say Chess960 by themselves.
    let text = "[FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w AHah - 0 1\"]\n\n1. O-O-O *";
    assert_eq!(
        pgn::read_game(text, Lang::En).unwrap().game.moves().len(),
        1
    );
    // Chess960 without FEN is #518; other variants stay refused.
    let g = pgn::read_game("[Variant \"Chess960\"]\n\n1. e4 *", Lang::En).unwrap();
    assert!(g.game.start().castling_mode().is_chess960());
    let err = pgn::read_game("[Variant \"Atomic\"]\n\n1. e4 *", Lang::En).unwrap_err();
    assert!(matches!(err.kind, PgnErrorKind::Variant(_)), "{err}");
}

#[test]
fn a_bare_movetext_from_a_standard_start_reads_as_chess960_when_the_tag_says_so() {
    // What `cajitas replay --fen` gives: a position read as standard chess; the Variant tag
    // turns it into Chess960, so the king takes its own rook to castle (e1h1 only there).
    let start = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
    let read = |text: &str| {
        pgn::read_games(text, Lang::En)
            .unwrap()
            .starting_from(start.clone())
            .next()
            .unwrap()
            .unwrap()
    };
    let g = read("[Variant \"Chess960\"]\n\n1. O-O *");
    assert!(g.game.start().castling_mode().is_chess960());
    assert_eq!(g.game.start().uci(g.game.moves()[0]).to_string(), "e1h1");
    let g = read("1. O-O *");
    assert!(!g.game.start().castling_mode().is_chess960());
    assert_eq!(g.game.start().uci(g.game.moves()[0]).to_string(), "e1g1");
}
