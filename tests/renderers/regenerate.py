"""``python -m tests.renderers.regenerate``: rewrite the golden images after an intended change.

``GOLDENS`` is the registry the golden tests read: one entry per image, naming the golden
file, the view fixture it draws and the callable that draws it. A game adds its boards by
appending entries (``GOLDENS += [...]``); the tests and this script pick them up.

Usage::

    python -m tests.renderers.regenerate                 # every golden
    python -m tests.renderers.regenerate havana_cover_4p # only the named ones
    python -m tests.renderers.regenerate --list
    python -m tests.renderers.regenerate --fixtures      # rebuild the view fixtures too

Look at the rewritten images before committing them: a golden is only as good as the eye
that approved it.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, NamedTuple

from PIL import Image

from bot.core.i18n import translator
from renderers import havana, minos, rio, tuscany
from tests.renderers import havana_states, minos_states, rio_states, tuscany_states
from tests.renderers.helper import FIXTURE_DIR, GOLDEN_DIR, golden_path, load_fixture

EN, FR = translator("en"), translator("fr")

log = logging.getLogger("tests.renderers.regenerate")

Render = Callable[[Mapping[str, Any]], Image.Image]


class Golden(NamedTuple):
    """One golden image: ``goldens/<name>.png`` is ``render(fixtures/<fixture>.json)``."""

    name: str
    fixture: str
    render: Render


# Display names for the seats (one long, one accented, to exercise fitting).
NAMES = ("Alice", "Bérénice", "Maximilien-Alexandre", "Dmitri")

GOLDENS: list[Golden] = [
    Golden("havana_start_pick_2p", "havana_start_pick_2p",
           partial(havana.render, names=NAMES, words=EN)),
    Golden("havana_actions_3p", "havana_actions_3p",
           partial(havana.render, names=NAMES, words=EN)),
    Golden("havana_cover_4p", "havana_cover_4p",
           partial(havana.render, names=NAMES, words=EN)),
    Golden("havana_over_4p", "havana_over_4p",
           partial(havana.render, names=NAMES, words=EN)),
    Golden("havana_actions_3p_fr", "havana_actions_3p",
           partial(havana.render, names=NAMES, words=FR)),
]

# Fixture builders for ``--fixtures``: fixture name -> a function returning the view. A
# fixture without a builder (hand-written) is kept as is.
FIXTURES: dict[str, Callable[[], dict[str, Any]]] = {
    "havana_start_pick_2p": partial(havana_states.view_at, "start_pick", 2, 1),
    # A seat's own view: the board must draw it exactly as the spectator's.
    "havana_actions_3p": partial(havana_states.view_at, "actions", 3, 1, 0),
    "havana_cover_4p": partial(havana_states.view_at, "cover", 4, 1),
    "havana_over_4p": partial(havana_states.view_at, "over", 4, 1),
}

# The Castles of Tuscany: 2- and 4-player boards, a labelled region, setup and the end.
GOLDENS += [
    Golden("tuscany_rich_2p", "tuscany_rich_2p",
           partial(tuscany.render, names=NAMES, words=EN)),
    Golden("tuscany_space_4p", "tuscany_space_4p",
           partial(tuscany.render, names=NAMES, words=EN)),
    Golden("tuscany_space_4p_fr", "tuscany_space_4p",
           partial(tuscany.render, names=NAMES, words=FR)),
    Golden("tuscany_region_space_4p", "tuscany_space_4p",
           partial(tuscany.render_region, seat=1, names=NAMES, words=EN, labels=True)),
    Golden("tuscany_arrange_3p", "tuscany_arrange_3p",
           partial(tuscany.render, names=NAMES, words=EN)),
    Golden("tuscany_over_2p", "tuscany_over_2p",
           partial(tuscany.render, names=NAMES, words=EN)),
]
FIXTURES |= {
    # Seats' own views (with a hand): the board must draw them as the spectator's.
    "tuscany_rich_2p": partial(tuscany_states.view_at, "rich", 2, 11, 0),
    "tuscany_space_4p": partial(tuscany_states.view_at, "space", 4, 2, 1),
    "tuscany_arrange_3p": partial(tuscany_states.view_at, "arrange", 3, 1),
    "tuscany_over_2p": partial(tuscany_states.view_at, "over", 2, 1),
}

# Río de la Plata: placement (3p), a combat (4p), the end (5p), French, a quarter close-up.
RIO_NAMES = (*NAMES, "Eve")
GOLDENS += [
    Golden("rio_place_3p", "rio_place_3p", partial(rio.render, names=RIO_NAMES, words=EN)),
    Golden("rio_combat_4p", "rio_combat_4p",
           partial(rio.render, names=RIO_NAMES, words=EN)),
    Golden("rio_over_5p", "rio_over_5p", partial(rio.render, names=RIO_NAMES, words=EN)),
    Golden("rio_combat_4p_fr", "rio_combat_4p",
           partial(rio.render, names=RIO_NAMES, words=FR)),
    Golden("rio_quarter_place_3p", "rio_place_3p",
           partial(rio.render_quarter, quarter=6, legal=("5.7", "6.7", "5.8"), words=EN)),
]
FIXTURES |= {
    "rio_place_3p": partial(rio_states.view_at, "place", 3, 1, 0),
    "rio_combat_4p": partial(rio_states.view_at, "combat", 4, 1),
    "rio_over_5p": partial(rio_states.view_at, "over", 5, 1),
}


def _minos_dice(view: Mapping[str, Any]) -> Image.Image:
    """The private panel's picture of the current throw."""
    return minos.render_dice(view["dice"], view["used"])


# Minos: the start, a rich middle game (en, fr), a conflict, the defender's order, the end,
# and the dice of the private panel.
GOLDENS += [
    Golden("minos_start_2p", "minos_start_2p", partial(minos.render, names=NAMES, words=EN)),
    Golden("minos_rich_4p", "minos_rich_4p", partial(minos.render, names=NAMES, words=EN)),
    Golden("minos_rich_4p_fr", "minos_rich_4p",
           partial(minos.render, names=NAMES, words=FR)),
    Golden("minos_conflict_3p", "minos_conflict_3p",
           partial(minos.render, names=NAMES, words=EN)),
    Golden("minos_order_4p", "minos_order_4p", partial(minos.render, names=NAMES, words=EN)),
    Golden("minos_over_2p", "minos_over_2p", partial(minos.render, names=NAMES, words=EN)),
    Golden("minos_dice", "minos_rich_4p", _minos_dice),
]
FIXTURES |= {
    "minos_start_2p": partial(minos_states.view_at, "start", 2, 1),
    "minos_rich_4p": partial(minos_states.view_at, "rich", 4, 1, 2),
    "minos_conflict_3p": partial(minos_states.view_at, "conflict", 3, 1),
    "minos_order_4p": partial(minos_states.view_at, "order", 4, 1),
    "minos_over_2p": partial(minos_states.view_at, "over", 2, 3),
}


def render_golden(golden: Golden) -> Image.Image:
    return golden.render(load_fixture(golden.fixture))


def write_golden(golden: Golden) -> int:
    """Draw ``golden`` and save it losslessly (RGB PNG); the file size in bytes."""
    path = golden_path(golden.name)
    GOLDEN_DIR.mkdir(exist_ok=True)
    render_golden(golden).save(path, format="PNG", optimize=True)
    return path.stat().st_size


def write_fixture(name: str, data: Mapping[str, Any]) -> None:
    FIXTURE_DIR.mkdir(exist_ok=True)
    text = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    (FIXTURE_DIR / f"{name}.json").write_text(text, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="goldens to rewrite (default: all)")
    parser.add_argument("--list", action="store_true", help="list the goldens and exit")
    parser.add_argument("--fixtures", action="store_true",
                        help="rebuild the fixtures of the chosen goldens from the engines first")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")

    if args.list:
        for golden in GOLDENS:
            log.info("%s  <- fixtures/%s.json", golden.name, golden.fixture)
        return 0
    known = {golden.name for golden in GOLDENS}
    unknown = [name for name in args.names if name not in known]
    if unknown:
        log.error("unknown golden(s): %s (see --list)", ", ".join(unknown))
        return 2
    chosen = [g for g in GOLDENS if not args.names or g.name in args.names]
    if args.fixtures:
        for fixture in sorted({g.fixture for g in chosen}):
            builder = FIXTURES.get(fixture)
            if builder is None:
                log.warning("fixtures/%s.json has no builder; kept as is", fixture)
                continue
            write_fixture(fixture, builder())
            log.info("fixtures/%s.json rebuilt", fixture)
    for golden in chosen:
        size = write_golden(golden)
        log.info("goldens/%s.png  %d bytes", golden.name, size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
