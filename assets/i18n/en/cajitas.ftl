# Cajitas: every text the bot shows, in English.
# Message ids are shared with assets/i18n/es/cajitas.ftl; a test checks both have the same
# ids and attributes. Arguments: $colour is "white" or "black"; $role is "king", "queen",
# "rook", "bishop", "knight" or "pawn"; mentions, moves and results come as text.

## Words

colour-name = { $colour ->
    [white] White
   *[black] Black
}
colour-lower = { $colour ->
    [white] white
   *[black] black
}
# A list: `a, b or c` ($head is "a, b" joined with list-sep).
list-or = { $head } or { $last }
list-sep = {", "}
list-and = { $head } and { $last }

## The board message (embed)

check = Check!
embed-title = { $white } vs { $black }
embed-white = White
embed-black = Black
embed-move = Move
embed-last-move = Last move
embed-material = Material
embed-opening = Opening
# A game's opening: its ECO code and lichess's name, untranslated in every language.
opening-name = { $eco } { $name }
console-opening = Opening: { $eco } { $name }
embed-footer = Game #{ $id } · ply { $ply }
material-even = Even
material-ahead = { colour-name } +{ $points }

## Status lines

status-aborted = Game aborted: no result.
status-checkmate = Checkmate! { $winner } ({ colour-lower }) wins, { $result }.
status-resigned = { $loser } resigned: { $winner } ({ colour-lower }) wins, { $result }.
status-timeout = { $winner } ({ colour-lower }) wins on time, { $result }.
status-draw = { $reason ->
    [stalemate] Draw by stalemate
    [dead-position] Draw by insufficient material (dead position)
    [agreement] Draw by agreement
    [threefold-repetition] Draw by threefold repetition
    [fifty-moves] Draw by the 50-move rule
    [fivefold-repetition] Draw by fivefold repetition
    [seventy-five-moves] Draw by the 75-move rule
   *[timeout-vs-insufficient-material] Draw on time: the opponent cannot checkmate
}, { $result }.
status-to-move = { $player } ({ colour-lower }) to move.
status-check = **Check!**
status-draw-offer = { $player } offers a draw.
status-claimable = A draw can be claimed ({ $what }): `/draw action:claim`.
claim-reason = { $claim ->
    [threefold] threefold repetition
   *[fifty] the 50-move rule
}

## Challenges

challenge-colour = { $colour ->
    [white] white
    [black] black
   *[random] a random colour
}
challenge-to = { $opponent }, { $challenger } challenges you to a game of chess! { $challenger } plays { challenge-colour }. The challenge expires { $expires }.
challenge-open = { $challenger } is looking for an opponent (open challenge: anyone may accept). { $challenger } plays { challenge-colour }. The challenge expires { $expires }.
button-accept = Accept
button-decline = Decline
game-begins = The game begins: { $white } plays white, { $black } plays black. { $white } to move.
challenge-declined = { $who } declined the challenge from { $challenger }.
challenge-withdrawn = { $challenger } withdrew the challenge.

## Moves, draws, resignation

move-played = { $who } played **{ $san }**.
move-claims = { $who } writes **{ $san }** and claims a draw.
draw-accepts-standing = { $who } accepts the standing draw offer.
draw-offers = { $who } offers a draw. { $opponent }, do you accept?
draw-accepts = { $who } accepts the draw.
draw-declines = { $who } declines the draw; the game goes on.
draw-claims = { $who } claims a draw.
button-accept-draw = Accept draw
button-decline-draw = Decline
button-analysis = Analyse on lichess
takeback-asks = { $who } asks to take back { $plies ->
    [one] their last move
   *[other] their last move and the reply
}. { $opponent }, do you accept?
takeback-accepts = { $who } accepts the takeback: { $plies ->
    [one] one move
   *[other] one move and its reply
} taken back.
takeback-declines = { $who } declines the takeback; the game goes on.
button-accept-takeback = Accept takeback
button-decline-takeback = Decline
resign-confirm = Do you really want to resign? This cannot be undone.
button-resign = Yes, resign
resigns = { $who } resigns.
aborted = { $who } aborted the game.

## /pgn, /history, /settings

pgn-hint = The game in PGN. To analyse it on lichess, open <https://lichess.org/paste> and paste the file's text (or upload the file).
history-empty = No finished games in this channel yet. Start one with /challenge.
history-title = Last games in this channel
history-line = #{ $id } { $white } vs { $black }: **{ $result }** ({ $reason }, { $moves ->
    [one] { $moves } move
   *[other] { $moves } moves
}) { $date }
termination = { $termination ->
    [checkmate] checkmate
    [resignation] resignation
    [timeout] timeout
    [stalemate] stalemate
    [dead-position] dead position
    [agreement] agreement
    [threefold-repetition] threefold repetition
    [fifty-moves] fifty moves
    [fivefold-repetition] fivefold repetition
    [seventy-five-moves] seventy five moves
    [timeout-vs-insufficient-material] timeout vs insufficient material
    [aborted] aborted
   *[other] { $termination }
}
settings-language-set = { $language ->
    [es] Public game messages in this server are now in Spanish.
    [en] Public game messages in this server are now in English.
   *[auto] Public game messages in this server now follow the language of whoever causes them.
}
settings-language-now = { $language ->
    [es] Public game messages in this server are in Spanish.
    [en] Public game messages in this server are in English.
   *[auto] Public game messages in this server follow the language of whoever causes them.
} Change it with `/settings language`.
settings-not-in-server = Settings are for servers: use this command in a server channel.
settings-need-manage = Only members with the Manage Server permission can change this setting.

## Refusals and apologies

refusal-slash-only = Use the slash command.
refusal-button-expired = This button has expired: the game moved on since it was shown.
refusal-resign-expired = This button has expired: the position changed since you asked. Use /resign again if you still want to resign.
refusal-not-your-button = This button is for the player who asked to resign.
refusal-unknown-button = This button is not one of mine any more.
refusal-bad-argument = I could not read `{ $input }`: { $reason }
refusal-bad-command = I could not read that command: { $reason }
refusal-out-of-date = This command looks out of date; Discord may take a minute to refresh the command list. Please try again.
apology = Sorry, something went wrong on my side and I could not finish that. Please try again in a moment. (reference { $id })
restarting = Restarting: try again in a few seconds.

## Game service refusals (one per GameError variant)

error-no-game = There is no game in this channel. Start one with { $command }.
error-game-over = The game in this channel is already over. Start a new one with { $command }.
error-not-a-player = You are not playing in this game.
error-not-your-turn = It is not your turn: wait for your opponent's move.
error-position-changed = The position changed before your action arrived (this button or move is out of date). Look at the board and try again.
error-too-long = The move is too long (at most { $max } characters).
error-empty-move = Type a move, for example `e4`, `Nf3`, `Cf3` or `e2e4`.
error-no-challenge = There is no pending challenge in this channel.
error-challenge-expired = That challenge has expired. Send a new one with { $command }.
error-challenge-closed = { $how ->
    [accepted] That challenge was already accepted.
    [declined] That challenge was already declined.
   *[cancelled] That challenge was already cancelled.
}
error-challenge-self = You cannot challenge yourself. Name an opponent, or leave it open for anyone.
error-challenge-bot = Bots cannot play. Challenge a person, or leave the challenge open.
error-bot-cannot-play = Bot accounts cannot play.
error-challenge-pending = A challenge is already waiting for an answer in this channel.
error-game-in-progress = A game is already in progress in this channel. One game per channel: finish it first, or play in another channel or thread.
error-not-challenged = This challenge is not addressed to you.
error-own-challenge = You cannot answer your own challenge (use { $command } to withdraw it).
error-too-many-pings = You have pinged that player { $limit } times in the last 10 minutes. Try again in { $wait } s.
error-open-challenge-decline = This challenge is open to anyone, so it cannot be declined: ignore it, or accept it to play. Only the challenger can withdraw it.
error-not-challenger = Only the challenger can cancel this challenge.
error-draw-already-offered = You have already offered a draw; wait for your opponent's answer.
error-no-draw-offer = There is no draw offer to answer.
error-own-draw-offer = You cannot answer your own draw offer; your opponent must.
error-nothing-to-take-back = You have no move to take back.
error-no-takeback = There is no takeback request to answer.
error-own-takeback = You cannot answer your own takeback request; your opponent must.
error-nothing-to-claim = No draw can be claimed now: the position has not occurred three times and the 50-move rule is not met.
error-nothing-to-claim-with = No draw can be claimed with { $san }: neither threefold repetition nor the 50-move rule would apply. The move was not played.
error-claim-not-your-turn = Only the player to move can claim a draw.
error-abort-too-late = Too late to abort: both players have moved. You can resign or offer a draw.
error-internal = Something went wrong on my side.

## Move reading (the rules crate's ReadError, by variant)

read-did-you-mean = Did you mean { $moves }?
read-empty = Nothing to read: type a move such as e4 or Nf3.
read-too-long = That is too long for a move (at most { $max } characters).
read-null-move = A null move is not a move in a game.
read-unknown-piece = '{ $letter }' is not a piece letter (use K Q R B N, or R D T A C in Spanish).
read-no-destination = No destination square found: a move names one, like e4.
read-trailing-text = Unexpected "{ $text }" after the move.
read-unreadable = Not a move I can read: try e4, Nf3, exd5, O-O or e2e4.
read-no-legal-moves = There are no legal moves: the game is over.
read-no-such-piece = You have no { role-name }.
read-cannot-reach = No { role-name } can reach { $to }.
read-cannot-reach-file = No { role-name } on the { $file }-file can reach { $to }.
read-cannot-reach-rank = No { role-name } on rank { $rank } can reach { $to }.
read-cannot-reach-from = The { role-name } on { $from } cannot reach { $to }.
read-pawn-capture-without-file = No pawn can move straight to { $to }, and a pawn capture names the pawn's file.
read-empty-square = There is no piece on { $square }.
read-not-your-piece = The { role-name } on { $square } is not yours.
read-wrong-piece = The piece on { $square } is { $found }, not { $named }.
read-own-piece-there = Your own { role-name } stands on { $square }.
read-pinned = The { role-name } on { $square } is pinned.
read-in-check = You are in check.
read-king-would-be-in-check = Your king would be in check.
read-castle = { $problem ->
    [king-moved] Cannot castle: the king has moved.
    [rook-moved] Cannot castle { $side ->
        [king] kingside
       *[queen] queenside
    }: the rook has moved.
    [pieces-in-the-way] Cannot castle { $side ->
        [king] kingside
       *[queen] queenside
    }: there are pieces in the way.
    [out-of-check] Cannot castle out of check.
    [through-attacked-square] Cannot castle through an attacked square.
   *[into-check] Cannot castle into check.
}
read-not-a-promotion = Only a pawn reaching the last rank can promote.
read-cannot-promote-to = A pawn cannot promote to a { role-name }: choose a queen, rook, bishop or knight.
read-not-legal = That move is not legal here.
read-ambiguous = Ambiguous: it could be { $moves }.
read-incomplete-promotion = A pawn reaching { $to } must promote: choose a { $roles }.

role-indefinite = { $role ->
    [king] a king
    [queen] a queen
    [rook] a rook
    [bishop] a bishop
    [knight] a knight
   *[pawn] a pawn
}
role-none = No { role-name }
role-the = the { role-name }
role-the-cap = The { role-name }
role-name = { $role ->
    [king] king
    [queen] queen
    [rook] rook
    [bishop] bishop
    [knight] knight
   *[pawn] pawn
}

## The board's alt text

alt-to-move = { colour-name } to move.
alt-checkmated = { colour-name } is checkmated.
alt-in-check = { colour-name } is in check.
alt-stalemate = Stalemate.
alt-side = { colour-name }:
alt-pieces = { $count ->
    [one] { role-name }
   *[other] { $role ->
        [king] kings
        [queen] queens
        [rook] rooks
        [bishop] bishops
        [knight] knights
       *[pawn] pawns
    }
} { $squares }
alt-no-pieces = no pieces

## /help

help =
    { "**" }Cajitas: chess in this channel**
    `/challenge [opponent] [colour] [time] [rated]` challenge someone (or anyone), your colour white, black or random; `time` 1–14 days per move (3 by default), a live clock such as 5+3, or untimed; rated unless `rated:false`
    `/accept` `/decline` answer a challenge · `/cancel` withdraw yours
    `/move <move> [claim_draw]` play a move (suggestions as you type)
    `/board` show the board · `/pgn` the game as PGN · `/gif` as a GIF · `/history` the last games here
    `/draw offer|accept|decline|claim` · `/resign` (asks to confirm) · `/abort` before both have moved (against the computer, any time)
    `/takeback` ask your opponent to take back your last move (casual games only)
    `/claim-win [draw]` win (or draw) an untimed game whose opponent has not moved for { $days ->
        [one] a day
       *[other] { $days } days
    }
    `/leaderboard [speed]` the server's best players · `/stats [user]` ratings, results and a rating chart
    `/play [level] [colour]` play the computer, levels 1–8 · `/analysis` the last game here, analysed
    `/puzzle [theme] [rating] [id] [source]` a rated puzzle from lichess's database or this server's games; answer with `/move`
    `/settings language` the language of public game messages in this server (Manage Server)

    { "**" }Notations**
    • SAN: `e4` `Nf3` `exd5` `O-O` `e8=Q` `Qh4#` (lower case works too: `nf3`)
    • Coordinates: `e2e4` `g1f3` `e7e8q`
    • Figurines: `♘f3` `♕h5`
    • Spanish letters (R rey, D dama, T torre, A alfil, C caballo): `Cf3` `Axc4` `Dh5` `e8=D`. With a Spanish Discord language (es-ES, es-419), `R` is the king; otherwise `R` is a rook.

## The game as an animated GIF (the result line of the last frame)

gif-win = { $result } · { colour-name } wins by { $reason ->
    [checkmate] checkmate
    [resignation] resignation
   *[timeout] timeout
}
gif-draw = { $result } · { $reason ->
    [stalemate] Draw by stalemate
    [dead-position] Draw: dead position
    [agreement] Draw by agreement
    [threefold-repetition] Draw by threefold repetition
    [fifty-moves] Draw by the 50-move rule
    [fivefold-repetition] Draw by fivefold repetition
    [seventy-five-moves] Draw by the 75-move rule
   *[timeout-vs-insufficient-material] Draw on time
}
gif-unfinished = * · Game in progress

# Chess960 (issue 31): the variant and its start position's number, in a challenge, the
# game's embed and the console's board.
variant-chess960 = Chess960 #{ $number }
embed-variant = Variant
console-variant = Variant: Chess960 #{ $number }
