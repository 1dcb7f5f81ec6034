"""The Content-Security-Policy in Chromium (issue 13): it refuses script the site did not ship,
and what the site does ship keeps working under it: /docs (Swagger UI, started from a file)
and elements styled by ui.js, whose morph() merges style changes through the CSSOM."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

# The "Page not found" page: a real page of the site with little script of its own.
QUIET_PAGE = "/no-such-page-here"


def violations(page: Any) -> list[str]:
    return list(page.evaluate("() => window.__cspViolations"))


def test_docs_show_the_operations_under_the_policy(watched_page: Callable[..., Any]) -> None:
    page = watched_page()
    page.goto("/docs")
    operations = page.locator(".opblock")
    expect(operations.first).to_be_visible(timeout=30_000)
    expect(page.locator(".opblock-summary-path", has_text="/api/games").first).to_be_visible()
    # One operation opened: its parameters and "Try it out" are drawn by script as well.
    page.locator(".opblock-summary", has_text="/api/games").first.click()
    expect(page.get_by_role("button", name="Try it out").first).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert violations(page) == []


def test_script_injected_into_a_page_is_refused(watched_page: Callable[..., Any]) -> None:
    """Were a name ever to reach the DOM as HTML again, its script would still not run."""
    page = watched_page()
    page.goto(QUIET_PAGE)
    expect(page.get_by_test_id("page-not-found")).to_be_visible()
    page.evaluate(
        """() => {
          const script = document.createElement("script");
          script.textContent = "window.__pwned = 'inline script'";
          document.body.append(script);
          const host = document.createElement("div");
          host.innerHTML = "<img src=/static/favicon.svg onload=\\"window.__pwned='handler'\\">";
          document.body.append(host);
        }"""
    )
    page.wait_for_function("() => window.__cspViolations.length >= 2")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("() => window.__pwned") is None
    assert {v.split()[0] for v in violations(page)} == {"script-src-elem", "script-src-attr"}


def test_styles_set_and_merged_by_ui_js_apply_without_violations(
    watched_page: Callable[..., Any],
) -> None:
    """h() given a style string and morph() changing an element's style go through the CSSOM:
    the policy refuses setAttribute("style"), which morph used to merge a changed style."""
    page = watched_page()
    page.goto(QUIET_PAGE)
    expect(page.get_by_test_id("page-not-found")).to_be_visible()
    colours = page.evaluate(
        """async () => {
          const { h, morph } = await import("/static/js/ui.js");
          const host = document.createElement("div");
          document.body.append(host);
          const colour = () => getComputedStyle(host.firstChild).color;
          morph(host, h("span", { "data-key": "s", style: "color: rgb(1, 2, 3)" }, "a"));
          const first = colour();
          morph(host, h("span", { "data-key": "s", style: { color: "rgb(4, 5, 6)" } }, "a"));
          return [first, colour()];
        }"""
    )
    assert colours == ["rgb(1, 2, 3)", "rgb(4, 5, 6)"]
    page.wait_for_load_state("networkidle")
    assert violations(page) == []


def test_ui_js_refuses_handlers_and_urls_that_are_script(watched_page: Callable[..., Any]) -> None:
    page = watched_page()
    page.goto(QUIET_PAGE)
    expect(page.get_by_test_id("page-not-found")).to_be_visible()
    refusals = page.evaluate(
        """async () => {
          const { h, svg } = await import("/static/js/ui.js");
          const attempts = [
            () => h("img", { src: "x", onerror: "window.__pwned = 1" }),
            () => h("a", { href: "javascript:window.__pwned = 1" }),
            () => h("a", { href: " JaVa\\tScRiPt:window.__pwned = 1" }),
            () => svg("a", { "xlink:href": "javascript:window.__pwned = 1" }),
            () => h("iframe", { srcdoc: "<script>window.__pwned = 1</script>" }),
          ];
          return attempts.map((attempt) => {
            try { attempt(); return "allowed"; } catch (error) { return "refused"; }
          });
        }"""
    )
    assert refusals == ["refused"] * 5
    fine = page.evaluate(
        """async () => {
          const { h } = await import("/static/js/ui.js");
          return [h("a", { href: "/match/abc?watch=x" }).getAttribute("href"),
                  h("a", { href: "blob:http://x/1" }).getAttribute("href")];
        }"""
    )
    assert fine == ["/match/abc?watch=x", "blob:http://x/1"]
