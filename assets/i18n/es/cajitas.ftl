# Cajitas: todos los textos del bot, en español.
#
# Glosario (los términos de nuestros documentos, las Leyes del Ajedrez de la FIDE), uno para
# todo el bot:
#   draw = tablas              agreement = acuerdo mutuo        stalemate = rey ahogado
#   threefold repetition = triple repetición de jugadas        en passant = captura al paso
#   promotion = promoción      kingside / queenside castling = enroque corto / largo
#   check = jaque              checkmate = jaque mate            dead position = posición muerta
#   white / black = blancas / negras
#   king, queen, rook, bishop, knight, pawn = rey, dama, torre, alfil, caballo, peón
#   (letras: R, D, T, A, C; el peón no lleva letra)
#   resign = abandonar (rendirse)    draw offer = oferta de tablas   time = tiempo

check = ¡Jaque!

## Palabras

colour-name = { $colour ->
    [white] Blancas
   *[black] Negras
}
colour-lower = { $colour ->
    [white] blancas
   *[black] negras
}
list-or = { $head } o { $last }
list-sep = {", "}
list-and = { $head } y { $last }

## El mensaje del tablero

embed-title = { $white } contra { $black }
embed-white = Blancas
embed-black = Negras
embed-move = Jugada
embed-last-move = Última jugada
embed-opening = Apertura
# La apertura de una partida: su código ECO y el nombre de lichess, sin traducir (como en lichess).
opening-name = { $eco } { $name }
console-opening = Apertura: { $eco } { $name }
embed-material = Material
embed-footer = Partida n.º { $id } · semijugada { $ply }
material-even = Igualado
material-ahead = { colour-name } +{ $points }

## Líneas de estado

status-aborted = Partida anulada: sin resultado.
status-checkmate = Jaque mate: ganan las { colour-lower } ({ $winner }), { $result }.
status-resigned = { $loser } abandona: ganan las { colour-lower } ({ $winner }), { $result }.
status-timeout = Ganan las { colour-lower } por tiempo ({ $winner }), { $result }.
status-draw = { $reason ->
    [stalemate] Tablas: rey ahogado
    [dead-position] Tablas: posición muerta (material insuficiente)
    [agreement] Tablas por acuerdo mutuo
    [threefold-repetition] Tablas por triple repetición de jugadas
    [fifty-moves] Tablas por la regla de los 50 movimientos
    [fivefold-repetition] Tablas por quíntuple repetición de jugadas
    [seventy-five-moves] Tablas por la regla de los 75 movimientos
   *[timeout-vs-insufficient-material] Tablas por tiempo: el rival no puede dar jaque mate
}, { $result }.
status-to-move = Juegan las { colour-lower }: { $player }.
status-check = **¡Jaque!**
status-draw-offer = { $player } ofrece tablas.
status-claimable = Se pueden reclamar tablas ({ $what }): `/tablas accion:reclamar`.
claim-reason = { $claim ->
    [threefold] triple repetición de jugadas
   *[fifty] regla de los 50 movimientos
}

## Desafíos

challenge-colour = { $colour ->
    [white] juega con blancas
    [black] juega con negras
   *[random] jugará con un color elegido al azar
}
challenge-to = { $opponent }: ¡{ $challenger } te desafía a una partida de ajedrez! { $challenger } { challenge-colour }. El desafío caduca { $expires }.
challenge-open = { $challenger } busca rival (desafío abierto: cualquiera puede aceptarlo). { $challenger } { challenge-colour }. El desafío caduca { $expires }.
button-accept = Aceptar
button-decline = Rechazar
game-begins = Empieza la partida: { $white } lleva las blancas y { $black } las negras. Mueve { $white }.
challenge-declined = { $who } ha rechazado el desafío de { $challenger }.
challenge-withdrawn = { $challenger } ha retirado el desafío.

## Jugadas, tablas, abandono

move-played = { $who } juega **{ $san }**.
move-claims = { $who } anota **{ $san }** y reclama tablas.
draw-accepts-standing = { $who } acepta la oferta de tablas pendiente.
draw-offers = { $who } ofrece tablas. { $opponent }, ¿aceptas?
draw-accepts = { $who } acepta las tablas.
draw-declines = { $who } rechaza las tablas; la partida continúa.
draw-claims = { $who } reclama tablas.
button-accept-draw = Aceptar tablas
button-decline-draw = Rechazar
button-analysis = Analizar en lichess
takeback-asks = { $who } pide deshacer { $plies ->
    [one] su última jugada
   *[other] su última jugada y la respuesta
}. { $opponent }, ¿aceptas?
takeback-accepts = { $who } acepta deshacer: { $plies ->
    [one] se deshace una jugada
   *[other] se deshacen una jugada y su respuesta
}.
takeback-declines = { $who } rechaza deshacer; la partida continúa.
button-accept-takeback = Aceptar
button-decline-takeback = Rechazar
resign-confirm = ¿Seguro que quieres abandonar? No se puede deshacer.
button-resign = Sí, abandono
resigns = { $who } abandona.
aborted = { $who } ha anulado la partida.

## /pgn, /historial, /ajustes

pgn-hint = La partida en PGN. Para analizarla en lichess, abre <https://lichess.org/paste> y pega el texto del archivo (o súbelo).
history-empty = Todavía no hay partidas terminadas en este canal. Empieza una con /desafiar.
history-title = Últimas partidas en este canal
history-line = #{ $id } { $white } contra { $black }: **{ $result }** ({ $reason }, { $moves ->
    [one] { $moves } jugada
   *[other] { $moves } jugadas
}) { $date }
termination = { $termination ->
    [checkmate] jaque mate
    [resignation] abandono
    [timeout] tiempo
    [stalemate] rey ahogado
    [dead-position] posición muerta
    [agreement] acuerdo mutuo
    [threefold-repetition] triple repetición de jugadas
    [fifty-moves] regla de los 50 movimientos
    [fivefold-repetition] quíntuple repetición de jugadas
    [seventy-five-moves] regla de los 75 movimientos
    [timeout-vs-insufficient-material] tiempo contra material insuficiente
    [aborted] anulada
   *[other] { $termination }
}
settings-language-set = { $language ->
    [es] Desde ahora, los mensajes públicos de las partidas de este servidor van en español.
    [en] Desde ahora, los mensajes públicos de las partidas de este servidor van en inglés.
   *[auto] Desde ahora, los mensajes públicos de las partidas de este servidor siguen el idioma de quien los provoca.
}
settings-language-now = { $language ->
    [es] Los mensajes públicos de las partidas de este servidor van en español.
    [en] Los mensajes públicos de las partidas de este servidor van en inglés.
   *[auto] Los mensajes públicos de las partidas de este servidor siguen el idioma de quien los provoca.
} Cámbialo con `/ajustes idioma`.
settings-not-in-server = Los ajustes son de cada servidor: usa este comando en un canal de un servidor.
settings-need-manage = Solo los miembros con el permiso «Gestionar servidor» pueden cambiar este ajuste.

## Negativas y disculpas

refusal-slash-only = Usa el comando de barra.
refusal-button-expired = Este botón ha caducado: la partida ha avanzado desde que se mostró.
refusal-resign-expired = Este botón ha caducado: la posición ha cambiado desde que lo pediste. Usa /rendirse otra vez si todavía quieres abandonar.
refusal-not-your-button = Este botón es para el jugador que pidió abandonar.
refusal-unknown-button = Ya no reconozco este botón.
refusal-bad-argument = No he podido leer `{ $input }`: no es un valor válido para esa opción.
refusal-bad-command = No he podido leer ese comando: alguna opción no es válida.
refusal-out-of-date = Este comando parece desactualizado; Discord puede tardar un minuto en refrescar la lista de comandos. Inténtalo de nuevo.
apology = Lo siento, algo ha fallado por mi parte y no he podido terminar. Inténtalo de nuevo dentro de un momento. (referencia { $id })
restarting = Reiniciando: inténtalo de nuevo dentro de unos segundos.

## Negativas del servicio de partidas (una por variante de GameError)

error-no-game = No hay ninguna partida en este canal. Empieza una con { $command }.
error-game-over = La partida de este canal ya ha terminado. Empieza otra con { $command }.
error-not-a-player = No juegas en esta partida.
error-not-your-turn = No es tu turno: espera la jugada de tu rival.
error-position-changed = La posición ha cambiado antes de que llegara tu acción (este botón o esta jugada están desfasados). Mira el tablero e inténtalo de nuevo.
error-too-long = La jugada es demasiado larga (como mucho { $max } caracteres).
error-empty-move = Escribe una jugada, por ejemplo `e4`, `Cf3`, `Nf3` o `e2e4`.
error-no-challenge = No hay ningún desafío pendiente en este canal.
error-challenge-expired = Ese desafío ha caducado. Lanza otro con { $command }.
error-challenge-closed = { $how ->
    [accepted] Ese desafío ya fue aceptado.
    [declined] Ese desafío ya fue rechazado.
   *[cancelled] Ese desafío ya fue retirado.
}
error-challenge-self = No puedes desafiarte a ti mismo. Nombra a un rival o deja el desafío abierto a cualquiera.
error-challenge-bot = Los bots no pueden jugar. Desafía a una persona o deja el desafío abierto.
error-bot-cannot-play = Las cuentas de bot no pueden jugar.
error-challenge-pending = Ya hay un desafío esperando respuesta en este canal.
error-game-in-progress = Ya se está jugando una partida en este canal. Una partida por canal: termínala antes, o juega en otro canal o hilo.
error-not-challenged = Este desafío no va dirigido a ti.
error-own-challenge = No puedes responder a tu propio desafío (usa { $command } para retirarlo).
error-too-many-pings = Has mencionado a ese jugador { $limit } veces en los últimos 10 minutos. Inténtalo de nuevo dentro de { $wait } s.
error-open-challenge-decline = Este desafío está abierto a cualquiera, así que no se puede rechazar: ignóralo, o acéptalo para jugar. Solo quien lo lanzó puede retirarlo.
error-not-challenger = Solo quien lanzó el desafío puede retirarlo.
error-draw-already-offered = Ya has ofrecido tablas; espera la respuesta de tu rival.
error-no-draw-offer = No hay ninguna oferta de tablas que responder.
error-own-draw-offer = No puedes responder a tu propia oferta de tablas; debe hacerlo tu rival.
error-nothing-to-take-back = No tienes ninguna jugada que deshacer.
error-no-takeback = No hay ninguna petición de deshacer que responder.
error-own-takeback = No puedes responder a tu propia petición de deshacer; debe hacerlo tu rival.
error-nothing-to-claim = Ahora no se pueden reclamar tablas: la posición no se ha repetido tres veces y no se cumple la regla de los 50 movimientos.
error-nothing-to-claim-with = No se pueden reclamar tablas con { $san }: no habría ni triple repetición de jugadas ni regla de los 50 movimientos. La jugada no se ha hecho.
error-claim-not-your-turn = Solo puede reclamar tablas el jugador al que le toca mover.
error-abort-too-late = Demasiado tarde para anular: los dos jugadores ya han movido. Puedes abandonar u ofrecer tablas.
error-internal = Algo ha fallado por mi parte.

## Lectura de jugadas (el ReadError del crate de reglas, por variante)

read-did-you-mean = ¿Quisiste decir { $moves }?
read-empty = No hay nada que leer: escribe una jugada como e4 o Cf3.
read-too-long = Es demasiado largo para una jugada (como mucho { $max } caracteres).
read-null-move = Una jugada nula no es una jugada de la partida.
read-unknown-piece = «{ $letter }» no es la letra de ninguna pieza (usa R D T A C, o K Q R B N en inglés).
read-no-destination = No encuentro la casilla de destino: una jugada la nombra, como e4.
read-trailing-text = Sobra «{ $text }» después de la jugada.
read-unreadable = No es una jugada que sepa leer: prueba e4, Cf3, exd5, O-O o e2e4.
read-no-legal-moves = No hay jugadas legales: la partida ha terminado.
read-no-such-piece = { $role ->
    [king] No tienes rey.
    [queen] No tienes dama.
    [rook] No tienes ninguna torre.
    [bishop] No tienes ningún alfil.
    [knight] No tienes ningún caballo.
   *[pawn] No tienes ningún peón.
}
read-cannot-reach = { role-none } puede llegar a { $to }.
read-cannot-reach-file = { role-none } de la columna { $file } puede llegar a { $to }.
read-cannot-reach-rank = { role-none } de la fila { $rank } puede llegar a { $to }.
read-cannot-reach-from = { role-the-cap } de { $from } no puede llegar a { $to }.
read-pawn-capture-without-file = Ningún peón puede avanzar a { $to }, y una captura de peón indica la columna del peón.
read-empty-square = No hay ninguna pieza en { $square }.
read-not-your-piece = { role-the-cap } de { $square } es del rival.
read-wrong-piece = La pieza de { $square } es { $found }, no { $named }.
read-own-piece-there = Ya tienes { role-indefinite } en { $square }.
read-pinned = { $role ->
    [queen] La dama de { $square } está clavada.
    [rook] La torre de { $square } está clavada.
   *[other] { role-the-cap } de { $square } está clavado.
}
read-in-check = Estás en jaque.
read-king-would-be-in-check = Tu rey quedaría en jaque.
read-castle = { $problem ->
    [king-moved] No puedes enrocar: el rey ya se ha movido.
    [rook-moved] No puedes hacer el enroque { $side ->
        [king] corto
       *[queen] largo
    }: la torre ya se ha movido.
    [pieces-in-the-way] No puedes hacer el enroque { $side ->
        [king] corto
       *[queen] largo
    }: hay piezas en medio.
    [out-of-check] No puedes enrocar estando en jaque.
    [through-attacked-square] No puedes enrocar a través de una casilla atacada.
   *[into-check] No puedes enrocar si el rey queda en jaque.
}
read-not-a-promotion = Solo un peón que llega a la última fila puede promocionar.
read-cannot-promote-to = Un peón no puede promocionar a { role-name }: elige dama, torre, alfil o caballo.
read-not-legal = Esa jugada no es legal aquí.
read-ambiguous = Jugada ambigua: puede ser { $moves }.
read-incomplete-promotion = Un peón que llega a { $to } debe promocionar: elige { $roles }.

role-indefinite = { $role ->
    [king] un rey
    [queen] una dama
    [rook] una torre
    [bishop] un alfil
    [knight] un caballo
   *[pawn] un peón
}
role-none = { $role ->
    [king] Ningún rey
    [queen] Ninguna dama
    [rook] Ninguna torre
    [bishop] Ningún alfil
    [knight] Ningún caballo
   *[pawn] Ningún peón
}
role-the = { $role ->
    [queen] la dama
    [rook] la torre
   *[other] el { role-name }
}
role-the-cap = { $role ->
    [queen] La dama
    [rook] La torre
   *[other] El { role-name }
}
role-name = { $role ->
    [king] rey
    [queen] dama
    [rook] torre
    [bishop] alfil
    [knight] caballo
   *[pawn] peón
}

## Texto alternativo del tablero

alt-to-move = Juegan las { colour-lower }.
alt-checkmated = Las { colour-lower } reciben jaque mate.
alt-in-check = Las { colour-lower } están en jaque.
alt-stalemate = Rey ahogado.
alt-side = { colour-name }:
alt-pieces = { $count ->
    [one] { role-name }
   *[other] { $role ->
        [king] reyes
        [queen] damas
        [rook] torres
        [bishop] alfiles
        [knight] caballos
       *[pawn] peones
    }
} { $squares }
alt-no-pieces = ninguna pieza

## /ayuda

help =
    { "**" }Cajitas: ajedrez en este canal**
    `/desafiar [rival] [color] [tiempo] [puntuada]` desafía a alguien (o a cualquiera); tu color: blancas, negras o al azar; `tiempo` de 1 a 14 días por jugada (3 si no eliges), un reloj en vivo como 5+3, o sin reloj; puntuada salvo con `puntuada:false`
    `/aceptar` `/rechazar` responde a un desafío · `/cancelar` retira el tuyo
    `/jugada <jugada> [reclamar_tablas]` juega (con sugerencias mientras escribes)
    `/tablero` muestra el tablero · `/pgn` la partida en PGN · `/gif` en GIF · `/historial` las últimas partidas de aquí
    `/tablas ofrecer|aceptar|rechazar|reclamar` · `/rendirse` (pide confirmación) · `/anular` antes de que ambos hayan jugado (contra el ordenador, cuando quieras)
    `/deshacer` pide a tu rival deshacer tu última jugada (solo en partidas amistosas)
    `/reclamar-victoria [tablas]` gana (o haz tablas) una partida sin reloj cuyo rival lleva { $days ->
        [one] un día
       *[other] { $days } días
    } sin jugar
    `/clasificacion [ritmo]` los mejores jugadores del servidor · `/estadisticas [usuario]` puntuaciones, resultados y un gráfico
    `/jugar [nivel] [color]` juega contra la computadora, niveles 1–8 · `/analisis` la última partida de aquí, analizada
    `/problema [tema] [puntuacion] [id] [origen]` un problema puntuado de la base de lichess o de las partidas del servidor; responde con `/jugada`
    `/ajustes idioma` el idioma de los mensajes públicos de las partidas en este servidor (Gestionar servidor)

    { "**" }Notaciones**
    • Letras españolas (R rey, D dama, T torre, A alfil, C caballo): `Cf3` `Axc4` `Dh5` `e8=D` `O-O`. Con Discord en español (es-ES, es-419), `R` es el rey.
    • SAN inglesa: `e4` `Nf3` `exd5` `e8=Q` `Qh4#` (también en minúsculas: `nf3`)
    • Coordenadas: `e2e4` `g1f3` `e7e8q`
    • Figuras: `♘f3` `♕h5`

## La partida como GIF animado (la línea del resultado en el último fotograma)

gif-win = { $result } · Ganan las { colour-lower } por { $reason ->
    [checkmate] jaque mate
    [resignation] abandono
   *[timeout] tiempo
}
gif-draw = { $result } · { $reason ->
    [stalemate] Tablas: rey ahogado
    [dead-position] Tablas: posición muerta
    [agreement] Tablas por acuerdo mutuo
    [threefold-repetition] Tablas por triple repetición
    [fifty-moves] Tablas por la regla de los 50 movimientos
    [fivefold-repetition] Tablas por quíntuple repetición
    [seventy-five-moves] Tablas por la regla de los 75 movimientos
   *[timeout-vs-insufficient-material] Tablas por tiempo
}
gif-unfinished = * · Partida en curso

# Chess960 (issue 31): la variante y el número de su posición inicial, en un desafío, el
# embed de la partida y el tablero de la consola.
variant-chess960 = Chess960 n.º { $number }
embed-variant = Variante
console-variant = Variante: Chess960 n.º { $number }
