"""The read-only containers engines share between calls: plain JSON to every reader, changed by nobody."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from games.engine.shared import SharedDict, SharedList


def test_shared_values_read_as_plain_json():
    row = SharedList(["3C", "4C"])
    action = SharedDict(type="meld", table=SharedList([row]))
    assert action == {"type": "meld", "table": [["3C", "4C"]]}
    assert json.loads(json.dumps(action)) == action
    assert list(row) == ["3C", "4C"] and dict(action)["type"] == "meld"
    for clone in (pickle.loads(pickle.dumps(action)), copy.copy(action), copy.deepcopy(action)):
        assert clone == action and type(clone) is SharedDict
        with pytest.raises(TypeError):
            clone["type"] = "draw"


@pytest.mark.parametrize("change", [
    lambda row: row.append("5C"), lambda row: row.extend(["5C"]), lambda row: row.insert(0, "5C"),
    lambda row: row.pop(), lambda row: row.remove("3C"), lambda row: row.clear(), lambda row: row.sort(),
    lambda row: row.reverse(), lambda row: row.__setitem__(0, "5C"), lambda row: row.__delitem__(0),
    lambda row: row.__iadd__(["5C"]), lambda row: row.__imul__(2),
])
def test_a_shared_list_refuses_every_change(change):
    row = SharedList(["3C", "4C"])
    with pytest.raises(TypeError, match="read-only"):
        change(row)
    assert row == ["3C", "4C"]


@pytest.mark.parametrize("change", [
    lambda d: d.__setitem__("card", "5C"), lambda d: d.__delitem__("card"), lambda d: d.__ior__({"x": 1}),
    lambda d: d.clear(), lambda d: d.pop("card"), lambda d: d.popitem(), lambda d: d.setdefault("x", 1),
    lambda d: d.update(x=1),
])
def test_a_shared_dict_refuses_every_change(change):
    action = SharedDict(type="play", card="3C")
    with pytest.raises(TypeError, match="read-only"):
        change(action)
    assert action == {"type": "play", "card": "3C"}


def test_a_copy_is_an_ordinary_value():
    row, action = list(SharedList(["3C"])), dict(SharedDict(type="play"))
    row.append("4C")
    action["card"] = "4C"
    assert row == ["3C", "4C"] and action == {"type": "play", "card": "4C"}
