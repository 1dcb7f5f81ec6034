"""No text reaches the page as HTML, script or a script URL: every sink in static/ (outside
the vendored libraries) is given a constant. A new sink with anything else fails here, named
by file and line; the cases below show what the checker catches and what it lets through.

Issue 13: the C64 table put "Waiting for <colour> (<name>)." into innerHTML, and a player
named <img src onerror=...> ran script in the opponent's page.
"""

from __future__ import annotations

import pytest

from app.main import STATIC
from tests.static.dom_sinks import check_html, check_javascript, check_tree


def test_no_page_script_or_template_feeds_a_sink_anything_but_a_constant() -> None:
    findings = check_tree(STATIC)
    assert not findings, "DOM sinks given non-constant input:\n" + "\n".join(map(str, findings))


BAD_JAVASCRIPT = {
    # the finding of issue 13, as it was in static/js/c64/table.js
    "note innerHTML": "    mine.note.innerHTML = note;\n",
    "template innerHTML": "el.innerHTML = `Waiting for ${name}.`;",
    "appended innerHTML": 'el.innerHTML += "<b>" + name + "</b>";',
    "outerHTML": "row.outerHTML = html",
    "insertAdjacentHTML": 'list.insertAdjacentHTML("beforeend", `<li>${chat.text}</li>`);',
    "document.write": "document.write(location.hash)",
    "DOMParser": 'const doc = new DOMParser().parseFromString(text, "text/html");',
    "range fragment": "range.createContextualFragment(markup)",
    "srcdoc": "frame.srcdoc = page;",
    "eval": "eval(message.code)",
    "new Function": 'const f = new Function("x", body);',
    "string timer": 'setTimeout("tick()", 100);',
    "handler property from a string": 'button.onclick = "go()";',
    "handler attribute": 'img.setAttribute("onerror", handler);',
    "handler key given to h()": 'h("img", { src: "x", onerror: "steal()" })',
    "href from a name": "link.href = player.website;",
    "src from text": "img.src = `${avatar}`;",
    "protocol-relative": "link.href = `//${host}/x`;",
    "href attribute": 'a.setAttribute("href", url);',
    "xlink:href": 'use.setAttributeNS(XLINK, "xlink:href", target);',
    "navigation": "window.location.assign(summary.link);",
    "location": "location = next;",
    "window.open": "window.open(chat.url)",
}


@pytest.mark.parametrize("snippet", BAD_JAVASCRIPT.values(), ids=BAD_JAVASCRIPT.keys())
def test_the_checker_finds_a_sink_given_untrusted_text(snippet: str) -> None:
    findings = check_javascript("const a = 1;\n" + snippet, "static/js/bad.js")
    assert findings, snippet
    assert all(f.path == "static/js/bad.js" and f.line >= 2 for f in findings), findings


GOOD_JAVASCRIPT = {
    "text": "note.textContent = `Waiting for ${name}.`;",
    "nodes": 'fill(note, "Waiting for ", h("strong", {}, name), ".");',
    "constant innerHTML": 'host.innerHTML = "";',
    "a comment": "// el.innerHTML = name; would be a hole\nconst x = 1;",
    "a block comment": "/* eval(code) */ const y = 2;",
    "a word in a string": 'toast("innerHTML = name is how it went wrong");',
    "a regex with quotes": 'const q = /["\'`]/g; el.textContent = s.replace(q, "");',
    "same-origin path": "a.href = `/match/${encodeURIComponent(id)}`;",
    "watch link": "a.href = withWatch(`/replay/${encodeURIComponent(id)}`, token);",
    "function handler": 'h("button", { onclick: () => go() }, "Go")',
    "function timer": "setTimeout(() => item.remove(), 100);",
    "comparison": 'if (link.href === "/") x();',
    "navigation to a path": "window.location.assign(`/match/${encodeURIComponent(id)}`);",
}


@pytest.mark.parametrize("snippet", GOOD_JAVASCRIPT.values(), ids=GOOD_JAVASCRIPT.keys())
def test_the_checker_lets_text_nodes_constants_and_paths_through(snippet: str) -> None:
    assert check_javascript(snippet) == []


BAD_HTML = {
    "inline module": '<script type="module">\n  import { x } from "/a.js";\n</script>',
    "handler attribute": '<img src="/a.png" onerror="go()">',
    "inline style": '<div class="banner" hidden style="color: red"></div>',
    "script URL": '<a href="javascript:go()">Go</a>',
    "unescaped value": "<p>{{ name | safe }}</p>",
    "autoescape off": "{% autoescape false %}<p>{{ name }}</p>{% endautoescape %}",
}


@pytest.mark.parametrize("snippet", BAD_HTML.values(), ids=BAD_HTML.keys())
def test_the_checker_finds_inline_script_style_and_unescaped_values_in_pages(
    snippet: str,
) -> None:
    assert check_html(snippet)


def test_a_page_with_script_and_style_files_passes() -> None:
    page = (
        '<link rel="stylesheet" href="/static/css/arcade.css">\n'
        '<script type="module" src="/static/js/lobby.js"></script>\n'
        '<a class="button" href="/history" data-testid="nav-history">History</a>\n'
    )
    assert check_html(page) == []
