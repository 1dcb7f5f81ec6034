"""Our JSON Patch diff, checked by applying its patches with the `jsonpatch` library."""

from __future__ import annotations

import copy
import json

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

from app.realtime.diff import make_patch

# Booleans and numbers are kept apart (see the module docstring): views never swap them.
scalars = st.none() | st.integers(-5, 5) | st.text("ab/~", max_size=3)
documents = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(st.text("ab/~", max_size=3), children, max_size=5)
    ),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(documents, documents)
def test_patch_turns_before_into_after(before: object, after: object) -> None:
    original = copy.deepcopy(before)
    patch = make_patch(before, after)
    patched = jsonpatch.apply_patch(before, patch)
    assert json.dumps(patched, sort_keys=True) == json.dumps(after, sort_keys=True)
    assert before == original, "make_patch must not touch its inputs"


def test_equal_documents_give_an_empty_patch() -> None:
    doc = {"a": [1, {"b": None}], "c": "x"}
    assert make_patch(doc, copy.deepcopy(doc)) == []


def test_small_changes_stay_small() -> None:
    before = {"board": {"players": [{"square": "a1"}, {"square": "h8"}]}, "version": 3}
    after = {"board": {"players": [{"square": "a2"}, {"square": "h8"}]}, "version": 4}
    assert make_patch(before, after) == [
        {"op": "replace", "path": "/board/players/0/square", "value": "a2"},
        {"op": "replace", "path": "/version", "value": 4},
    ]


def test_keys_with_slashes_and_tildes_are_escaped() -> None:
    assert make_patch({"a/b": 1, "c~d": 1}, {"a/b": 2, "c~d": 1}) == [
        {"op": "replace", "path": "/a~1b", "value": 2}
    ]


def test_a_change_of_type_is_a_change() -> None:
    assert make_patch({"x": 1}, {"x": True}) == [{"op": "replace", "path": "/x", "value": True}]
