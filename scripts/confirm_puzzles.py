#!/usr/bin/env python3
"""Re-checks found puzzles with a deeper search: python-chess and Stockfish.

    scripts/confirm_puzzles.py target/puzzles_generate.csv [--nodes 1000000] [--engine PATH]

Each row of lichess's CSV (what `cajitas puzzles generate` and `cargo bench --bench
puzzles_generate` write) is played from its FEN: the opponent's move, then at every solver
step a MultiPV 2 search from an empty hash on one thread (by default 1,000,000 nodes: ten
times the generator's default) must confirm a single solution:

- the line's move is the engine's best move, or it mates at once (any mate solves);
- the best move's winning chances (lichess's curve, a mate counting as +-1) exceed the
  second-best's by more than 0.7, or, for a mate in one, every non-mating move leaves at most
  0.6 (the generator's thresholds, README "Puzzles from games").

It prints each puzzle's verdict, then the share confirmed.
"""

import argparse
import csv
import math
import sys

import chess
import chess.engine

ONLY_MOVE_GAP = 0.7
MATE_IN_ONE_ALTERNATIVE = 0.6


def chances(score: chess.engine.Score) -> float:
    mate = score.mate()
    if mate is not None:
        return 1.0 if mate > 0 else -1.0
    cp = score.score()
    return 2.0 / (1.0 + math.exp(-0.00368208 * cp)) - 1.0


def mates_in_one(board: chess.Board) -> list:
    found = []
    for move in board.legal_moves:
        board.push(move)
        if board.is_checkmate():
            found.append(move)
        board.pop()
    return found


def step_confirmed(engine, board: chess.Board, expected: chess.Move, limit) -> tuple:
    """Whether `expected` is the single solution in `board`, and why not."""
    mates = mates_in_one(board)
    if mates and expected in mates:
        # Any mate solves: every non-mating move must leave little.
        if board.legal_moves.count() == len(mates):
            return True, ""
        infos = engine.analyse(board, limit, multipv=len(mates) + 1, game=object())
        non_mating = [i for i in infos if i["pv"][0] not in mates]
        if not non_mating:
            return True, ""
        best_other = chances(non_mating[0]["score"].pov(board.turn))
        if best_other <= MATE_IN_ONE_ALTERNATIVE:
            return True, ""
        return False, f"a non-mating move keeps {best_other:.2f}"
    infos = engine.analyse(board, limit, multipv=2, game=object())
    best = infos[0]
    if best["pv"][0] != expected:
        return False, f"best is {board.san(best['pv'][0])}, not {board.san(expected)}"
    if len(infos) < 2:
        return True, ""
    gap = chances(best["score"].pov(board.turn)) - chances(infos[1]["score"].pov(board.turn))
    if gap > ONLY_MOVE_GAP:
        return True, ""
    return False, f"{board.san(infos[1]['pv'][0])} also wins (gap {gap:.2f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--nodes", type=int, default=1_000_000)
    parser.add_argument("--engine", default="/usr/games/stockfish")
    args = parser.parse_args()
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    engine.configure({"Threads": 1, "Hash": 16})
    limit = chess.engine.Limit(nodes=args.nodes)
    total = confirmed = 0
    with open(args.csv, newline="") as f:
        for row in csv.DictReader(f):
            total += 1
            board = chess.Board(row["FEN"])
            moves = [chess.Move.from_uci(m) for m in row["Moves"].split()]
            board.push(moves[0])
            ok, why = True, ""
            for i in range(1, len(moves), 2):
                ok, why = step_confirmed(engine, board, moves[i], limit)
                if not ok:
                    why = f"step {i // 2 + 1}: {why}"
                    break
                board.push(moves[i])
                if i + 1 < len(moves):
                    board.push(moves[i + 1])
            confirmed += ok
            print(f"{row['PuzzleId']} {row['Themes']}: {'confirmed' if ok else 'NOT ' + why}")
    engine.quit()
    share = 100.0 * confirmed / total if total else 0.0
    print(f"{confirmed} of {total} puzzles confirmed at {args.nodes} nodes: {share:.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
