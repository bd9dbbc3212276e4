# A package, so that this folder's conftest is imported as `browser.conftest`: run in one pytest
# session with Tests/e2e, a second top-level `conftest` module would shadow the other one.
