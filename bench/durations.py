"""How long a match of each game takes: seeded playouts, priced per decision, written to
app/rules_pages/durations.json for the home page's game cards (the method is in
app/rules_pages/durations.py and in the file itself).

    .venv/bin/python bench/durations.py                 # every game, rewrites the file
    .venv/bin/python bench/durations.py --only c64-maze --dry-run   # print, write nothing

Deterministic: the same code gives the same file, and tests/rules_pages/test_durations.py
checks a few games against it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine.registry import all_games  # noqa: E402
from app.rules_pages import durations  # noqa: E402


def measure_one(game_id: str) -> tuple[str, dict[str, Any], float]:
    started = time.perf_counter()
    entry = durations.measure(durations.game_or_error(game_id))
    return game_id, entry, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="game ids (default: every game)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--dry-run", action="store_true", help="print only")
    args = parser.parse_args()
    ids = args.only or [g.id for g in all_games()]
    stored = durations.stored()
    games = dict(stored["games"])
    with Pool(args.workers) as pool:
        for game_id, entry, seconds in pool.imap_unordered(measure_one, ids):
            games[game_id] = entry
            shown = ", ".join(
                f"{name} {p['median_decisions_per_player']} a player / {p['median_minutes']} min"
                + (f" ({p['cut']} cut)" if p["cut"] else "")
                for name, p in entry["policies"].items()
            )
            print(
                f"{game_id:28} {entry['players']}p  {entry['minutes']:3} min"
                f"  [{entry['policy']}]  {shown}  ({seconds:.0f} s)",
                flush=True,
            )
    if args.dry_run:
        return
    data = {"method": durations.method(), "games": dict(sorted(games.items()))}
    durations.DURATIONS_FILE.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {durations.DURATIONS_FILE}")


if __name__ == "__main__":
    main()
