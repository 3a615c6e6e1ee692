"""The products of planned_ab.py's sample whose plan differs between two builds of libecgemm, on a described H200
(132 SMs; ecgemm_internal_plan_on, no GPU needed), in any corrected mode: one "op m k n" line each.

    python changed.py NEW_LIB.so BASE_LIB.so COUNT SEED > shapes.txt
"""
import ctypes
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tests"))
from _capi import MODES  # noqa: E402
from planned_ab import sample  # noqa: E402
from test_planner import Device  # noqa: E402


def planner(path):
    f = ctypes.CDLL(path).ecgemm_internal_plan_on
    f.restype = ctypes.c_int
    f.argtypes = [ctypes.POINTER(Device), ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_int] + \
        [ctypes.c_int64] * 7 + [ctypes.c_float, ctypes.POINTER(ctypes.c_double), ctypes.c_char_p, ctypes.c_size_t]
    h200 = Device(9, 0, 132, 232448, 4800.0)

    def plan(mode, op, m, k, n):
        # torch's row-major C = A B is the column-major C^T = B^T A^T
        ta, tb = op[1] == "T", op[0] == "T"
        features, text = (ctypes.c_double * 8)(), ctypes.create_string_buffer(256)
        f(ctypes.byref(h200), MODES[mode], None, ta, tb, n, m, k, k if ta else n, m if tb else k, n, 1, 0.0,
          features, text, len(text))
        return text.value.decode()
    return plan


def main(new_lib, base_lib, count, seed):
    new, base = planner(new_lib), planner(base_lib)
    for op, m, k, n in sample(int(count), int(seed)):
        if any(new(mode, op, m, k, n) != base(mode, op, m, k, n) for mode in ("tf32tf32", "halfhalf", "auto")):
            print(op, m, k, n)


if __name__ == "__main__":
    main(*sys.argv[1:5])
