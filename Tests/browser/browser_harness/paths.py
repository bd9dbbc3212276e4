"""Where the browser tests find the repository's page and put what they produce."""
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
PUBLIC_DIR = REPO / "public"
ARTIFACTS = REPO / "artifacts"  # screenshots, server logs, failure shots; not committed
BROWSER_TESTS = REPO / "Tests" / "browser"  # vendor/ holds the test-only third-party files
