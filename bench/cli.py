"""Command line: `python -m bench [--quick] ...` measures; `python -m bench --from-json FILE` re-renders."""
import argparse
import dataclasses
import importlib
import sys
import traceback
from pathlib import Path

from bench import report
from bench.profiles import PROFILES

SECTIONS = ("throughput", "accuracy", "energy")
RESULTS_ROOT = Path(__file__).resolve().parent / "results"


def build_parser():
    p = argparse.ArgumentParser(
        prog="python -m bench",
        description="ecgemm against cuBLAS, Triton and XLA on this GPU: throughput, accuracy vs k, exponent "
                    "ranges, energy. Markdown on stdout, progress on stderr, JSON and PNGs in the results folder.")
    p.add_argument("--quick", action="store_const", dest="profile", const="quick",
                   help="the ~2-minute profile (same as --profile quick)")
    p.add_argument("--profile", choices=sorted(PROFILES))
    p.set_defaults(profile="default")
    p.add_argument("--methods", default="",
                   help="comma-separated name fragments, e.g. 'ecgemm,xla' (cuBLAS SGEMM always runs)")
    p.add_argument("--sections", default=",".join(SECTIONS), type=_sections,
                   help=f"comma-separated subset of {','.join(SECTIONS)} (accuracy includes the exponent types)")
    p.add_argument("--shapes", type=_shapes, default=None, metavar="MxKxN,...",
                   help="replace the profile's throughput shapes, e.g. '1x4096x4096,4096x4096x1'")
    p.add_argument("--no-xla", action="store_true", help="skip the JAX/XLA subprocess")
    p.add_argument("--max-minutes", type=float, default=None,
                   help="soft deadline: later cases are skipped with a note (default: the profile's)")
    p.add_argument("--out", type=Path, default=None,
                   help="results folder (default: bench/results/<gpu>-<date>[-<profile>])")
    p.add_argument("--no-plots", action="store_true")
    p.add_argument("--from-json", type=Path, default=None, metavar="FILE",
                   help="re-render the report and plots of a saved results.json (no GPU needed)")
    return p


def _sections(text):
    chosen = tuple(s.strip() for s in text.split(",") if s.strip())
    unknown = [s for s in chosen if s not in SECTIONS]
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(f"sections are a subset of {','.join(SECTIONS)}; got {text!r}")
    return chosen


def _shapes(text):
    try:
        shapes = tuple(tuple(int(d) for d in item.lower().split("x")) for item in text.split(",") if item.strip())
    except ValueError:
        shapes = ()
    if not shapes or any(len(s) != 3 or min(s) < 1 for s in shapes):
        raise argparse.ArgumentTypeError(f"shapes are MxKxN with positive sizes, comma-separated; got {text!r}")
    return shapes


def write_outputs(results, folder, plots=True, report_module=report, plots_module="bench.plots"):
    """Judge the results, then write results.json, table.md and the PNGs into `folder`; returns the Markdown.

    The raw figures are written first, so that a failure while judging or drawing never loses a run.
    `report_module` judges and renders (`finalize`, `markdown`), `plots_module` draws (`write_all`):
    bench's own, or a profile's such as bench.random's."""
    folder.mkdir(parents=True, exist_ok=True)
    report.write_json(results, folder / "results.json")
    report_module.finalize(results)
    report.write_json(results, folder / "results.json")
    md = report_module.markdown(results)
    (folder / "table.md").write_text(md + "\n")
    if plots:
        try:
            plotting = importlib.import_module(plots_module)
            plotting.write_all(results, folder)
        except ImportError as exc:
            print(f"{plots_module}: plots skipped ({exc})", file=sys.stderr)
        except Exception:  # noqa: BLE001  (a plot bug must not hide the table)
            traceback.print_exc()
            print(f"{plots_module}: plotting failed; the table and JSON are written", file=sys.stderr)
    return md


def main(argv=None):
    args = build_parser().parse_args(argv)
    if args.from_json is not None:
        results = report.read_json(args.from_json)
        folder = args.out or args.from_json.parent
    else:
        from bench import runner
        profile = PROFILES[args.profile]
        if args.shapes:
            profile = dataclasses.replace(profile, shapes=args.shapes)
        results = runner.run(profile, args.methods, args.sections, args.max_minutes, not args.no_xla)
        date = results["started_utc"][:10]
        folder = args.out or report.results_dir(RESULTS_ROOT, results["env"]["gpu"], date, args.profile)
    md = write_outputs(results, folder, plots=not args.no_plots)
    print(md)
    print(f"bench: results in {folder}", file=sys.stderr)
    return 0
