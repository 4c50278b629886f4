//! `cajitas render` end to end: files written, sizes, and errors with exit code 2.

#[path = "support/bot.rs"]
mod bot;

use std::path::Path;
use std::process::{Command, Output};

fn cajitas(args: &[&str], dir: &Path) -> Output {
    cajitas_with_pieces_var(args, dir, None)
}

fn cajitas_with_pieces_var(args: &[&str], dir: &Path, pieces: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cajitas"));
    cmd.args(args).current_dir(dir).env_remove("CAJITAS_PIECES");
    if let Some(p) = pieces {
        cmd.env("CAJITAS_PIECES", p);
    }
    cmd.output().expect("run cajitas")
}

/// A fresh temporary folder, removed on drop.
fn temp_dir(name: &str) -> bot::TempDir {
    bot::TempDir::new(&format!("render-{name}"))
}

fn png_size(path: &Path) -> (u32, u32) {
    let file = std::fs::File::open(path).unwrap();
    let reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap();
    let info = reader.info();
    (info.width, info.height)
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn one_fen_to_a_file_with_a_clamped_size() {
    let dir = temp_dir("one");
    let out = cajitas(
        &[
            "render",
            "--fen",
            START,
            "--size",
            "2000",
            "--theme",
            "green",
            "--orientation",
            "auto",
            "-o",
            "board.png",
        ],
        &dir,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("using 1024 px"), "{stderr}");
    assert_eq!(png_size(&dir.join("board.png")), (1024, 1024));
}

#[test]
fn many_fens_to_numbered_files() {
    let dir = temp_dir("many");
    std::fs::write(
        dir.join("fens.txt"),
        format!("{START}\n\n  \n4k3/8/8/8/8/8/4r3/4K3 w - - 0 1\n"),
    )
    .unwrap();
    let out = cajitas(
        &[
            "render",
            "--fen",
            START,
            "--fens",
            "fens.txt",
            "--last-move",
            "e2e4",
            "--size",
            "256",
            "--out",
            "boards",
        ],
        &dir,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for name in ["0000.png", "0001.png", "0002.png"] {
        assert_eq!(
            png_size(&dir.join("boards").join(name)),
            (256, 256),
            "{name}"
        );
    }
    assert!(!dir.join("boards/0003.png").exists());
}

#[test]
fn a_bad_fen_line_names_the_line_and_field_and_exits_2() {
    let dir = temp_dir("bad");
    std::fs::write(
        dir.join("fens.txt"),
        format!("{START}\n\n{}\n", START.replace(" w ", " x ")),
    )
    .unwrap();
    let out = cajitas(&["render", "--fens", "fens.txt", "--out", "boards"], &dir);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("fens.txt line 3"), "{stderr}");
    assert!(stderr.contains("side to move"), "{stderr}");
    // Nothing was written.
    assert!(!dir.join("boards").exists());
}

#[test]
fn bad_flags_exit_2_with_a_message() {
    let dir = temp_dir("flags");
    let cases: [(&[&str], &str); 4] = [
        (
            &["render", "--fen", START, "--theme", "purple", "-o", "x.png"],
            "unknown theme",
        ),
        (
            &[
                "render",
                "--fen",
                START,
                "--last-move",
                "e2e9",
                "-o",
                "x.png",
            ],
            "--last-move",
        ),
        (
            &["render", "--fen", START, "--fen", START, "-o", "x.png"],
            "use --out DIR",
        ),
        (
            &[
                "render",
                "--fen",
                START,
                "--pieces",
                "no-such-dir",
                "-o",
                "x.png",
            ],
            "wP.svg",
        ),
    ];
    for (args, needle) in cases {
        let out = cajitas(args, &dir);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
    assert!(!dir.join("x.png").exists());
}

#[test]
fn a_pieces_folder_is_used_instead_of_the_built_in_set() {
    let dir = temp_dir("pieces");
    let set = dir.join("set");
    std::fs::create_dir_all(&set).unwrap();
    // Twelve plain squares: white pieces blue, black pieces red.
    for c in ["w", "b"] {
        for r in ["K", "Q", "R", "B", "N", "P"] {
            let fill = if c == "w" { "#0000ff" } else { "#ff0000" };
            std::fs::write(
                set.join(format!("{c}{r}.svg")),
                format!(r#"<svg xmlns="http://www.w3.org/2000/svg" width="45" height="45"><rect x="10" y="10" width="25" height="25" fill="{fill}"/></svg>"#),
            )
            .unwrap();
        }
    }
    let out = cajitas(
        &[
            "render",
            "--fen",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "--pieces",
            "set",
            "--size",
            "256",
            "-o",
            "b.png",
        ],
        &dir,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let file = std::fs::File::open(dir.join("b.png")).unwrap();
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    reader.next_frame(&mut buf).unwrap();
    let px = |x: usize, y: usize| &buf[(y * 256 + x) * 3..][..3];
    // e1 is column 4, row 7 (32 px squares): its centre is blue; e8's is red.
    assert_eq!(px(4 * 32 + 16, 7 * 32 + 16), [0, 0, 255]);
    assert_eq!(px(4 * 32 + 16, 16), [255, 0, 0]);

    // The same folder named by CAJITAS_PIECES; an empty CAJITAS_PIECES means the built-in set.
    let king = [
        "render",
        "--fen",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "--size",
        "256",
        "-o",
    ];
    let env_out = cajitas_with_pieces_var(&[&king[..], &["env.png"]].concat(), &dir, Some("set"));
    assert!(env_out.status.success());
    assert_eq!(
        std::fs::read(dir.join("env.png")).unwrap(),
        std::fs::read(dir.join("b.png")).unwrap()
    );
    let empty = cajitas_with_pieces_var(&[&king[..], &["builtin.png"]].concat(), &dir, Some(""));
    assert!(
        empty.status.success(),
        "{}",
        String::from_utf8_lossy(&empty.stderr)
    );
    assert_ne!(
        std::fs::read(dir.join("builtin.png")).unwrap(),
        std::fs::read(dir.join("b.png")).unwrap()
    );
    let missing = cajitas_with_pieces_var(&[&king[..], &["x.png"]].concat(), &dir, Some("nope"));
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("CAJITAS_PIECES: cannot read"));
}

/// Runs `cajitas ARGS` in `dir` with its address space capped at 2 GiB (so an unbounded read
/// fails in the child instead of eating the machine) and a 60 s deadline. Gives the output
/// and how long it ran.
fn cajitas_capped(args: &[&str], dir: &Path) -> (Output, std::time::Duration) {
    use std::process::Stdio;
    let t0 = std::time::Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -v 2097152 && exec "$0" "$@""#)
        .arg(env!("CARGO_BIN_EXE_cajitas"))
        .args(args)
        .current_dir(dir)
        .env_remove("CAJITAS_PIECES")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run cajitas");
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (out, t0.elapsed())
}

#[test]
fn an_endless_fens_file_is_refused_without_reading_it_all() {
    // /dev/zero reports size 0 in its metadata and never ends.
    let dir = temp_dir("devzero");
    let (out, took) = cajitas_capped(&["render", "--fens", "/dev/zero", "--out", "b"], &dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot read /dev/zero: it is larger than 64 MiB"),
        "{stderr}"
    );
    assert!(took.as_secs() < 20, "took {took:?}");
    assert!(!dir.join("b").join("0000.png").exists());
}

#[test]
fn an_endless_piece_file_is_refused() {
    let dir = temp_dir("bigpiece");
    let set = dir.join("set");
    std::fs::create_dir_all(&set).unwrap();
    for c in ["w", "b"] {
        for r in ["K", "Q", "R", "B", "N", "P"] {
            std::fs::write(
                set.join(format!("{c}{r}.svg")),
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="45" height="45"><rect x="10" y="10" width="25" height="25"/></svg>"#,
            )
            .unwrap();
        }
    }
    // The queen is an endless file whose metadata says 0 bytes.
    std::fs::remove_file(set.join("wQ.svg")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", set.join("wQ.svg")).unwrap();
    let args = [
        "render", "--fen", START, "--pieces", "set", "--size", "128", "-o", "b.png",
    ];
    let (out, took) = cajitas_capped(&args, &dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("wQ.svg is larger than 1 MiB; is it really a piece?"),
        "{stderr}"
    );
    assert!(took.as_secs() < 20, "took {took:?}");
    assert!(!dir.join("b.png").exists());

    // A plain file just over the limit is refused the same way.
    std::fs::remove_file(set.join("wQ.svg")).unwrap();
    let mut big =
        String::from(r#"<svg xmlns="http://www.w3.org/2000/svg" width="45" height="45"><!--"#);
    big.push_str(&" ".repeat(1 << 20));
    big.push_str("--></svg>");
    std::fs::write(set.join("wQ.svg"), big).unwrap();
    let (out, _) = cajitas_capped(&args, &dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("wQ.svg is larger than 1 MiB"), "{stderr}");
}

#[test]
fn a_symlink_planted_in_the_out_folder_is_replaced_not_followed() {
    let dir = temp_dir("symlink");
    std::fs::create_dir_all(dir.join("boards")).unwrap();
    std::fs::write(dir.join("victim.txt"), "precious").unwrap();
    std::os::unix::fs::symlink(dir.join("victim.txt"), dir.join("boards").join("0000.png"))
        .unwrap();
    let out = cajitas(&["render", "--fen", START, "--out", "boards"], &dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("victim.txt")).unwrap(),
        "precious"
    );
    let board = dir.join("boards").join("0000.png");
    assert!(std::fs::symlink_metadata(&board).unwrap().is_file());
    assert_eq!(png_size(&board), (512, 512));
    assert_eq!(std::fs::read_dir(dir.join("boards")).unwrap().count(), 1);
}

#[test]
fn a_game_to_an_animated_gif_from_moves_and_from_pgn() {
    let dir = temp_dir("gif");
    let out = cajitas(
        &[
            "render",
            "--gif",
            "m.gif",
            "--moves",
            "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#",
            "--size",
            "128",
        ],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let frames = |name: &str| {
        let bytes = std::fs::read(dir.path().join(name)).unwrap();
        let mut d = gif::DecodeOptions::new().read_info(&bytes[..]).unwrap();
        let mut n = 0;
        while d.read_next_frame().unwrap().is_some() {
            n += 1;
        }
        n
    };
    assert_eq!(frames("m.gif"), 8);
    std::fs::write(
        dir.path().join("g.pgn"),
        "[White \"Anderssen\"]\n[Black \"Kieseritzky\"]\n\n1. e4 e5 2. f4 1-0\n\n1. d4 *\n",
    )
    .unwrap();
    let out = cajitas(
        &[
            "render", "--gif", "p.gif", "--pgn", "g.pgn", "--size", "128",
        ],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(frames("p.gif"), 4);
    // Bad input: exit code 2, no file.
    let out = cajitas(
        &["render", "--gif", "bad.gif", "--moves", "e4 e5 Kxe9"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(!dir.path().join("bad.gif").exists());
    let out = cajitas(&["render", "--moves", "e4", "-o", "x.png"], dir.path());
    assert_eq!(out.status.code(), Some(2));
}

/// Morphy's Opera Game (Paris 1858): rook moves all through it, and a mate at the end.
const OPERA: &str = "[White \"Paul Morphy\"]\n[Black \"Duke Karl / Count Isouard\"]\n\
    [Result \"1-0\"]\n\n1.e4 e5 2.Nf3 d6 3.d4 Bg4 4.dxe5 Bxf3 5.Qxf3 dxe5 6.Bc4 Nf6 \
    7.Qb3 Qe7 8.Nc3 c6 9.Bg5 b5 10.Nxb5 cxb5 11.Bxb5+ Nbd7 12.O-O-O Rd8 13.Rxd7 Rxd7 \
    14.Rd1 Qe6 15.Bxd7+ Nxd7 16.Qb8+ Nxb8 17.Rd8# 1-0\n";

fn gif_frames(path: &Path) -> usize {
    let bytes = std::fs::read(path).unwrap();
    let mut d = gif::DecodeOptions::new().read_info(&bytes[..]).unwrap();
    let mut n = 0;
    while d.read_next_frame().unwrap().is_some() {
        n += 1;
    }
    n
}

/// Issue 25 item 15: a move after the game ended by itself (here a fivefold repetition:
/// legal moves remain, so the reader finds one) once panicked (exit 101). Now: exit 2, the
/// move named and why, in the language of --lang; no file.
#[test]
fn a_move_after_the_game_ended_is_refused_by_name() {
    let dir = temp_dir("over");
    let moves = format!("{}Nf3", "Nf3 Nf6 Ng1 Ng8 ".repeat(4));
    for (lang, why) in [
        (
            "en",
            "--moves: move 17 \"Nf3\": The game was already over: draw by fivefold repetition.",
        ),
        (
            "es",
            "--moves: jugada 17 «Nf3»: La partida ya había terminado: tablas por quíntuple repetición de jugadas.",
        ),
    ] {
        let out = cajitas(
            &[
                "render", "--gif", "over.gif", "--moves", &moves, "--lang", lang,
            ],
            dir.path(),
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{lang}: {stderr}");
        assert_eq!(stderr.trim(), format!("error: {why}"), "{lang}");
    }
    // After a mate: the move is refused too (the reader finds no legal move).
    let out = cajitas(
        &[
            "render",
            "--gif",
            "over.gif",
            "--moves",
            "f3 e5 g4 Qh4# a3",
            "--lang",
            "es",
        ],
        dir.path(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "jugada 5 «a3»: La partida ya había terminado: ganaron las negras por jaque mate."
        ),
        "{stderr}"
    );
    assert!(!dir.path().join("over.gif").exists());
}

/// Issue 25 item 18: `--pgn` is read as standard SAN whatever --lang says (in Spanish, `R`
/// was read as the king and the Opera Game failed at 13...Rxd7).
#[test]
fn a_pgn_full_of_rook_moves_draws_in_both_languages() {
    let dir = temp_dir("opera");
    std::fs::write(dir.path().join("opera.pgn"), OPERA).unwrap();
    for lang in ["en", "es"] {
        let gif = format!("opera-{lang}.gif");
        let out = cajitas(
            &[
                "render",
                "--gif",
                &gif,
                "--pgn",
                "opera.pgn",
                "--size",
                "128",
                "--lang",
                lang,
            ],
            dir.path(),
        );
        assert!(
            out.status.success(),
            "{lang}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(gif_frames(&dir.path().join(&gif)), 34, "{lang}");
    }
    // A PGN error is said in the language of --lang.
    std::fs::write(
        dir.path().join("bad.pgn"),
        "[Event \"x\"]\n\n1. e4 e5 2. Nf4 *\n",
    )
    .unwrap();
    let out = cajitas(
        &[
            "render", "--gif", "bad.gif", "--pgn", "bad.pgn", "--lang", "es",
        ],
        dir.path(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("bad.pgn: línea 3: 2. Nf4: Ningún caballo puede llegar a f4."),
        "{stderr}"
    );
}

/// Issue 26: a game without names is captioned "Blancas – Negras" in Spanish: the GIF is the
/// one the library draws with those names.
#[test]
fn a_game_without_names_is_captioned_in_the_language_of_lang() {
    use cajitas::render::Renderer;
    use cajitas::render::gif::{GifCaption, GifOptions};
    let dir = temp_dir("names");
    let moves = "f3 e5 g4 Qh4#";
    let mut game = cajitas_rules::Game::new();
    for m in moves.split_whitespace() {
        let mv = cajitas_rules::read_move(game.position(), m, cajitas_rules::Lang::En).unwrap();
        game.try_play(mv).unwrap();
    }
    for (lang, code, white, black) in [
        (cajitas_rules::Lang::Es, "es", "Blancas", "Negras"),
        (cajitas_rules::Lang::En, "en", "White", "Black"),
    ] {
        let gif = format!("{code}.gif");
        let out = cajitas(
            &[
                "render", "--gif", &gif, "--moves", moves, "--size", "128", "--lang", code,
            ],
            dir.path(),
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let expected = Renderer::new()
            .game_gif(
                &game,
                &GifCaption {
                    white: white.into(),
                    black: black.into(),
                    outcome: game.outcome(),
                    lang,
                    opening: cajitas::openings::of_game(game.start(), game.moves())
                        .map(|found| found.opening.name.to_owned()),
                },
                &GifOptions {
                    size: 128,
                    ..GifOptions::default()
                },
            )
            .unwrap();
        assert!(
            std::fs::read(dir.path().join(&gif)).unwrap() == expected,
            "{code}: captioned {white} – {black}"
        );
    }
}

#[test]
fn the_built_in_piece_sets_are_chosen_by_name_for_boards_and_gifs() {
    let dir = temp_dir("builtin-sets");
    let board = |name: &str, pieces: &[&str], var: Option<&str>| {
        let args = [
            &["render", "--fen", START, "--size", "256", "-o", name][..],
            pieces,
        ]
        .concat();
        let out = cajitas_with_pieces_var(&args, dir.path(), var);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read(dir.path().join(name)).unwrap()
    };
    let default = board("default.png", &[], None);
    let dejavu = board("dejavu.png", &["--pieces", "dejavu"], None);
    // The default is our own set; DejaVu stays selectable, by flag or by CAJITAS_PIECES.
    assert_eq!(
        default,
        board("cajitas.png", &["--pieces", "cajitas"], None)
    );
    assert_ne!(default, dejavu);
    assert_eq!(dejavu, board("env.png", &[], Some("DejaVu")));
    assert_eq!(
        default,
        board("flag.png", &["--pieces", "cajitas"], Some("dejavu"))
    );

    // The animated GIF is drawn with the same pieces.
    let gif = |name: &str, pieces: &[&str]| {
        let args = [
            &["render", "--gif", name, "--moves", "e4 e5", "--size", "128"][..],
            pieces,
        ]
        .concat();
        let out = cajitas(&args, dir.path());
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read(dir.path().join(name)).unwrap()
    };
    assert_ne!(gif("a.gif", &[]), gif("b.gif", &["--pieces", "dejavu"]));
    assert_eq!(gif("a.gif", &[]), gif("c.gif", &["--pieces", "cajitas"]));
}
