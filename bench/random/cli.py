"""Command line: `python -m bench.random [--shard i/n] ...` measures; `--list` prints the sample (no GPU);
`--from-json FILE [FILE ...]` re-renders a saved run or merges the shards of one."""
import argparse
import sys
from pathlib import Path

from bench import cli as bench_cli
from bench import report as bench_report
from bench.methods import BY_NAME
from bench.random import report, sample as smp

RESULTS_ROOT = Path(__file__).resolve().parent.parent / "results"
DEFAULT_MODES = ("tf32tf32", "halfhalf", "auto")


def build_parser():
    p = argparse.ArgumentParser(
        prog="python -m bench.random",
        description="ecgemm against cuBLAS SGEMM (torch.matmul) and torch.bmm, TF32 off, on a seeded random sample "
                    "of shapes, layouts and batches: GPU time, end-to-end time, residual vs FP64, the route taken. "
                    "Markdown on stdout, progress on stderr, results.json, table.md and PNGs in the results folder.")
    p.add_argument("--seed", type=int, default=smp.DEFAULT_SEED)
    p.add_argument("--count", type=_count, default=smp.DEFAULT_COUNT,
                   help=f"random 2-D shapes (default {smp.DEFAULT_COUNT}; the structured shapes come on top)")
    p.add_argument("--batched-count", type=_count, default=smp.DEFAULT_BATCHED_COUNT)
    p.add_argument("--budget", type=float, default=smp.DEFAULT_BUDGET_S, metavar="SECONDS",
                   help="estimated seconds for the whole sample, all shards together (default %(default)s); "
                        "draws beyond the per-case cap it sets are redrawn")
    p.add_argument("--modes", type=_modes, default=DEFAULT_MODES, help="ecgemm modes, comma-separated "
                   f"(default {','.join(DEFAULT_MODES)})")
    p.add_argument("--families", type=_families, default=(), metavar="F1,F2",
                   help="also time each mode with each of these kernel families pinned (ECGEMM_FAMILY), where it can "
                        "run the case: the data the planner's cost model is fitted to (tools/fit_cost_model.py)")
    p.add_argument("--max-k", type=_count, default=None, metavar="K",
                   help="measure only the sample's cases with k <= K (the same draws and ids): calibration data "
                        "for the routes that serve short k")
    p.add_argument("--max-width", type=_count, default=None, metavar="W",
                   help="measure only the sample's cases whose thin side min(m, n) is at most W (the same draws "
                        "and ids): calibration data for the routes that serve thin products (GEMV)")
    p.add_argument("--shard", type=_shard, default=None, metavar="I/N", help="measure part I of N (0 <= I < N)")
    p.add_argument("--positive", action="store_true", help="inputs uniform(0, 1) instead of uniform(-1, 1)")
    p.add_argument("--max-minutes", type=float, default=None,
                   help="cases left when this much time has passed are skipped, with a note (default: twice the "
                        "shard's estimate plus a minute)")
    p.add_argument("--out", type=Path, default=None,
                   help="results folder (default bench/results/random-<gpu>-<date>[-shard-I-of-N])")
    p.add_argument("--no-plots", action="store_true")
    p.add_argument("--list", action="store_true", help="print the sample (or the shard) and its estimated cost; "
                                                       "measure nothing")
    p.add_argument("--from-json", type=Path, nargs="+", default=None, metavar="FILE",
                   help="re-render a saved results.json, or merge several shards' (with --out)")
    return p


def _count(text):
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"a count is >= 0; got {text}")
    return value


def _modes(text):
    modes = tuple(m.strip() for m in text.split(",") if m.strip())
    unknown = [m for m in modes if f"ecgemm_{m}" not in BY_NAME or BY_NAME[f"ecgemm_{m}"].opt_in]
    if not modes or unknown:
        raise argparse.ArgumentTypeError(f"modes are ecgemm modes, e.g. tf32tf32,halfhalf,auto; got {text!r}")
    return modes


def _families(text):
    families = tuple(f.strip() for f in text.split(",") if f.strip())
    if not families:
        raise argparse.ArgumentTypeError("--families takes kernel family names, e.g. simt,gemv,planes")
    return families


def _shard(text):
    try:
        return smp.parse_shard(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def write_outputs(results, folder, plots=True):
    """bench.cli.write_outputs with this profile's report and plots."""
    return bench_cli.write_outputs(results, folder, plots, report_module=report,
                                   plots_module="bench.random.plots")


def list_sample(sample, shard):
    from bench.random.run import shard_cases
    methods = smp.methods_of(sample.modes)
    gemm, batched = shard_cases(sample, shard)
    lines = [f"# seed {sample.seed}: {len(gemm)} shapes, {len(batched)} batches"
             + (f" (shard {shard[0]}/{shard[1]})" if shard else ""),
             "# id kind m k n op lda ldb | id batch m k n — estimated ms"]
    for c in gemm:
        lines.append(f"{c.id} {c.kind} {c.m} {c.k} {c.n} {c.op} {c.lda} {c.ldb} — "
                     f"{smp.case_seconds(c, methods) * 1e3:.1f}")
    for c in batched:
        lines.append(f"{c.id} {c.batch} {c.m} {c.k} {c.n} — {smp.case_seconds(c, methods) * 1e3:.1f}")
    total = sum(smp.case_seconds(c, methods) for c in gemm + batched)
    d = sample.description
    lines += [f"# estimated {total:.1f} s (whole sample {d['estimated_s']:.1f} s of a {d['budget_s']:.0f} s budget; "
              f"per-case caps {d['gemm']['cap_s']:.3g} s, {_cap(d['batched']['cap_s'])} s)", f"# rule: {d['rule']}"]
    return "\n".join(lines)


def _cap(x):
    return "—" if x is None else f"{x:.3g}"


def main(argv=None):
    args = build_parser().parse_args(argv)
    if args.from_json:
        if len(args.from_json) > 1 and args.out is None:
            raise SystemExit("bench.random: merging several results needs --out")
        results = report.merge([bench_report.read_json(p) for p in args.from_json])
        folder = args.out or args.from_json[0].parent
    else:
        try:
            sample = smp.make_sample(args.seed, args.count, args.batched_count, args.budget, args.modes)
        except ValueError as exc:
            raise SystemExit(f"bench.random: {exc}") from None
        sample = smp.part_of(sample, args.max_k, args.max_width)
        if args.list:
            print(list_sample(sample, args.shard))
            return 0
        from bench.random import run
        checkpoint = args.out / "results.json" if args.out else None
        if checkpoint is not None:
            args.out.mkdir(parents=True, exist_ok=True)
        results = run.run(sample, args.shard, args.positive, args.max_minutes, checkpoint, args.families)
        suffix = f"-shard-{args.shard[0]}-of-{args.shard[1]}" if args.shard else ""
        folder = args.out or RESULTS_ROOT / (f"random-{bench_report.slug(results['env'].get('gpu', 'gpu'))}-"
                                             f"{results['started_utc'][:10]}{suffix}")
    md = write_outputs(results, folder, plots=not args.no_plots)
    print(md)
    print(f"bench.random: results in {folder}", file=sys.stderr)
    return 0
