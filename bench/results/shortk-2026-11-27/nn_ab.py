"""store_ab.py on the stream tile's k <= 4 products in all four layouts, C's columns off a 16-byte boundary (and n
rounded up to a multiple of 4 beside each): two of store_shifted's four layout kernels spilled (call 9). The first
three are seed 26's NN misses (call 8); the rest are store_ab's k <= 4 shapes in every layout.

    python nn_ab.py OUT.jsonl
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import store_ab  # noqa: E402

store_ab.SHAPES = [("NN", 395, 1, 12635), ("NN", 4497, 1, 945), ("NN", 5320, 1, 217)] + [
    (layout, m, k, n) for layout in ("NN", "NT", "TN", "TT")
    for m, k, n in ((2929, 1, 5595), (2929, 2, 5595), (6487, 4, 7949), (10967, 4, 219), (12568, 3, 541))]

if __name__ == "__main__":
    store_ab.main(sys.argv[1])
