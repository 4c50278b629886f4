//! Puzzles in `cajitas local` (issue 30), driven through a pipe: `puzzle id:ID`, a bare move
//! and `move X` answering, the bot's replies as `[puzzle] …`, `hint`, `solution`, the end and
//! the rating change line, in English and Spanish; a move goes to the game when one is played.

#[path = "support/bot.rs"]
mod bot;
#[path = "support/console.rs"]
mod console;

use console::local;

fn run(tag: &str, args: &[&str], script: &str) -> String {
    let dir = bot::TempDir::new(&format!("console-puzzles-{tag}"));
    let out = local(&dir, args, script);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    stdout
}

/// The lines of `out` in order: each needle found after the one before.
fn in_order(out: &str, needles: &[&str]) {
    let mut from = 0;
    for n in needles {
        match out[from..].find(n) {
            Some(i) => from += i + n.len(),
            None => panic!("{n:?} not found after byte {from} in:\n{out}"),
        }
    }
}

#[test]
fn a_puzzle_is_solved_and_failed_in_english() {
    let out = run(
        "en",
        &["--as", "alice", "--no-png"],
        "puzzle id:002X3\nhint\nQa8+\nmove Qxb8#\npuzzle id:000rZ\nh3\nsolution\nmove e4\nhint\n\
         puzzle id:001KR\nmove Rf8#\npuzzle nosuchtheme\npuzzle id:zz\npuzzle 1500 1600\n",
    );
    in_order(
        &out,
        &[
            "Puzzle 002X3 · rating 970 · White to move",
            "[puzzle] Rxa3",
            "Hint: move the queen on g2. This attempt is no longer rated.",
            "[puzzle] Qb8",
            "Solved",
            // The second: a move that is not legal is refused, then the solution fails it.
            "Puzzle 000rZ · rating 633 · Black to move",
            "[puzzle] Nxe6",
            "Failed",
            "alice 1500? → ",
            "Solution: Qxh2#",
            // No puzzle open: the move goes to the game room, and a hint is refused.
            "You have no puzzle open here.",
            "Puzzle 001KR",
            "Solved",
            "alice ",
            "No puzzle has the theme nosuchtheme.",
            "No puzzle has the id zz.",
            "Usage: puzzle [THEME] [RATING] [source:any|server|lichess] | puzzle id:ID",
        ],
    );
    // The hinted attempt changed no rating: the first change line is the failure's.
    let first_change = out.find("alice 1500? → ").unwrap();
    assert!(out.find("Solved").unwrap() < first_change);
    assert!(!out[..out.find("Puzzle 000rZ").unwrap()].contains(" → "));
}

#[test]
fn a_puzzle_in_spanish() {
    let out = run(
        "es",
        &["--lang", "es", "--as", "alice", "--no-png"],
        "problema id:002X3\nDa8+\nDxb8#\nproblema mate del pasillo 1000\nproblema tema raro\n",
    );
    in_order(
        &out,
        &[
            "Problema 002X3 · puntuación 970 · juegan blancas",
            "[problema] Txa3",
            "[problema] Db8",
            "Resuelto",
            "alice 1500? → ",
            // A theme by its Spanish name (lichess's backRankMate), in several words.
            "Problema ",
            "Ningún problema tiene el tema tema raro.",
        ],
    );
    assert!(!out.contains("el tema mate del pasillo"), "{out}");
}

#[test]
fn a_move_goes_to_the_game_when_the_solver_plays_one_here() {
    let out = run(
        "game",
        &["--as", "alice", "--no-png"],
        "challenge bob white\nas bob\naccept\nas alice\npuzzle id:000rZ\ne4\nboard\n",
    );
    in_order(&out, &["Puzzle 000rZ", "alice plays e4."]);
}

#[test]
fn a_puzzle_streak_in_both_languages() {
    let out = run(
        "streak-en",
        &["--as", "alice", "--no-png"],
        "puzzle streak\nhint\nsolution\nhint\n",
    );
    in_order(
        &out,
        &[
            "Puzzle Streak: puzzles of rising difficulty, one after another, without hints, \
             until your first mistake.",
            "Puzzle ",
            "[puzzle] ",
            "Puzzle Streak gives no hints.",
            "Failed",
            "Solution: ",
            "Streak over: 0 solved · your best streak: 0",
            "You have no puzzle open here.",
        ],
    );
    let out = run(
        "streak-es",
        &["--as", "alice", "--no-png", "--lang", "es"],
        "problema racha\nhint\nsolution\n",
    );
    in_order(
        &out,
        &[
            "Racha de problemas: problemas cada vez más difíciles",
            "Problema ",
            "[problema] ",
            "La racha de problemas no da pistas.",
            "Fin de la racha: 0 resueltos · tu mejor racha: 0",
        ],
    );
}
