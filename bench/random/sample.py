"""The random sample: seeded shapes and layouts, their estimated cost, the budget rule and the shards.

Pure Python and NumPy (no GPU): `python -m bench.random --list` prints a sample without measuring it.

Every case comes from a deterministic stream of draws (NumPy's PCG64 seeded with [seed, stream]); a draw whose
estimated cost exceeds the per-case cap, or whose memory exceeds MEMORY_CAP_BYTES, is rejected and the next draw
taken, so the sample is "the first `count` draws under the cap", never a draw shrunk to fit. The cap is the
largest of part·MAX_CASE_SHARE·2^(−j/4), j = 0, 1, …, under which the part's estimated cost fits in `part`, its
share of the budget; rejected draws are counted in the sample's description (and so in the JSON).
"""
import math
from dataclasses import asdict, dataclass, replace

import numpy as np

MAX_SIDE = 16384                 # sides of the random 2-D sample: log-uniform over 1 … MAX_SIDE
LONG_K_MAX = 1 << 20             # "long k, narrow" structured shapes reach this k
BATCH_MAX = 16384                # batched sample: batch log-uniform over 1 … BATCH_MAX
BATCH_SIDE_MAX = 512             # ... and sides over 1 … BATCH_SIDE_MAX
PAD_PROBABILITY = 0.25           # per operand: stored as a slice of a wider array (ld > stored columns)
PAD_MAX = 64                     # pad drawn from 1 … PAD_MAX elements, so ld is odd about half the time
DEFAULT_SEED = 25                # issue 25
DEFAULT_COUNT = 1000
DEFAULT_BATCHED_COUNT = 200
DEFAULT_BUDGET_S = 240.0
BATCHED_SHARE = 0.2              # of the budget, for the batched sample
MAX_CASE_SHARE = 1 / 60          # of a part's budget: the largest per-case cap (no case dominates a run)
MEMORY_CAP_BYTES = 20 * 2**30    # operands, outputs and the FP64 reference of one case on the device
CAP_STEPS_PER_OCTAVE = 4
MAX_DRAWS_PER_CASE = 200         # a cap that rejects more than this is an error, not a long loop

# Structured shapes (a stream per kind): the corners a log-uniform draw rarely reaches. name: (count, sides) where sides
# maps each of m, k, n to a (lo, hi) log-uniform range; "narrow" picks the narrow side per shape.
STRUCTURED = {
    "small-k": (4, {"m": (2048, MAX_SIDE), "k": (1, 16), "n": (2048, MAX_SIDE)}),
    "narrow": (6, None),
    "tiny": (4, {"m": (1, 32), "k": (1, 32), "n": (1, 32)}),
    "long-k": (4, {"m": (1, 64), "k": (MAX_SIDE, LONG_K_MAX), "n": (1, 64)}),
}
NARROW_SIDE = (8, 64)
LONG_SIDE = (2048, MAX_SIDE)
STREAM_RANDOM, STREAM_BATCHED, STREAM_STRUCTURED = 0, 1, 100   # the structured kinds: 100, 101, …

# ---------------------------------------------------------------------------------------------- cost model
# Seconds that measuring one case takes on an H200, from bench/results (cuBLAS SGEMM ~51 TFLOP/s at 8192³,
# tf32tf32 ~108, halfhalf ~187; batches of small products 17–60): rates set below those, so the estimate errs
# long. It only fits the sample to the budget and balances shards; each case's estimate is in the JSON beside
# the time it took.
RATE_TFLOPS = {"sgemm": 40.0, "tf32tf32": 60.0, "halfhalf": 80.0, "auto": 70.0, "fp64": 40.0}
OTHER_MODE_TFLOPS = 40.0
HBM_GBPS = 3000.0
CALL_FLOOR_MS = 0.012            # GPU time of the smallest call (launches, a split-K reduction)
HOST_MS_PER_CALL = 0.012         # Python + launch of one call (bench/results/overhead: 6–11 µs)
SYNC_MS = 0.03                   # one synchronisation round trip
CASE_OVERHEAD_MS = 12.0          # per case: allocations, explain(), Python bookkeeping

# The measurement's plan (bench/random/measure.py follows it; the cost model counts it).
ROUND_TARGET_MS = 0.3            # GPU time of one round of back-to-back calls, at least
MAX_CALLS_PER_ROUND = 32
TIMED_MS_PER_METHOD = 10.0       # rounds per method: as many as fit, within MIN_ROUNDS … MAX_ROUNDS
MIN_ROUNDS, MAX_ROUNDS = 3, 9
E2E_MS_PER_METHOD = 5.0          # end-to-end repetitions: as many as fit, within MIN_E2E … MAX_E2E
MIN_E2E, MAX_E2E = 3, 9
PREFILL_MIN_MS = 0.1             # GPU sleep before a round: at least this, and 2× the round's issue time
PREFILL_HOST_FACTOR = 2.0


@dataclass(frozen=True)
class Gemm:
    """C (m×n) = op(A) (m×k) · op(B) (k×n). trans: the operand is the transpose of a stored row-major array
    (a Fortran-ordered view); pad: extra elements per stored row (the operand is a slice of a wider array)."""
    id: str
    kind: str
    m: int
    k: int
    n: int
    trans_a: bool = False
    trans_b: bool = False
    pad_a: int = 0
    pad_b: int = 0

    @property
    def stored_a(self):
        """(rows, columns) of A's storage, its row stride (ld) = columns + pad_a."""
        return (self.k, self.m) if self.trans_a else (self.m, self.k)

    @property
    def stored_b(self):
        return (self.n, self.k) if self.trans_b else (self.k, self.n)

    @property
    def lda(self):
        return self.stored_a[1] + self.pad_a

    @property
    def ldb(self):
        return self.stored_b[1] + self.pad_b

    @property
    def op(self):
        return ("T" if self.trans_a else "N") + ("T" if self.trans_b else "N")

    @property
    def flops(self):
        return 2.0 * self.m * self.k * self.n

    def fp32_bytes(self):
        """A's and B's storage (padding included) and C, in float32."""
        return 4 * (self.stored_a[0] * self.lda + self.stored_b[0] * self.ldb + self.m * self.n)

    def device_bytes(self):
        """Peak device memory of the case: FP32 operands and output, FP64 copies of A and B and the FP64
        reference, and the FP64 difference the residual takes."""
        return self.fp32_bytes() + 8 * (self.m * self.k + self.k * self.n + 2 * self.m * self.n)

    def label(self):
        return f"{self.m}×{self.k}×{self.n}"

    def as_dict(self):
        return {**asdict(self), "op": self.op, "lda": self.lda, "ldb": self.ldb}


@dataclass(frozen=True)
class Batch:
    """`batch` products m×k×n on contiguous stacks (A: batch×m×k, B: batch×k×n, C: batch×m×n)."""
    id: str
    batch: int
    m: int
    k: int
    n: int

    @property
    def flops(self):
        return 2.0 * self.batch * self.m * self.k * self.n

    def fp32_bytes(self):
        return 4 * self.batch * (self.m * self.k + self.k * self.n + self.m * self.n)

    def device_bytes(self):
        return 3 * self.fp32_bytes() + 8 * self.batch * self.m * self.n

    def label(self):
        return f"{self.batch}×({self.m}×{self.k}×{self.n})"

    def as_dict(self):
        return asdict(self)


def call_ms(case, method):
    """Estimated GPU ms of one call: the larger of its arithmetic and its memory traffic, above a floor."""
    rate = RATE_TFLOPS.get(method, OTHER_MODE_TFLOPS)
    return CALL_FLOOR_MS + max(case.flops / (rate * 1e9), case.fp32_bytes() / (HBM_GBPS * 1e6))


def timing_plan(gpu_ms):
    """(calls per round, rounds, end-to-end repetitions) for a call of about gpu_ms."""
    gpu_ms = max(gpu_ms, 1e-3)
    calls = max(1, min(MAX_CALLS_PER_ROUND, math.ceil(ROUND_TARGET_MS / gpu_ms)))
    rounds = max(MIN_ROUNDS, min(MAX_ROUNDS, int(TIMED_MS_PER_METHOD / (calls * gpu_ms))))
    e2e = max(MIN_E2E, min(MAX_E2E, int(E2E_MS_PER_METHOD / (gpu_ms + SYNC_MS))))
    return calls, rounds, e2e


def prefill_ms(calls, host_ms_per_call):
    """GPU sleep queued before a round: it outlasts issuing the round's calls, so they run back to back."""
    return max(PREFILL_MIN_MS, PREFILL_HOST_FACTOR * calls * host_ms_per_call)


def method_ms(case, method):
    """Estimated wall ms of one method on one case, as measure.py runs it: the checked call, the three estimate
    calls, the timed rounds (each behind a GPU sleep), the end-to-end repetitions, and the residual's reductions."""
    t = call_ms(case, method)
    calls, rounds, e2e = timing_plan(t)
    checked = 4 * (t + SYNC_MS) + 3 * case_output_bytes(case) / (HBM_GBPS * 1e6)
    timed = rounds * (calls * t + prefill_ms(calls, HOST_MS_PER_CALL) + SYNC_MS)
    return checked + timed + e2e * (t + HOST_MS_PER_CALL + SYNC_MS)


def case_output_bytes(case):
    """Bytes the residual reads and writes per method (the FP32 output, the FP64 reference and difference)."""
    outputs = case.m * case.n * getattr(case, "batch", 1)
    return 20 * outputs


def case_seconds(case, methods):
    """Estimated wall seconds of measuring `case` with `methods` (SGEMM or torch.bmm counts as "sgemm"),
    the FP64 reference and the per-case overhead included."""
    reference = CALL_FLOOR_MS + max(case.flops / (RATE_TFLOPS["fp64"] * 1e9),
                                    3 * case.fp32_bytes() / (HBM_GBPS * 1e6))
    return (CASE_OVERHEAD_MS + reference + sum(method_ms(case, m) for m in methods)) / 1e3


# ---------------------------------------------------------------------------------------------- draws
def log_uniform(rng, lo, hi):
    """An integer in lo … hi whose log is uniform: floor(2^u), u ~ U[log2 lo, log2 (hi + 1))."""
    if not 1 <= lo <= hi:
        raise ValueError(f"log-uniform range needs 1 <= lo <= hi; got {lo}, {hi}")
    return min(hi, int(math.floor(2.0 ** rng.uniform(math.log2(lo), math.log2(hi + 1)))))


def _layout(rng):
    """Random transposes and pads of A and B, drawn in a fixed order."""
    trans_a, trans_b = bool(rng.random() < 0.5), bool(rng.random() < 0.5)
    pads = [int(rng.integers(1, PAD_MAX + 1)) if rng.random() < PAD_PROBABILITY else 0 for _ in range(2)]
    return {"trans_a": trans_a, "trans_b": trans_b, "pad_a": pads[0], "pad_b": pads[1]}


def _rng(seed, stream):
    return np.random.default_rng([seed, stream])


def random_draws(seed):
    """The endless stream of random 2-D cases: m, k, n log-uniform over 1 … MAX_SIDE, random layouts."""
    rng = _rng(seed, STREAM_RANDOM)
    i = 0
    while True:
        m, k, n = (log_uniform(rng, 1, MAX_SIDE) for _ in range(3))
        yield Gemm(f"r{i:04d}", "random", m, k, n, **_layout(rng))
        i += 1


def structured_draws(seed, kind):
    """The endless stream of structured cases of one kind (see STRUCTURED)."""
    rng = _rng(seed, STREAM_STRUCTURED + list(STRUCTURED).index(kind))
    i = 0
    while True:
        if kind == "narrow":
            narrow = ("m", "k", "n")[i % 3]   # each side narrow in turn
            sides = {s: NARROW_SIDE if s == narrow else LONG_SIDE for s in ("m", "k", "n")}
        else:
            sides = STRUCTURED[kind][1]
        m, k, n = (log_uniform(rng, *sides[s]) for s in ("m", "k", "n"))
        yield Gemm(f"{kind}-{i:03d}", kind, m, k, n, **_layout(rng))
        i += 1


def batched_draws(seed):
    """The endless stream of batched cases: batch log-uniform over 1 … BATCH_MAX, sides over 1 … BATCH_SIDE_MAX."""
    rng = _rng(seed, STREAM_BATCHED)
    i = 0
    while True:
        batch = log_uniform(rng, 1, BATCH_MAX)
        m, k, n = (log_uniform(rng, 1, BATCH_SIDE_MAX) for _ in range(3))
        yield Batch(f"b{i:04d}", batch, m, k, n)
        i += 1


def fits(case, cap_s, methods):
    return case.device_bytes() <= MEMORY_CAP_BYTES and case_seconds(case, methods) <= cap_s


def first_under_cap(draws, count, cap_s, methods):
    """(the first `count` draws that fit the cap, how many draws were rejected on the way)."""
    taken, rejected = [], 0
    for case in draws:
        if len(taken) == count:
            break
        if fits(case, cap_s, methods):
            taken.append(case)
        else:
            rejected += 1
            if rejected > MAX_DRAWS_PER_CASE * count:
                raise ValueError(f"the per-case cap of {cap_s:.3g} s rejects nearly every draw: raise the budget")
    return taken, rejected


def _gemm_cases(seed, count, cap_s, methods):
    cases, rejected = first_under_cap(random_draws(seed), count, cap_s, methods)
    rejected = {"random": rejected}
    for kind, (n_kind, _) in STRUCTURED.items():
        taken, rejected[kind] = first_under_cap(structured_draws(seed, kind), n_kind, cap_s, methods)
        cases += taken
    return cases, rejected


def _batched_cases(seed, count, cap_s, methods):
    cases, rejected = first_under_cap(batched_draws(seed), count, cap_s, methods)
    return cases, {"batched": rejected}


def fit_cap(make, budget_s, methods):
    """The largest cap budget·MAX_CASE_SHARE·2^(−j/4) under which the cases `make(cap)` returns fit in
    budget_s, with them."""
    if budget_s <= 0:
        raise ValueError(f"the budget must be positive; got {budget_s}")
    for j in range(200):
        cap = budget_s * MAX_CASE_SHARE * 2.0 ** (-j / CAP_STEPS_PER_OCTAVE)
        try:
            cases, rejected = make(cap)
        except ValueError:
            break
        total = sum(case_seconds(c, methods) for c in cases)
        if total <= budget_s:
            return cap, cases, rejected, total
    raise ValueError(f"a budget of {budget_s:.0f} s cannot hold this sample even with only its cheapest "
                     f"shapes: raise --budget or lower the counts")


@dataclass(frozen=True)
class Sample:
    seed: int
    count: int
    batched_count: int
    budget_s: float
    modes: tuple
    gemm: tuple
    batched: tuple
    description: dict

    def cases(self):
        return list(self.gemm) + list(self.batched)


def part_of(sample, max_k=None, max_width=None):
    """The sample's cases with k <= max_k and min(m, n) <= max_width (a bound left None does not
    apply), the others dropped (the same draws, so the same ids): the calibration data of routes that
    serve short k or thin products only. The bounds are recorded in the description."""
    def kept(c):
        return (max_k is None or c.k <= max_k) and (max_width is None or min(c.m, c.n) <= max_width)

    bounds = {name: v for name, v in (("max_k", max_k), ("max_width", max_width)) if v is not None}
    keep = lambda cases: tuple(c for c in cases if kept(c))  # noqa: E731
    return replace(sample, gemm=keep(sample.gemm), batched=keep(sample.batched),
                   description={**sample.description, **bounds})


def methods_of(modes):
    """The methods each case runs, as the cost model names them: the cuBLAS reference, then ecgemm's modes."""
    return ("sgemm",) + tuple(modes)


def make_sample(seed=DEFAULT_SEED, count=DEFAULT_COUNT, batched_count=DEFAULT_BATCHED_COUNT,
                budget_s=DEFAULT_BUDGET_S, modes=("tf32tf32", "halfhalf", "auto")):
    """The whole sample of a seed: `count` random 2-D shapes plus the structured ones, and `batched_count`
    batches, each part fitted to its share of the budget (BATCHED_SHARE for the batches)."""
    if count < 0 or batched_count < 0:
        raise ValueError("counts must be >= 0")
    methods = methods_of(modes)
    parts = {}
    for name, n, share, make in (("gemm", count, 1 - BATCHED_SHARE, _gemm_cases),
                                 ("batched", batched_count, BATCHED_SHARE, _batched_cases)):
        if n == 0 and name == "batched":
            parts[name] = (None, [], {}, 0.0)
            continue
        parts[name] = fit_cap(lambda cap, make=make, n=n: make(seed, n, cap, methods), budget_s * share, methods)
    description = {
        "seed": seed, "count": count, "batched_count": batched_count, "budget_s": budget_s,
        "modes": list(modes),
        "rule": ("m, k, n log-uniform over 1 … %d (random 2-D), A and B each transposed with probability 1/2 and "
                 "stored with a pad of 1 … %d elements per row with probability %g; structured kinds %s; batches "
                 "log-uniform over 1 … %d with sides over 1 … %d. A draw whose estimated cost exceeds the "
                 "per-case cap, or whose device memory exceeds %d GiB, is rejected and the next draw taken (never "
                 "shrunk); the cap is the largest budget·share/%d·2^(−j/%d) under which each part's estimated "
                 "total fits its share of the budget (batches: %g)."
                 % (MAX_SIDE, PAD_MAX, PAD_PROBABILITY, ", ".join(STRUCTURED), BATCH_MAX, BATCH_SIDE_MAX,
                    MEMORY_CAP_BYTES // 2**30, round(1 / MAX_CASE_SHARE), CAP_STEPS_PER_OCTAVE, BATCHED_SHARE)),
        "structured": {k: v[0] for k, v in STRUCTURED.items()},
    }
    for name, (cap, cases, rejected, total) in parts.items():
        description[name] = {"cases": len(cases), "cap_s": cap, "rejected_draws": rejected,
                             "estimated_s": total}
    description["estimated_s"] = sum(p[3] for p in parts.values())
    return Sample(seed, count, batched_count, budget_s, tuple(modes), tuple(parts["gemm"][1]),
                  tuple(parts["batched"][1]), description)


# ---------------------------------------------------------------------------------------------- shards
def parse_shard(text):
    """'i/n' → (i, n) with 0 <= i < n."""
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        i, n = -1, 0
    if not 0 <= i < n:
        raise ValueError(f"a shard is i/n with 0 <= i < n; got {text!r}")
    return i, n


def shard(cases, index, total, methods):
    """The cases of shard `index` of `total`: longest estimated first onto the least loaded shard (a
    deterministic balance), returned in the sample's order so that sizes stay mixed in time."""
    loads = [0.0] * total
    owner = {}
    order = sorted(range(len(cases)), key=lambda i: -case_seconds(cases[i], methods))
    for i in order:
        s = min(range(total), key=lambda j: (loads[j], j))
        owner[i] = s
        loads[s] += case_seconds(cases[i], methods)
    return [c for i, c in enumerate(cases) if owner[i] == index]
