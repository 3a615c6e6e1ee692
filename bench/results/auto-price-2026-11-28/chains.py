"""Call 4's residual class on the CPU: the relative Frobenius residual, against FP64, of the ways an output of a
small-k product can be summed in FP32, over one FMA chain's (simt's arithmetic: each step rounded once), on urand(-1, 1)
operands of four of call 4's products. What cuBLAS's 1.19-1.45x lower residual than simt's on the small ones
corresponds to, and whether tf32tf32's products or an FP32 route with partial sums could go below it.

    python chains.py > chains.txt

partialsP: P interleaved chains (k mod P), added at the end; chunksC: chains over C consecutive k, added in order;
tf32tf32: each value split into TF32 hi (nearest, ties away) and lo = TF32(x - hi), hi*hi summed exactly over each
8-wide k-step and added rounded to the output, the corrections summed alike apart and added at the end (the Tensor
Core's internal sums are exact here: an approximation).
"""
import numpy as np


def f32(x):
    return np.asarray(x, np.float64).astype(np.float32)


def tf32(x):
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x1000) & 0xFFFFE000).astype(np.uint32).view(np.float32)


def chained(a, b, lanes):
    """k in order, step p into chain p % lanes, one rounding a step (an FMA); the chains added in order at the end."""
    acc = np.zeros((lanes, a.shape[0], b.shape[1]), np.float32)
    for p in range(a.shape[1]):
        i = p % lanes
        acc[i] = f32(np.outer(a[:, p], b[p]).astype(np.float64) + acc[i])
    total = acc[0]
    for i in range(1, lanes):
        total = f32(total.astype(np.float64) + acc[i])
    return total


def chunked(a, b, width):
    total = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for s in range(0, a.shape[1], width):
        total = f32(total.astype(np.float64) + chained(a[:, s:s + width], b[s:s + width], 1))
    return total


def tf32tf32(a, b, step=8):
    ah, bh = tf32(a), tf32(b)
    al, bl = tf32(f32(a.astype(np.float64) - ah)), tf32(f32(b.astype(np.float64) - bh))
    d = lambda x: x.astype(np.float64)  # noqa: E731
    acc = np.zeros((a.shape[0], b.shape[1]), np.float32)
    corr = np.zeros_like(acc)
    for s in range(0, a.shape[1], step):
        k = slice(s, s + step)
        acc = f32(d(acc) + f32(d(ah[:, k]) @ d(bh[k])))
        corr = f32(d(corr) + f32(d(ah[:, k]) @ d(bl[k]) + d(al[:, k]) @ d(bh[k])))
    return f32(d(acc) + corr)


def main():
    rng = np.random.default_rng(1)
    ways = {"partials2": lambda a, b: chained(a, b, 2), "partials4": lambda a, b: chained(a, b, 4),
            "partials8": lambda a, b: chained(a, b, 8), "chunks8": lambda a, b: chunked(a, b, 8),
            "chunks16": lambda a, b: chunked(a, b, 16), "tf32tf32": tf32tf32}
    print("| m × k × n | one chain | " + " | ".join(ways) + " |")
    print("|---|---:|" + "---:|" * len(ways))
    for m, k, n in ((695, 37, 44), (186, 39, 101), (956, 43, 12), (1543, 42, 2037)):
        a, b = f32(rng.uniform(-1, 1, (m, k))), f32(rng.uniform(-1, 1, (k, n)))
        ref = a.astype(np.float64) @ b.astype(np.float64)
        res = lambda c: np.linalg.norm(c.astype(np.float64) - ref) / np.linalg.norm(ref)  # noqa: E731
        one = res(chained(a, b, 1))
        print(f"| {m} × {k} × {n} | {one:.3g} | " + " | ".join(f"{res(w(a, b)) / one:.3f}" for w in ways.values()) + " |")


if __name__ == "__main__":
    main()
