"""Calling martiandice from Python through the C API (libmartiandice_c) with ctypes.

Usage: python3 ctypes_example.py [PATH/TO/libmartiandice_c.so]
The structures mirror include/martiandice/martiandice_c.h field for field.
"""
import ctypes
import sys
from ctypes import POINTER, Structure, byref, c_char, c_char_p, c_double, c_int, c_void_p

lib = ctypes.CDLL(sys.argv[1] if len(sys.argv) > 1 else "libmartiandice_c.so")
MAX_PLAYERS, MAX_TAKES, DICE_TEXT = 6, 4, 48
FACES = ["tank", "ray", "human", "cow", "chicken"]
THEN = ["stop", "roll", "either"]


class Rules(Structure):
    _fields_ = [("dice", c_int), ("bonus", c_int), ("target", c_int)]


class Query(Structure):
    _fields_ = [("rules", Rules), ("objective", c_char_p), ("scores", POINTER(c_int)),
                ("players", c_int), ("seat", c_int)]


class EvalResult(Structure):
    _fields_ = [("dice_left", c_int), ("can_stop", c_int), ("stop", c_double),
                ("can_roll", c_int), ("roll", c_double), ("value", c_double),
                ("action", c_int), ("players", c_int), ("win", c_double * MAX_PLAYERS)]


class Take(Structure):
    _fields_ = [("take", c_int), ("count", c_int), ("aside_after", c_char * DICE_TEXT),
                ("stop", c_double), ("can_roll", c_int), ("roll", c_double),
                ("value", c_double), ("then", c_int), ("optimal", c_int)]


class BestResult(Structure):
    _fields_ = [("turn_over", c_int), ("turn_over_score", c_int), ("take_count", c_int),
                ("takes", Take * MAX_TAKES), ("best", c_int), ("value", c_double),
                ("players", c_int), ("win", c_double * MAX_PLAYERS)]


lib.md_version.restype = c_char_p
lib.md_last_error.restype = c_char_p
lib.md_open.argtypes = [c_char_p, POINTER(c_void_p)]
lib.md_close.argtypes = [c_void_p]
lib.md_query_init.argtypes = [POINTER(Query)]
lib.md_eval.argtypes = [c_void_p, POINTER(Query), c_char_p, POINTER(EvalResult)]
lib.md_best.argtypes = [c_void_p, POINTER(Query), c_char_p, c_char_p, POINTER(BestResult)]


def check(status):
    if status != 0:
        raise RuntimeError(f"martiandice error {status}: {lib.md_last_error().decode()}")


def show_best(title, best):
    print(title)
    for i, take in enumerate(best.takes[:best.take_count]):
        roll = f"roll {take.roll:.6f}" if take.can_roll else "no dice left "
        print(f"  take {take.count} {FACES[take.take]:<7} -> {take.aside_after.decode():<16}"
              f" stop {take.stop:.6f}  {roll}  then {THEN[take.then]}"
              + ("  (best)" if i == best.best else ""))


print("martiandice", lib.md_version().decode())
handle = c_void_p()
check(lib.md_open(None, byref(handle)))  # None: the default table search
query = Query()
lib.md_query_init(byref(query))  # official rules, objective "ev"

# The rulebook's last roll: 3T 2R 4H 1K set aside, 1R 1H 1C rolled.
best = BestResult()
check(lib.md_best(handle, byref(query), b"3T 2R 4H 1K", b"1R 1H 1C", byref(best)))
show_best("Expected score:", best)

# The same roll played to win, seat 0 with 18 points against 22.
scores = (c_int * 2)(18, 22)
query.objective, query.scores, query.players, query.seat = b"win", scores, 2, 0
check(lib.md_best(handle, byref(query), b"3T 2R 4H 1K", b"1R 1H 1C", byref(best)))
show_best("Probability of winning:", best)
print("  win probabilities at the start of the turn:",
      ", ".join(f"seat {i} {best.win[i]:.6f}" for i in range(best.players)))

# Errors come back as a status code and a message.
evaluation = EvalResult()
status = lib.md_eval(handle, byref(query), b"3T 2X", byref(evaluation))
print(f"md_eval with aside '3T 2X': status {status}: {lib.md_last_error().decode()}")
lib.md_close(handle)
