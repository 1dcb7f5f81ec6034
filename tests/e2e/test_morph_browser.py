"""ui.js `morph`: a fresh render merged into the live nodes, checked in the browser on a blank
page of the test server's origin (so the module loads from the real static files)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

BLANK = "/morph-test"

# Renders a list of rows into #host with morph and answers, for each live child, its index
# in the previous render's children (-1 for a new node), so identity is checked in one call.
SETUP = """async () => {
  const ui = await import("/static/js/ui.js");
  const host = document.createElement("div");
  host.id = "host";
  document.body.append(host);
  window.clicks = [];
  window.render = (rows) => {
    const before = [...host.childNodes];
    ui.morph(host, rows.map((row) => typeof row === "string" ? row : ui.h(row.tag || "button", {
      "data-testid": row.testid, "data-key": row.key, "data-move": row.move,
      class: row.cls, onclick: () => window.clicks.push(row.say),
    }, row.text, row.children ? row.children.map((c) => ui.h("span", { class: c }, c)) : null)));
    return [...host.childNodes].map((node) => before.indexOf(node));
  };
  window.html = () => host.innerHTML;
}"""


@pytest.fixture
def page(new_page: Any) -> Any:
    page = new_page()
    page.route(
        f"**{BLANK}",
        lambda route: route.fulfill(
            body="<!doctype html><title>morph</title><body></body>", content_type="text/html"
        ),
    )
    page.goto(BLANK)
    page.evaluate(SETUP)
    return page


def render(page: Any, rows: list[Any]) -> list[int]:
    return list(page.evaluate("rows => window.render(rows)", rows))


def test_unchanged_nodes_stay_and_changed_text_is_updated_in_place(page: Any) -> None:
    rows = [
        {"key": "a", "text": "Alpha", "say": "a"},
        {"key": "b", "text": "Beta", "say": "b", "children": ["x", "y"]},
        "tail",
    ]
    assert render(page, rows) == [-1, -1, -1]
    assert render(page, rows) == [0, 1, 2], "an identical render keeps every node"
    text_node = page.evaluate_handle("document.querySelector('#host [data-key=a]').firstChild")
    changed = [{**rows[0], "text": "Alpha 2", "cls": "hot"}, {**rows[1], "children": ["x"]}, "end"]
    assert render(page, changed) == [0, 1, 2], "changed text and attributes are merged in place"
    assert text_node.evaluate("n => n.isConnected && n.data") == "Alpha 2"
    assert page.evaluate("window.html()") == (
        '<button data-key="a" class="hot">Alpha 2</button>'
        '<button data-key="b">Beta<span class="x">x</span></button>end'
    )
    # A reused node keeps its listener: its key says what it does.
    page.click("#host [data-key=a]")
    assert page.evaluate("window.clicks") == ["a"]


def test_a_key_change_makes_a_new_node(page: Any) -> None:
    render(page, [{"key": "a", "move": '{"die":0}', "say": "old"}, {"testid": "t", "say": "t"}])
    fresh = [{"key": "a", "move": '{"die":1}', "say": "new"}, {"testid": "u", "say": "u"}]
    assert render(page, fresh) == [-1, -1], "data-move and data-testid are part of the key"
    page.click("#host [data-key=a]")
    assert page.evaluate("window.clicks") == ["new"], "the old move's listener is gone"
    assert render(page, [{"tag": "div", "key": "a", "move": '{"die":1}'}, "u"]) == [-1, -1], (
        "the tag is part of the key, and a text node never reuses an element"
    )


def test_a_new_order_moves_the_nodes(page: Any) -> None:
    rows = [{"key": k, "text": k, "say": k} for k in "abcd"]
    render(page, rows)
    assert render(page, [rows[3], rows[0], rows[2], rows[1]]) == [3, 0, 2, 1]
    assert render(page, [rows[2], rows[0]]) == [2, 1], "the rest go"
    assert page.evaluate("window.html()") == (
        '<button data-key="c">c</button><button data-key="a">a</button>'
    )
    # Nodes with the same key are matched in order.
    same = [{"text": "one"}, {"text": "two"}]
    render(page, same)
    assert render(page, [{"text": "two"}, {"text": "one"}, {"text": "three"}]) == [0, 1, -1]


def test_children_follow_fill_and_focus_survives_a_move(page: Any) -> None:
    page.evaluate("""async () => {
      const ui = await import("/static/js/ui.js");
      ui.morph(document.getElementById("host"), null, false, ["a", ["b", 1]], undefined, "c");
    }""")
    assert page.evaluate("window.html()") == "ab1c"
    rows = [{"key": k, "text": k} for k in "abc"]
    render(page, rows)
    page.focus("#host [data-key=c]")
    render(page, [rows[2], rows[0], rows[1]])
    assert page.evaluate("document.activeElement.dataset.key") == "c"
