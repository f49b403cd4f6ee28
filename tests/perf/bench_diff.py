"""What ``referee diff`` costs: each shipped house spec against the game it extends (figures, not a timed test).

For each pair: the wall time of the comparison without the solver (declared differences, the search for each
difference in play, each game judged again) and with it (as ``referee diff`` runs by default: the rulebook's claims
asked of both Z3 models too), the differences in play and not, the claims answered differently, and the length of each
game shown.

Run: python tests/perf/bench_diff.py [TIMEOUT]
"""

from __future__ import annotations

import sys

from referee.diff.compare import compare
from referee.spec.extends import load_spec, resolve_spec
from referee.spec.paths import SPECS, shipped_spec_names


def house_pairs() -> list[tuple[str, str]]:
    """Each shipped spec that extends another, with the root game it changes."""
    pairs = []
    for name in shipped_spec_names():
        if "\nextends:" in (SPECS / f"{name}.yaml").read_text(encoding="utf-8"):
            pairs.append((load_spec(resolve_spec(name, None)).game, name))
    return pairs


def main() -> None:
    from referee.diff.solver import claim_differences

    timeout = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0
    totals = [0.0, 0.0]
    print(f"{'pair':36} {'games s':>8} {'+solver s':>9} {'in play':>8} {'not':>4} {'claims':>7}  game lines")
    for base, house in house_pairs():
        paths = (resolve_spec(base, None), resolve_spec(house, None))
        games = compare(*paths, (base, house), timeout)
        solved = compare(*paths, (base, house), timeout, solver=claim_differences)
        totals[0] += games.seconds
        totals[1] += solved.seconds
        lines = ", ".join(str(shown.lines) for shown in games.games)
        claims = len(solved.solver.claims) if solved.solver is not None else 0
        other = len(games.declared) - len(games.behaviour)
        pair = f"{base} -> {house}"
        print(f"{pair:36} {games.seconds:8.2f} {solved.seconds:9.2f} {len(games.behaviour):8} {other:4} {claims:7}  {lines}")
    print(f"{'all pairs':36} {totals[0]:8.2f} {totals[1]:9.2f}")


if __name__ == "__main__":
    main()
