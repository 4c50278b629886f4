# `cajitas local`: los textos de la consola, en español (el glosario está al principio de
# cajitas.ftl). Los ids son los de assets/i18n/en/console.ftl. Las órdenes son las
# palabras inglesas y, en español, también los nombres españoles de los comandos de barra
# (commands.ftl) y `salir` (console-quit-word): la ayuda lo explica.

## La sesión

console-welcome = Cajitas local: juegas como { $name } en el canal `{ $channel }`. Escribe `help`.
console-line-too-long = Esa línea tiene más de { $max } caracteres; no se tiene en cuenta.
console-not-utf8 = Esa línea no es texto UTF-8 válido; no se tiene en cuenta.
console-now-acting = Ahora juegas como { $name }.
console-lang-set = Ahora en español: las jugadas se leen con R = rey, D = dama, T = torre, A = alfil, C = caballo.
console-lang-now = La consola habla español y lee R como rey. Uso: lang en|es
# La palabra de `quit` en español (las demás órdenes son los nombres de los comandos de barra).
console-quit-word = salir
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
    Órdenes (una por línea; en español, con las palabras de los comandos de Discord, o en inglés):
      as NOMBRE                     juega como NOMBRE a partir de ahora
      { cmd-challenge.name } [NOMBRE] [blancas|negras|azar] [TIEMPO] [{ cmd-challenge.rated-name }:sí|no]
                                    desafía a NOMBRE (o a cualquiera, sin nombre); el color es el tuyo;
                                    TIEMPO: 1d 2d 3d 5d 7d 10d 14d (días por jugada, 3d si no eliges),
                                    3+2 5+3 10+5 15+10 30+20 (en vivo), untimed (sin reloj);
                                    puntuada salvo con { cmd-challenge.rated-name }:no; las opciones en cualquier orden
      { cmd-accept.name } | { cmd-decline.name } | { cmd-cancel.name }    acepta o rechaza el desafío, o retira el tuyo
      { cmd-play.name } [1-8] [blancas|negras|azar]
                                    juega contra la computadora (un motor de ajedrez) a ese nivel, 1 si no eliges
      { cmd-move.name } JUGADA [{ cmd-draw.action-claim }]     juega: e4, Cf3, Nf3 (inglés), e2e4, O-O, ♘f3...;
                                    `{ cmd-draw.action-claim }` reclama tablas junto con la jugada;
                                    una jugada sola (e4, Cf3) también vale
      { cmd-draw.name } { cmd-draw.action-offer }|{ cmd-draw.action-accept }|{ cmd-draw.action-decline }|{ cmd-draw.action-claim }
                                    ofrece tablas, las acepta, las rechaza o las reclama
      { cmd-takeback.name } [{ cmd-accept.name }|{ cmd-decline.name }]   pide deshacer tu última jugada, o responde a la petición
      { cmd-resign.name } | { cmd-abort.name }             abandona, o anula la partida antes de que ambos hayan jugado (contra el ordenador, cuando quieras)
      { cmd-claim-win.name } [{ cmd-claim-win.draw-name }]
                                    gana (o tablas) una partida sin reloj cuyo rival dejó de jugar
      { cmd-board.name } | { cmd-pgn.name } | { cmd-history.name }     muestra el tablero, la partida en PGN, las últimas partidas terminadas
      { cmd-stats.name } [NOMBRE] | { cmd-leaderboard.name } [{ cmd-leaderboard.speed-live }|{ cmd-leaderboard.speed-correspondence }|chess960|{ cmd-leaderboard.speed-puzzles }|{ cmd-leaderboard.speed-streak }]
                                    puntuaciones y resultados (con un gráfico PNG), los mejores jugadores
      puzzle [TEMA] [PUNTUACIÓN] [origen:cualquiera|servidor|lichess] | puzzle id:ID
                                    un problema que no has visto (del TEMA: ataque doble, mate en 2, fork ...; cerca de PUNTUACIÓN,
                                    el tuyo si no), o el problema ID de lichess; responde con move JUGADA o la jugada sola
      puzzle { cmd-puzzle.mode-streak }                  racha de problemas: cada vez más difíciles, sin pistas, hasta tu primer error
      hint | solution               la pieza que hay que mover (el intento deja de ser puntuado), o ríndete y mira la línea
      arena { console-arena-create } 30m|45m|60m|90m TIEMPO [puntuada:sí|no] [{ console-arena-starts }:Nm]
                                    una arena en este canal (TIEMPO un reloj en vivo como 3+2; empieza en 5 min si no se dice)
      arena { console-arena-join }|{ console-arena-pause }|{ console-arena-withdraw }|{ console-arena-berserk }|{ console-arena-standings }
                                    juega en ella (las jugadas, tablas y abandonar van a tu partida de arena), pausa, sal,
                                    reduce tu reloj a la mitad antes de tu primera jugada, mira la clasificación
      lang en|es                    el idioma de la consola y de las jugadas (es: R = rey, D T A C = dama torre alfil caballo; en: R = torre)
      { cmd-help.name } | { console-quit-word }                 esta ayuda | salir
    En inglés: challenge [white|black|random] [rated:true|false], accept, decline, cancel, play, move [claim],
    draw offer|accept|decline|claim, takeback [accept|decline], resign, abort, claim-win [draw], board, pgn,
    history, stats, leaderboard [live|correspondence], puzzle, hint, solution, help, quit.

## Round robins (`roundrobin …`, printed after `help`)

console-help-roundrobin =
    Liguillas (tablas Berger de la FIDE; las partidas de cada ronda empiezan a la vez, la siguiente cuando terminan todas):
      liguilla { cmd-roundrobin-create.name } NOMBRE NOMBRE NOMBRE … TIEMPO [{ cmd-roundrobin-create.double-name }] [puntuada:sí|no]
                                    una liguilla de 3 a 16 jugadores, numerados en ese orden (TIEMPO cualquier reloj, también 1d);
                                    con { cmd-roundrobin-create.double-name }, todos juegan dos veces contra todos
      liguilla { cmd-roundrobin-standings.name }    PUESTO. NOMBRE PUNTOS SB (Sonneborn-Berger, luego el encuentro directo)
      liguilla { cmd-roundrobin-withdraw.name } [as NOMBRE]
                                    dejarla: antes de terminar la mitad de tus partidas se anulan tus resultados,
                                    después pierdes por incomparecencia las que no has jugado
    En inglés: roundrobin create|standings|withdraw, double.
