"""The AI's generic parts on small hand-made games: subset sampling, a rollout that finds
a forced win, with or without ``evaluate``, and the per-game budgets."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from engines.ai import ROLLOUTS, Rollout, choose, rollout_action, rollout_budget
from engines.ai.greedy import ranked, turn_playout
from engines.ai.moves import counting, sample_subsets
from engines.base import Action, Outcome, Result, Spec, Subset
from engines.rng import Rng


def test_subset_samples_are_bounded_distinct_and_accepted() -> None:
    sub = Subset("keep", tuple("abcdefghij"), min_values=1, max_values=4)
    moves = sample_subsets([sub], random.Random(1), per_subset=6)
    assert 1 <= len(moves) <= 6 and len(set(moves)) == len(moves)
    assert all(sub.accepts(m) for m in moves)


@dataclass(frozen=True)
class Pile:
    """Take 1 or 2 counters in turn; whoever takes the last one wins. Nothing is hidden."""

    num_players: int
    left: int
    turn: int
    rng: int = 0


class PileEngine:
    """A minimal engine without ``determinize``/``evaluate``: the AI's fallbacks."""

    spec = Spec(key="pile", min_players=2, max_players=2)

    def new_game(self, num_players: int, seed: int, options: Any = None) -> Pile:
        return Pile(num_players, 7, 0, seed)

    def active_players(self, s: Pile) -> frozenset[int]:
        return frozenset() if s.left == 0 else frozenset({s.turn})

    def legal_actions(self, s: Pile, seat: int) -> list[Action]:
        return [Action("take", (str(n),)) for n in (1, 2) if n <= s.left]

    def apply(self, s: Pile, seat: int, action: Action) -> Outcome[Pile]:
        return Outcome(replace(s, left=s.left - int(action.args[0]), turn=1 - s.turn))

    def is_over(self, s: Pile) -> bool:
        return s.left == 0

    def result(self, s: Pile) -> Result | None:
        winner = 1 - s.turn  # the seat that took the last counter
        return Result({winner: 1, s.turn: 0}, [[winner], [s.turn]]) if s.left == 0 else None


def test_search_finds_the_forced_win_without_evaluate() -> None:
    engine: Any = PileEngine()
    state = Pile(2, 7, 0)  # leave a multiple of 3: take 1
    for level in ("normal", "strong"):
        assert choose(engine, state, 0, level, 5, 0) == Action("take", ("1",))
    state = Pile(2, 5, 0)  # take 2
    assert choose(engine, state, 0, "normal", 5, 0) == Action("take", ("2",))


class ScoredPileEngine(PileEngine):
    """The same game with an ``evaluate``: a seat stands well when it leaves a multiple of
    3 to the other seat."""

    def evaluate(self, s: Pile, seat: int) -> float:
        if s.left == 0:
            return 1.0 if s.turn != seat else 0.0
        return 0.8 if (s.left % 3 == 0) == (s.turn != seat) else 0.2


def test_rollouts_find_the_forced_win() -> None:
    budget = Rollout(worlds=4, top=2, turns=16)
    engine: Any = ScoredPileEngine()
    for left, best in ((7, "1"), (5, "2"), (11, "2")):
        move = rollout_action(engine, Pile(2, left, 0), 0, random.Random(3), budget)
        assert move == Action("take", (best,)), left


class FlatPileEngine(PileEngine):
    """The pile game with an evaluation that tells nothing before the end."""

    def evaluate(self, s: Pile, seat: int) -> float:
        return 0.5


def test_near_the_end_lines_are_played_to_it() -> None:
    """With ``finish``, where a probe line ends the game within that many decisions, every
    line plays on to the end and is judged by the result, not by ``evaluate``: from 8
    counters, with every seat then taking one at a time until it can take the last, taking
    1 wins and taking 2 loses, which a line cut after the reply cannot tell (a tie: easy's
    first move, here taking 2)."""
    engine: Any = FlatPileEngine()
    state, short = Pile(2, 8, 0), Rollout(worlds=1, top=2, turns=1)
    take = {n: Action("take", (str(n),)) for n in (1, 2)}
    assert ranked(engine, state, 0, random.Random(1))[0] == take[2]
    assert rollout_action(engine, state, 0, random.Random(1), short) == take[2]
    finish = replace(short, finish=8)
    assert rollout_action(engine, state, 0, random.Random(1), finish) == take[1]
    # further from the end than the probe reaches: lines cut as without it
    assert rollout_action(engine, state, 0, random.Random(1),
                          replace(short, finish=3)) == take[2]


def test_budgets_are_per_game_where_measured() -> None:
    from engines import registry
    havana = registry.get("havana")
    assert rollout_budget(havana, "normal").turns > ROLLOUTS["normal"].turns
    steps = [rollout_budget(havana, "normal", n).steps or 0 for n in (2, 3, 4)]
    assert steps[0] > steps[1] == steps[2]  # 2 seats: a wider budget of its own (docs/AI.md)
    assert rollout_budget(registry.get("tuscany"), "strong").steps is not None  # its tail
    assert rollout_budget(PileEngine(), "strong") == ROLLOUTS["strong"]  # type: ignore[arg-type]
    assert rollout_budget(PileEngine(), "normal") == ROLLOUTS["normal"]  # type: ignore[arg-type]
    rio = registry.get("rio")  # Río's 2- and 4-seat games play out further than 3 and 5
    assert rollout_budget(rio, "normal", 2).turns > rollout_budget(rio, "normal", 3).turns
    assert rollout_budget(rio, "normal", 4).turns > rollout_budget(rio, "normal", 5).turns
    assert rollout_budget(rio, "normal", 3).turns == rollout_budget(rio, "normal").turns
    for n in (3, 4, 5):  # a line waiting on several seats can pass any world cap alone
        assert rollout_budget(rio, "strong", n).line_steps is not None, n
    minos = registry.get("minos")  # at 2 seats a wider cap, strong's still the wider
    caps = [rollout_budget(minos, level, n).steps or 0
            for level, n in (("normal", 3), ("normal", 2), ("strong", 2))]
    assert caps[0] < caps[1] < caps[2]
    # strong looks further than normal in Tuscany at 2 and 4 seats and in Río at 2
    for key, n in (("tuscany", 2), ("tuscany", 4), ("rio", 2)):
        normal, strong = (rollout_budget(registry.get(key), level, n)
                          for level in ("normal", "strong"))
        assert strong.turns > normal.turns, (key, n)
    for key in ("havana", "minos", "tuscany"):  # strong plays out more than normal
        normal, strong = (rollout_budget(registry.get(key), level)
                          for level in ("normal", "strong"))
        assert strong.worlds * strong.top >= 2 * normal.worlds * normal.top, key


@dataclass(frozen=True)
class Menu:
    """The pile game behind a menu: "open" it, then take 1 or 2, or go "back"."""

    num_players: int
    left: int
    turn: int
    opened: bool = False
    rng: int = 0


class MenuEngine(ScoredPileEngine):
    """Going in and out of the menu changes nothing: without ``back_kinds`` a greedy player
    may find "open" and "back" as good as anything and go round forever."""

    spec = Spec(key="menu", min_players=2, max_players=2, back_kinds=frozenset({"back"}))

    def new_game(self, num_players: int, seed: int, options: Any = None) -> Menu:
        return Menu(num_players, 7, 0)

    def legal_actions(self, s: Any, seat: int) -> list[Action]:
        if not s.opened:
            return [Action("open")]
        return [*super().legal_actions(s, seat), Action("back")]

    def apply(self, s: Any, seat: int, action: Action) -> Outcome[Any]:
        if action.kind in ("open", "back"):
            return Outcome(replace(s, opened=action.kind == "open"))
        return Outcome(replace(s, left=s.left - int(action.args[0]), turn=1 - s.turn,
                               opened=False))


def test_the_ai_never_goes_back_out_of_a_menu_while_it_can_go_on() -> None:
    engine: Any = MenuEngine()
    for left in (7, 6, 5, 1):  # 6: every move loses, "back" would look as good as any
        for level in ("easy", "normal", "strong"):
            for move_number in range(3):
                move = choose(engine, Menu(2, left, 0, opened=True), 0, level, 9, move_number)
                assert move.kind == "take", (left, level)


def test_a_back_move_alone_is_still_played() -> None:
    from engines.ai.moves import forward

    class OnlyBack(MenuEngine):
        def legal_actions(self, s: Any, seat: int) -> list[Action]:
            return [Action("back")]

    engine: Any = OnlyBack()
    assert forward(engine, Menu(2, 3, 0, opened=True), 0) == [Action("back")]
    assert choose(engine, Menu(2, 3, 0, opened=True), 0, "easy", 1, 0) == Action("back")


def test_every_playout_line_ends_with_the_seat_to_move() -> None:
    """Lines are judged at one point of the seat's rhythm: counted in decisions alone, a
    move that ends the seat's turn at once reaches one more of its own turns within the
    horizon than a move that uses it (on Río, "done" won every comparison so)."""
    from engines.ai.greedy import turn_playout

    engine: Any = ScoredPileEngine()
    after = Pile(2, 30, 1)  # seat 0 has moved: seat 1 is to move
    for turns in (1, 2, 3):
        assert turn_playout(engine, after, random.Random(1), turns, seat=0).turn == 0
        assert turn_playout(engine, after, random.Random(1), turns).turn == (1 + turns) % 2


class CountingPileEngine(ScoredPileEngine):
    """Counts the moves applied: nothing is hidden but the generator, and nothing draws."""

    def __init__(self) -> None:
        self.applied = 0

    def apply(self, s: Pile, seat: int, action: Action) -> Outcome[Pile]:
        self.applied += 1
        return super().apply(s, seat, action)


def test_a_line_that_draws_nothing_is_played_out_once() -> None:
    """Where the worlds differ only in the dice to come (Río, Minos), a line that throws no
    die ends the same in every world: more worlds cost nothing there."""
    counts = []
    for worlds in (1, 8):
        engine: Any = CountingPileEngine()
        move = rollout_action(engine, Pile(2, 11, 0), 0, random.Random(3),
                              Rollout(worlds=worlds, top=2, turns=4))
        assert move == Action("take", ("2",))
        counts.append(engine.applied)
    assert counts[0] == counts[1]


class DrawingPileEngine(CountingPileEngine):
    """Every move draws from the generator: each world's lines differ."""

    def apply(self, s: Pile, seat: int, action: Action) -> Outcome[Pile]:
        after = super().apply(s, seat, action).state
        return Outcome(replace(after, rng=after.rng + 1))


def test_the_move_cap_counts_whole_worlds_only() -> None:
    """``Rollout.steps`` caps a move's cost in moves applied: once reached, no new line
    is begun, and every candidate counted has been played out in the same worlds."""
    applied = {}
    for worlds, steps in ((1, None), (8, None), (8, 1), (8, 10**6)):
        engine: Any = DrawingPileEngine()
        move = rollout_action(engine, Pile(2, 11, 0), 0, random.Random(3),
                              Rollout(worlds=worlds, top=2, turns=4, steps=steps))
        assert move == Action("take", ("2",))
        applied[worlds, steps] = engine.applied
    assert applied[1, None] < applied[8, None] == applied[8, 10**6]
    assert applied[8, 1] == applied[1, None]  # the first world, then the cap


def test_the_move_cap_is_checked_line_by_line(monkeypatch: Any) -> None:
    """A cap reached during a world's first line stops the search before its second, so a
    move overruns its cap by one line, not a whole world; that world, which not every
    candidate reached, is dropped."""
    import engines.ai.rollout as rollout
    from engines.ai.moves import applied as applied_now

    starts: list[int] = []
    real = rollout.turn_playout

    def recorded(*args: Any, **kwargs: Any) -> Any:
        starts.append(applied_now())
        return real(*args, **kwargs)

    monkeypatch.setattr(rollout, "turn_playout", recorded)
    budget = Rollout(worlds=8, top=2, turns=4)
    rollout_action(DrawingPileEngine(), Pile(2, 11, 0), 0, random.Random(3), budget)
    assert len(starts) == 16  # 8 worlds x 2 candidates, uncapped
    cap = starts[2] + 1  # reached during the second world's first line
    starts.clear()
    move = rollout_action(DrawingPileEngine(), Pile(2, 11, 0), 0, random.Random(3),
                          replace(budget, steps=cap))
    assert len(starts) == 3 and move == Action("take", ("2",))


@dataclass(frozen=True)
class Pieces:
    """One seat's last turn: it may select any of its three pieces, as often as it likes,
    or end the turn, which ends the game lost (Minos's last round, seeds 1000 and 1001)."""

    num_players: int = 2
    selected: int = 0
    over: bool = False
    rng: int = 0


class PiecesEngine:
    spec = Spec(key="pieces", min_players=2, max_players=2)

    def active_players(self, s: Pieces) -> frozenset[int]:
        return frozenset() if s.over else frozenset({0})

    def legal_actions(self, s: Pieces, seat: int) -> list[Action]:
        return [*(Action("piece", (str(p),)) for p in range(3) if p != s.selected),
                Action("end")]

    def apply(self, s: Pieces, seat: int, action: Action) -> Outcome[Pieces]:
        if action.kind == "end":
            return Outcome(replace(s, over=True))
        return Outcome(replace(s, selected=int(action.args[0])))

    def is_over(self, s: Pieces) -> bool:
        return s.over

    def result(self, s: Pieces) -> Result | None:
        return Result({0: 0, 1: 1}, [[1], [0]]) if s.over else None

    def evaluate(self, s: Pieces, seat: int) -> float:
        return 0.4 if seat == 0 else 0.6


def test_no_level_idles_rather_than_end_a_lost_turn() -> None:
    """Selecting a piece, then another, keeps the position as good as it is; ending the
    turn loses. Without the idle rule every level toggles the pieces for ever (as an easy
    Minos seat did): a move the seat could undo next and that gains nothing is not played
    while anything else is offered."""
    from engines.ai.greedy import reversible

    engine: Any = PiecesEngine()
    assert reversible(engine, Pieces(), 0, Action("piece", ("1",)))
    assert not reversible(engine, Pieces(), 0, Action("end"))
    for level in ("easy", "normal", "strong"):
        for seed in range(3):
            assert choose(engine, Pieces(), 0, level, seed, 0) == Action("end"), level


def test_a_line_begins_no_decision_past_its_move_limit() -> None:
    """``Rollout.line_steps``: a playout stops deciding once it has applied its limit, so
    one long line (a Río effects turn waiting on four seats) cannot take seconds."""
    engine: Any = ScoredPileEngine()
    applied = {}
    for limit in (None, 6):
        with counting() as work:
            end = turn_playout(engine, Pile(2, 60, 0), random.Random(1), 30, None, 0, limit)
        applied[limit] = (work.steps, end.left)
    (unlimited, left_unlimited), (limited, left_limited) = applied[None], applied[6]
    assert 6 <= limited < unlimited and left_limited > left_unlimited
    assert limited <= 6 + 4  # the last decision begun: two moves, each completed


def test_the_budget_table_of_the_docs_is_the_code() -> None:
    """docs/AI.md's table of budgets (worlds × moves × turns, cap / line limit) is what
    ``rollout_budget`` gives at every seat count of every game it lists."""
    from pathlib import Path

    from engines import registry
    lines = (Path(__file__).resolve().parents[2] / "docs" / "AI.md").read_text(
        encoding="utf-8").splitlines()
    keys = {"Havana": "havana", "Tuscany": "tuscany", "Minos": "minos", "Río": "rio"}
    start = lines.index("| Game | Seats | `normal` | cap | `strong` | cap |") + 2
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("|"))
    rows = [line.split("|")[1:-1] for line in lines[start:end]]
    covered: set[tuple[str, int]] = set()
    for game, seats, *cells in rows:
        engine = registry.get(keys[game.strip()])
        first, _, last = seats.strip().partition("–")
        for n in range(int(first), int(last or first) + 1):
            covered.add((engine.spec.key, n))
            for level, shape, cap in (("normal", *cells[:2]), ("strong", *cells[2:])):
                budget = rollout_budget(engine, level, n)
                shape, _, finish = shape.strip().removesuffix(")").partition(" (end ")
                worlds, top, turns = (int(x) for x in shape.split("×"))
                assert budget.finish == int(finish or 0), (game, n, level)
                steps, _, line = (c.strip().replace(",", "") for c in cap.partition("/"))
                assert (budget.worlds, budget.top, budget.turns) == (worlds, top, turns), (game, n)
                assert budget.steps == (None if steps == "—" else int(steps)), (game, n, level)
                assert budget.line_steps == (int(line) if line else None), (game, n, level)
                assert budget.wait == (engine.spec.key != "havana"), (game, n, level)
    assert covered == {(key, n) for key in keys.values()
                       for n in range(registry.get(key).spec.min_players,
                                      registry.get(key).spec.max_players + 1)}


@dataclass(frozen=True)
class Raid:
    """One seat's turn at sea: attack, which throws a die and is worth 1 on a 6 only, or
    turn back (0.4): worth more than a 1 in 6 attack. The die comes from the position's
    generator, as Minos's and Río's do. Then the other seat is to move."""

    num_players: int = 2
    value: float | None = None
    rng: int = 0


class RaidEngine:
    """The turn above; the game goes on after it (only ``evaluate`` judges it)."""

    spec = Spec(key="raid", min_players=2, max_players=2)

    def active_players(self, s: Raid) -> frozenset[int]:
        return frozenset({0 if s.value is None else 1})

    def legal_actions(self, s: Raid, seat: int) -> list[Action]:
        return [Action("attack"), Action("back")] if seat == 0 else [Action("wait")]

    def apply(self, s: Raid, seat: int, action: Action) -> Outcome[Raid]:
        if action.kind == "attack":
            gen = Rng(s.rng)
            return Outcome(replace(s, value=1.0 if gen.randrange(6) == 5 else 0.0,
                                   rng=gen.state))
        return Outcome(s if action.kind == "wait" else replace(s, value=0.4))

    def is_over(self, s: Raid) -> bool:
        return False

    def result(self, s: Raid) -> Result | None:
        return None

    def evaluate(self, s: Raid, seat: int) -> float:
        value = 0.45 if s.value is None else s.value
        return value if seat == 0 else 1 - value


def test_a_throw_is_judged_on_dice_it_will_not_get() -> None:
    """Whether a seat attacks, completing its turn in easy's lookahead or in a playout,
    does not depend on the die the attack will throw. Judged on the position itself, the
    attack was chosen knowing its throw: sailing out then looked worth it in every world
    that throws a 6, and an easy Minos seat so attacked with its last ship and was out."""
    from engines.ai.greedy import _finish_turn

    engine: Any = RaidEngine()
    lines: dict[str, Callable[[Raid, random.Random], Raid]] = {
        "lookahead": lambda s, gen: _finish_turn(engine, s, 0, gen),
        "playout": lambda s, gen: turn_playout(engine, s, gen, 1)}
    for name, line in lines.items():
        attacked = []
        for seed in range(24):
            ends = [line(Raid(rng=dice), random.Random(seed)).value
                    for dice in range(6)]
            assert len({value == 0.4 for value in ends}) == 1, (name, seed, ends)
            attacked.append(ends[0] != 0.4)
        assert 0 < sum(attacked) < len(attacked), name  # by the blind throw, at times


def test_a_search_whose_time_is_up_plays_what_it_has() -> None:
    """The bot's time guard (``choose``'s ``stop``) on a machine too slow for a level's
    budget: the search asks it before each playout decision, stops at the first "yes"
    (the world under way dropped), and before a whole world is played, plays the base
    policy's move. Never asked to stop, the move is the budget's own."""
    from engines import registry
    from engines.ai import level_rng
    from engines.ai.greedy import ranked

    engine = registry.get("havana")
    state = engine.new_game(2, 11)
    seat, level = 0, "normal"
    offered = set(engine.legal_actions(state, seat))
    asked = 0

    def stop_after_three() -> bool:
        nonlocal asked
        asked += 1
        return asked > 3

    assert choose(engine, state, seat, level, 11, 0, stop_after_three) in offered
    assert asked == 4  # not asked again once it said stop
    base = ranked(engine, state, seat, level_rng(level, 11, seat, 0))
    assert choose(engine, state, seat, level, 11, 0, lambda: True) == base[0]
    assert (choose(engine, state, seat, level, 11, 0, lambda: False)
            == choose(engine, state, seat, level, 11, 0))


@dataclass(frozen=True)
class Menus:
    """Two seats in turn. "plain" scores 1 and ends the turn; "menu" opens a menu whose
    entries only set a cursor ("low", "high": alike one step in), then "go" scores 0 or 3
    and ends the turn; "back" leaves a menu. Nothing is hidden."""

    turn: int = 0
    where: str = "top"  # top, menu, chosen
    cursor: str = ""
    scores: tuple[int, int] = (0, 0)
    rng: int = 0


class MenusEngine:
    spec = Spec(key="menus", min_players=2, max_players=2, back_kinds=frozenset({"back"}))

    def active_players(self, s: Menus) -> frozenset[int]:
        return frozenset({s.turn})

    def legal_actions(self, s: Menus, seat: int) -> list[Action]:
        if s.where == "top":
            return [Action("plain"), Action("menu")]
        if s.where == "menu":
            return [Action("low"), Action("high"), Action("back")]
        return [Action("go"), Action("back")]

    def apply(self, s: Menus, seat: int, action: Action) -> Outcome[Menus]:
        kind = action.kind
        if kind in ("plain", "go"):
            gain = 1 if kind == "plain" else 3 if s.cursor == "high" else 0
            scores = tuple(v + gain * (i == seat) for i, v in enumerate(s.scores))
            return Outcome(Menus(1 - s.turn, "top", "", scores, s.rng))  # type: ignore[arg-type]
        if kind == "back":
            return Outcome(replace(s, where="top", cursor=""))
        if kind == "menu":
            return Outcome(replace(s, where="menu"))
        return Outcome(replace(s, where="chosen", cursor=kind))

    def is_over(self, s: Menus) -> bool:
        return False

    def result(self, s: Menus) -> Result | None:
        return None

    def evaluate(self, s: Menus, seat: int) -> float:
        return 0.5 + (s.scores[seat] - s.scores[1 - seat]) / 16


def test_a_rollout_may_judge_its_candidates_through_menus() -> None:
    """One step into a menu its entries look alike, so easy's completed turn takes the
    first and judges the menu by it (Río's ladders): "menu" ranks below "plain" though
    its best entry scores 3. ``Rollout.menus`` ranks the candidates by each menu's best
    entry (``greedy.through_menus``), and the playouts then judge them."""
    from engines.ai.greedy import ranked, through_menus

    engine: Any = MenusEngine()
    state = Menus()
    easy = ranked(engine, state, 0, random.Random(1))
    assert easy[0] == Action("plain")
    assert through_menus(engine, state, 0, random.Random(1), easy)[0] == Action("menu")
    for menus, best in ((False, "plain"), (True, "menu")):
        budget = Rollout(worlds=2, top=1, turns=1, menus=menus)
        assert rollout_action(engine, state, 0, random.Random(2), budget) == Action(best)
