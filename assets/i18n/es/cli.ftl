# Las herramientas de la línea de órdenes (cajitas replay, analyse, render): lo que dicen de
# las partidas, en el idioma de --lang. Usa de cajitas.ftl: termination, colour-name.

cli-pgn-line = línea { $line }: { $message }
cli-pgn-move = { $number } { $input }: { $reason }
cli-pgn-token = { $input }: { $reason }
cli-pgn-too-large = el texto PGN ocupa { $bytes } bytes, más de los { $max } MiB permitidos
cli-pgn-fen = la etiqueta FEN no sirve: { $reason }
cli-pgn-variant = la variante «{ $variant }» no está admitida, solo el ajedrez normal
cli-game-over = La partida ya había terminado: { $winner ->
    [white] ganaron las blancas por { termination }.
    [black] ganaron las negras por { termination }.
   *[none] tablas por { termination }.
}
# render --gif --moves: la jugada que no se puede leer o jugar, y por qué.
cli-moves-error = --moves: jugada { $number } «{ $input }»: { $reason }
