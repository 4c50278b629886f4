# Controles de tiempo, relojes, derrotas por tiempo, recordatorios y partidas abandonadas.

clock-control = { $kind ->
    [untimed] sin reloj
    [correspondence] { $days ->
        [one] { $days } día por jugada
       *[other] { $days } días por jugada
    }
   *[live] { $minutes }+{ $increment } (en vivo)
}
clock-hms = { $hours }:{ $minutes }:{ $seconds }
clock-ms = { $minutes }:{ $seconds }
clock-days = { $days } d { $hours } h
clock-hours = { $hours } h { $minutes } min
clock-line = ⏱ { $control } · Blancas { $white } · Negras { $black }
clock-deadline = { $player } debe jugar { $deadline }.
clock-grace = { $player } debe hacer su primera jugada { $deadline }.
clock-untimed-deadline = Si { $player } no ha jugado { $deadline }, su rival podrá reclamar la partida con { $command }.
embed-clock = Reloj
challenge-time = Control de tiempo: { $control }.
challenge-time-clock = Control de tiempo: { $control }. Blancas { $start } · Negras { $start }.
challenge-time-live = Control de tiempo: { $control }. Blancas { $start } · Negras { $start }; cada bando tiene { $grace } s para su primera jugada.
timeout-post = A { $player } se le acabó el tiempo. { $status }
timeout-aborted-post = { $player } no jugó a tiempo: la partida se anula, sin resultado.
reminder-post = { $player }, te toca jugar contra { $opponent }: tu tiempo se acaba { $deadline }.
idle-reminder-post = { $player }, te toca jugar contra { $opponent }. Si no has jugado { $deadline }, podrá reclamar la partida.
claim-win-done = { $player } reclamó la partida. { $status }
error-time-ran-out = Demasiado tarde: el tiempo para jugar se había acabado y la partida terminó por tiempo.
error-claim-not-untimed = Solo se puede reclamar una partida sin reloj: una partida con reloj termina sola cuando se acaba el tiempo.
error-claim-against-engine = El ordenador nunca abandona una partida: ríndete o anúlala.
error-claim-own-turn = Te toca jugar: solo quien espera una jugada puede reclamar la partida.
error-claim-too-early = Tu rival aún tiene tiempo para jugar: podrás reclamar la partida { $at }.
