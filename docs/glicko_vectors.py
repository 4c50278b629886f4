#!/usr/bin/env python3
"""Test vectors for src/game/ratings/glicko.rs, computed independently of the Rust code.

Written by hand from Glickman's "Example of the Glicko-2 system" (glicko.net, 2013), steps 2-8,
with lichess's way of rating one game (scalachess GlickoCalculator + lila PerfsUpdater):
  - step 6 with no elapsed rating period (skipDeviationIncrease): phi* = phi;
  - colour advantage 7.786 rating points: White's rating counts +3.893, Black's -3.893, in both
    players' expected scores;
  - tau 0.75, convergence tolerance 1e-6 (Illinois method);
  - afterwards: rating within +-700 of the old one and within 400..4000, RD within 45..500,
    volatility at most 0.1.
Run: python3 docs/glicko_vectors.py   (plain Python 3, standard library only)
"""
import math

SCALE = 173.7178
TAU = 0.75
EPS = 1e-6
ADVANTAGE = 7.786


def g(phi):
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def new_sigma(delta, phi, v, sigma):
    a = math.log(sigma * sigma)

    def f(x):
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) \
            - (x - a) / (TAU * TAU)

    A = a
    if delta * delta > phi * phi + v:
        B = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        B = a - k * TAU
    fA, fB = f(A), f(B)
    while abs(B - A) > EPS:
        C = A + (A - B) * fA / (fB - fA)
        fC = f(C)
        if fC * fB <= 0:
            A, fA = B, fB
        else:
            fA = fA / 2.0
        B, fB = C, fC
    return math.exp(A / 2.0)


def rate(me, my_adv, opp, opp_adv, score):
    """One player's new (rating, RD, volatility) after one game."""
    r, rd, sigma = me
    ro, rdo, _ = opp
    mu = (r - 1500.0) / SCALE
    phi = rd / SCALE
    mu_adv = (r + my_adv - 1500.0) / SCALE
    mu_o_adv = (ro + opp_adv - 1500.0) / SCALE
    phi_o = rdo / SCALE
    gg = g(phi_o)
    e = 1.0 / (1.0 + math.exp(-gg * (mu_adv - mu_o_adv)))
    v = 1.0 / (gg * gg * e * (1.0 - e))
    delta = v * gg * (score - e)
    sigma2 = new_sigma(delta, phi, v, sigma)
    phi_star = math.sqrt(phi * phi + 0 * sigma2 * sigma2)  # step 6, zero periods
    phi2 = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu2 = mu + phi2 * phi2 * gg * (score - e)
    rating = SCALE * mu2 + 1500.0
    rating = min(max(rating, r - 700.0), r + 700.0)
    rating = min(max(rating, 400.0), 4000.0)
    return (rating, min(max(SCALE * phi2, 45.0), 500.0), min(sigma2, 0.1))


def game(white, black, white_score):
    half = ADVANTAGE / 2.0
    return (rate(white, +half, black, -half, white_score),
            rate(black, -half, white, +half, 1.0 - white_score))


VECTORS = [
    ("lichess's: two new players, White wins", (1500.0, 500.0, 0.09), (1500.0, 500.0, 0.09), 1.0),
    ("mixed: 1400/79/0.06 White draws 1550/110/0.065 Black", (1400.0, 79.0, 0.06),
     (1550.0, 110.0, 0.065), 0.5),
    ("the 700 cap: a new player (White) beats 2600/45/0.06", (1500.0, 500.0, 0.09),
     (2600.0, 45.0, 0.06), 1.0),
    ("the 400 floor: 430/250/0.09 (White) loses to 600/60/0.06", (430.0, 250.0, 0.09),
     (600.0, 60.0, 0.06), 0.0),
]

if __name__ == "__main__":
    for name, w, b, s in VECTORS:
        (wr, wd, wv), (br, bd, bv) = game(w, b, s)
        print(name)
        print(f"  White {wr:.6f} RD {wd:.6f} vol {wv:.9f}")
        print(f"  Black {br:.6f} RD {bd:.6f} vol {bv:.9f}")
