# Las herramientas de la línea de órdenes (cajitas replay, analyse, render): lo que dicen de
# las partidas, en el idioma de --lang. Usa de cajitas.ftl: termination, colour-name.

cli-pgn-line = línea { $line }: { $message }
cli-pgn-move = { $number } { $input }: { $reason }
cli-pgn-token = { $input }: { $reason }
cli-pgn-too-large = el texto PGN ocupa { $bytes } bytes, más de los { $max } MiB permitidos
cli-pgn-fen = la etiqueta FEN no sirve: { $reason }
cli-pgn-variant = la variante «{ $variant }» no está admitida, solo el ajedrez normal y el Chess960
cli-game-over = La partida ya había terminado: { $winner ->
    [white] ganaron las blancas por { termination }.
    [black] ganaron las negras por { termination }.
   *[none] tablas por { termination }.
}
# render --gif --moves: la jugada que no se puede leer o jugar, y por qué.
cli-moves-error = --moves: jugada { $number } «{ $input }»: { $reason }

# Los ajustes que leen `cajitas run` y `cajitas local` (el entorno o `.env`): por qué no pueden
# arrancar. $value es el valor dado, entre comillas (y acortado si es un número).
config-missing-token = DISCORD_TOKEN no está definido.
    Cajitas necesita el token de un bot de Discord para funcionar como bot. Crea una aplicación en https://discord.com/developers/applications, añádele un bot (pestaña Bot, Reset Token) y pon el token en un archivo `.env` en este directorio como `DISCORD_TOKEN=...` (mira .env.example) o en el entorno.
    Para jugar sin conexión y sin token, ejecuta `cajitas local`.
config-bad-guild-id = DISCORD_GUILD_ID debe ser el id de un servidor (guild), un número como 1100000000000000001, o estar vacío para registrar los comandos de forma global; se recibió { $value }
config-untrusted-api-base = DISCORD_API_BASE debe ser una URL http de esta máquina (127.0.0.0/8, localhost o [::1]), como la del Discord falso de una prueba; se recibió { $value }. El bot envía su token a esa dirección. Si es un proxy REST que administras y en el que confías, define también CAJITAS_API_BASE_TRUSTED=1; en producción deja DISCORD_API_BASE sin definir.
config-bad-challenge-ttl = CAJITAS_CHALLENGE_TTL debe ser un número de segundos de 1 a 604800, no { $value }
config-bad-shards = CAJITAS_SHARDS debe ser PRIMERO-ÚLTIMO/TOTAL con PRIMERO <= ÚLTIMO < TOTAL <= 65536 (p. ej. 0-3/8: los shards 0 a 3 de 8 en este proceso), o estar vacío para un solo shard; se recibió { $value }
config-bad-threads = CAJITAS_THREADS debe ser auto u off, no { $value }
config-bad-blocking-threads = CAJITAS_BLOCKING_THREADS debe ser un número de hilos de 1 a 64, no { $value }
config-bad-abandon-days = CAJITAS_ABANDON_DAYS debe ser un número de días de 1 a 365, no { $value }
config-bad-number = { $var } debe ser un número de { $min } a { $max }, no { $value }
config-engine-not-on-path = CAJITAS_ENGINE nombra { $name }, que no es un programa del PATH; instala un motor (`apt install stockfish`), da su ruta completa o deja CAJITAS_ENGINE vacío
config-engine-not-a-file = CAJITAS_ENGINE nombra { $name }, que no es un archivo; instala un motor (`apt install stockfish`) o deja CAJITAS_ENGINE vacío
config-bad-metrics = CAJITAS_METRICS debe ser la dirección donde servir las métricas de Prometheus: IP:PUERTO como 127.0.0.1:9100 (o [::1]:9100, o 0.0.0.0:9100 para servir en todas las interfaces), un PUERTO solo para 127.0.0.1:PUERTO, o estar vacío para no servir métricas; se recibió { $value }
