"""One entry point for work on a GPU machine: python tools/device.py SUBCOMMAND [options].

  install      pip-install this tree with libecgemm built for the given architectures
  suite        the pytest suite, or a selection, GPU tests included
  sanitizer    compute-sanitizer (memcheck, racecheck, synccheck) over a pytest selection
               or over the hash cases
  probe        TFLOP/s and residual of each mode against cuBLAS SGEMM, through the C ABI
  route-times  GPU time of each route on given shapes, per kernel, beside cuBLAS SGEMM
  hash         one SHA-256 per output of a fixed case list covering every kernel family,
               mode, transpose pair and batch form: compares two builds bit for bit
  ceiling      big squares against the three-Tensor-Core-product ceiling (clocks, power)
  accuracy     residual tables per mode against cuBLAS SGEMM (urand and exponent types)
  random-ab    two builds on bench.random's samples, in the order base, new, new, base

Logs go to $OUT (default /tmp/out): a remote device run brings back what is there. Every
step that runs a child process has a time limit (--timeout), so a hang (a lost mbarrier
phase, say) cannot eat a device lease. `SUBCOMMAND --help` lists each one's options;
docs/architecture.md ("Tools") gives the recipes that replaced the old check scripts.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
from typing import List, Optional, Sequence

if __package__ in (None, ""):  # run as a script: make the `tools` package importable
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from tools import _common  # noqa: E402  (puts the repository root and tests/ on sys.path)

ROOT = _common.ROOT
SANITIZER_TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")
ARCH = re.compile(r"^\d+[af]?(-real|-virtual)?$")  # a CMake CUDA_ARCHITECTURES entry
TIMEOUT_EXIT = 124  # as timeout(1) reports it


def run_logged(cmd: Sequence[str], log: str, timeout: float, *, env=None, append=False,
               tail: int = 25) -> int:
    """Runs `cmd` from the repository root with stdout and stderr in $OUT/<log>; prints the
    log's last `tail` lines. A run past `timeout` seconds is killed with its whole process
    group (compute-sanitizer's child included) and returns 124."""
    path = _common.out_dir() / log
    with open(path, "a" if append else "w") as f:
        f.write(f"$ {' '.join(cmd)}\n")
        f.flush()
        proc = subprocess.Popen(list(cmd), cwd=ROOT, stdout=f, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)
        try:
            rc = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            f.write(f"\n[device.py] killed after {timeout:g} s\n")
            rc = TIMEOUT_EXIT
    print_tail(path, tail)
    return rc


def print_tail(path: pathlib.Path, lines: int) -> None:
    if lines > 0:
        print("\n".join(path.read_text(errors="replace").splitlines()[-lines:]))


def pytest_command(selection: Sequence[str]) -> List[str]:
    return [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rfEs", *(selection or ["tests"])]


def cmd_install(args, extra) -> int:
    archs = [a.strip() for a in args.archs.split(",") if a.strip()]
    bad = [a for a in archs if not ARCH.match(a)]
    if not archs or bad:
        raise SystemExit(f"install: --archs takes CMake CUDA architectures such as 90a-real or "
                         f"80-real, comma-separated; got {args.archs!r}")
    cmd = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index",
           "-C", f"cmake.define.ECGEMM_CUDA_ARCHITECTURES={';'.join(archs)}", "."]
    rc = run_logged(cmd, args.log, args.timeout, tail=0)
    if rc != 0:  # the build log's end says why
        print_tail(_common.out_dir() / args.log, 50)
    else:
        print(f"installed for {';'.join(archs)} (log: $OUT/{args.log})")
    return rc


def cmd_suite(args, extra) -> int:
    env = dict(os.environ)
    if args.properties:
        env["ECGEMM_HYPOTHESIS_PROFILE"] = args.properties
    return run_logged(pytest_command(extra), args.log, args.timeout, env=env, tail=args.tail)


def cmd_sanitizer(args, extra) -> int:
    tools = [t.strip() for t in args.tools.split(",") if t.strip()]
    unknown = [t for t in tools if t not in SANITIZER_TOOLS]
    if not tools or unknown:
        raise SystemExit(f"sanitizer: --tools takes {', '.join(SANITIZER_TOOLS)}; got {args.tools!r}")
    if args.hash == bool(extra):
        raise SystemExit("sanitizer: give either a pytest selection (after the options) or --hash")
    if (args.family or args.mode) and not args.hash:
        raise SystemExit("sanitizer: --family and --mode narrow --hash; for pytest use -k")
    if shutil.which("compute-sanitizer") is None:
        raise SystemExit("sanitizer: compute-sanitizer is not on PATH (it ships with the CUDA toolkit)")
    if args.hash:
        target = [sys.executable, str(ROOT / "tools" / "device.py"), "hash", "--log", "sanitizer_hash.txt"]
        target += [f"--family={args.family}"] * bool(args.family) + [f"--mode={args.mode}"] * bool(args.mode)
    else:
        target = pytest_command(extra)
    (_common.out_dir() / args.log).write_text("")
    worst = 0
    for tool in tools:
        rc = run_logged(["compute-sanitizer", "--tool", tool, "--error-exitcode", "9", *target], args.log,
                        args.timeout, append=True, tail=0)
        print(f"{tool}: exit {rc}" + (" (errors found)" if rc == 9 else ""))
        worst = worst or rc
    print(f"log: $OUT/{args.log}")
    return worst


def _forward(module_name: str):
    """A subcommand whose work lives in tools/<module>.py (add_arguments + run)."""
    def run(args, extra) -> int:
        import importlib
        return importlib.import_module(f"tools.{module_name}").run(args) or 0
    return run


def build_parser() -> argparse.ArgumentParser:
    from tools import accuracy_tables, output_hash, probe, random_ab, route_times, square_ceiling

    parser = argparse.ArgumentParser(prog="python tools/device.py", description=__doc__.split("\n\n")[0],
                                     epilog="Run `python tools/device.py SUBCOMMAND --help` for its options.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="SUBCOMMAND")

    def command(name, help, fn, *, module=None, forwards=False, timeout=None, log=None):
        # No abbreviations: an option meant for pytest must not match a prefix of ours.
        p = sub.add_parser(name, help=help, description=module.__doc__ if module else help,
                           formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False)
        p.set_defaults(fn=fn, forwards=forwards)
        if timeout is not None:
            p.add_argument("--timeout", type=float, default=timeout, help=f"seconds (default {timeout})")
        if log is not None:
            p.add_argument("--log", default=log, help=f"log file under $OUT (default {log})")
        return p

    p = command("install", "pip install this tree, libecgemm built for --archs", cmd_install,
                timeout=540, log="build.txt")
    p.add_argument("--archs", default="90a-real",
                   help="CMake CUDA architectures, comma-separated (default 90a-real; 90-real builds "
                        "the sm_80-family kernels alone, which an H100/H200 then runs as Ampere would)")
    p = command("suite", "the pytest suite; pytest arguments after the options (default: tests)",
                cmd_suite, forwards=True, timeout=300, log="pytest.txt")
    p.add_argument("--properties", choices=("ci", "dev", "gpu-long"), default="",
                   help="the property tests' profile (ECGEMM_HYPOTHESIS_PROFILE); gpu-long: 2000 "
                        "examples each")
    p.add_argument("--tail", type=int, default=25, help="log lines to print at the end (default 25)")
    p = command("sanitizer", "compute-sanitizer over a pytest selection (after the options) or --hash",
                cmd_sanitizer, forwards=True, timeout=300, log="sanitizer.txt")
    p.add_argument("--tools", default="memcheck,racecheck",
                   help=f"comma-separated: {', '.join(SANITIZER_TOOLS)} (default memcheck,racecheck)")
    p.add_argument("--hash", action="store_true", help="run the hash cases instead of pytest")
    p.add_argument("--family", default="", help="with --hash: the families to run")
    p.add_argument("--mode", default="", help="with --hash: the modes to run")
    for name, help, module in (
            ("probe", "TFLOP/s and residual of each mode against cuBLAS SGEMM, through the C ABI", probe),
            ("route-times", "GPU time of each route and its kernels on given shapes", route_times),
            ("hash", "one SHA-256 per output of a fixed case list: two builds compared bit for bit",
             output_hash),
            ("ceiling", "big squares against the three-product ceiling, with clocks and power",
             square_ceiling),
            ("accuracy", "residual tables of every mode against cuBLAS SGEMM's", accuracy_tables),
            ("random-ab", "two builds (the base tree and this one) on bench.random's samples, compared run by run",
             random_ab)):
        module.add_arguments(command(name, help, _forward(module.__name__.rsplit(".", 1)[1]), module=module))
    return parser


def parse(argv: Optional[Sequence[str]] = None):
    """(args, extra): `extra` holds what the subcommand forwards to pytest."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and extra[0] == "--":
        extra = extra[1:]
    if extra and not args.forwards:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return args, extra


def main(argv: Optional[Sequence[str]] = None) -> int:
    args, extra = parse(argv)
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    return args.fn(args, extra)


if __name__ == "__main__":
    sys.exit(main())
