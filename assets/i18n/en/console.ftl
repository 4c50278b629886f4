# `cajitas local`: the console's texts, in English.
# Message ids are shared with assets/i18n/es/console.ftl. The console also uses messages of
# cajitas.ftl (check, claim-reason, challenge-colour, status-draw, status-aborted, termination,
# challenge-declined, challenge-withdrawn, draw-*, resigns, error-*, read-*).
# Commands stay English words in both languages (`accept`, `move`, …).

## The session

console-welcome = Cajitas local: playing as { $name } in channel `{ $channel }`. Type `help`.
console-line-too-long = That line is longer than { $max } characters; ignored.
console-not-utf8 = That line is not valid UTF-8 text; ignored.
console-now-acting = Now acting as { $name }.
console-lang-set = Now in English: moves are read with R = rook.
console-lang-now = The console speaks English and reads R as rook. Usage: lang en|es
# The word of `quit` in Spanish consoles (the other commands are the slash commands' names).
console-quit-word = quit
console-sorry = Sorry, something went wrong: { $error }
console-board-image = Board image: { $path }
console-board-image-failed = (could not write the board image: { $error })
console-notice = {"["}notice] { $text }
console-notice-board = (board: { $path })
console-cannot-open-db = error: cannot open the database { $path }: { $error }
console-new-database = A new database was created: { $path } (none was there; give another with --db or CAJITAS_DB)

## Refusals of a line that is not a command ($what and friends come quoted)

console-usage = Usage: { $usage }
console-unknown-lang = unknown language { $lang }: use en or es
console-unknown-colour = Unknown colour { $colour }: use white, black or random.
console-unknown-command = Unknown command { $command }. Type `help` for the list.

## Challenges, moves, the game

console-challenge = { $challenger } challenges { $opponent } (the challenger plays { challenge-colour }). Answer with `accept`; only the challenger can `cancel` it.
console-challenge-open = { $challenger } challenges anyone (the challenger plays { challenge-colour }). Answer with `accept`; only the challenger can `cancel` it.
console-game-begins = Game { $id } begins: { $white } (white) against { $black } (black).
console-move-played = { $who } plays { $san }.
console-move-claims = { $who } claims a draw by { claim-reason } with { $san } (written, not played).
console-aborted = { $who } aborted game { $id }.
console-material = { $side ->
    [white] white +{ $points }
    [black] black +{ $points }
   *[even] material even
}
console-history-empty = No finished games here yet.
console-history-line = game { $id }: { $white } - { $black }  { $result }  ({ $reason }, { $plies ->
    [one] { $plies } ply
   *[other] { $plies } plies
})

## Status lines

console-to-move = Move { $fullmove }: { colour-name } to move ({ $player }).
console-draw-offered = { colour-name } offers a draw.
console-may-claim-now = { $player } may claim a draw now ({ $what }).
console-may-claim-with-move = { $player } may claim a draw together with a move ({ $what }).
console-win = { $reason ->
    [checkmate] { colour-name } wins by checkmate
    [resignation] { colour-name } wins by resignation
   *[timeout] { colour-name } wins on time
} ({ $winner } wins, { $result }).

## help

console-help =
    Commands (one per line):
      as NAME                       act as NAME from now on
      challenge [NAME] [white|black|random] [TIME] [rated:true|false]
                                    challenge NAME (or anyone, without a name); the colour is yours;
                                    TIME: 1d 2d 3d 5d 7d 10d 14d (days per move, 3d by default),
                                    3+2 5+3 10+5 15+10 30+20 (live), untimed;
                                    rated unless rated:false; the options in any order
      accept | decline | cancel     answer or withdraw the challenge
      play [1-8] [white|black|random]
                                    play the computer (a chess engine) at that level, 1 by default
      move TEXT [claim]             play a move: e4, Nf3, Cf3 (Spanish), e2e4, O-O, ♘f3 ...;
                                    `claim` claims a draw together with the move;
                                    a move alone (e4, Nf3) is played too
      draw offer|accept|decline|claim
      takeback [accept|decline]     ask to take back your last move, or answer the request
      resign | abort                resign, or abort before both players have moved (any time against the computer)
      claim-win [draw]              win (or draw) an untimed game whose opponent stopped moving
      board | pgn | history         show the game, its PGN, the last finished games
      stats [NAME] | leaderboard [live|correspondence|chess960|puzzles|streak]
                                    ratings and results (with a chart PNG), the best players
      puzzle [THEME] [RATING] [source:any|server|lichess] | puzzle id:ID
                                    a puzzle you have not seen (of THEME: fork, mate in 2, mateIn2 ...; around RATING,
                                    yours by default), or lichess's puzzle ID; answer with move TEXT or the move alone
      puzzle streak                 Puzzle Streak: rising difficulty, no hints, until your first mistake
      hint | solution               the piece to move (the attempt is then unrated), or give up and see the line
      arena create 30m|45m|60m|90m TIME [rated:true|false] [starts:Nm]
                                    an arena in this channel (TIME a live clock such as 3+2; starts in 5 min by default)
      arena join|pause|withdraw|berserk|standings
                                    play in it (moves, draw and resign act on your arena game), pause, leave,
                                    halve your clock before your first move, see the table
      lang en|es                    the console's language, and how to read moves (es: R = rey, D T A C = dama torre alfil caballo)
      help | quit

## Round robins (`roundrobin …`, printed after `help`)

console-help-roundrobin =
    Round robins (FIDE's Berger tables; each round's games begin together, the next when they are all over):
      roundrobin create NAME NAME NAME … TIME [double] [rated:true|false]
                                    a round robin of 3 to 16 players, seated in that order (TIME any clock, 1d too);
                                    double: everyone meets everyone twice
      roundrobin standings          RANK. NAME POINTS SB (Sonneborn-Berger, then the direct encounter)
      roundrobin withdraw [as NAME] leave it: before half your games are over your results are cancelled,
                                    after that your games not yet played are lost by forfeit
