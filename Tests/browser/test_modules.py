"""The page's pure modules, run in Chromium as the page itself loads them (ES modules, no build)."""

IMPORT = """
const [path, done] = arguments;
import(path).then((m) => window.__module = m).then(() => done(null), (e) => done(String(e)));
"""


def run(page, module, body):
    """Imports `module` and returns the value of the JS function body `body(m)`."""
    assert page.driver.execute_async_script(IMPORT, module) is None
    return page.driver.execute_script(f"const m = window.__module; {body}")


def test_backoff_grows_with_jitter_and_caps_at_five_seconds(open_page):
    page = open_page()
    lows = run(page, "/js/backoff.js", "return [0,1,2,3,4,5,10,50].map((a) => m.backoffDelay(a, () => 0))")
    highs = run(page, "/js/backoff.js", "return [0,1,2,3,4,5,10,50].map((a) => m.backoffDelay(a, () => 1))")
    assert lows == [125, 250, 500, 1000, 2000, 2500, 2500, 2500]
    assert highs == [250, 500, 1000, 2000, 4000, 5000, 5000, 5000]


def test_close_codes_decide_whether_to_reconnect(open_page):
    page = open_page()
    reasons = run(page, "/js/protocol.js", """
        return [[4404, true], [1001, true], [4408, true], [1006, true], [1006, false], [1008, true]]
          .map(([code, opened]) => m.closeReason(code, opened))""")
    assert reasons == [None, "restart", "slow", "lost", "unreachable", "lost"]


REDUCER = """
const s0 = m.initialState('lobby', false);
const plan = {drawId: 'd1', entrants: [{userId: 1, name: 'A', username: 'a', regDate: '2020-01-01', void: false},
  {userId: 2, name: 'B', username: 'b', regDate: '2020-01-01', void: true}], warnings: [], commitment: 'c',
  entrantsHash: 'h', schedule: {rounds: 3}, startedAt: 0};
const round = (n, index) => ({type: 'round', drawId: 'd1', round: n, of: 3, index, name: 'AB'[index], username: 'ab'[index]});
const finished = {type: 'finished', drawId: 'd1', outcome: 'winner', seed: 's', picks: [0, 1, 0], rounds: 3,
  entrants: plan.entrants, winner: plan.entrants[0], drawn: plan.entrants[0]};
const fold = (s, events) => events.reduce(m.reduce, s);
const snap = (draw, lastResult) => ({type: 'snapshot', room: 'lobby', viewers: 2, draw, lastResult});
"""


def test_reducer_follows_a_draw_and_ignores_stale_rounds(open_page):
    page = open_page()
    out = run(page, "/js/state.js", REDUCER + """
        const live = fold(s0, [snap(null, null), {type: 'started', ...plan}, round(1, 0), round(1, 0),
                               {...round(2, 1), drawId: 'old'}, round(2, 1)]);
        const done = m.reduce(live, finished);
        return {phase: live.phase, rounds: live.draw.rounds.map((r) => r.round), total: live.draw.total,
                result: done.phase, seen: [...done.result.seen], announced: done.result.announcedCommitment};""")
    assert out == {"phase": "live", "rounds": [1, 2], "total": 3, "result": "result",
                   "seen": [[1, 0], [2, 1]], "announced": "c"}


def test_rounds_carry_the_viewer_count_during_a_draw(open_page):
    """The server sends no `presence` while rounds are shown; each round says how many watch."""
    page = open_page()
    out = run(page, "/js/state.js", REDUCER + """
        const live = fold(s0, [snap(null, null), {type: 'started', ...plan}, {...round(1, 0), viewers: 7}]);
        const stale = m.reduce(live, {...round(1, 0), viewers: 9});
        const older = m.reduce(stale, round(2, 1));
        return [live.viewers, stale.viewers, stale.draw.rounds.length, older.viewers];""")
    # A repeated round still updates the count; a round without one (an older server) keeps it.
    assert out == [7, 9, 1, 9]


def test_reducer_takes_the_snapshot_as_truth_after_a_reconnect(open_page):
    page = open_page()
    out = run(page, "/js/state.js", REDUCER + """
        const live = fold(s0, [snap(null, null), {type: 'started', ...plan}, round(1, 0)]);
        const away = m.reduce(live, {type: 'connection', status: 'retrying', retry: {reason: 'lost', retryInMs: 300}});
        const record = {...finished}; delete record.type;
        const midDraw = m.reduce(away, snap({phase: 'running', ...plan, rounds: [round(1, 0), round(2, 1)]}, null));
        const finishedMeanwhile = m.reduce(away, snap(null, record));
        const serverForgot = m.reduce(m.reduce(live, finished), snap(null, null));
        const failed = fold(s0, [snap(null, null), {type: 'failed', code: 'no_players', message: 'x'}]);
        return {
          away: [away.connection, away.phase],
          midDraw: [midDraw.connection, midDraw.phase, midDraw.draw.rounds.length],
          finishedMeanwhile: [finishedMeanwhile.phase, finishedMeanwhile.result.seen.size],
          serverForgot: [serverForgot.phase, serverForgot.lastResult, serverForgot.result],
          failedKept: m.reduce(failed, snap(null, null)).phase,
          failedGoneOnNewResult: m.reduce(failed, snap(null, record)).phase,
        };""")
    assert out == {
        "away": ["retrying", "live"],
        "midDraw": ["open", "live", 2],
        "finishedMeanwhile": ["result", 1],
        "serverForgot": ["idle", None, None],
        "failedKept": "failed",
        "failedGoneOnNewResult": "idle",
    }


def test_protocol_facts_agree_with_the_shared_vectors(open_page):
    """Tests/vectors/protocol.json: the same subprotocol and room-name rule as the server and
    the Python clients."""
    import json
    from .browser_harness.paths import REPO
    facts = json.loads((REPO / "Tests" / "vectors" / "protocol.json").read_text(encoding="utf-8"))
    page = open_page()
    assert run(page, "/js/protocol.js", "return m.SUBPROTOCOL") == facts["subprotocol"]
    assert run(page, "/js/route.js", "return m.DEFAULT_ROOM") == facts["lobby"]
    names = facts["roomNames"]
    verdicts = run(page, "/js/route.js", f"return {json.dumps(names['valid'] + names['invalid'])}.map(m.isRoomName)")
    assert verdicts == [True] * len(names["valid"]) + [False] * len(names["invalid"])


def test_silence_bound_follows_the_heartbeat_and_never_passes_fifteen_seconds(open_page):
    page = open_page()
    out = run(page, "/js/liveness.js", """
        return {max: m.MAX_SILENCE_MS, bounds: [null, 0, 1000, 5000, 10000].map(m.silenceBoundMs),
                gaps: [0, 1, 2, 3, 4].map((k) => m.gapAfterStep({offsetsMs: [400, 800, 1500], finishOffsetMs: 1900}, k))}""")
    assert out == {"max": 15000, "bounds": [15000, 15000, 3000, 15000, 15000], "gaps": [400, 400, 700, 400, None]}


def test_silence_watch_expects_heartbeats_and_the_draws_next_step(open_page):
    page = open_page()
    out = run(page, "/js/liveness.js", """
        const w = new m.SilenceWatch();
        const log = [];
        w.begin(0); log.push(w.deadline);                                     // nothing heard yet: 15 s
        w.heard({type: 'snapshot', draw: null}, 100); log.push(w.deadline);
        w.heard({type: 'heartbeat', intervalMs: 2000}, 1000); log.push(w.deadline);  // 3 × 2 s
        const schedule = {rounds: 2, offsetsMs: [400, 800], finishOffsetMs: 1200};
        w.heard({type: 'started', schedule}, 2000); log.push(w.deadline);     // round 1 due 400 ms on
        w.heard({type: 'heartbeat', intervalMs: 2000}, 2100); log.push(w.deadline);  // does not push it back
        w.heard({type: 'round', round: 1}, 2400); log.push(w.deadline);
        w.heard({type: 'round', round: 2}, 2800); log.push(w.deadline);       // then finished
        w.heard({type: 'finished'}, 3200); log.push(w.deadline);              // quiet again
        log.push(w.expired(9200), w.expired(9201));
        // Joining mid-draw: the snapshot's server times say when the next round is due.
        w.heard({type: 'snapshot', serverTime: 10500, draw: {phase: 'running', schedule, startedAt: 10000,
                 rounds: [{round: 1, sentAt: 10400}]}}, 20000);
        log.push(w.deadline);
        return log;""")
    margin = 2500
    assert out == [15000, 15100, 7000, 2000 + 400 + margin, 2000 + 400 + margin, 2400 + 400 + margin,
                   2800 + 400 + margin, 9200, False, True, 20000 + 300 + margin]


def test_silence_watch_between_winners_waits_for_nothing_or_for_the_next_start(open_page):
    """One reveal per winner (PROTOCOL.md `winner`, `advance`): waiting for the host is no stall."""
    page = open_page()
    out = run(page, "/js/liveness.js", """
        const w = new m.SilenceWatch();
        const log = [];
        const schedule = {rounds: 2, offsetsMs: [400, 800], finishOffsetMs: 1200};
        w.begin(0);
        w.heard({type: 'heartbeat', intervalMs: 5000}, 0);
        w.heard({type: 'started', schedule}, 1000);
        w.heard({type: 'round', winner: 1, round: 2}, 1800);
        w.heard({type: 'winner', winner: 1, next: 'host', sentAt: 2200}, 2200); log.push(w.deadline); // heartbeats only
        w.heard({type: 'advance', winner: 2, startsAt: 9000}, 9000); log.push(w.deadline);          // its first flip
        w.heard({type: 'winner', winner: 2, next: 'auto', sentAt: 10200, nextStartsAt: 12200}, 10200); log.push(w.deadline);
        w.heard({type: 'winner', winner: 3, next: 'finished', sentAt: 20000}, 20000); log.push(w.deadline);
        // A joiner while the draw waits for the host: nothing is due.
        w.heard({type: 'snapshot', serverTime: 30000, draw: {phase: 'running', schedule, startedAt: 25000,
                 rounds: [{winner: 1, round: 1, sentAt: 25400}, {winner: 1, round: 2, sentAt: 25800}],
                 progress: {winner: 1, winnerStartedAt: 25000, awaitingHost: true, revealed: [{index: 0}]}}}, 30000);
        log.push(w.deadline);
        // A joiner during winner 2's flips: its next flip is due after winner 2's own last one.
        w.heard({type: 'snapshot', serverTime: 40000, draw: {phase: 'running', schedule, startedAt: 25000,
                 rounds: [{winner: 1, round: 1, sentAt: 25400}, {winner: 1, round: 2, sentAt: 25800},
                          {winner: 2, round: 1, sentAt: 39900}],
                 progress: {winner: 2, winnerStartedAt: 39500, awaitingHost: false, revealed: [{index: 0}]}}}, 40000);
        log.push(w.deadline);
        return log;""")
    margin = 2500
    assert out == [2200 + 15000, 9000 + 400 + margin, 10200 + 2000 + 400 + margin, 20000 + margin,
                   30000 + 15000, 40000 + 300 + margin]


def test_reducer_shows_each_winner_and_a_joiner_from_progress(open_page):
    page = open_page()
    out = run(page, "/js/state.js", """
        const started = {type: 'started', drawId: 'd', winners: 3, reveal: 'each', schedule: {rounds: 2, offsetsMs: [1, 2]}};
        const round = (winner, r, index) => ({type: 'round', drawId: 'd', winner, round: r, of: 2, index, name: 'N' + index});
        const won = (winner, index, next) => ({type: 'winner', drawId: 'd', winner, of: 3, index, name: 'N' + index, next});
        let s = [started, round(1, 1, 4), round(1, 2, 5), won(1, 5, 'host'), round(1, 2, 5)]
          .reduce(m.reduce, m.initialState('r', true));
        const waiting = [s.draw.slot, s.draw.awaitingHost, s.draw.revealed.map((w) => w.name), s.draw.rounds.length];
        s = [{type: 'advance', drawId: 'd', winner: 2, startsAt: 5}, round(2, 1, 7)].reduce(m.reduce, s);
        const second = [s.draw.slot, s.draw.awaitingHost, s.draw.rounds.map((r) => r.round), s.draw.seenPicks];
        const joiner = m.reduce(m.initialState('r', false), {type: 'snapshot', room: 'r', viewers: 1, lastResult: null,
          draw: {phase: 'running', drawId: 'd', winners: 3, reveal: 'each', schedule: {rounds: 2},
                 rounds: [{winner: 1, round: 1, index: 4}, {winner: 1, round: 2, index: 5}, {winner: 2, round: 1, index: 7}],
                 progress: {winner: 2, awaitingHost: false, revealed: [{winner: 1, index: 5, name: 'N5', void: false}]}}});
        return [waiting, second, [joiner.draw.slot, joiner.draw.rounds.map((r) => r.index), joiner.draw.revealed.map((w) => w.name)]];""")
    assert out == [[1, True, ["N5"], 2], [2, False, [1], [[1, 4], [2, 5], [3, 7]]], [2, [7], ["N5"]]]


def test_silence_watch_asks_before_giving_up_on_a_late_step(open_page):
    """A held draw (cluster mode, PROTOCOL.md `round`) is late on a live link: the page pings once,
    and any answer keeps the connection (the heartbeat's bound stays); no answer loses it. Also
    when each next step is due (one page for both: the suite's time is mostly Chromium's)."""
    page = open_page()
    out = run(page, "/js/liveness.js", """
        const schedule = {rounds: 3, offsetsMs: [400, 800, 1200], finishOffsetMs: 1600};
        const watch = () => {
          const w = new m.SilenceWatch();
          w.begin(0);
          w.heard({type: 'heartbeat', intervalMs: 5000}, 0);
          w.heard({type: 'started', schedule}, 1000);
          w.heard({type: 'round', round: 1}, 1400);   // round 2 due at 1800, overdue after 4300
          return w;
        };
        const held = watch(), dead = watch();
        const log = [held.probe(4300), held.probe(4301), held.expired(4301), held.probe(4301)];
        held.heard({type: 'pong'}, 4350);
        log.push(held.deadline, held.probe(20000), held.expired(19349), held.expired(19351));
        held.heard({type: 'round', round: 2}, 9000);  // the held round: a step deadline again
        log.push(held.deadline, held.probe(11901));
        log.push(dead.probe(4301), dead.expired(6801), dead.expired(6802), dead.probe(6802));
        return log;""")
    assert out == [False, True, False, False, 4350 + 15000, False, False, True, 9000 + 400 + 2500, True,
                   True, False, True, False]
    out = run(page, "/js/liveness.js", """
        const schedule = {rounds: 2, offsetsMs: [3000, 3400], finishOffsetMs: 3800};
        return [
          m.stepAfter(schedule, {type: 'started', startedAt: 1000}),
          m.stepAfter(schedule, {type: 'round', round: 1, sentAt: 4100}),
          m.stepAfter(schedule, {type: 'round', round: 2, sentAt: 4500}),
          m.stepAfter(schedule, {type: 'winner', next: 'host', sentAt: 5000}),
          m.stepAfter(schedule, {type: 'winner', next: 'auto', sentAt: 5000, nextStartsAt: 7000}),
          m.stepAfter(schedule, {type: 'advance', startsAt: 9000}),
          m.stepAfter(schedule, {type: 'round', round: 1, sentAt: 'soon'}),
          m.stepAfter(null, {type: 'round', round: 1, sentAt: 4100}),
          m.stepOfSnapshot({schedule, startedAt: 1000, rounds: [{round: 1, sentAt: 4100}]}),
        ];""")
    assert out == [{"at": 1000, "gap": 3000}, {"at": 4100, "gap": 400}, {"at": 4500, "gap": 400}, None,
                   {"at": 5000, "gap": 5000}, {"at": 9000, "gap": 3000}, None, None, {"at": 4100, "gap": 400}]


HOLD = """
const s0 = {connection: 'open', phase: 'live', draw: {nextStep: {at: 10000, gap: 400, heard: true},
  awaitingHost: false, beaconRound: null, seenPicks: [[1, 0]]}};
const w = (change, draw = {}) => ({...s0, ...change, draw: {...s0.draw, ...draw}});
"""


def test_the_hold_notice_waits_for_a_clear_delay_and_only_where_it_belongs(open_page):
    """When a held draw's notice shows (hold-notice.js), and the reducer's nextStep it reads."""
    page = open_page()
    out = run(page, "/js/hold-notice.js", HOLD + """
        return {
          thresholds: [0, 100, 500, 2000].map(m.holdAfterMs),
          page: m.pausedFrom(s0, 'page', 9000),
          heardLate: m.pausedFrom(s0, 'page', 12000),         // another node's clock behind: heard counts
          snapshot: m.pausedFrom(w({}, {nextStep: {at: 10000, gap: 400, heard: false}}), 'page', 12000),
          overlay: m.pausedFrom(s0, 'overlay', 9000),
          retrying: m.pausedFrom(w({connection: 'retrying'}), 'page', 9000),
          result: m.pausedFrom(w({phase: 'result'}), 'page', 9000),
          host: m.pausedFrom(w({}, {awaitingHost: true}), 'page', 9000),
          nothingDue: m.pausedFrom(w({}, {nextStep: null}), 'page', 9000),
          beacon: m.pausedFrom(w({}, {beaconRound: 7, seenPicks: []}), 'page', 9000),
          beaconRunning: m.pausedFrom(w({}, {beaconRound: 7}), 'page', 9000),
        };""")
    assert out == {"thresholds": [1500, 1500, 1500, 6000], "page": 10000 + 400 + 1500,
                   "heardLate": 12000 + 400 + 1500, "snapshot": 10000 + 400 + 1500, "overlay": None,
                   "retrying": None, "result": None, "host": None, "nothingDue": None, "beacon": None,
                   "beaconRunning": 10000 + 400 + 1500}
    out = run(page, "/js/state.js", """
        const schedule = {rounds: 2, offsetsMs: [400, 800], finishOffsetMs: 1200};
        const started = {type: 'started', drawId: 'd', winners: 2, reveal: 'each', schedule, startedAt: 1000};
        const round = (winner, r, sentAt) => ({type: 'round', drawId: 'd', winner, round: r, of: 2, index: 0, name: 'A', sentAt});
        const steps = [];
        let s = m.initialState('r', false);
        for (const ev of [started, round(1, 1, 1400), round(1, 2, 1800),
                          {type: 'winner', drawId: 'd', winner: 1, of: 2, index: 0, next: 'host', sentAt: 2200},
                          {type: 'advance', drawId: 'd', winner: 2, startsAt: 5000}]) {
          s = m.reduce(s, ev);
          steps.push(s.draw.nextStep);
        }
        const joiner = m.reduce(m.initialState('r', false), {type: 'snapshot', room: 'r', viewers: 1, lastResult: null,
          draw: {phase: 'running', drawId: 'd', schedule, startedAt: 1000, rounds: [{round: 1, index: 0, sentAt: 1400}]}});
        return [steps, joiner.draw.nextStep];""")
    assert out == [[{"at": 1000, "gap": 400, "heard": True}, {"at": 1400, "gap": 400, "heard": True},
                    {"at": 1800, "gap": 400, "heard": True}, None, {"at": 5000, "gap": 400, "heard": True}],
                   {"at": 1400, "gap": 400, "heard": False}]
