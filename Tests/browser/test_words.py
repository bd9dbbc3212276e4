"""Words people understand (issue 16): every state says what happened in plain language, no
raw codes or browser errors; viewers see no host-only controls; void names stay unmarked until
the end; the idle screen does not spin; the page says "flips", never "rounds"."""
import re

from helpers.datasource import LOTTERY
from helpers.http import api, created_room

from .browser_harness.lists import WINNERS_ONLY, lottery
from .browser_harness.pages import PHONE
from .test_modules import run


def host_and_viewer(server, open_page, size=PHONE):
    room = created_room(server)
    host = open_page(room["room"], room["hostKey"], size=size)
    viewer = open_page(room["room"], size=size)
    return room, host, viewer


def test_idle_says_waiting_for_the_host_without_a_spinner(server, open_page):
    room, host, viewer = host_and_viewer(server, open_page)
    assert viewer.text("idle-message") == "Waiting for the host to start the draw."
    assert host.text("idle-message").startswith("Ready when you are")
    running = "return document.querySelector('.idle-mark').getAnimations().length"
    assert viewer.driver.execute_script(running) == 0
    # Room creation is the host's: a viewer sees neither the form nor the host's controls.
    assert not viewer.visible("create-room")
    assert not viewer.visible("host-panel")
    assert host.visible("create-room")


def test_an_empty_list_and_unmatched_entries_are_told_apart(server, source, open_page):
    room, host, viewer = host_and_viewer(server, open_page)
    source.set_json(LOTTERY, lottery([]))
    api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    viewer.wait_phase("failed")
    assert viewer.text("failure") == "There was nobody to draw: the lottery list is empty."

    source.set_json(LOTTERY, lottery([{"userId": 999, "void": False}]))  # no such user
    host.wait(lambda d: host.el("start-button").get_attribute("aria-disabled") == "false", "Start")
    host.el("start-button").click()
    for page in (host, viewer):
        page.wait(lambda d, page=page: "registered player" in page.text("failure"), "the no-match failure")
        assert page.text("failure") == \
            "There was nobody to draw: no entry on the lottery list matches a registered player."
    assert "no_players" in host.text("failure-detail")
    assert not viewer.visible("failure-detail")
    # The recent draws say it in words too; the code is only an attribute for tools.
    viewer.wait(lambda d: len(viewer.recent_draws()) == 2, "both failures in the recent draws")
    listed = viewer.text("recent-list")
    assert "no_players" not in listed and "There was nobody to draw" in listed


def test_failure_words_cover_each_kind_and_never_a_raw_error(open_page):
    page = open_page()
    said = run(page, "/js/words.js", """return {
        empty: m.failureText('no_players', []), nomatch: m.failureText('no_players', [{code: 'unknown_user'}]),
        unreachable: m.failureText('source_unreachable'), server: m.failureText('storage_failure'),
        network: m.requestProblemText(new TypeError('Failed to fetch')),
        broken: m.requestProblemText(Object.assign(new Error('x'), {status: 503})),
        stopped: m.abortedText({reason: 'server_shutdown', roundsShown: 4}),
        interrupted: m.abortedText({reason: 'interrupted', roundsShown: 6}),
        unknown: m.abortedText({reason: 'something_new', roundsShown: 2}),
        stored: m.stoppedText({status: 'aborted', abortReason: 'server_shutdown', roundsShown: 1}),
        cancelled: m.stoppedText({status: 'aborted', abortReason: 'cancelled', roundsShown: 0}),
        missed: m.stoppedText({status: 'aborted', abortReason: 'missed', roundsShown: 0}),
    }""")
    assert said["empty"].endswith("the lottery list is empty.")
    assert said["nomatch"].endswith("matches a registered player.")
    assert said["unreachable"].startswith("The player lists could not be reached")
    assert said["server"].startswith("The live-draw server had a problem")
    assert said["network"] == "the live-draw server can't be reached right now."
    assert "problem" in said["broken"]
    # The stage's title says "The draw was stopped": the sentence under it does not repeat it.
    assert said["stopped"] == "The server shut down. It stopped after 4 flips, so nothing was decided."
    # Cluster mode's takeover says what happened, not a vague "the server stopped it".
    assert said["interrupted"] == ("The server running it stopped unexpectedly, and another server ended it "
                                   "for everyone. It stopped after 6 flips, so nothing was decided.")
    assert said["unknown"] == "The server stopped it. It stopped after 2 flips, so nothing was decided."
    assert said["stored"] == "Stopped: the server shut down. It stopped after 1 flip, so nothing was decided."
    # A scheduled draw that never ran (PROTOCOL.md §5.8) is not "stopped after 0 rounds".
    assert said["cancelled"].startswith("Cancelled by the host before its time")
    assert said["missed"].startswith("Missed: the server could not start it at its time")


def test_void_names_are_not_struck_through_before_the_end(server_factory, source, open_page):
    srv = server_factory(round_interval_ms=300)
    source.set_json(LOTTERY, lottery([*WINNERS_ONLY, {"userId": 182, "void": True}]))
    room = created_room(srv)
    viewer = open_page(room["room"], server=srv)
    viewer.driver.execute_script("""window.__struck = 0; new MutationObserver(() => {
        if (document.querySelector('[data-testid="stage"]').dataset.phase === 'live')
          window.__struck += document.querySelectorAll('#round-history li.void').length;
      }).observe(document.body, {subtree: true, childList: true, attributes: true});""")
    api(srv, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    viewer.wait_phase("live")
    assert "rounds shown so far" not in viewer.text("recent-list")
    viewer.wait_phase("result")
    assert viewer.driver.execute_script("return window.__struck") == 0


# Hosts and viewers call a draw's steps "flips" (the settings say "Number of flips"); "round"
# stays the wire field's name. A drand beacon's "round" is drand's own word for its numbered
# pulse, and the page links to it by that name, so "beacon round N" is allowed.
ROUND_WORD = r"(?<!beacon )\brounds?\b"

# Every text a person can meet: the page's text (hidden parts too: they show in some state),
# the tab title and the labels read out by screen readers.
ALL_TEXT = """const texts = [document.title, document.body.textContent];
  for (const e of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
    texts.push(e.getAttribute('aria-label') ?? '', e.getAttribute('title') ?? '', e.getAttribute('placeholder') ?? '');
  }
  return texts.join(' | ').replace(/\\s+/g, ' ');"""


def rounds_in(texts):
    """Each "round" in `texts`, with some words around it to tell where it is."""
    return [t[max(0, m.start() - 40):m.end() + 20] for t in texts for m in re.finditer(ROUND_WORD, t, re.IGNORECASE)]


def rounds_said(page):
    return rounds_in([page.driver.execute_script(ALL_TEXT)])


def test_the_page_says_flips_not_rounds(server, open_page):
    """Issue 28, item 6: live, at the result and on the result page, no "round" reaches a host
    or a viewer (it used to say "Round 3 of 10", "10 rounds", "All rounds")."""
    room, host, viewer = host_and_viewer(server, open_page)
    for page in (host, viewer):
        # Every text the live draw shows, as it changes (the counter, the title, announcements).
        page.driver.execute_script(f"""window.__said = new Set();
            const note = () => window.__said.add((() => {{ {ALL_TEXT} }})());
            new MutationObserver(note).observe(document.body, {{subtree: true, childList: true, characterData: true}});""")
    api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    for page in (host, viewer):
        page.wait_phase("result")
        seen = page.driver.execute_script("return [...window.__said]")
        assert any("Flip 10 of 10" in t for t in seen), "the live counter was watched"
        assert rounds_in(seen) == []
        assert rounds_said(page) == []
    draw_id = viewer.text("draw-id")
    result = open_page()
    result.driver.get(f"{server.base_url}/?draw={draw_id}")
    result.wait(lambda d: result.verify_status() == "ok", "the result page, verified")
    assert "10 flips" in result.text("draw-summary")
    assert rounds_said(result) == []


def test_a_redraw_says_whom_it_replaced_and_which_redraw_it_is_wherever_its_outcome_is(open_page):
    """Issue 37: "Sebastian Miller won" alone (the room's last result, the recent draws, the
    copied result) hid that Evelyn had won first and was replaced. A redraw's outcome now says so;
    a record from before redraws were numbered counts as the first; other draws read as before."""
    page = open_page()
    said = run(page, "/js/words.js", """
        const p = (id, name) => ({userId: id, name, username: name.toLowerCase(), regDate: '2020-01-01', void: false});
        const redraw = (number) => ({status: 'finished', outcome: 'winner', winner: p(7, 'Sebastian Miller'),
            redrawOf: {drawId: 'a'.repeat(32), removed: p(2, 'Evelyn Martinez'), ...(number ? {number} : {})}});
        return {
            second: m.outcomeText(redraw(2)), old: m.outcomeText(redraw(undefined)),
            plain: m.outcomeText({status: 'finished', outcome: 'winner', winner: p(7, 'Sebastian Miller')}),
            void: m.outcomeText({...redraw(1), outcome: 'void', winner: null, drawn: {...p(9, 'Zed'), void: true}}),
        };""")
    assert said["second"].startswith("Sebastian Miller") \
        and said["second"].endswith(" won, replacing Evelyn Martinez (redraw 2 of this giveaway)"), said["second"]
    assert said["old"].endswith("won, replacing Evelyn Martinez (redraw 1 of this giveaway)"), said["old"]
    assert "replacing" not in said["plain"] and said["plain"].endswith(" won"), said["plain"]
    assert said["void"] == "No winner: Zed was drawn, a void entry, replacing Evelyn Martinez (redraw 1 of this giveaway)", \
        said["void"]


def test_the_first_draws_page_follows_its_redraws_to_who_stands_now(open_page):
    """Issue 37: a draw's record never changes, so its page and copied result named a winner
    replaced since. The room's history lines link each redraw to its base; the page follows them
    (an aborted redraw replaced nobody) and says who was replaced, by whom, and who stands now."""
    page = open_page()
    said = run(page, "/js/redrawn-by.js", """
        const p = (id, name) => ({userId: id, name, username: '', regDate: '2020-01-01', void: false});
        const first = {drawId: 'a', status: 'finished', winners: 3, winnerPicks: [p(1, 'Caleb'), p(2, 'Evelyn'), p(3, 'Ava')]};
        const line = (drawId, base, removed, winner, number, status = 'finished') => ({drawId, status,
            outcome: winner ? 'winner' : 'void', winner, redrawOf: {drawId: base, removed, number}});
        const lines = [line('d', 'c', p(3, 'Ava'), null, 2), line('c', 'a', p(2, 'Evelyn'), p(7, 'Sebastian'), 1),
                       line('b', 'a', p(2, 'Evelyn'), null, 1, 'aborted'), {drawId: 'a', status: 'finished'}];
        const chain = m.redrawChain('a', lines);
        return {ids: chain.map((l) => l.drawId), text: m.redrawnText(first, chain),
                none: m.redrawnText(first, m.redrawChain('d', lines)), loop: m.redrawChain('x',
                    [line('y', 'x', p(1, 'Caleb'), p(8, 'Zoe'), 1), line('x', 'y', p(8, 'Zoe'), p(9, 'Ida'), 2)]).length};""")
    assert said["ids"] == ["c", "d"], said
    assert said["text"] == ("Evelyn did not show up and was replaced by Sebastian (redraw 1 of this giveaway). "
                            "Ava did not show up; redraw 2 of this giveaway drew a void entry, so that place has no winner. "
                            "The winners now: Caleb and Sebastian."), said["text"]
    assert said["none"] == "", "the newest redraw has nothing after it"
    assert said["loop"] == 2, "a cycle in lying lines ends the walk"
    copied = run(page, "/js/result-share.js", """return m.resultShareText({title: 'Quiz', prize: null},
        {status: 'finished', outcome: 'winner', winner: {name: 'Ann', username: ''}}, 'https://x/?draw=a',
        'Ann did not show up and was replaced by Bo (redraw 1 of this giveaway). The winner now: Bo.')""")
    assert copied.split("\n") == ["Quiz", "Ann won.",
                                  "Ann did not show up and was replaced by Bo (redraw 1 of this giveaway). The winner now: Bo.",
                                  "Check the draw: https://x/?draw=a"], copied
