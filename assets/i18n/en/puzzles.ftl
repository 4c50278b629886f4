# Puzzles (issue 30): refusals, the puzzle's heading, the bot's replies, the end.

error-no-puzzle = You have no puzzle open here.
error-unknown-puzzle = No puzzle has the id { $id }.
error-unknown-theme = No puzzle has the theme { $theme }.
error-no-puzzle-left = You have seen every puzzle of that kind here.
error-puzzle-rating-range = The rating asked for must be between { $min } and { $max }.

puzzle-heading = Puzzle { $id } · rating { $rating } · { colour-name } to move
puzzle-bot-move = [puzzle] { $san }
puzzle-hint = Hint: move { role-the } on { $square }. This attempt is no longer rated.
puzzle-wrong = { $san } is not the move.
puzzle-solved = Solved
puzzle-failed = Failed
puzzle-solution = Solution: { $moves }
button-hint = Hint
button-solution = Solution
button-next-puzzle = Next puzzle

# A puzzle theme by lichess's id: lichess's English name.
puzzle-theme = { $theme ->
    [advancedPawn] Advanced pawn
    [advantage] Advantage
    [anastasiaMate] Anastasia's mate
    [attackingF2F7] Attacking f2 or f7
    [attraction] Attraction
    [backRankMate] Back rank mate
    [bishopEndgame] Bishop endgame
    [bodenMate] Boden's mate
    [capturingDefender] Capture the defender
    [clearance] Clearance
    [cornerMate] Corner mate
    [crushing] Crushing
    [defensiveMove] Defensive move
    [deflection] Deflection
    [discoveredAttack] Discovered attack
    [discoveredCheck] Discovered check
    [doubleBishopMate] Double bishop mate
    [doubleCheck] Double check
    [enPassant] En passant
    [endgame] Endgame
    [epauletteMate] Epaulette mate
    [equality] Equality
    [exposedKing] Exposed king
    [fork] Fork
    [hangingPiece] Hanging piece
    [hookMate] Hook mate
    [interference] Interference
    [intermezzo] Intermezzo
    [killBoxMate] Kill box mate
    [kingsideAttack] Kingside attack
    [knightEndgame] Knight endgame
    [long] Long puzzle
    [master] Master games
    [masterVsMaster] Master vs Master games
    [mate] Checkmate
    [mateIn1] Mate in 1
    [mateIn2] Mate in 2
    [mateIn3] Mate in 3
    [mateIn4] Mate in 4
    [mateIn5] Mate in 5 or more
    [middlegame] Middlegame
    [morphysMate] Morphy's mate
    [oneMove] One-move puzzle
    [opening] Opening
    [operaMate] Opera mate
    [pawnEndgame] Pawn endgame
    [pillsburysMate] Pillsbury's mate
    [pin] Pin
    [promotion] Promotion
    [queenEndgame] Queen endgame
    [queenRookEndgame] Queen and rook
    [queensideAttack] Queenside attack
    [quietMove] Quiet move
    [rookEndgame] Rook endgame
    [sacrifice] Sacrifice
    [short] Short puzzle
    [skewer] Skewer
    [smotheredMate] Smothered mate
    [swallowstailMate] Swallow's tail mate
    [trappedPiece] Trapped piece
    [veryLong] Very long puzzle
    [xRayAttack] X-ray attack
    [zugzwang] Zugzwang
   *[other] { $theme }
}

# Puzzle Streak (issue 30).
error-no-hint-in-streak = Puzzle Streak gives no hints.
puzzle-streak-start = Puzzle Streak: puzzles of rising difficulty, one after another, without hints, until your first mistake.
puzzle-streak-count = Streak: { $solved }
puzzle-streak-over = Streak over: { $solved } solved · your best streak: { $best }
puzzle-streak-top = You climbed the whole ladder: { $solved } solved!

# Puzzle leaderboards (issue 30): `/leaderboard speed:puzzles` and `speed:streak`.
puzzle-leaderboard-line = **{ $rank }.** { $name } · { $rating } · { $attempts ->
    [one] { $attempts } rated attempt
   *[other] { $attempts } rated attempts
}
console-puzzle-leaderboard-line = { $rank }. { $name }  { $rating }  ({ $attempts })
streak-leaderboard-line = **{ $rank }.** { $name } · { $best ->
    [one] { $best } puzzle
   *[other] { $best } puzzles
}
console-streak-leaderboard-line = { $rank }. { $name }  { $best }
puzzle-leaderboard-empty = Nobody is on this leaderboard yet: it lists solvers with at least { $min } rated attempts and a steady puzzle rating.
streak-leaderboard-empty = Nobody has solved a Puzzle Streak's puzzle here yet.
puzzle-leaderboard-you-unranked = You are not listed yet: { $attempts ->
    [one] { $attempts } rated attempt
   *[other] { $attempts } rated attempts
} of the { $min } needed, and a steady puzzle rating (RD under 110).
streak-leaderboard-you-none = You have no Puzzle Streak record here yet.

# The daily puzzle (issue 30).
error-no-daily-puzzle = There is no daily puzzle here today.
error-daily-hour-range = The daily puzzle's hour must be between 0 and 23 (UTC).

# cajitas puzzles generate (the command line): a game of the PGN file that cannot be read is
# skipped; the bar's count; the last line, on standard error.
puzzles-generate-bad-game = { $file }: game { $number } skipped: { $error }
puzzles-generate-found = { $puzzles } puzzles
puzzles-generate-done = { $games } games searched, { $puzzles } puzzles found in { $seconds } s
daily-heading = Daily puzzle · { $date }
daily-count = { $solved } solved · { $failed } failed
button-solve = Solve
settings-daily-set = The daily puzzle will be posted in this channel every day at { $hour }:00 UTC.
settings-daily-stopped = The daily puzzle is stopped.

# Puzzles from the server's own games (issue 30): the line under a puzzle's heading that
# names the game it was found in (the link is to the game's thread).
puzzle-source = From { $white } vs { $black }, move { $number }
puzzle-source-thread = From { $white } vs { $black }, move { $number } · { $url }

# A puzzle's own thread, where games get threads (issue 30): its name, and the answer in the
# channel that links to it.
puzzle-thread-name = Puzzle { $id } · { $name }
puzzle-in-thread = Puzzle { $id }: { $thread }

# /settings daily-channel (issue 30): the daily puzzle posted in another channel; a channel
# given without an hour, where no daily puzzle was set.
settings-daily-set-in = The daily puzzle will be posted in { $channel } every day at { $hour }:00 UTC.
settings-daily-need-hour = Give the daily puzzle's hour too (daily-hour, 0-23 UTC).
