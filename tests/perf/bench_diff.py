"""What ``referee diff`` costs: each shipped house spec against the game it extends (figures, not a timed test).

For each pair: the wall time of the whole comparison (declared differences, the search for each difference in play,
each game judged again), the differences in play and in wording, and the length of each game shown.

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
    timeout = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0
    total = 0.0
    print(f"{'pair':42} {'seconds':>8} {'in play':>8} {'wording':>8}  game lines")
    for base, house in house_pairs():
        comparison = compare(resolve_spec(base, None), resolve_spec(house, None), (base, house), timeout)
        total += comparison.seconds
        lines = ", ".join(str(shown.lines) for shown in comparison.games)
        wording = len(comparison.declared) - len(comparison.behaviour)
        print(f"{base + ' -> ' + house:42} {comparison.seconds:8.2f} {len(comparison.behaviour):8} {wording:8}  {lines}")
    print(f"{'all pairs':42} {total:8.2f}")


if __name__ == "__main__":
    main()
