"""The seed app's player lists, the entrants they must merge into, and bigger generated lists.

The expected entrants are written out by hand from the merge rules (FAIRNESS.md section 1,
PlayerMerger): lottery order kept, user 18 (not in the lottery) left out, user 182 void.
"""

SEED_USERS = {"items": [
    {"userId": 10, "name": "Jack Alexy", "username": "JAlex", "regDate": "2020-10-19"},
    {"userId": 22, "name": "Mr. Hashemi", "username": "Hashaaa", "regDate": "2019-08-19"},
    {"userId": 4, "name": "Mack", "username": "mackMack13", "regDate": "2018-10-02"},
    {"userId": 18, "name": "Pack", "username": "packPackDom", "regDate": "2018-04-12"},
    {"userId": 182, "name": "Mohsen", "username": "AghaMohsen", "regDate": "2020-04-12"},
]}

SEED_LOTTERY = {"lotteryList": [
    {"userId": 10, "void": False},
    {"userId": 22, "void": False},
    {"userId": 4, "void": False},
    {"userId": 182, "void": True},
]}

SEED_ENTRANTS = [
    {"userId": 10, "name": "Jack Alexy", "username": "JAlex", "regDate": "2020-10-19", "void": False},
    {"userId": 22, "name": "Mr. Hashemi", "username": "Hashaaa", "regDate": "2019-08-19", "void": False},
    {"userId": 4, "name": "Mack", "username": "mackMack13", "regDate": "2018-10-02", "void": False},
    {"userId": 182, "name": "Mohsen", "username": "AghaMohsen", "regDate": "2020-04-12", "void": True},
]


def big_lists(n: int, name_len: int = 40):
    """`n` users, all entered, so `started`/`finished` carry about n * (100 + name_len) bytes.

    Long-ish names make the big messages big without needing an absurd number of entrants
    (which would only slow down the server's parsing, not test anything more).
    """
    pad = "x" * max(0, name_len - 12)
    users = {"items": [
        {"userId": 1000 + i, "name": f"Player {i:05d} {pad}", "username": f"player{i:05d}",
         "regDate": f"20{10 + i % 10}-0{1 + i % 9}-1{i % 10}"}
        for i in range(n)]}
    lottery = {"lotteryList": [{"userId": 1000 + i, "void": i % 7 == 0} for i in range(n)]}
    return users, lottery
