"""The cases of bench.random's samples whose plan names PATTERN, by default simt's strip tile (one build of
libecgemm, a described H100 as in auto-price-2026-11-28/changed.py, no GPU needed), in changed.py's line format, for
changed_ab.py to time the kernel of two builds on them.

    python strip_cases.py LIB.so SEEDS MODE [PATTERN] > cases.txt     (SEEDS: 26,34; MODE: tf32tf32)
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "auto-price-2026-11-28"))
from changed import plan_of, planner, sample_cases  # noqa: E402


def main(lib, seeds, mode, pattern="tile=strips"):
    p = planner(lib)
    for row, fields in sample_cases(seeds):
        plan = plan_of(p, mode, row)
        if pattern in plan:
            print(*fields, mode, "|", plan)


if __name__ == "__main__":
    main(*sys.argv[1:5])
