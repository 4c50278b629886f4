# Time controls, clocks, timeouts, reminders and abandoned games (issue 16).

# A time control, as a challenge and a game show it.
clock-control = { $kind ->
    [untimed] untimed
    [correspondence] { $days ->
        [one] { $days } day per move
       *[other] { $days } days per move
    }
   *[live] { $minutes }+{ $increment } (live)
}
# A remaining time: live clocks in minutes and seconds, correspondence in days and hours.
clock-hms = { $hours }:{ $minutes }:{ $seconds }
clock-ms = { $minutes }:{ $seconds }
clock-days = { $days } d { $hours } h
clock-hours = { $hours } h { $minutes } min
# The clock line of a game in progress.
clock-line = ⏱ { $control } · White { $white } · Black { $black }
clock-deadline = { $player } must move { $deadline }.
clock-grace = { $player } must make their first move { $deadline }.
clock-untimed-deadline = If { $player } has not moved { $deadline }, their opponent may claim the game with { $command }.
# The embed's field.
embed-clock = Clock
# The challenge message's line.
challenge-time = Time control: { $control }.
challenge-time-clock = Time control: { $control }. White { $start } · Black { $start }.
challenge-time-live = Time control: { $control }. White { $start } · Black { $start }; each side has { $grace } s for its first move.
# A game that ended on time (the post says so above the final board).
timeout-post = { $player }'s time ran out. { $status }
timeout-aborted-post = { $player } did not move in time: the game is aborted, without a result.
# Reminders: only the player to move is pinged.
reminder-post = { $player }, it is your move against { $opponent }: your time runs out { $deadline }.
idle-reminder-post = { $player }, it is your move against { $opponent }. If you have not moved { $deadline }, they may claim the game.
# /claim-win
claim-win-done = { $player } claimed the game. { $status }
# Refusals.
error-time-ran-out = Too late: the time to move had run out, and the game has ended on time.
error-claim-not-untimed = Only an untimed game can be claimed: a timed game ends by itself when the clock runs out.
error-claim-against-engine = The computer never abandons a game: resign or abort instead.
error-claim-own-turn = It is your move: only the player waiting for a move can claim the game.
error-claim-too-early = Your opponent still has time to move: you can claim the game { $at }.
