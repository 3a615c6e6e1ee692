"""tools/random_ab.py (CPU): the run-by-run comparison of two builds, the whole-sample score, the timing samples left
out of what comes back, and the device command's order of builds and runs, with the builds and bench.random stood in
for."""
import gzip
import json
import pathlib
import sys

import pytest

from tools import device, random_ab

ROUTE_A = "family=gemv method=fp32 layout=along_k warps=1 splits=1 workspace=0 est={}us"
ROUTE_B = "family=simt method=fp32 tile=thin_m splits=4 workspace=4096 est=9.0us"


def case(case_id, us, route, cublas_us, **extra):
    method = {"gpu_ms": us / 1e3, "route": route, "family": route.split()[0][len("family="):],
              "x_cublas": cublas_us / us, "residual_ratio": 0.5, "gpu_samples_ms": [us / 1e3] * 7,
              "e2e_samples_ms": [0.02] * 7}
    return {"id": case_id, "m": 4, "k": 1000, "n": 3000, "op": "NT",
            "methods": {"cublas": {"gpu_ms": cublas_us / 1e3, "gpu_samples_ms": [1.0]}, "tf32tf32": method}, **extra}


def results(cases, batched=()):
    return {"modes": ["tf32tf32"], "gemm": list(cases), "batched": list(batched)}


def test_compare_keeps_cublas_drift_out_and_lists_each_moved_plan():
    base = results([case("r1", 10.0, ROUTE_A.format(5), 12.0), case("r2", 20.0, ROUTE_A.format(7), 20.0)])
    # r1: the same plan with another estimate, 1.25x faster; r2: another plan, 2x slower; cuBLAS 10% slower.
    new = results([case("r1", 8.0, ROUTE_A.format(9), 13.2), case("r2", 40.0, ROUTE_B, 22.0)])
    lines = random_ab.compare(new, base)
    assert lines[0] == "gemm tf32tf32: same route, time base / new: gemv 1.250 (1); cuBLAS base / new 0.909"
    assert lines[1] == "  1 routes changed, 0.500"
    assert lines[2].startswith("    4 x 1000 x 3000 NT: 20 -> 40 us (0.500), x cuBLAS 1.00 -> 0.55")
    assert ROUTE_B in lines[2]
    assert lines[3].startswith("batched tf32tf32: same route")


def test_whole_averages_cublas_over_every_run_and_each_tree_over_its_own():
    runs = {"base1": results([case("r1", 10.0, ROUTE_A, 9.0)]), "new1": results([case("r1", 5.0, ROUTE_A, 11.0)]),
            "new2": results([case("r1", 5.0, ROUTE_A, 9.0)]), "base2": results([case("r1", 10.0, ROUTE_A, 11.0)])}
    peer = (9.0 * 11.0 * 9.0 * 11.0) ** 0.25
    line = random_ab.whole(runs)[0]
    assert line == (f"gemm tf32tf32: base {peer / 10:.3f}x, 1 of 1 >= 0.95x; "
                    f"new {peer / 5:.3f}x, 1 of 1 >= 0.95x")


def test_strip_samples_keeps_every_figure_but_the_per_round_times(tmp_path):
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results([case("r1", 10.0, ROUTE_A, 9.0)])))
    out = random_ab.strip_samples(path)
    assert out.name == "results.json.gz" and not path.exists()
    method = json.load(gzip.open(out, "rt"))["gemm"][0]["methods"]["tf32tf32"]
    assert method["gpu_ms"] == 0.01 and "gpu_samples_ms" not in method and "e2e_samples_ms" not in method


def test_runs_are_numbered_per_tree_and_paired_in_order():
    labels = random_ab.run_labels("base,new,new,base", held_out=True)
    assert labels == [("base", "base1"), ("new", "new1"), ("new", "new2"), ("base", "base2"), ("base", "baset"),
                      ("new", "newt")]
    assert random_ab.pairs(labels) == [("new1", "base1"), ("new2", "base2"), ("newt", "baset")]
    assert random_ab.pairs(random_ab.run_labels("new,base,new", held_out=False)) == [("new1", "base1")]


@pytest.mark.parametrize("order", ["base,base", "new", "base,new,old", ""])
def test_an_order_without_both_trees_is_refused(order):
    with pytest.raises(SystemExit, match="--order lists base and new"):
        random_ab.run_labels(order, held_out=False)


def test_the_device_command_builds_both_trees_then_runs_and_compares_each_pair(tmp_path, monkeypatch):
    """Builds and bench.random stood in for: the base builds into its own site beside this tree's install, each base
    run imports it first, every pair is compared and the whole sample scored, and no timing sample comes back."""
    out, work = tmp_path / "out", tmp_path / "work"
    base_tree = tmp_path / "base"
    base_tree.mkdir()
    (base_tree / "CMakeLists.txt").write_text("")
    monkeypatch.setenv("OUT", str(out))
    calls, popens = [], []

    class FakeBuild:
        def __init__(self, cmd, **kwargs):
            popens.append(cmd)

        def wait(self, timeout=None):
            return 0

    def fake_run_logged(cmd, log, timeout, env=None, append=False, tail=25):
        calls.append((cmd, log, (env or {}).get("PYTHONPATH", "")))
        if "bench.random" in cmd:
            folder = pathlib.Path(cmd[cmd.index("--out") + 1])
            folder.mkdir(parents=True)
            slow = 2.0 if folder.name.startswith("random-base") else 1.0
            (folder / "results.json").write_text(json.dumps(results([case("r1", 10.0 * slow, ROUTE_A, 9.0)])))
            (folder / "table.md").write_text("| tf32tf32 | 1 | 0.90 | 0% |\n")
        return 0

    monkeypatch.setattr(random_ab.subprocess, "Popen", FakeBuild)
    monkeypatch.setattr(device, "run_logged", fake_run_logged)
    args, extra = device.parse(["random-ab", f"--base={base_tree}", "--sample=--seed 26 --max-width 4",
                                "--held-out=--seed 33", f"--work={work}"])
    assert args.fn(args, extra) == 0
    assert popens[0][-3:] == ["--target", str(work / "site-base"), str(base_tree)]
    assert calls[0][1] == "build-new.txt" and calls[0][0][-1] == "."
    runs = [(c[1], c[2]) for c in calls[1:]]
    assert [log for log, _ in runs] == [f"random-{x}.log" for x in ("base1", "new1", "new2", "base2", "baset",
                                                                     "newt")]
    for log, pythonpath in runs:
        assert pythonpath.startswith(str(work / "site-base")) == ("base" in log)
    assert calls[1][0][calls[1][0].index("bench.random") + 1:][:4] == ["--seed", "26", "--max-width", "4"]
    assert "--seed 33" in " ".join(calls[5][0])
    for name in ("routes_ab-new1-base1.txt", "routes_ab-new2-base2.txt", "routes_ab-newt-baset.txt"):
        assert "gemv 2.000 (1)" in (out / name).read_text()
    assert (out / "whole.txt").read_text().startswith("gemm tf32tf32: base 0.450x, 0 of 1 >= 0.95x; new 0.900x")
    for folder in out.glob("random-*"):
        assert not (folder / "results.json").exists()
        assert "gpu_samples_ms" not in gzip.open(folder / "results.json.gz", "rt").read()


def test_the_old_routes_ab_path_still_compares(tmp_path, capsys):
    new, base = tmp_path / "new.json", tmp_path / "base.json"
    new.write_text(json.dumps(results([case("r1", 8.0, ROUTE_A.format(1), 9.0)])))
    base.write_text(json.dumps(results([case("r1", 10.0, ROUTE_A.format(2), 9.0)])))
    shim = pathlib.Path(random_ab.__file__).parents[1] / "bench/results/chain-waves-2026-11-27/routes_ab.py"
    import subprocess
    out = subprocess.run([sys.executable, str(shim), str(new), str(base)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0].startswith("gemm tf32tf32: same route, time base / new: gemv 1.250 (1)")
