"""The page must run under `Content-Security-Policy: default-src 'self'`: no inline scripts or
styles, no inline event handlers, no eval. Checked on the files themselves, so it holds whatever
headers a given server sends; the browser tests also fail on any console error."""
import re
from html.parser import HTMLParser

from .browser_harness.paths import PUBLIC_DIR


class InlineFinder(HTMLParser):
    def __init__(self):
        super().__init__()
        self.problems = []

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        if tag == "script" and "src" not in names:
            self.problems.append("inline <script>")
        if tag == "style":
            self.problems.append("<style> element")
        for name, value in attrs:
            if name == "style" or name.startswith("on"):
                self.problems.append(f"{name}= on <{tag}>")
            if name in ("src", "href") and value and re.match(r"(data|javascript|https?):", value):
                self.problems.append(f"{name}={value!r} is not same-origin")


def test_html_has_nothing_inline():
    finder = InlineFinder()
    for page in PUBLIC_DIR.rglob("*.html"):
        finder.feed(page.read_text())
    assert finder.problems == []


def test_scripts_use_no_eval_or_markup_strings():
    banned = re.compile(r"\beval\(|new Function\b|\.innerHTML\b|\.outerHTML\b|insertAdjacentHTML|\.style\.|setAttribute\('style'")
    found = [f"{js.name}:{n}: {line.strip()}"
             for js in PUBLIC_DIR.rglob("*.js")
             for n, line in enumerate(js.read_text().splitlines(), 1) if banned.search(line)]
    assert found == []
