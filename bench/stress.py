"""The memory and stream contract under load: bench/stress.cu, built and run here.

`python -m bench.stress [--threads 16] [--streams 4] [--seconds 60] [--limit 32M] --out DIR`
runs the stress program twice — without a workspace limit and with ECGEMM_WORKSPACE_LIMIT
— and reports for each: calls, CUDA-graph replays, failed calls and mismatched words
(both must be 0: every result bit for bit the call made alone), and the library pool's
high-water marks. Beside them: what the previous design (one workspace per handle,
grown to its largest call and kept) would have held for the same handles.
Markdown on stdout; results.json and table.md in --out. Needs nvcc and a GPU.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ecgemm import _paths
from bench.report import write_section

SOURCE = Path(__file__).with_name("stress.cu")
REPO = Path(__file__).resolve().parents[1]
MIB = 1 << 20


def build(workdir: Path) -> Path:
    """nvcc compiles (the compare kernel), the host compiler links against the package."""
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        sys.exit("bench.stress needs nvcc on PATH")
    obj, exe = workdir / "stress.o", workdir / "stress"
    subprocess.run([nvcc, "-std=c++17", "-O2", "-arch=native", "-c", str(SOURCE), "-o", str(obj),
                    f"-I{_paths.get_include()}", f"-I{REPO / 'libecgemm'}"], check=True)
    cuda_lib = Path(nvcc).resolve().parents[1] / "lib64"
    subprocess.run(["c++", str(obj), "-o", str(exe), *_paths.link_flags().split(),
                    f"-L{cuda_lib}", "-lcudart_static", "-ldl", "-lrt", "-lpthread"], check=True)
    return exe


def run(exe: Path, args: argparse.Namespace, limit: int | None) -> dict:
    env = dict(os.environ)
    env.pop("ECGEMM_WORKSPACE_LIMIT", None)
    if limit:
        env["ECGEMM_WORKSPACE_LIMIT"] = str(limit)
    proc = subprocess.run([str(exe), "--threads", str(args.threads), "--streams", str(args.streams),
                           "--seconds", str(args.seconds), "--seed", str(args.seed)],
                          capture_output=True, text=True, env=env)
    if not proc.stdout.strip():
        sys.exit(f"stress exited {proc.returncode}:\n{proc.stderr}")
    result = json.loads(proc.stdout)
    result["exit_code"] = proc.returncode
    return result


def per_handle_design_bytes(result: dict) -> int:
    """The previous design: each handle's block grew to its largest call and stayed."""
    largest = max(int(re.search(r"workspace=(\d+)", case["plan"]).group(1))
                  for case in result["cases"])
    return result["threads"] * largest


def table(results: list) -> str:
    rows = ["| workspace limit | threads × streams | s | calls | graph replays | failed | "
            "mismatched words | pool used high | pool reserved high | one block per handle |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        limit = f"{r['workspace_limit'] / MIB:.0f} MiB" if r["workspace_limit"] else "none"
        rows.append(f"| {limit} | {r['threads']} × {r['streams_per_thread']} | {r['seconds']:.0f} | "
                    f"{r['calls']} | {r['graph_replays']} | {r['failed_calls']} | "
                    f"{r['mismatched_words']} | {r['pool_used_high_bytes'] / MIB:.1f} MiB | "
                    f"{r['pool_reserved_high_bytes'] / MIB:.1f} MiB | "
                    f"{per_handle_design_bytes(r) / MIB:.0f} MiB |")
    rows += ["", "| case | plan (no limit) | plan (limit) | calls |", "|---|---|---|---:|"]
    limited = results[-1]["cases"]
    for case, other in zip(results[0]["cases"], limited):
        rows.append(f"| {case['name']} | {case['plan']} | {other['plan']} | "
                    f"{case['calls'] + other['calls']} |")
    return "\n".join(rows)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.stress", description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--streams", type=int, default=4, help="streams per thread")
    parser.add_argument("--seconds", type=float, default=60.0, help="per configuration")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", default="32M", help="the capped run's ECGEMM_WORKSPACE_LIMIT")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    limit = int(args.limit[:-1]) * units[args.limit[-1].upper()] if args.limit[-1].isalpha() \
        else int(args.limit)
    with tempfile.TemporaryDirectory() as work:
        exe = build(Path(work))
        results = [run(exe, args, None), run(exe, args, limit)]
    text = "## One handle per thread, many streams, graphs (bench/stress.cu)\n\n" + table(results)
    write_section(args.out, {"results": results}, text)
    return 0 if all(r["exit_code"] == 0 for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
