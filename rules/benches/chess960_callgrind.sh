#!/bin/sh
# Instruction counts (callgrind) of our perft over the five sets of benches/chess960.rs:
# repeatable where wall-clock time on a shared machine is not. Prints instructions per
# node and per frontier node (a node one ply above the leaves, where bulk counting does
# its work) for each set, and the ratios Chess960 / standard in nodes per instruction.
#
#   rules/benches/chess960_callgrind.sh            # depth 5, about two minutes
#   CAJITAS_BENCH_DEPTH=4 rules/benches/chess960_callgrind.sh
#
# Only `run` (our perft over a set, summed) is counted, not the sets' making.
set -eu
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "valgrind is needed" >&2; exit 2; }
bin=$(cargo bench -p cajitas-rules --bench chess960 --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*chess960[^"]*\)".*/\1/p' | tail -n 1)
[ -x "$bin" ] || { echo "could not build the chess960 bench" >&2; exit 2; }
for k in 0 1 2 3 4; do
    out=$(CAJITAS_BENCH_ONE=$k valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        --toggle-collect='chess960::run' "$bin" 2>&1)
    set -- $(printf '%s\n' "$out" | grep -E '^[0-9]+ [0-9.]+$')
    ins=$(printf '%s\n' "$out" | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    echo "$k $1 $2 $ins"
done | awk '
    BEGIN {
        split("Chess960 starts|standard start (x8)|Chess960 middlegames|standard middlegames|" \
            "standard middlegames in Chess960 mode", name, "|")
    }
    {
        nodes[$1] = $2; frontier[$1] = $3; ins[$1] = $4
        printf "%-38s %10.0f nodes, %5.2f per frontier node: %11.0f instructions, %6.2f per node, %6.1f per frontier node\n",
            name[$1 + 1], $2, $3, $4, $4 / $2, $4 / $2 * $3
    }
    END {
        # Chess960 set, standard set, name of the pair.
        split("0 1 2 3 4 3", pair, " ")
        split("starts|middlegames|control (the same middlegames in both modes)", what, "|")
        for (p = 1; p <= 3; p++) {
            c = pair[2 * p - 1]; s = pair[2 * p]
            r = (ins[s] / nodes[s]) / (ins[c] / nodes[c])
            printf "%s: nodes per instruction, Chess960 / standard %.3fx; per frontier node %.3fx\n",
                what[p], r, r / (frontier[c] / frontier[s])
        }
    }'
