# `cajitas local`: los textos de la consola, en español (el glosario está al principio de
# cajitas.ftl). Los ids son los de assets/i18n/en/console.ftl. Las órdenes siguen siendo
# palabras inglesas en los dos idiomas (`accept`, `move`…): la ayuda lo explica.

## La sesión

console-welcome = Cajitas local: juegas como { $name } en el canal `{ $channel }`. Escribe `help`.
console-line-too-long = Esa línea tiene más de { $max } caracteres; no se tiene en cuenta.
console-not-utf8 = Esa línea no es texto UTF-8 válido; no se tiene en cuenta.
console-now-acting = Ahora juegas como { $name }.
console-lang-set = Ahora en español: las jugadas se leen con R = rey, D = dama, T = torre, A = alfil, C = caballo.
console-lang-now = La consola habla español y lee R como rey. Uso: lang en|es
console-sorry = Lo siento, algo ha fallado: { $error }
console-board-image = Imagen del tablero: { $path }
console-board-image-failed = (no se ha podido escribir la imagen del tablero: { $error })
console-notice = {"["}aviso] { $text }
console-notice-board = (tablero: { $path })
console-cannot-open-db = error: no se puede abrir la base de datos { $path }: { $error }
console-new-database = Se creó una base de datos nueva: { $path } (no había ninguna; indica otra con --db o CAJITAS_DB)

## Negativas a una línea que no es una orden

console-usage = Uso: { $usage }
console-unknown-lang = idioma desconocido { $lang }: usa en o es
console-unknown-colour = Color desconocido { $colour }: usa white (blancas), black (negras) o random.
console-unknown-command = Orden desconocida { $command }. Escribe `help` para ver la lista.

## Desafíos, jugadas, la partida

console-challenge = { $challenger } desafía a { $opponent }: { $challenger } { challenge-colour }. Responde con `accept` (aceptar); solo quien desafía puede retirarlo con `cancel`.
console-challenge-open = { $challenger } desafía a cualquiera: { $challenger } { challenge-colour }. Responde con `accept` (aceptar); solo quien desafía puede retirarlo con `cancel`.
console-game-begins = Empieza la partida { $id }: { $white } (blancas) contra { $black } (negras).
console-move-played = { $who } juega { $san }.
console-move-claims = { $who } reclama tablas ({ claim-reason }) con { $san } (anotada, no jugada).
console-aborted = { $who } ha anulado la partida { $id }.
console-material = { $side ->
    [white] blancas +{ $points }
    [black] negras +{ $points }
   *[even] material igualado
}
console-history-empty = Todavía no hay partidas terminadas aquí.
console-history-line = partida { $id }: { $white } - { $black }  { $result }  ({ $reason }, { $plies ->
    [one] { $plies } semijugada
   *[other] { $plies } semijugadas
})

## Líneas de estado

console-to-move = Jugada { $fullmove }: juegan las { colour-lower } ({ $player }).
console-draw-offered = Las { colour-lower } ofrecen tablas.
console-may-claim-now = { $player } puede reclamar tablas ahora ({ $what }).
console-may-claim-with-move = { $player } puede reclamar tablas junto con una jugada ({ $what }).
console-win = { $reason ->
    [checkmate] Ganan las { colour-lower } por jaque mate
    [resignation] Ganan las { colour-lower } por abandono
   *[timeout] Ganan las { colour-lower } por tiempo
} (gana { $winner }, { $result }).

## Ayuda

console-help =
    Órdenes (una por línea; se escriben en inglés):
      as NOMBRE                     juega como NOMBRE a partir de ahora
      challenge [NOMBRE] [white|black|random] [TIEMPO] [rated:true|false]
                                    desafía a NOMBRE (o a cualquiera, sin nombre); el color es el tuyo (también blancas, negras);
                                    TIEMPO: 1d 2d 3d 5d 7d 10d 14d (días por jugada, 3d si no eliges),
                                    3+2 5+3 10+5 15+10 30+20 (en vivo), untimed (sin reloj);
                                    puntuada salvo con rated:false
      accept | decline | cancel     acepta o rechaza el desafío, o retira el tuyo
      play [1-8] [white|black|random]
                                    juega contra la computadora (un motor de ajedrez) a ese nivel, 1 si no eliges
      move JUGADA [claim]           juega: e4, Cf3, Nf3 (inglés), e2e4, O-O, ♘f3...;
                                    `claim` reclama tablas junto con la jugada
      draw offer|accept|decline|claim
                                    ofrece tablas, las acepta, las rechaza o las reclama
      takeback [accept|decline]     pide deshacer tu última jugada, o responde a la petición
      resign | abort                abandona, o anula la partida antes de que ambos hayan jugado (contra el ordenador, cuando quieras)
      claim-win [draw]              gana (o tablas) una partida sin reloj cuyo rival dejó de jugar
      board | pgn | history         muestra el tablero, la partida en PGN, las últimas partidas terminadas
      stats [NOMBRE] | leaderboard [live|correspondence]
                                    puntuaciones y resultados (con un gráfico PNG), los mejores jugadores
      lang en|es                    el idioma de la consola y de las jugadas (es: R = rey, D T A C = dama torre alfil caballo; en: R = torre)
      help | quit                   esta ayuda | salir
