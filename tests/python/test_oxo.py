"""The Python module over liboxo (lookup/python/oxo.py), as a Python program uses it: tic-tac-toe's
table checked against a negamax written here, apart from oxo; models, Connect-4, bytes, seeds and
levels; every failure raised as oxo.Error with liboxo's code and message. Run by tests/e2e_python.sh
(OXO_LIBRARY: the build's liboxo; OXO_DATA_DIR: data/)."""

import os
from functools import lru_cache

import pytest

import oxo

DATA = os.environ["OXO_DATA_DIR"]
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def won(b, s):
    return any(b[i] == b[j] == b[k] == s for i, j, k in LINES)


@lru_cache(maxsize=None)
def negamax(b):
    """(value for the side to move, plies to the end): the winner wins as fast as it can, the
    loser loses as slowly as it can."""
    me = "X" if b.count("X") == b.count("O") else "O"
    other = "O" if me == "X" else "X"
    if won(b, other):
        return (-1, 0)
    if "." not in b:
        return (0, 0)
    best = None
    for i, c in enumerate(b):
        if c == ".":
            v, d = negamax(b[:i] + me + b[i + 1:])
            v, d = -v, d + 1
            key = (v, -d if v > 0 else d)
            if best is None or key > best[0]:
                best = (key, (v, d))
    return best[1]


def positions():
    seen, todo = set(), ["........."]
    while todo:
        b = todo.pop()
        if b in seen:
            continue
        seen.add(b)
        me = "X" if b.count("X") == b.count("O") else "O"
        if won(b, "X") or won(b, "O") or "." not in b:
            continue
        todo.extend(b[:i] + me + b[i + 1:] for i, c in enumerate(b) if c == ".")
    return sorted(seen)


@pytest.fixture(scope="module")
def table():
    with oxo.Player("tictactoe.oxt") as p:  # a bare name: found in $OXO_DATA_DIR
        yield p


def test_every_position_as_the_reference_solves_it(table):
    names = {-1: "loss", 0: "draw", 1: "win"}
    all_positions = positions()
    assert len(all_positions) == 5478
    for b in all_positions:
        q = table.query(b)
        if won(b, "X") or won(b, "O") or "." not in b:
            assert q.over and q.winner == ("X" if won(b, "X") else "O" if won(b, "O") else "draw"), b
            continue
        v, d = negamax(b)
        assert (q.value, q.distance) == (names[v], d), b
        me = "X" if b.count("X") == b.count("O") else "O"
        kids = {i: negamax(b[:i] + me + b[i + 1:]) for i, c in enumerate(b) if c == "."}
        assert [m.move for m in q.moves] == sorted(kids), b
        for m in q.moves:  # each move's value for the side that plays it
            kv, kd = kids[m.move]
            assert (m.value, m.distance) == (names[-kv], kd + 1), (b, m)
        assert q.best == sorted(i for i, (kv, kd) in kids.items() if (-kv, kd + 1) == (v, d)), b


def test_the_player_describes_its_file(table):
    assert table.spec == "tictactoe" and table.exact and table.start == "........."
    assert oxo.library_version().count(".") == 2


def test_a_table_never_loses_to_random_play(table):
    import random
    rnd = random.Random(7)
    for game in range(40):
        b, table_side = table.start, "XO"[game % 2]
        while not table.query(b).over:
            q = table.query(b)
            move = table.pick(b, 10, seed=game * 100 + len(b)) if q.to_move == table_side else rnd.choice(
                [m.move for m in q.moves])
            b = table.play(b, move)
        assert table.query(b).winner in (table_side, "draw"), b


def test_seeds_and_levels(table):
    b = "X...O...."
    assert len({table.pick(b, 10, seed=s) for s in range(1, 40)}) > 1  # ties drawn from the seed
    assert all(table.pick(b, 10, seed=s) in table.query(b).best for s in range(1, 40))
    assert table.pick(b, 10, seed=3) == table.pick(b, 10, seed=3)
    level1 = {table.pick(b, 1, seed=s) for s in range(1, 200)}
    assert level1 == {m.move for m in table.query(b).moves}  # level 1 plays any legal move


def test_models_and_bytes():
    with oxo.Player(os.path.join(DATA, "td.oxm")) as m:
        assert not m.exact
        q = m.query(".........")
        assert q.value is None and q.distance is None and len(q.moves) == 9 and q.best
        with open(os.path.join(DATA, "td.oxm"), "rb") as f:
            with oxo.Player(data=f.read()) as again:
                assert [x.score for x in again.query("X...O....").moves] == [x.score for x in m.query("X...O....").moves]
    with oxo.Player(os.path.join(DATA, "connect4-7-6-ntuple.oxm")) as c4:
        assert c4.spec == "connect4:7,6" and c4.start == ""
        q = c4.query("4453")
        assert q.to_move == "X" and [x.move for x in q.moves] == list(range(7))
        assert c4.play("4453", 3) == "44534"
        assert c4.play("4,4", 2) == "4,4,3"  # the moves' own form: separated, a comma and the move


def test_wide_boards(tmp_path):
    """Boards of 10 columns and more name their moves separated by commas: a move played is added
    in that form (it was a character past '9')."""
    import subprocess

    gen, train = os.environ["OXO_GEN"], os.environ["OXO_TRAIN"]
    judge, model = str(tmp_path / "wide.judge"), str(tmp_path / "wide.oxm")
    subprocess.run([gen, "--game", "connect4:10,4", "--judge-set", "4", "-q", "-o", judge], check=True)
    subprocess.run([train, "--algo", "azero", "--game", "connect4:10,4", "--judge", judge, "-e", "1",
                    "--games", "2", "--simulations", "4", "--width", "4", "--perfect-games", "0", "-q",
                    "-o", model], check=True, stdout=subprocess.DEVNULL)
    with oxo.Player(model) as p:
        assert p.play("", 9) == "10" and p.play("10,3", 9) == "10,3,10"
        board = p.play(p.play("10,3,10", 0), 9)
        assert board == "10,3,10,1,10" and p.query(board).to_move == "O"
        assert p.play("10 3", 1) == "10 3,2"  # separated by a space: a comma follows all the same


def test_books():
    with oxo.Player("connect4-6-5-book.oxt") as book:  # the shipped 6x5 book: exact to 12 stones
        assert book.spec == "connect4:6,5" and book.exact
        q = book.query("")
        assert q.value == "draw" and q.best and all(m.exact for m in q.moves)
        for m in q.moves:  # each first move's value is the value after it, as the book answers there
            after = book.query(book.play("", m.move))
            assert {"win": "loss", "loss": "win", "draw": "draw"}[after.value] == m.value
        with pytest.raises(oxo.Error) as e:
            book.query("1234561234561")  # 13 stones: past the book
        assert e.value.code == "OXO_RC_BOARD" and "opening book" in e.value.message


def test_tables_in_blocks(tmp_path):
    """A table solved a ply at a time (format 3, read a block at a time) answers as the table of the
    bitmap of codes does, position by position."""
    import subprocess

    gen = os.environ["OXO_GEN"]
    for name, extra in (("blocks.oxt", ["--by-ply"]), ("bitmap.oxt", [])):
        subprocess.run([gen, "--game", "connect4:4,4", "-q", "-o", str(tmp_path / name)] + extra,
                       check=True, stdout=subprocess.DEVNULL)
    with oxo.Player(str(tmp_path / "blocks.oxt")) as a, oxo.Player(str(tmp_path / "bitmap.oxt")) as b:
        assert a.exact and a.spec == "connect4:4,4"
        for board in ("", "1", "23", "2323", "12341", "334411", "1223344", "12132434"):
            qa, qb = a.query(board), b.query(board)
            assert (qa.value, qa.distance, qa.best) == (qb.value, qb.distance, qb.best)
            assert [(m.move, m.value, m.distance) for m in qa.moves] == [(m.move, m.value, m.distance) for m in qb.moves]


def test_failures_are_raised_with_their_code_and_message(table, tmp_path):
    with pytest.raises(oxo.Error) as e:
        oxo.Player(str(tmp_path / "missing.oxt"))
    assert e.value.code == "OXO_RC_IO" and "missing.oxt" in str(e.value)
    junk = tmp_path / "junk.oxt"
    junk.write_bytes(b"not an oxo file at all")
    with pytest.raises(oxo.Error) as e:
        oxo.Player(str(junk))
    assert e.value.code == "OXO_RC_FORMAT"
    with pytest.raises(oxo.Error) as e:
        table.query("XXXXX....")
    assert e.value.code == "OXO_RC_BOARD" and e.value.message
    with pytest.raises(oxo.Error) as e:
        table.play("X........", 0)
    assert e.value.code == "OXO_RC_MOVE"
    with pytest.raises(oxo.Error) as e:
        table.pick("XXXOO....", 10)
    assert e.value.code == "OXO_RC_OVER"
    with pytest.raises(oxo.Error) as e:
        table.pick(".........", 11)
    assert e.value.code == "OXO_RC_ARGUMENT"
    with pytest.raises(TypeError):
        table.query(123)
    closed = oxo.Player("tictactoe.oxt")
    closed.close()
    with pytest.raises(oxo.Error):
        closed.query(".........")
