"""The cases of bench.random's samples whose plan differs between two builds of libecgemm in the given modes, on a
described H100 (132 SMs, 3352 GB/s; ecgemm_internal_plan_on through tools/fit_cost_model.Planner, no GPU needed):
one "seed id batch m k n op pad_a pad_b mode" line each (batch 1 for a 2-D case; a batch is torch.bmm's NN),
then the two plans.

    python changed.py NEW_LIB.so BASE_LIB.so SEEDS MODES > changed.txt     (SEEDS: 26,34; MODES: auto)
"""
import importlib
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
import tools.fit_cost_model as fit  # noqa: E402
from bench.random import sample as bench_sample  # noqa: E402


def planner(lib):
    os.environ["ECGEMM_LIBRARY"] = lib
    import _capi
    importlib.reload(_capi)
    p = fit.Planner({"compute_capability": "9.0", "sms": 132})
    p.device.dram_gbps = 3352.0  # H100 80GB HBM3, as the handle reads it
    return p


def plan_of(p, mode, row):
    return re.sub(r" est=\S+", "", p.plan(mode, None, *fit.abi_call(row))[0])


def sample_cases(seeds):
    """Each case of the samples of `seeds` ("26,34") as (row for plan_of, the line's leading fields but the mode)."""
    for seed in (int(s) for s in seeds.split(",")):
        for case in bench_sample.make_sample(seed=seed, budget_s=240.0).cases():
            row = case.as_dict()
            batch = row.get("batch", 1)
            if "batch" not in row:
                row.update(lda=case.lda, ldb=case.ldb)
            layout = (case.op, case.pad_a, case.pad_b) if "batch" not in row else ("NN", 0, 0)
            yield row, (seed, case.id, batch, case.m, case.k, case.n, *layout)


def main(new_lib, base_lib, seeds, modes):
    new, base = planner(new_lib), planner(base_lib)
    for row, fields in sample_cases(seeds):
        for mode in modes.split(","):
            a, b = plan_of(new, mode, row), plan_of(base, mode, row)
            if a != b:
                print(*fields, mode, "|", b, "->", a)


if __name__ == "__main__":
    main(*sys.argv[1:5])
