## A thread per game, the end-of-game summary, rematch and the game as a GIF (issue 15)

error-in-game-thread = This thread belongs to a game: send challenges in { $parent }.
error-several-games = You are playing several games in this channel: { $links }. Type the command in the game's thread.
error-games-in-threads = The games of this channel are played in their threads: { $links }.
error-several-challenges = Several challenges are waiting here: use the Accept or Decline button of the one you mean.

# The name of a game's thread, e.g. "alice vs bob · 30 nov".
thread-name = { $first } vs { $second } · { $day } { $month ->
    [jan] jan
    [feb] feb
    [mar] mar
    [apr] apr
    [may] may
    [jun] jun
    [jul] jul
    [aug] aug
    [sep] sep
    [oct] oct
    [nov] nov
   *[dec] dec
}
# The challenge message once accepted, and the answer to /accept, when the game has a thread.
game-in-thread = { $white } (white) and { $black } (black) play in { $thread }. Good luck!
# The ephemeral answer to a command typed in the channel that acted on the game of a thread.
routed = Done, in { $thread }.
# Said once per channel, in the first message of a game played in the channel.
threads-fallback = I cannot open threads in this channel (I need the Create Public Threads and Send Messages in Threads permissions), so this game is played here, in the channel.
# The one-line summary in the channel when a game of a thread ends.
summary = { $outcome ->
    [win] { $winner } beat { $loser } by { termination } in { $moves } { $moves ->
        [one] move
       *[other] moves
    }{ summary-opening }: { $thread }
    [draw] { $white } and { $black } drew by { termination } in { $moves } { $moves ->
        [one] move
       *[other] moves
    }{ summary-opening }: { $thread }
   *[aborted] The game between { $white } and { $black } was aborted: { $thread }
}
# The opening after a finished game's summary (" · Italian Game"), or nothing ($opening is "none").
summary-opening = { $opening ->
    [none] {""}
   *[other] {" · "}{ $opening }
}

button-rematch = Rematch
rematch-posted = Your rematch challenge is waiting in { $channel }.
rematch-title = Rematch!

gif-caption = { $white } vs { $black }, move by move.
