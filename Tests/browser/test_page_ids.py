"""The page's ids are unique: modules look elements up by id (dom.js `byId`), so a second element
with the same id is silently never updated (two branches once both added `entrant-count`, and
the entrant list's card stayed empty). Read from the file, no browser needed."""
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

INDEX = Path(__file__).resolve().parents[2] / "public" / "index.html"


class _Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.testids = Counter(), Counter()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id":
                self.ids[value] += 1
            elif name == "data-testid":
                self.testids[value] += 1


def test_every_id_and_test_id_of_the_page_is_unique():
    parser = _Ids()
    parser.feed(INDEX.read_text(encoding="utf-8"))
    assert len(parser.ids) > 50, "the parser found the page's ids"
    assert [i for i, n in parser.ids.items() if n > 1] == []
    assert [i for i, n in parser.testids.items() if n > 1] == []
