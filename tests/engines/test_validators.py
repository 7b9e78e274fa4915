"""The shared field checks of a stored state: a refusal names the game and the field."""

from __future__ import annotations

import pytest

from engines.base import InvalidState
from engines.validators import StateValidator

HAVANA = StateValidator("Havana")


def test_a_bool_is_not_an_integer() -> None:
    with pytest.raises(InvalidState) as err:
        HAVANA.integer(True, "pesos")
    assert str(err.value) == "Invalid Havana state: pesos must be an integer"
    assert err.value.key == "error.invalid_state"
    assert err.value.params == {"detail": "pesos must be an integer"}


def test_out_of_range_names_the_game() -> None:
    with pytest.raises(InvalidState, match=r"^Invalid Havana state: round=0 out of range$"):
        HAVANA.integer(0, "round", 1)
    with pytest.raises(InvalidState, match=r"^Invalid Havana state: seat=4 out of range$"):
        HAVANA.integer(4, "seat", 0, 3)


def test_good_values_pass() -> None:
    assert HAVANA.integer(7, "pesos") == 7
    assert HAVANA.integer(3, "seat", 0, 3) == 3
    assert HAVANA.boolean(False, "done") is False
    assert HAVANA.opt_string(None, "step", ("a",)) is None
    assert HAVANA.opt_string("a", "step", ("a",)) == "a"
    items = [1, 2]
    assert HAVANA.array(items, "row", 2) is items


def test_prefix_and_detail_are_per_game() -> None:
    err = StateValidator("Tuscany", prefix="Bad", detail=False).fail("round")
    assert str(err) == "Bad Tuscany state: round"
    assert err.params == {}
