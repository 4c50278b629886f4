# The command-line tools (cajitas replay, analyse, render): what they say about games, in the
# language of --lang. Uses from cajitas.ftl: termination, colour-name.

cli-pgn-line = line { $line }: { $message }
cli-pgn-move = { $number } { $input }: { $reason }
cli-pgn-token = { $input }: { $reason }
cli-pgn-too-large = the PGN text is { $bytes } bytes, more than the { $max } MiB allowed
cli-pgn-fen = the FEN tag cannot be used: { $reason }
cli-pgn-variant = the variant "{ $variant }" is not supported, only standard chess and Chess960
cli-game-over = The game was already over: { $winner ->
    [white] White won by { termination }.
    [black] Black won by { termination }.
   *[none] draw by { termination }.
}
# render --gif --moves: the move that cannot be read or played, and why.
cli-moves-error = --moves: move { $number } "{ $input }": { $reason }

# The settings that `cajitas run` and `cajitas local` read (the environment or `.env`): why
# they cannot start. $value is the value given, quoted (and shortened where it is a number).
config-missing-token = DISCORD_TOKEN is not set.
    Cajitas needs a Discord bot token to run the bot. Create an application at https://discord.com/developers/applications, add a bot to it (Bot tab, Reset Token), and put the token in a `.env` file in this directory as `DISCORD_TOKEN=...` (see .env.example) or in the environment.
    To play offline without a token, run `cajitas local`.
config-bad-guild-id = DISCORD_GUILD_ID must be a server (guild) id, a number such as 1100000000000000001, or empty to register the commands globally; got { $value }
config-untrusted-api-base = DISCORD_API_BASE must be an http URL on this machine (127.0.0.0/8, localhost or [::1]), as a test's fake Discord is; got { $value }. The bot sends its token to that address. If it is a REST proxy you run and trust, also set CAJITAS_API_BASE_TRUSTED=1; in production leave DISCORD_API_BASE unset.
config-bad-challenge-ttl = CAJITAS_CHALLENGE_TTL must be a number of seconds from 1 to 604800, not { $value }
config-bad-shards = CAJITAS_SHARDS must be FIRST-LAST/TOTAL with FIRST <= LAST < TOTAL <= 65536 (e.g. 0-3/8: shards 0 to 3 of 8 in this process), or empty for one shard; got { $value }
config-bad-threads = CAJITAS_THREADS must be auto or off, not { $value }
config-bad-blocking-threads = CAJITAS_BLOCKING_THREADS must be a number of threads from 1 to 64, not { $value }
config-bad-abandon-days = CAJITAS_ABANDON_DAYS must be a number of days from 1 to 365, not { $value }
config-bad-number = { $var } must be a number from { $min } to { $max }, not { $value }
config-engine-not-on-path = CAJITAS_ENGINE names { $name }, which is not a program on PATH; install an engine (`apt install stockfish`), give its full path, or leave CAJITAS_ENGINE empty
config-engine-not-a-file = CAJITAS_ENGINE names { $name }, which is not a file; install an engine (`apt install stockfish`) or leave CAJITAS_ENGINE empty
config-bad-metrics = CAJITAS_METRICS must be the address to serve Prometheus metrics on: IP:PORT such as 127.0.0.1:9100 (or [::1]:9100, or 0.0.0.0:9100 to serve every interface), or a bare PORT for 127.0.0.1:PORT, or empty for no metrics; got { $value }
