"""oxo for Python: the lookup-only player of liboxo through ctypes.

Open a solved table or an opening book (*.oxt, from oxo-gen) or a trained model (*.oxm, from
oxo-train), ask what a position and each of its moves are worth, pick a move at a level, play a
move; errors are raised as oxo.Error with liboxo's message. Nothing is compiled at install time: the module loads the
installed liboxo (the library beside it in an install prefix, the system's, or $OXO_LIBRARY).

    import oxo
    with oxo.Player("tictactoe.oxt") as p:       # a table or a model; bare names are looked
        q = p.query("X...O....")                   # for in $OXO_DATA_DIR and share/oxo
        print(q.value, q.best)                     # draw [1, 2, 3, 5, 6, 7, 8]: moves from 0
        move = p.pick("X...O....", level=10, seed=1)
        board = p.play("X...O....", move)

Boards are text as the oxo programs take them: m,n,k cells row by row from the top left as X, O
and '.', the side to move following from the counts; Connect-4 the columns played, digits 1..W.
Moves are numbers from 0 (a cell, or a column).
"""

import ctypes
import os
from ctypes import POINTER, Structure, byref, c_char, c_char_p, c_double, c_int, c_size_t, c_uint64, c_void_p

__all__ = ["Error", "Move", "Query", "Player", "library_version"]

MOVES_MAX = 64  # OXO_MOVES_MAX
VALUES = {-1: "loss", 0: "draw", 1: "win"}


class Error(Exception):
    """A liboxo failure: code is the name of its oxo_rc ("OXO_RC_IO", ...), the message says what."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


class _MoveValue(Structure):
    _fields_ = [("move", c_int), ("exact", c_int), ("value", c_int), ("distance", c_int), ("score", c_double)]


class _QueryResult(Structure):
    _fields_ = [("to_move", c_char), ("over", c_int), ("winner", c_char), ("exact", c_int), ("value", c_int),
                ("distance", c_int), ("nmoves", c_int), ("moves", _MoveValue * MOVES_MAX), ("nbest", c_int),
                ("best", c_int * MOVES_MAX)]


class Move:
    """A legal move and what it is worth for the side that plays it: value and distance when exact
    (a table), score always (higher is better)."""

    __slots__ = ("move", "exact", "value", "distance", "score")

    def __init__(self, m):
        self.move = m.move
        self.exact = bool(m.exact)
        self.value = VALUES[m.value] if m.exact else None
        self.distance = m.distance if m.exact else None
        self.score = m.score

    def __repr__(self):
        if self.exact:
            return f"Move({self.move}, {self.value} in {self.distance})"
        return f"Move({self.move}, score {self.score:.4f})"


class Query:
    """What a position is worth: to_move ("X" or "O"), over, winner ("X", "O", "draw" or None),
    value and distance for the side to move (exact only), moves (every legal one, ascending) and
    best (the move numbers of the highest score)."""

    __slots__ = ("to_move", "over", "winner", "exact", "value", "distance", "moves", "best")

    def __init__(self, r):
        self.to_move = r.to_move.decode()
        self.over = bool(r.over)
        self.winner = {b"X": "X", b"O": "O", b"D": "draw"}.get(r.winner) if r.over else None
        self.exact = bool(r.exact)
        self.value = VALUES[r.value] if r.exact and not r.over else None
        self.distance = r.distance if r.exact and not r.over else None
        self.moves = [Move(r.moves[i]) for i in range(r.nmoves)]
        self.best = [r.best[i] for i in range(r.nbest)]

    def __repr__(self):
        if self.over:
            return f"Query(over, winner {self.winner})"
        return f"Query({self.to_move} to move, {self.value}, best {self.best})"


def _load():
    """liboxo: $OXO_LIBRARY, the library of this install prefix (PREFIX/lib*/ beside
    PREFIX/lib*/python3*/...), then the system's."""
    names = []
    if os.environ.get("OXO_LIBRARY"):
        names.append(os.environ["OXO_LIBRARY"])
    here = os.path.dirname(os.path.abspath(__file__))
    d = here
    for _ in range(4):  # PREFIX/lib/python3.11/dist-packages/oxo.py: up to PREFIX/lib
        d = os.path.dirname(d)
        for lib in ("lib", "lib64", os.path.join("lib", "x86_64-linux-gnu"), os.path.join("lib", "aarch64-linux-gnu")):
            names.append(os.path.join(d, lib, "liboxo.so.0"))
    names.append("liboxo.so.0")
    errors = []
    for n in names:
        if os.path.sep in n and not os.path.exists(n):
            continue
        try:
            return ctypes.CDLL(n)
        except OSError as e:
            errors.append(f"{n}: {e}")
    raise ImportError("liboxo not found (install oxo with make install, or set OXO_LIBRARY to liboxo.so.0): "
                      + "; ".join(errors or names))


_lib = _load()
_lib.oxo_version.restype = c_char_p
_lib.oxo_rc_name.restype = c_char_p
_lib.oxo_rc_name.argtypes = [c_int]
_lib.oxo_last_error.restype = c_char_p
_lib.oxo_open.argtypes = [c_char_p, POINTER(c_void_p)]
_lib.oxo_open.restype = c_int
_lib.oxo_open_memory.argtypes = [c_char_p, c_size_t, POINTER(c_void_p)]
_lib.oxo_open_memory.restype = c_int
_lib.oxo_close.argtypes = [c_void_p]
_lib.oxo_close.restype = None
for _f in ("oxo_game_spec", "oxo_game_name", "oxo_start_board"):
    getattr(_lib, _f).argtypes = [c_void_p]
    getattr(_lib, _f).restype = c_char_p
_lib.oxo_is_exact.argtypes = [c_void_p]
_lib.oxo_is_exact.restype = c_int
_lib.oxo_query.argtypes = [c_void_p, c_char_p, POINTER(_QueryResult)]
_lib.oxo_query.restype = c_int
_lib.oxo_pick.argtypes = [c_void_p, c_char_p, c_int, POINTER(c_uint64), POINTER(c_int)]
_lib.oxo_pick.restype = c_int
_lib.oxo_apply.argtypes = [c_void_p, c_char_p, c_int, c_char_p, c_size_t]
_lib.oxo_apply.restype = c_int


def library_version():
    """The version of the liboxo loaded, "MAJOR.MINOR.PATCH"."""
    return _lib.oxo_version().decode()


def _check(rc):
    if rc != 0:
        raise Error(_lib.oxo_rc_name(rc).decode(), _lib.oxo_last_error().decode(errors="replace"))


def _text(board):
    if not isinstance(board, str):
        raise TypeError(f"a board is text, not {type(board).__name__}")
    return board.encode()


class Player:
    """A solved table, an opening book or a trained model, opened from a path (or, with data=, from its bytes).
    Usable from many threads at once; close it (or use `with`) to free it."""

    def __init__(self, path=None, data=None):
        if (path is None) == (data is None):
            raise TypeError("Player(path) or Player(data=bytes)")
        h = c_void_p()
        if path is not None:
            _check(_lib.oxo_open(os.fsencode(path), byref(h)))
        else:
            data = bytes(data)
            _check(_lib.oxo_open_memory(data, len(data), byref(h)))
        self._h = h

    def _handle(self):
        if self._h is None:
            raise Error("OXO_RC_ARGUMENT", "the player is closed")
        return self._h

    def close(self):
        if getattr(self, "_h", None) is not None:
            _lib.oxo_close(self._h)
            self._h = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    @property
    def spec(self):
        """The game's spec: "tictactoe", "mnk:4,4,4", "connect4:5,4"."""
        return _lib.oxo_game_spec(self._handle()).decode()

    @property
    def game(self):
        """The game's name for people."""
        return _lib.oxo_game_name(self._handle()).decode()

    @property
    def start(self):
        """The board text of the game's start ("........." or "")."""
        return _lib.oxo_start_board(self._handle()).decode()

    @property
    def exact(self):
        """True for a solved table (exact values), False for a model."""
        return bool(_lib.oxo_is_exact(self._handle()))

    def query(self, board):
        """What board is worth for its side to move, and each legal move (a Query)."""
        r = _QueryResult()
        _check(_lib.oxo_query(self._handle(), _text(board), byref(r)))
        return Query(r)

    def pick(self, board, level=10, seed=1):
        """A move at level 1..10: with probability (10 - level) / 9 a random legal move, otherwise
        one of the best, ties drawn from seed (the same seed, the same move)."""
        rng = c_uint64(seed & 0xFFFFFFFFFFFFFFFF)
        move = c_int(-1)
        _check(_lib.oxo_pick(self._handle(), _text(board), int(level), byref(rng), byref(move)))
        return move.value

    def best_move(self, board, seed=1):
        """One of the best moves (pick at level 10)."""
        return self.pick(board, 10, seed)

    def play(self, board, move):
        """The board after move (from 0), as text."""
        text = _text(board)
        out = ctypes.create_string_buffer(max(MOVES_MAX + 1, len(text) + 4))
        _check(_lib.oxo_apply(self._handle(), text, int(move), out, len(out)))
        return out.value.decode()
