"""CPU tests of the GEMMul8 peer (bench/gemmul8_peer.py): its catalog entries, the skip with a reason when its
library is absent, the column-major argument marshalling (checked by running the arguments through a NumPy model
of a cuBLAS-convention GEMM on every layout), the ctypes declarations against the shim's C signature, and the
residual-against-time plot. No GPU needed; the library checks run only where tools/build_gemmul8.sh built it."""
import ctypes
import gc
import re
import weakref
from dataclasses import asdict
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from bench import gemmul8_peer as g8
from bench import report
from bench.methods import BY_NAME, CATALOG, FP32, SGEMM, InProcess, select
from bench.profiles import PROFILES

REPO = Path(__file__).resolve().parents[1]
NAMES = [f"gemmul8_{mode}_{k}" for mode in ("fast", "accu") for k in (6, 7, 8, 9)]


# ---------------------------------------------------------------------------------------------- catalog
def test_catalog_has_fast_and_accurate_for_6_to_9_moduli_promising_fp32():
    found = [m for m in CATALOG if m.family == "gemmul8"]
    assert [m.name for m in found] == NAMES
    for m in found:
        assert m.promise == FP32 and not m.fp16_operands and not m.opt_in
        fast, moduli = g8.parse_name(m.name)
        assert str(moduli) in m.label and ("fast" if fast else "accurate") in m.label
    assert BY_NAME["gemmul8_accu_8"].label == "GEMMul8 accurate, 8 moduli"


def test_select_picks_gemmul8_by_fragment_beside_sgemm_and_not_with_ecgemm():
    assert [m.name for m in select("gemmul8")] == [SGEMM] + NAMES
    assert [m.name for m in select("gemmul8_accu_8")] == [SGEMM, "gemmul8_accu_8"]
    assert [m.name for m in select("gemmul8_fast")] == [SGEMM] + NAMES[:4]
    assert not any(m.family == "gemmul8" for m in select("ecgemm,triton,xla"))


def test_parse_name_round_trips_and_rejects_other_names():
    for name in NAMES:
        fast, moduli = g8.parse_name(name)
        assert g8.method_name("fast" if fast else "accu", moduli) == name
    for bad in ("gemmul8_slow_7", "gemmul8_fast_14", "gemmul8_fast_1", "ecgemm_fast_7"):
        with pytest.raises(ValueError):
            g8.parse_name(bad)


def test_library_path_default_and_environment():
    assert g8.library_path({}) == REPO / ".peers" / "gemmul8" / "libgemmul8_ecgemm.so"
    assert g8.library_path({g8.LIB_ENV: "/opt/x/lib.so"}) == Path("/opt/x/lib.so")
    assert g8.library_path({g8.LIB_ENV: "build/lib.so"}) == REPO / "build" / "lib.so"


# ---------------------------------------------------------------------------------------------- skip with reason
def test_absent_library_skips_every_gemmul8_method_with_one_reason_and_loads_once(monkeypatch, tmp_path):
    monkeypatch.setenv(g8.LIB_ENV, str(tmp_path / "missing.so"))
    tries = []

    class Counting(g8.Gemmul8):
        def __init__(self, torch):
            tries.append(1)
            super().__init__(torch)
    monkeypatch.setattr(g8, "Gemmul8", Counting)
    methods = InProcess(SimpleNamespace(), [BY_NAME[n] for n in NAMES])
    assert methods.names == [] and sorted(methods.reasons) == sorted(NAMES)
    assert len(tries) == 1
    reason = methods.reasons["gemmul8_fast_7"]
    assert reason.startswith("FileNotFoundError:") and "missing.so is absent" in reason
    assert "tools/build_gemmul8.sh" in reason and g8.LIB_ENV in reason
    methods.close()   # nothing loaded, nothing to release


# ---------------------------------------------------------------------------------------------- marshalling
def _strided(values, layout, pad):
    """`values` (rows×cols) stored in a flat buffer: row-major or column-major, leading dimension padded by `pad`
    (padding is NaN, so reading it shows); returns (flat buffer, shape, element strides)."""
    rows, cols = values.shape
    if layout == "row":
        ld = cols + pad
        flat = np.full(rows * ld, np.nan)
        flat.reshape(rows, ld)[:, :cols] = values
        return flat, (rows, cols), (ld, 1)
    ld = rows + pad
    flat = np.full(cols * ld, np.nan)
    flat.reshape(cols, ld)[:, :rows] = values.T
    return flat, (rows, cols), (1, ld)


def _colmajor_gemm(args, flat_a, flat_b, flat_c):
    """What a cuBLAS-convention GEMM does with `args` (C = op(A)·op(B), column-major, alpha 1, beta 0)."""
    def op(flat, trans, rows, cols, ld):
        # the rows×cols matrix op(X), where X is stored column-major with leading dimension ld
        if trans == g8.OP_N:
            return np.array([[flat[i + j * ld] for j in range(cols)] for i in range(rows)])
        return np.array([[flat[j + i * ld] for j in range(cols)] for i in range(rows)])
    a = op(flat_a, args.op_a, args.m, args.k, args.lda)
    b = op(flat_b, args.op_b, args.k, args.n, args.ldb)
    c = a @ b
    for j in range(args.n):
        flat_c[j * args.ldc: j * args.ldc + args.m] = c[:, j]


@pytest.mark.parametrize("la", ["row", "col"])
@pytest.mark.parametrize("lb", ["row", "col"])
@pytest.mark.parametrize("pad", [0, 3])
def test_arguments_compute_a_times_b_on_every_layout(la, lb, pad):
    rng = np.random.default_rng(26)
    m, k, n = 5, 7, 3
    a, b = rng.random((m, k)), rng.random((k, n))
    fa, sa, ta = _strided(a, la, pad)
    fb, sb, tb = _strided(b, lb, pad)
    fc, sc, tc = _strided(np.zeros((m, n)), "row", pad)
    args = g8.gemm_args(sa, ta, sb, tb, sc, tc)
    assert (args.m, args.n, args.k) == (n, m, k)    # Cᵀ = Bᵀ·Aᵀ
    _colmajor_gemm(args, fb, fa, fc)                # GEMMul8's A is the bench's B
    c = np.lib.stride_tricks.as_strided(fc, (m, n), (tc[0] * 8, 8))
    np.testing.assert_allclose(c, a @ b, rtol=1e-12)


def test_contiguous_operands_give_plain_nn_arguments():
    m, k, n = 300, 200, 100
    assert g8.gemm_args((m, k), (k, 1), (k, n), (n, 1), (m, n), (n, 1)) == \
        g8.GemmArgs(g8.OP_N, g8.OP_N, n, m, k, n, k, n)
    # a transposed view (torch's x.t()) reads as op T with the storage's leading dimension
    assert g8.gemm_args((m, k), (1, m), (k, n), (1, k), (m, n), (n, 1)) == \
        g8.GemmArgs(g8.OP_T, g8.OP_T, n, m, k, k, m, n)


def test_size_one_dimensions_leave_their_stride_free():
    assert g8.gemm_args((1, 64), (7, 1), (64, 1), (1, 1), (1, 1), (1, 1)).op_b == g8.OP_N
    args = g8.gemm_args((1, 64), (64, 1), (64, 32), (32, 1), (1, 32), (32, 1))
    assert (args.m, args.n, args.k, args.ldc) == (32, 1, 64, 32)


def test_bad_arguments_are_refused_before_the_library_is_called():
    ok = ((8, 4), (4, 1), (4, 6), (6, 1), (8, 6), (6, 1))
    g8.gemm_args(*ok)
    with pytest.raises(ValueError, match="do not chain"):
        g8.gemm_args((8, 4), (4, 1), (5, 6), (6, 1), (8, 6), (6, 1))
    with pytest.raises(ValueError, match="one unit stride"):
        g8.gemm_args((8, 4), (8, 2), (4, 6), (6, 1), (8, 6), (6, 1))
    with pytest.raises(ValueError, match="row-major outputs"):
        g8.gemm_args((8, 4), (4, 1), (4, 6), (6, 1), (8, 6), (1, 8))
    with pytest.raises(ValueError, match="2\\^17"):
        g8.gemm_args((64, (1 << 17) + 1), ((1 << 17) + 1, 1), ((1 << 17) + 1, 64), (64, 1), (64, 64), (64, 1))
    g8.gemm_args((64, 1 << 17), (1 << 17, 1), (1 << 17, 64), (64, 1), (64, 64), (64, 1))   # the limit itself
    with pytest.raises(ValueError, match="empty"):
        g8.gemm_args((0, 4), (4, 1), (4, 6), (6, 1), (0, 6), (6, 1))


def test_workspace_is_shared_per_shape_sized_for_9_moduli_and_freed_with_its_last_user():
    class Buffer:   # stands for a torch tensor (weak-referenceable)
        def __init__(self, size):
            self.size = size

        def numel(self):
            return self.size
    asked = []
    peer = object.__new__(g8.Gemmul8)   # no library: only the workspace bookkeeping is under test
    peer.lib = SimpleNamespace(ecgemm_gemmul8_work_size=lambda m, n, k, q: asked.append(q) or m * n * k * q)
    peer.torch = SimpleNamespace(uint8="uint8", empty=lambda size, dtype, device: Buffer(size))
    peer._work = weakref.WeakValueDictionary()
    first = peer.workspace(4, 5, 6, 6)
    assert first.size == 4 * 5 * 6 * 9 and peer.workspace(4, 5, 6, 9) is first
    assert asked == [9, 9]
    other = peer.workspace(4, 5, 7, 7)
    assert other is not first and len(peer._work) == 2
    del first
    gc.collect()
    assert list(peer._work) == [(4, 5, 7)]
    larger = peer.workspace(4, 5, 7, 12)    # beyond the sweep: a larger one
    assert larger is not other and larger.size == 4 * 5 * 7 * 12


def test_status_codes_are_named():
    assert "exception" in g8.status_text(-1)
    assert g8.status_text(1000 + 700) == "CUDA error 700"
    assert g8.status_text(7) == "cublasSetStream status 7"


def test_ctypes_declarations_match_the_shim_signatures():
    """Each shim entry point takes as many arguments as bench declares (a mismatch would shift every argument)."""
    source = (REPO / "tools" / "gemmul8_shim.cu").read_text()
    lib = SimpleNamespace(**{name: SimpleNamespace() for name in
                             ("ecgemm_gemmul8_work_size", "ecgemm_gemmul8_create", "ecgemm_gemmul8_destroy",
                              "ecgemm_gemmul8_sgemm")})
    g8._declare(lib)
    for name, fn in vars(lib).items():
        params = re.search(name + r"\(([^)]*)\)", source).group(1)
        assert len(fn.argtypes) == len(params.split(",")), name
    sgemm = re.search(r"ecgemm_gemmul8_sgemm\(([^)]*)\)", source).group(1)
    c_types = [re.sub(r"\s*\w+$", "", p.strip()) for p in sgemm.split(",")]
    for c_type, py in zip(c_types, lib.ecgemm_gemmul8_sgemm.argtypes):
        expected = {"float": ctypes.c_float, "int": ctypes.c_int, "unsigned": ctypes.c_uint,
                    "size_t": ctypes.c_size_t, "double *": ctypes.POINTER(ctypes.c_double)}.get(c_type,
                                                                                               ctypes.c_void_p)
        assert py == expected, (c_type, py)


# ---------------------------------------------------------------------------------------------- the built library
def _built_library():
    path = g8.library_path()
    if not path.is_file():
        pytest.skip(f"{path} is not built (tools/build_gemmul8.sh)")
    try:
        g8._load_cublas()
        lib = ctypes.CDLL(str(path))
    except OSError as exc:
        pytest.skip(f"cannot load {path}: {exc}")
    g8._declare(lib)
    return lib


def test_built_library_exports_the_shim_and_sizes_a_workspace_without_a_gpu():
    lib = _built_library()
    sizes = [lib.ecgemm_gemmul8_work_size(8192, 8192, 8192, k) for k in g8.MODULI]
    assert sizes == sorted(sizes) and len(set(sizes)) == len(sizes)     # more moduli, more workspace
    # at least the INT8 copies of both operands, one per modulus
    assert all(s > 2 * k * 8192 * 8192 for s, k in zip(sizes, g8.MODULI))
    assert sizes[-1] < 16 * 2**30


# ---------------------------------------------------------------------------------------------- plot
def _results_with_gemmul8():
    r = report.new_results(asdict(PROFILES["quick"]))
    r["env"] = {"gpu": "NVIDIA H100 80GB HBM3"}
    for n, scale in ((8192, 1.0), (16384, 8.0)):
        shape = [n, n, n]
        rows = [(SGEMM, 21.6, 1.6e-6), ("ecgemm_tf32tf32", 8.0, 1.5e-6), ("cublas_tf32", 3.0, 2.6e-4),
                ("triton_tf32x3", 20.0, 2e-6), ("xla_tf32x3", 10.0, 1.9e-5)]
        rows += [(f"gemmul8_{mode}_{k}", (4 + k) * (1.3 if mode == "accu" else 1.0), 10.0 ** (-3 - k / 2))
                 for mode in ("fast", "accu") for k in g8.MODULI]
        r["throughput"] += [{"method": m, "shape": shape, "ms": ms * scale, "residual": res,
                             "tflops": 2 * n ** 3 / (ms * scale) / 1e9} for m, ms, res in rows]
    return report.finalize(r)


def test_residual_vs_time_has_a_panel_per_size_and_labels_gemmul8_moduli(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (it is the bench extra)")
    from bench import plots
    figures = []
    monkeypatch.setattr(plots, "_finish", lambda fig, results, path: figures.append(fig))
    plots.plot_residual_vs_time(_results_with_gemmul8(), tmp_path / "x.png")
    (fig,) = figures
    assert len(fig.axes) == 2
    for ax, n in zip(fig.axes, plots.RESIDUAL_TIME_SIZES):
        assert f"{n}×{n}×{n}" in ax.get_title()
        assert sorted(t.get_text() for t in ax.texts) == sorted(str(k) for k in g8.MODULI for _ in range(2))
        labels = ax.get_legend_handles_labels()[1]
        assert "GEMMul8 fast, 6 moduli" in labels and "cuBLAS SGEMM" in labels and "XLA TF32_TF32_F32_X3" in labels


def test_residual_vs_time_is_written_only_where_8192_or_16384_was_timed(tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (it is the bench extra)")
    from bench import plots
    written = plots.write_all(_results_with_gemmul8(), tmp_path)
    assert "residual_vs_time.png" in [p.name for p in written]
    small = _results_with_gemmul8()
    small["throughput"] = [dict(r, shape=[1024] * 3) for r in small["throughput"]]
    assert "residual_vs_time.png" not in [p.name for p in plots.write_all(small, tmp_path)]
