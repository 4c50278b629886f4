# The command-line tools (cajitas replay, analyse, render): what they say about games, in the
# language of --lang. Uses from cajitas.ftl: termination, colour-name.

cli-pgn-line = line { $line }: { $message }
cli-pgn-move = { $number } { $input }: { $reason }
cli-pgn-token = { $input }: { $reason }
cli-pgn-too-large = the PGN text is { $bytes } bytes, more than the { $max } MiB allowed
cli-pgn-fen = the FEN tag cannot be used: { $reason }
cli-pgn-variant = the variant "{ $variant }" is not supported, only standard chess
cli-game-over = The game was already over: { $winner ->
    [white] White won by { termination }.
    [black] Black won by { termination }.
   *[none] draw by { termination }.
}
# render --gif --moves: the move that cannot be read or played, and why.
cli-moves-error = --moves: move { $number } "{ $input }": { $reason }
