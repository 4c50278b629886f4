//! `cajitas local` driven through a pipe, as a script would.

#[path = "support/bot.rs"]
mod bot;
#[path = "support/console.rs"]
mod console;

use std::io::Write;
use std::process::{Command, Stdio};

use console::local;

/// A fresh temporary folder, removed on drop.
fn temp_dir(tag: &str) -> bot::TempDir {
    bot::TempDir::new(&format!("console-{tag}"))
}

const SCHOLARS_MATE: &str = "\
# alice is the default user
help
challenge bob white
as bob
accept
as alice
move e4
move d4
as bob
move e5
as carol
move Nf3
accept
as alice
move Qh5
as bob
move Nc6
as alice
move Bc4
as bob
move Nf6
move Nf6xx
as alice
move Qxf7#
board
history
frobnicate
move e4
quit
as nobody
";

#[test]
fn a_scripted_game_to_checkmate() {
    let dir = temp_dir("mate");
    let out = local(&dir, &[], SCHOLARS_MATE);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    for needle in [
        "challenge [NAME]",     // help
        "alice challenges bob", // challenge
        "begins: alice (white) against bob (black)",
        "alice plays e4.",
        "It is not your turn",               // move d4 by alice
        "You are not playing in this game.", // carol
        "no pending challenge",              // carol's accept
        "alice plays Qxf7#.",
        "8  r . b q k b . r", // the final board
        "White wins by checkmate (alice wins, 1-0).",
        "game 1: alice - bob  1-0", // history
        "Unknown command \"frobnicate\"",
        "already over", // move after mate
        "Board image: ",
    ] {
        assert!(stdout.contains(needle), "missing {needle:?} in\n{stdout}");
    }
    assert!(!stdout.contains("nobody"), "nothing runs after quit");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Each move rendered a PNG.
    let pngs: Vec<_> = std::fs::read_dir(dir.join("cajitas-local-boards"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(pngs.len(), 8, "{pngs:?}"); // the start + 7 moves
    let last = dir.join("cajitas-local-boards").join("game-1-ply-007.png");
    let bytes = std::fs::read(&last).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert!(stdout.contains(&last.display().to_string()), "{stdout}");

    // The same database, a second session: the game is still there.
    let out = local(&dir, &["--no-png"], "board\nhistory\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout.contains("White wins by checkmate"), "{stdout}");
}

#[test]
fn spanish_moves_and_end_of_input_without_quit() {
    let dir = temp_dir("es");
    let script = "challenge bob black\nas bob\naccept\nmove Cf3\nlang en\nas alice\nmove Rd5\nmove Nf6\nabort\n";
    let out = local(&dir, &["--lang", "es", "--as", "alice", "--no-png"], script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    // With --lang es the console speaks Spanish, moves in Spanish letters...
    assert!(stdout.contains("bob juega Cf3."), "{stdout}");
    // ...until `lang en` switches both the reading and the printing.
    // In English R is a rook, and no rook reaches d5.
    assert!(stdout.contains("rook"), "{stdout}");
    assert!(stdout.contains("alice plays Nf6."), "{stdout}");
    assert!(stdout.contains("Too late to abort"), "{stdout}");
    assert!(!dir.join("cajitas-local-boards").exists());
}

#[test]
fn bad_flags_are_refused() {
    let dir = temp_dir("flags");
    let out = local(&dir, &["--lang", "fr"], "");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("unknown language"), "{stderr}");
}

#[test]
fn only_the_working_directorys_env_file_is_read() {
    // parent/.env names a database; the bot starts in parent/a/b.
    let parent = temp_dir("dotenv");
    let work = parent.join("a").join("b");
    std::fs::create_dir_all(&work).unwrap();
    let planted = parent.join("planted.db");
    std::fs::write(
        parent.join(".env"),
        format!("CAJITAS_DB={}\n", planted.display()),
    )
    .unwrap();
    let run = || {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cajitas"))
            .args(["local", "--no-png"])
            .current_dir(&work)
            .env_remove("CAJITAS_DB")
            .env_remove("CAJITAS_CHALLENGE_TTL")
            .env_remove("DISCORD_TOKEN")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"challenge bob\n").unwrap();
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run();
    assert!(!planted.exists(), "the parent's .env was used");
    assert!(work.join("cajitas.db").exists());

    // A .env in the working directory is read.
    std::fs::write(work.join(".env"), "CAJITAS_DB=here.db\n").unwrap();
    run();
    assert!(work.join("here.db").exists());
    assert!(!planted.exists());
}

#[test]
fn an_overlong_line_is_discarded_with_a_message_and_the_session_goes_on() {
    let dir = temp_dir("long");
    // A 50 MB line without a newline until its end, then ordinary commands.
    let mut script = "x".repeat(50 << 20);
    script.push_str("\nhelp\nchallenge bob\n");
    let out = local(&dir, &["--no-png"], &script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stdout.contains("That line is longer than 500 characters; ignored."),
        "{stdout}"
    );
    // Nothing of the long line was run as a command.
    assert!(!stdout.contains("Unknown command"), "{stdout}");
    assert!(stdout.contains("challenge [NAME]"), "{stdout}");
    assert!(stdout.contains("alice challenges bob"), "{stdout}");
}

#[test]
fn a_line_of_exactly_the_limit_is_still_read() {
    let dir = temp_dir("limit");
    // `as NAME` with the line at 500 characters: read (the name is then capped at 100).
    let name = "b".repeat(500 - 3);
    let out = local(&dir, &["--no-png"], &format!("as {name}\n"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Now acting as bbbb"), "{stdout}");
    // One character more: refused.
    let out = local(&dir, &["--no-png"], &format!("as {name}b\n"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("longer than 500 characters"), "{stdout}");
    assert!(!stdout.contains("Now acting as"), "{stdout}");
}

#[test]
fn control_characters_in_names_are_escaped_when_printed() {
    let dir = temp_dir("ctrl");
    // ESC sequences that would clear the screen and set the terminal's title, a BEL, and a
    // C1 control (U+009B, the one-character CSI).
    let evil = "\u{1b}[2J\u{1b}]0;pwned\u{7}mal\u{9b}31mlory";
    let script = format!(
        "as {evil}\nchallenge bob white\nas bob\naccept\nresign\nhistory\npgn\nas {evil}\nmove e4\n"
    );
    let out = local(&dir, &["--no-png"], &script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let shown = r"\u{1b}[2J\u{1b}]0;pwned\u{7}mal\u{9b}31mlory";
    assert!(
        stdout.contains(&format!("Now acting as {shown}.")),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("{shown} challenges bob")),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("game 1: {shown} - bob")),
        "{stdout}"
    );
    // Not one control character other than the newline reaches the terminal, whoever
    // printed the name (the console itself, a status line, a refusal, the PGN).
    let raw: Vec<char> = stdout
        .chars()
        .filter(|c| c.is_control() && *c != '\n')
        .collect();
    assert!(
        raw.is_empty(),
        "raw control characters {raw:?} in\n{stdout}"
    );
}

#[test]
fn a_symlink_planted_in_the_boards_folder_is_replaced_not_followed() {
    let dir = temp_dir("symlink");
    let boards = dir.join("cajitas-local-boards");
    std::fs::create_dir_all(&boards).unwrap();
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    // `accept` draws the board of game 1 at ply 0.
    let board = boards.join("game-1-ply-000.png");
    std::os::unix::fs::symlink(&victim, &board).unwrap();
    let out = local(&dir, &[], "challenge bob\nas bob\naccept\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains(&format!("Board image: {}", board.display())),
        "{stdout}"
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    let meta = std::fs::symlink_metadata(&board).unwrap();
    assert!(meta.file_type().is_file(), "{:?}", meta.file_type());
    assert_eq!(&std::fs::read(&board).unwrap()[..8], b"\x89PNG\r\n\x1a\n");
    // Only the board is left in the folder (no temporary file).
    assert_eq!(std::fs::read_dir(&boards).unwrap().count(), 1);
}

#[test]
fn a_scripted_game_in_spanish() {
    let dir = temp_dir("es-game");
    let script = "\
help
lang
challenge bob blancas
as bob
accept
as alice
move e4
as bob
move e5
as alice
move Cf3
as bob
move Cc6
as alice
move Ac4
as bob
move Rd5
move Cf6
as alice
move Axf7+
as carol
move Rxf7
frobnicate
as bob
move Rxf7
as alice
draw offer
as bob
draw decline
as alice
resign
board
history
pgn
lang en
history
";
    let out = local(&dir, &["--lang", "es", "--no-png"], script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // The Spanish part: everything before the PGN.
    let (spanish, rest) = stdout.split_once("[Event").expect("a PGN");
    for needle in [
        "Órdenes (una por línea",                       // help
        "La consola habla español",                     // lang
        "alice desafía a bob: alice juega con blancas", // challenge
        "Empieza la partida 1: alice (blancas) contra bob (negras).",
        "Jugada 1: juegan las blancas (alice).",
        "alice juega e4.",
        "alice juega Cf3.", // Spanish letters, typed and shown
        "bob juega Cc6.",
        "alice juega Ac4.",
        "Ningún rey puede llegar a d5", // R is rey: an illegal move, refused in Spanish
        "alice juega Axf7+.",
        "¡Jaque!",
        "No juegas en esta partida.", // carol
        "Orden desconocida \"frobnicate\"",
        "bob juega Rxf7.",
        "alice ofrece tablas.",
        "Las blancas ofrecen tablas.",
        "bob rechaza las tablas; la partida continúa.",
        "alice abandona.",
        "Ganan las negras por abandono (gana bob, 0-1).",
        "material igualado",
        "partida 1: alice - bob  0-1  (abandono, 8 semijugadas)",
        // The opening under the status line: the label in Spanish, lichess's name in English.
        "Apertura: C55 Italian Game: Two Knights Defense",
    ] {
        assert!(spanish.contains(needle), "missing {needle:?} in\n{spanish}");
    }
    for english in [
        "Commands",
        "plays",
        "to move",
        "Check!",
        "wins",
        "offers a draw",
        "declines",
        "resigns",
        "Unknown",
        "challenges",
        "begins",
        "plies",
        "not playing",
        "material even",
    ] {
        assert!(
            !spanish.contains(english),
            "English {english:?} in the Spanish console:\n{spanish}"
        );
    }
    // The PGN stays English SAN; `lang en` switches the printing back to English.
    assert!(rest.contains("2. Nf3 Nc6 3. Bc4"), "{rest}");
    assert!(rest.contains("Bxf7+ Kxf7"), "{rest}");
    assert!(rest.contains("Now in English"), "{rest}");
    assert!(
        rest.contains("game 1: alice - bob  0-1  (resignation, 8 plies)"),
        "{rest}"
    );
}

#[test]
fn takebacks_in_the_console() {
    let dir = temp_dir("takeback");
    let script = "\
challenge bob white rated:false
as bob
accept
as alice
move e4
as bob
takeback
move e5
as alice
move Nf3
takeback
takeback accept
as bob
takeback accept
pgn
as alice
takeback
as bob
takeback decline
board
quit
";
    let out = local(&dir, &["--no-png"], script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    for needle in [
        "You have no move to take back.",
        "alice asks to take back their last move. bob, do you accept?",
        "You cannot answer your own takeback request; your opponent must.",
        "bob accepts the takeback: one move taken back.",
        "1. e4 e5 *",
        "bob declines the takeback; the game goes on.",
    ] {
        assert!(stdout.contains(needle), "{needle}\n{stdout}");
    }
}

#[test]
fn the_console_takes_a_time_control_and_prints_the_clock() {
    let dir = temp_dir("clocks");
    let out = local(
        &dir,
        &["--no-png"],
        "challenge bob white 5+3\nas bob\naccept\nas alice\nmove e4\nboard\nchallenge carol 4+4\nclaim-win\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Time control: 5+3 (live)."), "{text}");
    assert!(
        text.contains("⏱ 5+3 (live) · White 5:00 · Black 5:00"),
        "{text}"
    );
    assert!(text.contains("bob must make their first move"), "{text}");
    assert!(
        text.contains(" UTC (~0:30)") || text.contains(" UTC (~0:29)"),
        "{text}"
    );
    // A time control that is not offered is refused with the usage.
    assert!(
        text.contains("[1d|2d|3d|5d|7d|10d|14d|3+2|5+3|10+5|15+10|30+20|untimed]"),
        "{text}"
    );
    // A timed game cannot be claimed.
    assert!(
        text.contains("Only an untimed game can be claimed"),
        "{text}"
    );
}

// Issue 25, item 8: the console never prints Discord markup.
#[test]
fn the_console_writes_claim_dates_and_commands_its_own_way() {
    let dir = temp_dir("claim-markup");
    let out = local(
        &dir,
        &["--no-png"],
        "challenge bob white untimed\nas bob\naccept\nas alice\nmove e4\nclaim-win\nlang es\nboard\nclaim-win\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    // The untimed deadline names the console's command.
    assert!(
        text.contains("their opponent may claim the game with `claim-win`."),
        "{text}"
    );
    assert!(
        text.contains("su rival podrá reclamar la partida con `claim-win`."),
        "{text}"
    );
    // A claim too early says when, as the clock lines do: the UTC date and the time left.
    let early = "Your opponent still has time to move: you can claim the game ";
    let at = text
        .find(early)
        .map(|i| &text[i + early.len()..])
        .expect(&text);
    let line = at.lines().next().unwrap();
    assert!(
        line.contains(" UTC (~7 d 0 h).") || line.contains(" UTC (~6 d 23 h)."),
        "{line}"
    );
    assert!(text.contains("podrás reclamar la partida 2"), "{text}");
    for markup in ["<t:", "<#", "<@", "`/"] {
        assert!(!text.contains(markup), "{markup} in\n{text}");
    }
}

// Issue 25, item 4: the console shows the flagged side's clock at zero.
#[test]
fn the_console_shows_a_flagged_clock_at_zero() {
    use cajitas::game::{GameService, ManualClock, ServiceOptions};
    let dir = temp_dir("flag");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    // A game of one day per move whose white side stopped two days ago.
    {
        let clock = std::sync::Arc::new(ManualClock::new(now - 2 * 86_400_000));
        let svc =
            GameService::open(&dir.join("local.db"), ServiceOptions::with_clock(clock)).unwrap();
        let ch = cajitas::console::local_channel();
        let (alice, bob) = (
            cajitas::console::local_user("alice"),
            cajitas::console::local_user("bob"),
        );
        svc.challenges()
            .challenge_timed(
                &alice,
                ch,
                Some(&bob),
                cajitas::game::ColourChoice::White,
                "1d".parse().unwrap(),
            )
            .unwrap();
        svc.challenges().accept(&bob, ch).unwrap();
        for (who, mv) in [(&alice, "e4"), (&bob, "e5")] {
            svc.play()
                .play_move(who, ch, mv, cajitas::game::Lang::En, false)
                .unwrap();
        }
    }
    let out = local(&dir, &["--no-png"], "move Nf3\nboard\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("wins on time"), "{text}");
    assert!(
        text.contains("⏱ 1 day per move · White 0 h 0 min · Black 1 d 0 h"),
        "{text}"
    );
    assert!(!text.contains("White 1 d 0 h"), "{text}");
}

/// A database where alice's day to move ran out two days ago, in the console's channel:
/// alice (white) and bob played e4 e5 three days ago on a 1-day clock, and nothing ran since.
fn overdue_game(dir: &std::path::Path) {
    use cajitas::console::{local_channel, local_user};
    use cajitas::game::{
        Clock, ColourChoice, DAY_MS, GameService, Lang, ManualClock, ServiceOptions, SystemClock,
    };
    let now = SystemClock.now_ms();
    let clock = std::sync::Arc::new(ManualClock::new(now - 3 * DAY_MS));
    let svc = GameService::open(&dir.join("local.db"), ServiceOptions::with_clock(clock)).unwrap();
    let (alice, bob, ch) = (local_user("alice"), local_user("bob"), local_channel());
    svc.challenges()
        .challenge_timed(
            &alice,
            ch,
            Some(&bob),
            ColourChoice::White,
            "1d".parse().unwrap(),
        )
        .unwrap();
    svc.challenges().accept(&bob, ch).unwrap();
    svc.play()
        .play_move(&alice, ch, "e4", Lang::En, false)
        .unwrap();
    svc.play()
        .play_move(&bob, ch, "e5", Lang::En, false)
        .unwrap();
}

#[test]
fn what_fell_due_while_nobody_ran_is_done_before_the_first_command() {
    const TIMEOUT: &str = "[notice] alice's time ran out. Black wins on time (bob wins, 0-1).";
    // A session that quits at once still ends the game, and says so.
    let dir = temp_dir("catch-up-quit");
    overdue_game(&dir);
    let out = local(&dir, &["--no-png"], "quit\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert_eq!(stdout.lines().next(), Some(TIMEOUT), "{stdout}");

    // `history` typed first shows the game over, after the notice.
    let dir = temp_dir("catch-up-history");
    overdue_game(&dir);
    let out = local(&dir, &["--no-png"], "history\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.first(), Some(&TIMEOUT), "{stdout}");
    assert!(
        lines[1..]
            .iter()
            .any(|l| l.starts_with("game 1: alice - bob  0-1")),
        "{stdout}"
    );
}

#[test]
fn bare_moves_and_challenge_options_in_any_order() {
    let dir = temp_dir("bare-moves");
    let script = "\
challenge bob 30+20 white
cancel
challenge rated:false bob white
as bob
accept
as alice
e4
e5
as bob
e5
as alice
Nf3
Nf9
as bob
Nc6 
as alice
takeback
as bob
takeback accept
";
    let out = local(&dir, &["--no-png"], script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    for needle in [
        // The time control before the colour, and `rated:` first, as the slash command's.
        "alice challenges bob (the challenger plays white).",
        "Time control: 30+20 (live).",
        "Casual (unrated).",
        // A line that is a legal move is played as `move`...
        "alice plays e4.",
        "It is not your turn", // alice's e5, legal for Black
        "bob plays e5.",
        "alice plays Nf3.",
        "bob plays Nc6.",
        // ...and one that is no move still is no command.
        "Unknown command \"nf9\"",
        // Two plies taken back are a move and its reply, not "2 moves".
        "alice asks to take back their last move and the reply. bob, do you accept?",
        "bob accepts the takeback: one move and its reply taken back.",
    ] {
        assert!(stdout.contains(needle), "missing {needle:?} in\n{stdout}");
    }
    assert!(!stdout.contains("Usage"), "{stdout}");
    assert!(!stdout.contains("Unknown command \"e"), "{stdout}");
}

#[test]
fn the_spanish_words_of_the_slash_commands_in_a_spanish_console() {
    let dir = temp_dir("spanish-words");
    let script = "\
ayuda
desafiar puntuada:no bob 10+5 blancas
as bob
aceptar
as alice
jugada e4
as bob
Cc6
as alice
Cf3
tablas ofrecer
as bob
tablas rechazar
as alice
deshacer
as bob
deshacer aceptar
tablero
rendirse
historial
salir
ayuda
";
    let out = local(&dir, &["--lang", "es", "--no-png"], script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    for needle in [
        // `help` lists the Spanish words, from the slash commands' localisations.
        "desafiar [NOMBRE] [blancas|negras|azar] [TIEMPO] [puntuada:sí|no]",
        "tablas ofrecer|aceptar|rechazar|reclamar",
        "ayuda | salir",
        "alice desafía a bob: alice juega con blancas",
        "Amistosa (no puntuada).",
        "Control de tiempo: 10+5",
        "Empieza la partida 1",
        "alice juega e4.",
        "bob juega Cc6.", // a bare move, in Spanish letters
        "alice juega Cf3.",
        "alice ofrece tablas.",
        "bob rechaza las tablas; la partida continúa.",
        "alice pide deshacer su última jugada. bob, ¿aceptas?",
        "bob acepta deshacer: se deshace una jugada.",
        "bob abandona.",
        "partida 1: alice - bob  1-0",
    ] {
        assert!(stdout.contains(needle), "missing {needle:?} in\n{stdout}");
    }
    assert!(!stdout.contains("Orden desconocida"), "{stdout}");
    assert!(!stdout.contains("Uso:"), "{stdout}");
    // `salir` ends the session: the last `ayuda` is not read.
    assert_eq!(
        stdout.matches("Órdenes (una por línea").count(),
        1,
        "{stdout}"
    );
}

#[test]
fn a_chess960_game_to_mate_with_a_castling() {
    // Chess960 #100 (qbbnrnkr): White castles short with the king staying on g1, Black
    // mates on g2; then the PGN names the variant, and a new challenge draws a position.
    let dir = temp_dir("chess960");
    let script = "\
challenge bob white chess960:100
as bob
accept
as alice
move c3
as bob
move b6
as alice
move Ng3
as bob
move Qd5
as alice
move O-O
as bob
move O-O
move Bb7
as alice
move d4
as bob
move Qxg2#
board
pgn
challenge alice chess960:960
challenge alice chess960
";
    let out = local(&dir, &["--no-png"], script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    for needle in [
        "Chess960 #100",
        "Variant: Chess960 #100",
        "8  q b b n r n k r", // the start position
        "alice plays O-O.",
        "bob plays Qxg2#.",
        "1  Q B B N R R K .", // the castled king and rook
        "Black wins by checkmate (bob wins, 0-1).",
        "[Variant \"Chess960\"]",
        "[FEN \"qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w KQkq - 0 1\"]",
        "3. O-O Bb7 4. d4 Qxg2# 0-1",
        "chess960[:0-959]", // the usage of a position out of range
    ] {
        assert!(stdout.contains(needle), "missing {needle:?} in\n{stdout}");
    }
    // Black's O-O was refused (a knight on f8), and the random draw names its number.
    assert!(stdout.matches("Chess960 #").count() >= 4, "{stdout}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// What the console's notifier prints, kept for the test.
#[derive(Clone, Default)]
struct Printed(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Write for Printed {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Printed {
    /// What was printed since the last call.
    fn take(&self) -> String {
        String::from_utf8(std::mem::take(&mut *self.0.lock().unwrap())).unwrap()
    }
}

// Issue 32: a whole arena in the console, in virtual time: made, joined, started by the
// scheduler's rounds, paired in waves (`[arena] pairing: …`), each game's points
// (`[arena] NAME +P`), a no-show losing and paused, the last opponent avoided, berserk, the
// standings, and the final standings at the end.
#[test]
fn an_arena_played_in_the_console_in_virtual_time() {
    use std::sync::Arc;

    use cajitas::console::{ConsoleLang, ConsoleNotifier, Session, local_channel, local_user};
    use cajitas::game::{
        EventScope, GameService, LIVE_FIRST_MOVE_GRACE_MS, Lang, ManualClock, ServiceOptions,
    };
    const T0: i64 = 1_900_000_000_000;
    let clock = Arc::new(ManualClock::new(T0));
    let printed = Printed::default();
    let lang = ConsoleLang::new(Lang::En);
    let notifier = ConsoleNotifier::new(Box::new(printed.clone()), None).speaking(lang.clone());
    let svc = GameService::open_in_memory(ServiceOptions {
        notifier: Arc::new(notifier),
        ..ServiceOptions::with_clock(clock.clone())
    })
    .unwrap();
    let mut session = Session::with_lang(svc.clone(), "alice", lang);
    let mut run = |script: &str| {
        let mut out = Vec::new();
        session.run(script.as_bytes(), &mut out, false).unwrap();
        String::from_utf8(out).unwrap()
    };
    let round = || {
        svc.clocks()
            .run_round(EventScope::Only(local_channel().channel))
            .unwrap()
    };
    // The players of `name`'s game in progress: (white, black).
    let players_of = |name: &str| {
        let place = svc
            .tournaments()
            .game_place_of(local_user(name).id)
            .unwrap()
            .unwrap_or_else(|| panic!("{name} has no arena game"));
        let v = svc.queries().board(place).unwrap();
        (v.white.name.clone(), v.black.name.clone())
    };

    let text = run(
        "arena create 30m 3+2 starts:0\nas bob\narena join\nas carol\narena join\n\
                    as dave\narena join\narena frobnicate\n",
    );
    assert!(
        text.contains("Arena 3+2: 30 minutes of 3+2, rated, starting in 0 min."),
        "{text}"
    );
    assert!(
        text.contains("Arena 3+2: you are in (4 players)."),
        "{text}"
    );
    assert!(text.contains("Usage: arena create"), "{text}");
    // A second arena in the same channel is refused.
    let text = run("arena create 45m 5+3\n");
    assert!(text.contains("A tournament is already open here"), "{text}");

    // The first round starts it, the second pairs neighbours two by two.
    round();
    assert!(printed.take().contains("Arena 3+2 has begun"));
    assert_eq!(round().paired, 2);
    let pairings = printed.take();
    assert_eq!(
        pairings.matches("[arena] pairing: ").count(),
        2,
        "{pairings}"
    );
    let (w1, b1) = players_of("alice");
    assert!(
        pairings.contains(&format!(
            "[arena] pairing: {w1} (white) vs {b1} (black) · game "
        )),
        "{pairings}"
    );
    let (w2, b2) = players_of("carol");
    assert!([&w1, &b1].iter().all(|p| *p == "alice" || *p == "bob"));

    // Fool's mate in the first game: Black +2, White +0.
    let text = run(&format!(
        "as {w1}\nabort\nmove f3\nas {b1}\nmove e5\nas {w1}\nmove g4\nas {b1}\nmove Qh4#\n"
    ));
    assert!(
        text.contains("A tournament game cannot be aborted"),
        "{text}"
    );
    assert!(text.contains(&format!("[arena] {w1} +0")), "{text}");
    assert!(text.contains(&format!("[arena] {b1} +2")), "{text}");

    // Nobody moves in the second: past the first-move grace, White (to move) loses and is
    // paused, as lichess's arenas do with a player who does not start.
    clock.advance(std::time::Duration::from_millis(
        (LIVE_FIRST_MOVE_GRACE_MS + 1) as u64,
    ));
    // The same round's wave pairs the three who wait (the no-show is paused): the one who
    // came last would wait, but alice and bob just met, so the winner of the second game
    // plays one of them.
    assert_eq!(round().paired, 1);
    let notices = printed.take();
    assert!(notices.contains(&format!("[arena] {w2} +0")), "{notices}");
    assert!(notices.contains(&format!("[arena] {b2} +2")), "{notices}");
    let s = svc.tournaments().standings(local_channel()).unwrap();
    let no_show = s.lines.iter().find(|l| l.user.name == w2).unwrap();
    assert_eq!(no_show.status, cajitas::store::EntrantStatus::Paused);

    assert_eq!(notices.matches("[arena] pairing: ").count(), 1, "{notices}");
    let (w3, b3) = players_of(&b2);
    let mut pair = [w3.as_str(), b3.as_str()];
    pair.sort_unstable();
    assert_ne!(pair, ["alice", "bob"], "alice and bob just met");
    // Berserk before the first move halves the clock; once only.
    let text = run(&format!("as {b3}\narena berserk\narena berserk\n"));
    assert!(text.contains("Berserk! Your clock is halved"), "{text}");
    assert!(text.contains("Black 1:30"), "{text}");
    assert!(
        text.contains("Berserk comes before your first move, once."),
        "{text}"
    );
    let text = run(&format!(
        "as {w3}\nmove e4\nas {b3}\nmove e5\nas {w3}\nresign\n"
    ));
    assert!(text.contains(&format!("[arena] {w3} +0")), "{text}");
    // A berserk win of 3 plies scores no bonus.
    assert!(text.contains(&format!("[arena] {b3} +2")), "{text}");

    // The standings: points, then each game's points (B after a berserk game).
    let before = if b3 == b1 || b3 == b2 { 2 } else { 0 };
    let berserker = format!("{b3} {}  {before} 2B", before + 2);
    let text = run("arena standings\n");
    assert!(
        text.contains("Arena 3+2 · in progress · 4 players"),
        "{text}"
    );
    assert!(text.contains(&berserker), "{text}");
    assert!(text.contains(&format!("4. {w2} 0  0")), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.contains(". ")).count(),
        4,
        "{text}"
    );

    // The end: no pairing after it, the final standings with the podium.
    clock.advance(std::time::Duration::from_secs(30 * 60));
    assert_eq!(round().paired, 0);
    let end = printed.take();
    assert!(end.contains("[arena] final standings"), "{end}");
    assert!(end.contains(&berserker), "{end}");
    assert!(end.contains("🥇 ") && end.contains("🥉 "), "{end}");
    assert!(end.contains(" points · performance "), "{end}");
    clock.advance(std::time::Duration::from_secs(3));
    assert_eq!(round().paired, 0);
    let text = run("arena join\n");
    assert!(text.contains("There is no tournament open here."), "{text}");
}

/// A round robin of four in the console, every game played with `as NAME` to its result,
/// rounds opening as FIDE's table for 4 says (1-4 2-3 / 4-3 1-2 / 2-4 3-1).
const ROUND_ROBIN: &str = "\
help
roundrobin create alice bob carol dan 1d rated:false
roundrobin create alice bob 1d
as alice
move e4
as dan
move e5
resign
as bob
move d4
as carol
move d5
draw offer
as bob
draw accept
as dan
move e4
as carol
move e5
resign
as alice
move e4
as bob
move e5
draw offer
as alice
draw accept
as bob
move e4
as dan
move e5
resign
as carol
move e4
as alice
move e5
as carol
resign
roundrobin standings
quit
";

#[test]
fn a_round_robin_of_four_played_to_the_end_in_the_console() {
    let dir = temp_dir("roundrobin");
    let out = local(&dir, &[], ROUND_ROBIN);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    let lines: Vec<&str> = stdout.lines().map(str::trim_end).collect();
    for needle in [
        "[roundrobin] round 1: alice (white) vs dan (black) · game 1",
        "[roundrobin] round 1: bob (white) vs carol (black) · game 2",
        "[roundrobin] round 2: dan (white) vs carol (black) · game 3",
        "[roundrobin] round 2: alice (white) vs bob (black) · game 4",
        "[roundrobin] round 3: bob (white) vs dan (black) · game 5",
        "[roundrobin] round 3: carol (white) vs alice (black) · game 6",
        // alice 1 + ½ + 1, SB 1 + 1 + .5; bob ½ + ½ + 1, SB .25 + 1.25 + 1;
        // dan 0 + 1 + 0, SB .5; carol ½ + 0 + 0, SB 1.
        "1. alice 2.5 2.5",
        "2. bob 2 2.5",
        "3. dan 1 0.5",
        "4. carol 0.5 1",
    ] {
        // A pairing line ends with its board picture's path.
        assert!(
            lines.iter().any(|l| l
                .strip_prefix(needle)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(" (board: "))),
            "missing {needle:?} in\n{stdout}"
        );
    }
    assert!(
        stdout.contains("roundrobin create NAME NAME NAME"),
        "help: {stdout}"
    );
    assert!(
        stdout.contains("3 to 16 players"),
        "two players refused: {stdout}"
    );
    // Each round opened once, after the one before.
    let round = |r: u32| stdout.find(&format!("[roundrobin] round {r}:")).unwrap();
    assert!(round(1) < round(2) && round(2) < round(3));
    assert_eq!(stdout.matches("[roundrobin] round ").count(), 6, "{stdout}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn a_round_robin_in_spanish_with_a_withdrawal_before_half() {
    let dir = temp_dir("roundrobin-es");
    let script = "\
ayuda
liguilla crear ana beto carla 1d
liguilla retirarse as carla
liguilla clasificación
";
    let out = local(&dir, &["--lang", "es", "--as", "ana", "--no-png"], script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    for needle in [
        "  liguilla crear NOMBRE NOMBRE NOMBRE … TIEMPO [doble] [puntuada:sí|no]",
        // Three players: the table for 4, seat 4 the bye. Round 1: 2-3.
        "[roundrobin] ronda 1: beto (blancas) contra carla (negras) · partida 1",
        // carla leaves with none of her 2 games over: her results are cancelled, her game
        // lost, and round 2 (1-2) opens at once.
        "carla se retira de Liguilla 1d: había terminado menos de la mitad de sus partidas, así que sus resultados se anulan.",
        "[roundrobin] ronda 2: ana (blancas) contra beto (negras) · partida 2",
        "Liguilla 1d · ronda 2 de 3 · en juego",
        "1. ana 0 0",
        "1. beto 0 0",
        "-. carla (se retiró: resultados anulados)",
    ] {
        assert!(
            stdout.lines().any(|l| l.trim_end() == needle),
            "missing {needle:?} in\n{stdout}"
        );
    }
}
