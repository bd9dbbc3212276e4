"""The lottery lists the browser tests serve (through Tests/e2e/helpers/datasource.py); the users
list is the seed one. Nobody void by default, so every draw has a winner unless a test says
otherwise."""

WINNERS_ONLY = [{"userId": u, "void": False} for u in (10, 22, 4, 18)]
ONLY_VOID = [{"userId": 182, "void": True}]


def lottery(entries) -> dict:
    """The lottery list document with these entries."""
    return {"lotteryList": list(entries)}
