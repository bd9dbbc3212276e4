"""What a page load cost, from the Performance API: requests, bytes on the wire and the first
contentful paint, for a first visit and for a return visit with the browser's cache."""

LOAD_COST = """
const nav = performance.getEntriesByType('navigation')[0];
const resources = performance.getEntriesByType('resource').filter((r) => !r.name.includes('/api/'));
const paint = performance.getEntriesByName('first-contentful-paint')[0];
return {
  requests: 1 + resources.length,
  bytes: nav.transferSize + resources.reduce((sum, r) => sum + r.transferSize, 0),
  bodyBytes: nav.encodedBodySize + resources.reduce((sum, r) => sum + r.encodedBodySize, 0),
  firstPaintMs: paint ? Math.round(paint.startTime) : null,
  // Module scripts run before DOMContentLoaded: this is when the page's code is all in.
  readyMs: Math.round(nav.domContentLoadedEventEnd),
  // [path, asked at, arrived at] of every module, to tell waves of requests apart.
  modules: resources.filter((r) => r.name.endsWith('.js'))
    .map((r) => [new URL(r.name).pathname, Math.round(r.startTime), Math.round(r.responseEnd)]),
};
"""


def load_cost(page):
    """The cost of the page's last load (wait for the connection first: modules are loaded then)."""
    return page.driver.execute_script(LOAD_COST)


def slow_network(driver, latency_ms=40):
    """A phone-like round trip, so that waves of requests show in the times."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1})
