"""The verify panel's layout at phone widths (long and right-to-left names) and the contrast of
every screen, light and dark, measured from computed styles (issue 16)."""
import json

import pytest

from helpers.http import api, created_room

from .browser_harness.contrast import contrast_failures
from .browser_harness.pages import DESKTOP, emulate_media, set_viewport
from .test_verify import EXAMPLE, paste_and_verify

LONG = "W" * 60  # no break opportunity at all
RTL = "דוד בן-גוריון"


def names_record():
    """The worked example with a 60-character name and a Hebrew one, round 1 claimed wrongly."""
    entrants = [dict(p) for p in EXAMPLE["entrants"]]
    entrants[0]["name"], entrants[3]["name"] = LONG, RTL
    picks = list(EXAMPLE["picks"])
    picks[0] = 1  # recomputed is 3 (the Hebrew name); the record claims Mr. Hashemi
    return {**EXAMPLE, "entrants": entrants, "picks": picks}


@pytest.mark.parametrize("width", [320, 390])
def test_verify_panel_wraps_long_names_and_isolates_right_to_left_ones(open_page, width):
    page = open_page(size=(width, 844))
    assert paste_and_verify(page, json.dumps(names_record())) == "mismatch"
    page.el("verify-items").location_once_scrolled_into_view
    assert page.driver.execute_script("return document.documentElement.scrollWidth") <= width
    rows = page.driver.execute_script("""
        const lines = (el) => { const r = document.createRange(); r.selectNodeContents(el);
                                return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size; };
        return [...document.querySelectorAll('[data-testid="verify-items"] li')]
        .map((li) => ({id: li.dataset.item, label: li.querySelector('.label').textContent,
                       bdi: [...li.querySelectorAll('.label bdi')].map((b) => b.textContent),
                       markLines: lines(li.querySelector('.mark')),
                       mark: li.querySelector('.mark').textContent}))""")
    by_id = {r["id"]: r for r in rows}
    # The failing row names what the record claims people saw, not the recomputed pick.
    assert by_id["round-1"]["label"] == "Flip 1: Mr. Hashemi (#1)"
    assert by_id["round-1"]["mark"].upper() == "✗\u00a0MISMATCH"
    assert all(r["markLines"] == 1 for r in rows), rows
    hebrew = [r for r in rows if RTL in r["bdi"]]
    assert hebrew and all(r["label"].endswith(f"{RTL} (#3)") for r in hebrew)
    assert any(LONG in r["bdi"] for r in rows)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_screen_meets_wcag_aa_contrast(server, open_page, scheme):
    room = created_room(server)
    host = open_page(room["room"], room["hostKey"], size=DESKTOP)
    viewer = open_page(room["room"], size=DESKTOP)
    for page in (host, viewer):
        emulate_media(page.driver, prefers_color_scheme=scheme)
    failures = {"idle host": contrast_failures(host), "idle viewer": contrast_failures(viewer)}

    host.el("start-button").click()
    viewer.wait_phase("result")
    viewer.wait(lambda d: viewer.verify_status() == "ok" and len(viewer.recent_draws()) == 1, "the checked result")
    viewer.driver.execute_script("document.getAnimations().forEach((a) => a.finish())")
    failures["result"] = contrast_failures(viewer)

    # The host's disabled Start ("Draw in progress") and a mismatching verify report.
    host.driver.execute_script("const b = document.getElementById('start-button');"
                               "b.setAttribute('aria-disabled', 'true'); b.textContent = 'Draw in progress';")
    paste_and_verify(host, json.dumps(names_record()))
    failures["host busy, mismatch"] = contrast_failures(host)
    set_viewport(host.driver, (390, 844))
    failures["phone"] = contrast_failures(host)
    assert {k: v for k, v in failures.items() if v} == {}
