"""The planner on a described H200, no GPU needed (ecgemm_internal_plan_on): its accuracy rules hold on
seeded random shapes in every mode, every plan carries the cost model's estimate, and a pinned family plans
only what it can run. Which family is fastest is measured on the GPU (bench/results/planner-2026-11-23)."""
import ctypes
import itertools
import math
import random
import re

import pytest

from _capi import MODES, STATUS, load
from tools.fit_cost_model import cost_constant, cost_row, guard_cost, inc_coefs

FP32_ROUTE_MAX_K = 32   # libecgemm/planner.cpp: kFp32RouteMaxK
FP32_FORM_MAX_K = 32    # libecgemm/kernels/fused_mma.hpp: kFp32FormMaxK
MAX_CHAIN_K = 4096      # libecgemm/kernels/common/splitk_plan.hpp: kMaxChainK
THIN_SIDE = 64          # splitk_plan.hpp: kThinSide
THIN_MAX_CHAIN_STEPS = 128  # splitk_plan.hpp: kThinMaxChainSteps
CORRECTED = ("tf32tf32", "halfhalf", "auto")
ONE_PASS = ("tf32", "fp16", "markidis")
FAMILIES = ("simt", "gemv", "planes", "fused_wgmma", "fused_mma")
SMS = 132
H200_DRAM_GBPS = 4800.0  # peak: 4.8 TB/s (libecgemm/cost_model.hpp: the floor)


class Device(ctypes.Structure):
    _fields_ = [("cc_major", ctypes.c_int), ("cc_minor", ctypes.c_int), ("sm_count", ctypes.c_int),
                ("max_smem_per_block", ctypes.c_int), ("dram_gbps", ctypes.c_double)]


@pytest.fixture(scope="module")
def plan_on():
    try:
        lib = load()
    except (FileNotFoundError, OSError) as exc:
        pytest.skip(f"libecgemm not loadable: {exc}")
    if not hasattr(lib, "ecgemm_internal_plan_on"):
        pytest.skip("this libecgemm predates ecgemm_internal_plan_on")
    f = lib.ecgemm_internal_plan_on
    f.restype = ctypes.c_int
    f.argtypes = [ctypes.POINTER(Device), ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_int] + \
        [ctypes.c_int64] * 7 + [ctypes.c_float, ctypes.POINTER(ctypes.c_double), ctypes.c_char_p, ctypes.c_size_t]
    h200 = Device(9, 0, SMS, 232448, H200_DRAM_GBPS)

    def plan(mode, m, n, k, family=None, batch=1, ta=0, tb=0, device=h200, pad_a=0, pad_b=0):
        features = (ctypes.c_double * 8)()  # internal.h: ECGEMM_INTERNAL_COST_FEATURES
        text = ctypes.create_string_buffer(256)
        lda, ldb = (k if ta else m) + pad_a, (n if tb else k) + pad_b
        status = f(ctypes.byref(device), MODES[mode], family.encode() if family else None, ta, tb, m, n, k,
                   lda, ldb, m, batch, 0.0, features, text, len(text))
        return status, text.value.decode(), list(features)
    return plan


def fields(text):
    return dict(t.split("=", 1) for t in text.split() if "=" in t)


def random_shapes(count, seed):
    rng = random.Random(seed)
    side = lambda: int(2 ** rng.uniform(0, 14))  # noqa: E731  (log-uniform 1 … 16384)
    return [(side(), side(), side(), rng.choice([1, 1, 1, int(2 ** rng.uniform(1, 10))]),
             rng.randint(0, 1), rng.randint(0, 1)) for _ in range(count)]


@pytest.mark.parametrize("mode", CORRECTED + ONE_PASS + ("fp32",))
def test_every_plan_keeps_the_accuracy_rules(plan_on, mode):
    for m, n, k, batch, ta, tb in random_shapes(150, seed=len(mode)):
        status, text, x = plan_on(mode, m, n, k, batch=batch, ta=ta, tb=tb)
        assert status == STATUS["SUCCESS"], (mode, m, n, k, batch, text)
        f = fields(text)
        # simt and gemv, or fused_mma's FP32 form (the corrected modes at k <= FP32_ROUTE_MAX_K)
        fp32_family = f["method"] == "fp32"
        assert fp32_family == (f["family"] in ("simt", "gemv") or (
            f["family"] == "fused_mma" and mode in CORRECTED and k <= FP32_ROUTE_MAX_K)), text
        assert float(f["est"].rstrip("us")) > 0 and x[0] == 1.0, text
        if mode == "fp32":
            assert f["family"] in ("simt", "gemv"), text
        elif mode in ONE_PASS:
            assert not fp32_family and f["method"] == mode, text
        elif k <= FP32_ROUTE_MAX_K:
            assert fp32_family, (m, n, k, text)
        if mode in CORRECTED and not fp32_family:
            assert f["method"] in ("tf32tf32", "halfhalf", "auto"), text
        if batch > 1:  # no planes for batches; GEMV takes them unsplit (grid.z walks them)
            assert f["family"] != "planes", text
            assert f["family"] != "gemv" or f["splits"] == "1", text


def test_auto_scales_on_the_planes_or_runs_tf32tf32_s_products(plan_on):
    methods = {fields(plan_on("auto", s, s, s)[1])["method"] for s in (384, 1024, 8192)}
    assert methods <= {"auto", "tf32tf32"} and "auto" in methods, methods


@pytest.mark.parametrize("mode", CORRECTED)
@pytest.mark.parametrize("m,n,k", [(16, 16384, 16384), (16384, 16, 16384), (64, 64, 1 << 20)])
def test_no_long_single_accumulation_where_sgemm_would_split(plan_on, mode, m, n, k):
    status, text, _ = plan_on(mode, m, n, k)
    f = fields(text)
    if f["family"] in ("planes", "fused_wgmma", "fused_mma"):
        splits = int(re.match(r"\d+", f["splits"]).group())
        assert -(-k // splits) <= MAX_CHAIN_K, text


def test_pinned_families_plan_what_they_can_run(plan_on):
    assert plan_on("tf32tf32", 4096, 4096, 8, family="simt")[1].startswith("family=simt method=fp32 tile=stream")
    assert plan_on("tf32tf32", 4096, 4096, 64, family="simt")[1].find("tile=stream") < 0
    assert plan_on("tf32tf32", 64, 64, 64, family="gemv")[0] == STATUS["NOT_SUPPORTED"]
    assert plan_on("tf32tf32", 64, 64, 64, family="planes", batch=8)[0] == STATUS["NOT_SUPPORTED"]
    for family in FAMILIES:
        status, text, _ = plan_on("halfhalf", 1, 4096, 4096, family=family)
        assert status == STATUS["NOT_SUPPORTED"] or fields(text)["family"] == family, (family, text)
    assert plan_on("tf32tf32", 64, 64, 64, family="nonsense")[0] == STATUS["INVALID_VALUE"]


def test_a_pin_names_auto_s_form_on_fused_mma(plan_on):
    # "/halfhalf": the scaled form; "/tf32tf32": tf32tf32's products; both with FP32 blocks.
    scaled = fields(plan_on("auto", 300, 200, 500, family="fused_mma:32/halfhalf")[1])
    assert (scaled["method"], scaled["tile"], scaled["wide"]) == ("halfhalf", "32x32", "fp32")
    assert fields(plan_on("auto", 300, 200, 500, family="fused_mma/halfhalf")[1])["tile"] == "32x32"
    assert plan_on("auto", 300, 200, 500, family="fused_mma:64/halfhalf")[0] == STATUS["NOT_SUPPORTED"]
    plain = plan_on("auto", 300, 200, 500, family="fused_mma:64/tf32tf32")[1]
    assert fields(plain)["method"] == "tf32tf32" and " scaled" not in plain and "wide=fp32" in plain
    # Other modes keep their own products; other families and spellings are refused.
    assert fields(plan_on("tf32tf32", 300, 200, 500, family="fused_mma/halfhalf")[1])["method"] == "tf32tf32"
    for bad in ("planes/halfhalf", "fused_mma/fp16", "fused_mma:48/halfhalf", "fused_mma/"):
        assert plan_on("auto", 300, 200, 500, family=bad)[0] == STATUS["INVALID_VALUE"], bad


def test_a_pin_names_fused_wgmma_s_narrow_tiles(plan_on):
    """"fused_wgmma:narrow": 128 rows of the long side against the narrowest N of 16, 32, 64 that
    holds a side of at most 64, on either side of C (swapped when it is m), split-K as the wide
    tiles; the corrected modes only, elsewhere the pin does not fit."""
    for mode in CORRECTED[:2]:
        for side, cols in ((1, 16), (16, 16), (17, 32), (32, 32), (33, 64), (64, 64)):
            for m, n, swapped in ((side, 5000, True), (5000, side, False)):
                text = plan_on(mode, m, n, 700, family="fused_wgmma:narrow")[1]
                f = fields(text)
                assert (f["family"], f["tile"], " swapped " in text) == ("fused_wgmma", f"128x{cols}", swapped), text
        split = fields(plan_on(mode, 40, 1000, 20000, family="fused_wgmma:narrow")[1])
        assert int(split["splits"]) > 1, split
        assert plan_on(mode, 65, 5000, 700, family="fused_wgmma:narrow")[0] == STATUS["NOT_SUPPORTED"]
    for mode in ONE_PASS:
        assert plan_on(mode, 16, 5000, 700, family="fused_wgmma:narrow")[0] == STATUS["NOT_SUPPORTED"], mode
    for bad in ("fused_wgmma:16", "fused_wgmma:narrow/fp32", "fused_mma:narrow"):
        assert plan_on("tf32tf32", 16, 5000, 700, family=bad)[0] == STATUS["INVALID_VALUE"], bad


def test_a_pin_names_fused_mma_s_fp32_form(plan_on):
    """"/fp32": every stage in FP32 on the 32-wide tile, for the corrected modes up to one stage
    (k <= FP32_FORM_MAX_K; the planner offers it up to FP32_ROUTE_MAX_K); elsewhere the pin does
    not fit and the planner's own plan runs (bench's pinned timings skip those)."""
    for mode in CORRECTED:
        for spelling in ("fused_mma/fp32", "fused_mma:32/fp32"):
            for batch, k in itertools.product((1, 700), (1, 17, FP32_ROUTE_MAX_K, FP32_FORM_MAX_K)):
                f = fields(plan_on(mode, 300, 200, k, family=spelling, batch=batch)[1])
                assert (f["family"], f["method"], f["tile"], f["splits"]) == ("fused_mma", "fp32", "32x32", "1"), f
        above = plan_on(mode, 300, 200, FP32_FORM_MAX_K + 1, family="fused_mma/fp32")
        assert above[0] == STATUS["NOT_SUPPORTED"], above
    for mode in ONE_PASS + ("fp32",):
        assert plan_on(mode, 300, 200, 8, family="fused_mma/fp32")[0] == STATUS["NOT_SUPPORTED"], mode
    assert plan_on("tf32tf32", 300, 200, 8, family="fused_mma:64/fp32")[0] == STATUS["NOT_SUPPORTED"]
    for bad in ("simt/fp32", "gemv/fp32", "fused_mma/fp64"):
        assert plan_on("tf32tf32", 300, 200, 8, family=bad)[0] == STATUS["INVALID_VALUE"], bad


FP64_SUMS_CTAS_PER_SM = 2  # libecgemm/kernels/sm80/fused_mma.cu: fp64_sums_hide's kFp64SumsCtasPerSm


def test_fused_mma_s_fp32_form_sums_in_fp64_where_that_hides(plan_on):
    """The FP32 form's sums in FP64 ("sums=fp64", fused_mma.hpp: fp64_sums_hide) wherever the grid has at most
    FP64_SUMS_CTAS_PER_SM CTAs an SM (a CTA a 32 x 32 tile), whatever the mode, k and batch; else the FP32 chains,
    at every k, in one wave too. Never outside the FP32 form."""
    limit = SMS * FP64_SUMS_CTAS_PER_SM
    for mode in CORRECTED:
        for m, n, batch in ((4096, 4096, 1), (300, 200, 1), (300, 200, 700), (1, 5000, 1), (900, 900, 1),
                            (512, 512, 1), (544, 512, 1), (64, 32, 132), (64, 32, 133)):
            ctas = -(-m // 32) * -(-n // 32) * batch
            for k in (1, 7, 16, 17, 29, FP32_FORM_MAX_K):
                text = plan_on(mode, m, n, k, family="fused_mma/fp32", batch=batch)[1]
                assert ("sums=fp64" in text.split()) == (ctas <= limit), (mode, m, n, k, text)
    for m, n, k, batch, ta, tb in random_shapes(300, seed=64):
        text = plan_on("tf32tf32", m, n, k, batch=batch, ta=ta, tb=tb)[1]
        if "sums=fp64" in text:
            assert fields(text)["family"] == "fused_mma" and fields(text)["method"] == "fp32", text


def test_fused_mma_s_fp32_form_is_priced_at_the_k_its_ctas_run(plan_on):
    """The FP32 form's CTA runs k steps of its one 32-wide stage, so its serial work (feature 3) and its price grow
    with k at a fixed grid; priced by the stage alone, its grids of a wave at k = 17-29 ran 1.4-2x their estimate
    (bench/results/README.md#sweep)."""
    for batch in (1, 700):
        plans = [plan_on("tf32tf32", 1100, 420, k, family="fused_mma/fp32", batch=batch) for k in (4, 8, 28)]
        serial = [x[3] for _, _, x in plans]
        assert serial[0] > 0 and serial[1] == pytest.approx(2 * serial[0]) and serial[2] == pytest.approx(7 * serial[0])
        est = [float(fields(text)["est"].rstrip("us")) for _, text, _ in plans]
        assert est[0] <= est[1] < est[2], (batch, est)


@pytest.mark.parametrize("mode", CORRECTED)
def test_fused_mma_splits_k_only_where_the_cost_model_prices_the_split_lower(plan_on, mode):
    """"/unsplit" pins fused_mma's plan with k not split (fused_mma.hpp: fused_mma_unsplit); the planner
    prices it beside the split plan of the same tile and takes the cheaper, so a split is a cost-model
    choice, not a rule. Where k is too long for one chain (kMaxChainK) the pin keeps the split."""
    split = 0
    for m, n, k, _, ta, tb in random_shapes(300, seed=31 + len(mode)):
        for tile in (64, 32):
            status, text, x = plan_on(mode, m, n, k, family=f"fused_mma:{tile}", ta=ta, tb=tb)
            if status != STATUS["SUCCESS"] or fields(text)["family"] != "fused_mma" or fields(text)["splits"] == "1":
                continue
            split += 1
            whole = plan_on(mode, m, n, k, family=f"fused_mma:{tile}/unsplit", ta=ta, tb=tb)[1]
            if -(-k // 32) * 32 > MAX_CHAIN_K:
                assert fields(whole)["splits"] == fields(text)["splits"], (m, n, k, text, whole)
                continue
            assert fields(whole)["splits"] == "1" and " cluster " not in whole + " ", whole
            assert fields(whole)["tile"] == fields(text)["tile"], (text, whole)
            # The cluster feature is set exactly where the splits reduce in a cluster.
            assert (x[6] > 0) == (" cluster " in text + " "), (text, x)
    assert split >= 10, split
    for bad in ("simt/unsplit", "gemv:wide/unsplit", "fused_mma:48/unsplit"):
        assert plan_on(mode, 300, 200, 500, family=bad)[0] == STATUS["INVALID_VALUE"], bad


def test_small_k_plans_take_the_fp32_form_where_it_is_priced_lowest(plan_on):
    """The cost model chooses among the FP32 routes at small k: fused_mma's FP32 form where a
    few thousand outputs make the launch's latency the cost, never where C's bytes are (a
    large m x n at k = 1 streams C on simt)."""
    forms = {fields(plan_on(mode, m, n, k, ta=1)[1])["family"]
             for mode in CORRECTED for m, n, k in ((208, 7, 12), (1817, 19, 14), (187, 198, 10))}
    assert forms == {"fused_mma"}, forms
    f = fields(plan_on("tf32tf32", 5595, 2929, 1)[1])
    assert (f["family"], f["tile"]) == ("simt", "stream"), f


def test_a_pin_names_simt_s_short_k_tile(plan_on):
    """"simt:stream", "simt:strips" and "simt:dot" pin simt's short-k tiles (k <= 32), which the
    planner otherwise prices against each other (simt_alternative): the head-to-head timings their
    cost rows are calibrated on. A batch of tiny products may take the dot tile or strips below
    k = 8 (where one chain an output is SGEMM's arithmetic), the dot tile alone from there. Where
    the call cannot take the named tile the pin does not fit."""
    for mode in CORRECTED + ("fp32",):
        for batch, (m, n, k) in itertools.product((1, 300), ((40, 30, 1), (33, 61, 17), (20, 100, 32))):
            for tile in ("stream", "strips"):
                f = fields(plan_on(mode, m, n, k, family=f"simt:{tile}", batch=batch)[1])
                assert (f["family"], f["tile"], f["splits"]) == ("simt", tile, "1"), (mode, batch, m, n, k, f)
            assert plan_on(mode, m, n, k, family="simt:dot", batch=batch)[0] == STATUS["NOT_SUPPORTED"]
        for tile in ("dot", "strips"):
            f = fields(plan_on(mode, 3, 5, 7, family=f"simt:{tile}", batch=100)[1])
            assert (f["family"], f["tile"]) == ("simt", tile), (mode, tile, f)
        assert plan_on(mode, 3, 5, 7, family="simt:stream", batch=100)[0] == STATUS["NOT_SUPPORTED"], mode
        for k in (8, 33):
            assert plan_on(mode, 3, 5, k, family="simt:strips", batch=100)[0] == STATUS["NOT_SUPPORTED"], mode
            assert "tile=dot " in plan_on(mode, 3, 5, k, family="simt:dot", batch=100)[1], mode
        assert plan_on(mode, 40, 30, 33, family="simt:stream")[0] == STATUS["NOT_SUPPORTED"], mode
    for bad in ("simt:tall", "simt:stream/fp32", "gemv:stream"):
        assert plan_on("tf32tf32", 40, 30, 8, family=bad)[0] == STATUS["INVALID_VALUE"], bad


def test_batches_price_simt_s_short_k_tiles_by_rows_of_their_own(plan_on):
    """A batch on the stream or strip tile is priced by a row of its own (cost_model.hpp:
    kSimtStreamBatched, kSimtStripsBatched), one product by the 2-D row: each estimate is its row
    of cost_coefficients.inc times the plan's features (no DRAM floor on this device)."""
    coefs = inc_coefs()
    no_floor = Device(9, 0, SMS, 232448, 0.0)
    for tile in ("stream", "strips"):
        for batch, row in ((1, f"simt/{tile}"), (2, f"simt/{tile}_batched")):
            status, text, x = plan_on("fp32", 2000, 1500, 16, family=f"simt:{tile}", batch=batch, device=no_floor)
            assert status == STATUS["SUCCESS"], (tile, batch, text)
            est = float(fields(text)["est"].removesuffix("us"))
            assert est == pytest.approx(sum(a * b for a, b in zip(coefs[row], x)), rel=0.01), (tile, batch, text)


def test_batches_of_tiny_products_plan_the_dot_tile_on_simt(plan_on):
    """A batch of products with few outputs takes a warp per product (tile=dot) on simt, or at 32 outputs a
    calibrated piped tile where it prices lower (bench/results/piped-2026-12-07, call B: 80 products of 31 x 218
    x 1 ran 9.5 us on piped32x32 and 14.8 us on the dot tile); a single product or 64 outputs do not."""
    for m, n in ((1, 1), (3, 5), (1, 32), (32, 1), (4, 8)):
        tile = fields(plan_on("tf32tf32", m, n, 300, family="simt", batch=100)[1])["tile"]
        assert tile == "dot" or (m * n >= 32 and tile.startswith("piped")), (m, n, tile)
    assert "tile=dot" not in plan_on("tf32tf32", 3, 5, 300, family="simt")[1]
    assert "tile=dot" not in plan_on("tf32tf32", 8, 8, 300, family="simt", batch=100)[1]


def test_features_grow_with_the_work(plan_on):
    _, _, small = plan_on("tf32tf32", 1024, 1024, 1024, family="planes")
    _, _, large = plan_on("tf32tf32", 8192, 8192, 8192, family="planes")
    # waves, serial multiply-adds and megabytes (launches follow split-K, which small products use more)
    assert all(b >= a for a, b in zip(small[2:], large[2:])) and large[3] > 8 * small[3], (small, large)


def _tiles(text, m, n):
    """Output tiles of a Tensor Core plan's grid (its tile field; 'swapped' tiles C's transpose)."""
    f = fields(text)
    rows, cols = (int(x) for x in f["tile"].split("x"))
    if " swapped" in text:
        m, n = n, m
    return -(-m // rows) * -(-n // cols)


def _k_per_cta(x):
    """k one CTA accumulates, from the cost features: chain = waves * k_per_cta / 1024."""
    return round(x[5] * 1024 / x[2])


@pytest.mark.parametrize("mode", CORRECTED)
@pytest.mark.parametrize("family", ("planes", "fused_wgmma"))
def test_families_split_long_k_where_their_grid_leaves_sms_idle(plan_on, mode, family):
    """The accuracy bound (splitk_plan.hpp: kMaxChainK) is kept by the family's own plan, not only by the
    planner's filter: a grid of fewer tiles than SMs splits k into chunks of at most 4096."""
    checked = 0
    for m, n, k, _, ta, tb in random_shapes(300, seed=len(mode) + len(family)) + \
            [(636, 2971, 10833, 1, 0, 1), (3360, 158, 12554, 1, 0, 0), (64, 64, 1 << 20, 1, 0, 0)]:
        status, text, x = plan_on(mode, m, n, k, family=family, ta=ta, tb=tb)
        if status != STATUS["SUCCESS"] or fields(text)["family"] != family or k <= MAX_CHAIN_K:
            continue
        if _tiles(text, m, n) < SMS:
            checked += 1
            assert _k_per_cta(x) <= MAX_CHAIN_K, (m, n, k, text)
    assert checked >= 5, checked


@pytest.mark.parametrize("mode", CORRECTED)
@pytest.mark.parametrize("family", (None, "fused_wgmma", "fused_wgmma:narrow"))
def test_fused_wgmma_chains_a_thin_output_at_most_128_k_steps(plan_on, mode, family):
    """On a C with a side of at most 64, cuBLAS splits k into short chains; fused_wgmma's CTAs chain at most 128
    Tensor Core k-steps there (1024 of k with TF32 products, 2048 with FP16) on every grid, its own plan and the
    planner's filter alike (17 x 7126 x 10649 TN in chains of 2375: 1.12x SGEMM's residual)."""
    rng = random.Random(4099 + len(mode))
    side = lambda lo, hi: int(2 ** rng.uniform(math.log2(lo), math.log2(hi)))  # noqa: E731
    shapes = [(side(1, THIN_SIDE + 1), side(64, 32768), side(1025, 65536)) for _ in range(300)]
    shapes += [(17, 10649, 7126), (43, 15299, 12601), (64, 16384, 16384), (8, 131072, 4096)]
    checked = 0
    for narrow, long, k in shapes:
        m, n = (narrow, long) if rng.random() < 0.5 else (long, narrow)
        ta, tb = rng.randint(0, 1), rng.randint(0, 1)
        status, text, x = plan_on(mode, m, n, k, family=family, ta=ta, tb=tb)
        if status != STATUS["SUCCESS"] or fields(text)["family"] != "fused_wgmma":
            continue
        step = 16 if fields(text)["method"] == "halfhalf" else 8
        assert _k_per_cta(x) <= THIN_MAX_CHAIN_STEPS * step, (m, n, k, text)
        checked += k > THIN_MAX_CHAIN_STEPS * step
    assert checked >= (5 if family is None else 100), checked


DRAM_EFFICIENCY = cost_constant("kDramEfficiency")  # libecgemm/cost_model.hpp


def _est(text):
    return float(fields(text)["est"].rstrip("us"))


@pytest.mark.parametrize("mode", CORRECTED)
def test_no_estimate_moves_its_bytes_faster_than_dram(plan_on, mode):
    """Every plan's estimate stands on its traffic at kDramEfficiency of the device's peak DRAM bandwidth (features[4]:
    megabytes), whatever the fitted row says; the fit is the estimate where it is higher."""
    checked = 0
    for m, n, k, batch, ta, tb in random_shapes(200, seed=31 + len(mode)):
        for family in (None,) + FAMILIES:
            status, text, x = plan_on(mode, m, n, k, family=family, batch=batch, ta=ta, tb=tb)
            if status != STATUS["SUCCESS"]:
                continue
            floor = x[4] / (DRAM_EFFICIENCY * H200_DRAM_GBPS * 1e-3)
            assert _est(text) >= floor * (1 - 1e-3), (m, n, k, batch, family, text, floor)
            checked += floor > 10
    assert checked >= 20, checked


def test_a_plane_route_whose_planes_outgrow_l2_is_priced_at_its_traffic(plan_on):
    """16294 x 5899 x 104 on an H100 (3.35 TB/s): the planes write and read 1.56 GB of planes of the long
    operand; the fitted row priced 516 us, the route ran 730 and fused_wgmma, which reads it once, 489
    (bench/results/README.md#dram-floor). The floor prices the planes at their traffic; the planner passes them."""
    h100 = Device(9, 0, SMS, 232448, 3352.0)
    m, n, k = 104, 16294, 5899  # torch's 16294 x 5899 @ 5899 x 104, column-major
    _, planes, x = plan_on("tf32tf32", m, n, k, family="planes", device=h100)
    assert _est(planes) == pytest.approx(x[4] / (DRAM_EFFICIENCY * 3352.0 * 1e-3), rel=1e-3), planes
    _, taken, _ = plan_on("tf32tf32", m, n, k, device=h100)
    assert fields(taken)["family"] != "planes" and _est(taken) < _est(planes), (taken, planes)


def test_auto_passes_its_scaled_planes_where_their_traffic_outweighs_fused_wgmma_s_guard(plan_on):
    """The same product in AUTO: its scaled planes (statistics, split, halfhalf's products) move 1.6 GB and ran
    624 us on an H100, AUTO's guarded fused_wgmma 525, tf32tf32's 476 (bench/results/README.md#auto-price). Priced at
    the rate whole plane routes reach, the planes cost more than fused_wgmma's plan with its guard."""
    h100 = Device(9, 0, SMS, 232448, 3352.0)
    m, n, k = 104, 16294, 5899
    _, taken, _ = plan_on("auto", m, n, k, device=h100)
    f = fields(taken)
    assert f["family"] == "fused_wgmma" and f["wide"] == "fp32", taken
    _, planes, _ = plan_on("auto", m, n, k, family="planes", device=h100)
    assert _est(planes) > _est(taken), (planes, taken)


def test_auto_s_fused_mma_plans_cost_tf32tf32_s_times_its_guard(plan_on):
    """AUTO on fused_mma's Tensor Core tiles runs tf32tf32's plans with the wide-run test: the same plan, priced
    at kFusedMmaGuardCost times tf32tf32's (where neither stands on the DRAM floor); the FP32 form has no guard."""
    checked = 0
    for m, n, k, batch, ta, tb in random_shapes(200, seed=41):
        for tile in ("fused_mma:32", "fused_mma:64"):
            s_auto, auto, _ = plan_on("auto", m, n, k, family=tile, batch=batch, ta=ta, tb=tb)
            s_tf32, tf32, _ = plan_on("tf32tf32", m, n, k, family=tile, batch=batch, ta=ta, tb=tb)
            if s_auto != STATUS["SUCCESS"] or s_tf32 != STATUS["SUCCESS"]:
                continue
            a, t = fields(auto), fields(tf32)
            if a["method"] == "fp32":
                assert _est(auto) == _est(tf32) and "wide" not in a, (auto, tf32)
                continue
            assert a["wide"] == "fp32" and {**a, "wide": None, "est": None} == {**t, "wide": None, "est": None}, (auto, tf32)
            if _est(tf32) > 5:  # printed to 0.1 us
                assert _est(auto) == pytest.approx(guard_cost("fused_mma") * _est(tf32), rel=0.02), (auto, tf32)
                checked += 1
    assert checked >= 20, checked


def test_a_side_of_33_to_64_against_long_ones_takes_the_narrow_tile(plan_on):
    """fused_wgmma's narrow tile with N = 64 has cost rows of its own (the shared narrow rows, fitted mostly on N = 16,
    priced its long k up to 1.4x its time): on an H100, a side of 33-64 against a long side (>= 8192) and k >= 1024
    plans the 128 x 64 tile, which ran 1.07-1.43x fused_mma's 64 x 64 tile on the held-out products of this class
    that the planner moved (bench/results/README.md#narrow64); main gave fused_mma 93 of these 200."""
    h100 = Device(9, 0, SMS, 232448, 3352.0)
    rng = random.Random(7)
    tiles = []
    for _ in range(200):
        side, long, k = rng.randint(33, 64), int(2 ** rng.uniform(13, 14)), int(2 ** rng.uniform(10, 14))
        ta, tb = rng.randint(0, 1), rng.randint(0, 1)
        m, n = (side, long) if rng.random() < 0.5 else (long, side)
        f = fields(plan_on("tf32tf32", m, n, k, ta=ta, tb=tb, device=h100)[1])
        tiles.append((f["family"], f["tile"]))
    narrow = tiles.count(("fused_wgmma", "128x64"))
    assert narrow >= 180, sorted(set(tiles))


def _wave_cost(tiles, splits):
    """Time of `tiles` output tiles cut into `splits` k splits, one CTA an SM, in units of the unsplit CTA's."""
    return -(-tiles * splits // SMS) / splits


@pytest.mark.parametrize("mode", ("tf32tf32", "halfhalf"))
@pytest.mark.parametrize("family", ("planes", "fused_wgmma"))
def test_splits_past_the_accuracy_bound_fill_the_waves(plan_on, mode, family):
    """Where the accuracy bound sets the fewest splits (k > 4096, fewer tiles than SMs), the count taken fills
    the waves as well as any of the next two counts, within 5%: 58 tiles over k = 10333 need 3 splits, two waves
    of a third of k each, where 4 splits are two waves of a quarter (splitk_plan.hpp: wave_splits)."""
    rng = random.Random(2711 + len(mode) + len(family))
    side = lambda lo, hi: int(2 ** rng.uniform(math.log2(lo), math.log2(hi)))  # noqa: E731
    shapes = [(side(1, 16384), side(1, 16384), side(4097, 32768), rng.randint(0, 1), rng.randint(0, 1))
              for _ in range(400)] + [(7297, 124, 10333, 0, 1)]
    checked = 0
    for m, n, k, ta, tb in shapes:
        status, text, _ = plan_on(mode, m, n, k, family=family, ta=ta, tb=tb)
        if status != STATUS["SUCCESS"] or fields(text)["family"] != family:
            continue
        tiles, splits = _tiles(text, m, n), int(fields(text)["splits"].split("/")[0])
        if tiles >= SMS:
            continue
        thin = family == "fused_wgmma" and min(m, n) <= THIN_SIDE  # fused_wgmma's thin bound, stricter
        fewest = -(-k // (THIN_MAX_CHAIN_STEPS * (16 if mode == "halfhalf" else 8) if thin else MAX_CHAIN_K))
        assert splits >= fewest, (m, n, k, text)
        best = min(_wave_cost(tiles, s) for s in range(fewest, fewest + 3))
        assert _wave_cost(tiles, splits) <= 1.05 * best, (m, n, k, text)
        checked += 1
    assert checked >= 20, checked
    assert "splits=4 " in plan_on(mode, 7297, 124, 10333, family=family, tb=1)[1]


@pytest.mark.parametrize("mode", CORRECTED)
@pytest.mark.parametrize("family", ("planes", "fused_wgmma"))
def test_a_full_grid_splits_only_where_whole_waves_pay(plan_on, mode, family):
    """A plane-route or fused_wgmma grid that fills the GPU is priced split 2..8 ways where whole waves of the
    shorter k finish sooner (splitk_plan.hpp: splits_fill_waves), and the split is kept only where the cost model
    prices it below the unsplit plan ("<family>/unsplit") with its partials: 5% lower, or no higher where one chain
    would pass 4096 (planner.cpp: keep_full_grid_split). 859 x 4533 x 2437 (140 tiles: a second wave on 8 SMs)
    splits; 4096^3 (1024 tiles, 7.76 waves) does not, nor 8192^3 (31.03 waves) on the plane route."""
    rng = random.Random(4099 + len(mode) + len(family))
    side = lambda lo, hi: int(2 ** rng.uniform(math.log2(lo), math.log2(hi)))  # noqa: E731
    split = checked = 0
    for _ in range(300):
        m, n, k, ta, tb = side(256, 16384), side(256, 16384), side(256, 16384), rng.randint(0, 1), rng.randint(0, 1)
        status, text, _ = plan_on(mode, m, n, k, family=family, ta=ta, tb=tb)
        if status != STATUS["SUCCESS"] or fields(text)["family"] != family or _tiles(text, m, n) < SMS:
            continue
        whole, x = plan_on(mode, m, n, k, family=family + "/unsplit", ta=ta, tb=tb)[1:]
        assert fields(whole)["splits"].split("/")[0] == "1", whole
        splits, tiles = int(fields(text)["splits"].split("/")[0]), _tiles(text, m, n)
        checked += 1
        if splits == 1:
            assert text == whole, (m, n, k, text, whole)
            continue
        split += 1
        assert splits <= 8 and _wave_cost(tiles, splits) < _wave_cost(tiles, 1), (m, n, k, text)
        est, unsplit = (float(fields(t)["est"].rstrip("us")) for t in (text, whole))
        assert est <= (0.95 if _k_per_cta(x) <= MAX_CHAIN_K else 1.0) * unsplit * (1 + 1e-3), (m, n, k, text, whole)
    assert checked >= 100 and split >= 10, (checked, split)
    assert fields(plan_on(mode, 859, 2437, 4533, family=family)[1])["splits"] != "1"
    assert fields(plan_on(mode, 4096, 4096, 4096, family=family)[1])["splits"].split("/")[0] == "1"
    if family == "planes":  # fused_wgmma's rows price 8192^3 split no higher: its chain of 8192 is then cut
        assert fields(plan_on(mode, 8192, 8192, 8192, family=family)[1])["splits"].split("/")[0] == "1"
    for bad in (family + ":128/unsplit", family + "/tf32tf32", "fused_wgmma:narrow/fp32"):
        assert plan_on(mode, 300, 200, 500, family=bad)[0] == STATUS["INVALID_VALUE"], bad
    assert plan_on(mode, 30, 200, 5000, family="fused_wgmma:narrow/unsplit")[0] == STATUS["SUCCESS"]


@pytest.mark.parametrize("mode", CORRECTED)
def test_the_plan_taken_is_the_cheapest_that_keeps_the_rules(plan_on, mode):
    """No family's plan priced lower is passed over, when it keeps the accuracy rules (FP32 routes at
    small k; no chain over 4096 on a grid that leaves SMs idle): the planner is the cost model's choice.
    fused_mma's four plans (either tile, split or not) count alike, the 32-wide tile's where it is
    offered (fused_mma.hpp: a side of C at most 32, or the 64-wide tile's CTAs in one wave)."""
    pins = FAMILIES + ("fused_mma/unsplit", "fused_mma:32", "fused_mma:32/unsplit", "planes/unsplit",
                       "fused_wgmma/unsplit")
    for m, n, k, batch, ta, tb in random_shapes(200, seed=7 + len(mode)):
        status, text, _ = plan_on(mode, m, n, k, batch=batch, ta=ta, tb=tb)
        assert status == STATUS["SUCCESS"], text
        taken = float(fields(text)["est"].rstrip("us"))
        wide = plan_on(mode, m, n, k, family="fused_mma:64", batch=batch, ta=ta, tb=tb)[1]
        one_wave = fields(wide).get("tile") == "64x64" and \
            batch * _tiles(wide, m, n) * int(fields(wide)["splits"]) <= SMS
        for pin in pins:
            if pin.startswith("fused_mma:32") and not (min(m, n) <= 32 or one_wave):
                continue
            family = pin.split("/")[0].split(":")[0]
            status, other, x = plan_on(mode, m, n, k, family=pin, batch=batch, ta=ta, tb=tb)
            if status != STATUS["SUCCESS"] or fields(other)["family"] != family:
                continue
            tensor_cores = family not in ("simt", "gemv")
            if tensor_cores and k <= FP32_ROUTE_MAX_K:
                continue
            if tensor_cores and _k_per_cta(x) > MAX_CHAIN_K and batch * _tiles(other, m, n) < SMS:
                continue
            # The plane route and fused_wgmma are priced unsplit on grids that fill the GPU; on the others
            # wave_splits sets their count (test_splits_past_the_accuracy_bound_fill_the_waves).
            if pin in ("planes/unsplit", "fused_wgmma/unsplit") and (batch > 1 or _tiles(other, m, n) < SMS):
                continue
            assert taken <= float(fields(other)["est"].rstrip("us")) * (1 + 1e-6), (m, n, k, batch, text, other)


def test_a_dot_product_stored_with_ld_1_takes_the_along_k_gemv_kernel(plan_on):
    """1 x k x 1 with lda = 1: op(A) is contiguous along k though not transposed (gemv_layout
    reads the stride, not the flag)."""
    for ta in (0, 1):
        status, text, _ = plan_on("fp32", 1, 1, 20000, ta=ta)
        assert status == STATUS["SUCCESS"] and fields(text)["family"] == "gemv", text
        assert fields(text)["layout"] == "along_k", (ta, text)


def test_gemv_along_k_reads_a_thin_side_of_2_to_4_staged_or_loaded(plan_on):
    """The along-k kernel reads a thin side of 2-4 staged in shared memory, or loaded 16 bytes a lane where each thin
    column is contiguous along k and 16-byte aligned (GemvThin), each priced by a cost row of its own; width 1, the
    short-k kernel (k <= 16), the lines kernel and the along-the-long-side layout do neither. Padding the thin
    operand's ld off a multiple of 4 stages what was loaded."""
    seen = set()
    for width in (1, 2, 3, 4):
        for k in (5, 16, 17, 100, 300, 5000, 70001):
            for m, n, ta, tb in ((4096, width, 1, 0), (4096, width, 1, 1), (width, 4096, 0, 1), (width, 4096, 1, 1),
                                 (4096, width, 0, 0)):
                for family in ("gemv", "gemv:wide"):
                    status, text, _ = plan_on("fp32", m, n, k, family=family, ta=ta, tb=tb)
                    assert status == STATUS["SUCCESS"], text
                    f, words = fields(text), text.split()
                    thin = f["layout"] == "along_k" and "lanes" not in f and width > 1 and k > 16
                    assert ("staged" in words or "loaded" in words) == thin, (width, k, m, n, ta, tb, family, text)
                    if "loaded" in words:
                        pads = {"pad_b": 1} if m > n else {"pad_a": 1}  # the thin operand's ld
                        padded = plan_on("fp32", m, n, k, family=family, ta=ta, tb=tb, **pads)[1]
                        assert "staged" in padded.split(), (text, padded)
                    seen.add("staged" if "staged" in words else "loaded" if "loaded" in words else "neither")
    assert seen == {"staged", "loaded", "neither"}


def test_auto_s_fused_plans_take_fp32_where_data_are_wide_and_follow_tf32tf32(plan_on):
    """AUTO off the planes runs tf32tf32's products; on fused_mma and fused_wgmma with FP32 blocks or
    stages where the data are too wide for them (common/wide_runs.cuh), priced as tf32tf32's times
    the family's guard cost (kFusedWgmmaGuardCost, kFusedMmaGuardCost): where tf32tf32 takes a
    family, AUTO takes the same one, the plane route's scaled form, or, off a fused family, a plan
    priced below its guarded one."""
    seen = {"fused_mma": 0, "fused_wgmma": 0}
    for m, n, k, batch, ta, tb in random_shapes(400, seed=11):
        status, text, _ = plan_on("auto", m, n, k, batch=batch, ta=ta, tb=tb)
        other = plan_on("tf32tf32", m, n, k, batch=batch, ta=ta, tb=tb)[1]
        f, g = fields(text), fields(other)
        assert "wide=" not in other, other
        if f["family"] != g["family"] and f["method"] != "auto":
            assert g["family"] in ("fused_wgmma", "fused_mma") and g["method"] == "tf32tf32", (text, other)
            # est is printed to 0.1 us: the guarded price of a plan printed as g's is at most this
            assert float(f["est"][:-2]) <= guard_cost(g["family"]) * (float(g["est"][:-2]) + 0.05), (text, other)
        if f["family"] in seen and f["method"] != "fp32":  # not fused_mma's FP32 form (small k)
            seen[f["family"]] += 1
            assert f.get("wide") == "fp32" and f["method"] == "tf32tf32", text
    assert min(seen.values()) >= 10, seen
    assert "wide=fp32" in plan_on("auto", 64, 64, 4096, family="fused_wgmma")[1]
    assert "wide=fp32" in plan_on("auto", 40, 5000, 4096, family="fused_wgmma:narrow")[1]


def gemv_groups(text):
    """(layout, groups of the CTA that split one output's k, splits across CTAs) of a gemv plan."""
    f = fields(text)
    groups = int(f["warps"]) if f["layout"] == "along_k" else 256 // int(f["lanes"])
    return f["layout"], groups, int(f["splits"])


@pytest.mark.parametrize("ta", [0, 1])
def test_gemv_splits_k_inside_the_cta_before_it_splits_across_ctas(plan_on, ta):
    """A thin product with few outputs and a long k: the CTA's own warps share each output's k (one
    launch), and k is split across CTAs (partials and a second kernel) only where those cannot fill
    the GPU; "gemv:wide" keeps the fixed groups (a warp a line, 8 row groups) and splits across CTAs."""
    rng = random.Random(ta)
    seen = set()
    for _ in range(300):
        m, k = int(2 ** rng.uniform(0, 14)), int(2 ** rng.uniform(0, 17))
        m, n = (m, rng.randint(1, 4)) if rng.random() < 0.5 else (rng.randint(1, 4), m)
        text = plan_on("tf32tf32", m, n, k, family="gemv", ta=ta, tb=ta)[1]
        f, (layout, groups, splits) = fields(text), gemv_groups(text)
        wide = gemv_groups(plan_on("tf32tf32", m, n, k, family="gemv:wide", ta=ta, tb=ta)[1])
        assert wide[:2] == (layout, 1 if layout == "along_k" else 8), (m, n, k, wide)
        assert groups >= wide[1] and splits <= wide[2], (m, n, k, f, wide)
        seen.add((layout, groups > wide[1], splits > 1))
    assert {s[1] for s in seen} == {True, False} and {s[2] for s in seen} == {True, False}, seen
    for small in ((1, 587, 4), (4, 904, 1), (1, 725, 58)):
        m, k, n = small
        assert gemv_groups(plan_on("tf32tf32", m, n, k, family="gemv", ta=ta, tb=ta)[1])[2] == 1, small
    for bad in ("gemv:32", "gemv:wide/fp32", "gemv:lines/fp32", "simt:wide", "simt:lines"):
        assert plan_on("tf32tf32", 1, 300, 500, family=bad)[0] == STATUS["INVALID_VALUE"], bad


def test_gemv_lines_stream_with_more_blocks_only_on_many_waves_of_one_column(plan_on):
    """The lines kernel (along k, 16 < k <= 256, "gemv:lines"): 5 blocks an SM for one thin column on a
    grid of 8 or more waves at 4 (gemv.cu: kLinesStreamWaves), else 4; the cost model counts them."""
    def lines_plan(m, n, k, batch):
        status, text, x = plan_on("tf32tf32", m, n, k, family="gemv:lines", batch=batch, ta=1)
        f = fields(text)
        assert status == STATUS["SUCCESS"] and "lanes" in f, text
        return int(f["blocks"]), x[2]  # the waves feature

    lanes = 8  # k = 71: 32 lines a block
    per_wave = 4 * SMS * 256 // lanes
    for m, n, batch, blocks in ((40, 1, 12552, 5), (40, 1, 5, 4), (40, 2, 12552, 4),
                                (32, 1, 8 * per_wave // 32, 5), (32, 1, 8 * per_wave // 32 - 1, 4)):
        got, waves = lines_plan(m, n, 71, batch)
        assert got == blocks, (m, n, batch, got)
        grid = -(-m * batch // (256 // lanes))  # blocks of 32 lines, across the batch's products
        assert waves == -(-grid // (blocks * SMS)), (m, batch, waves)


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf"])
def test_the_plane_route_walks_many_waves_of_few_slices(plan_on, mode):
    """The plane route's wgmma mainloop walks (persistent CTAs) on grids of more than five waves whose CTAs run at
    most 16 K slices, and is priced at its row times kPlanesWalkCost there (bench/results/README.md#walk);
    "planes:walk" / "planes:plain" pin either kernel on the same plan."""
    walk_cost = cost_constant("kPlanesWalkCost")
    assert 0.8 < walk_cost < 1.0
    for (m, n, k), walks in (((8192, 8192, 64), True), ((13229, 14746, 53), True), ((4096, 4096, 256), True),
                             ((2048, 2048, 64), False), ((2560, 2560, 64), False), ((4096, 4096, 4096), False),
                             ((200, 300, 100), False)):
        _, text, _ = plan_on(mode, m, n, k, family="planes")
        assert (" walk " in text) == walks, text
        s_walk, walk, _ = plan_on(mode, m, n, k, family="planes:walk")
        s_plain, plain, _ = plan_on(mode, m, n, k, family="planes:plain")
        assert s_walk == s_plain == STATUS["SUCCESS"] and " walk " in walk and " walk " not in plain, (walk, plain)
        assert {**fields(walk), "est": None} == {**fields(plain), "est": None}, (walk, plain)
        # The walk's factor, or the DRAM floor both stand on (no plan moves its bytes faster).
        assert _est(walk) == pytest.approx(walk_cost * _est(plain), rel=0.01) or _est(walk) <= _est(plain), \
            (walk, plain)
    _, walk, _ = plan_on(mode, 8192, 8192, 64, family="planes:walk")
    _, plain, _ = plan_on(mode, 8192, 8192, 64, family="planes:plain")
    assert _est(walk) == pytest.approx(walk_cost * _est(plain), rel=0.01), (walk, plain)  # off the floor
    # Batches never take the plane route, and a form of another family is no pin of it.
    assert plan_on(mode, 64, 64, 64, family="planes:walk", batch=4)[0] == STATUS["NOT_SUPPORTED"]
    assert plan_on(mode, 64, 64, 64, family="planes:narrow")[0] == STATUS["INVALID_VALUE"]


PIPED = ("piped32x32", "piped32x64", "piped64x32", "piped64x64", "piped64x128", "piped128x64")


def test_simt_piped_pins_name_a_tile_or_the_cheapest(plan_on):
    """"simt:piped32x64" plans that piped tile, "simt:piped" the cheapest of the six (kernels/simt/piped.hpp),
    both at k > 32 only (the stream and strip tiles' k is theirs); a long k on a small grid splits as simt's
    other tiles do; a batch never splits; an unknown piped tile is refused."""
    for mode in ("fp32", "tf32tf32", "halfhalf", "auto"):
        for tile in PIPED:
            status, text, _ = plan_on(mode, 300, 200, 100, family=f"simt:{tile}")
            assert status == STATUS["SUCCESS"] and fields(text)["tile"] == tile, (mode, tile, text)
            assert plan_on(mode, 300, 200, 32, family=f"simt:{tile}")[0] == STATUS["NOT_SUPPORTED"], (mode, tile)
        assert fields(plan_on(mode, 300, 200, 100, family="simt:piped")[1])["tile"] in PIPED
    f = fields(plan_on("tf32tf32", 40, 40, 5000, family="simt:piped32x32")[1])
    assert int(f["splits"]) > 1 and int(f["workspace"]) > 0, f
    f = fields(plan_on("tf32tf32", 40, 40, 5000, family="simt:piped32x32", batch=50)[1])
    assert (f["tile"], f["splits"], f["workspace"]) == ("piped32x32", "1", "0"), f
    for bad in ("simt:piped16x16", "simt:pipedx", "simt:piped/fp32"):
        assert plan_on("tf32tf32", 300, 200, 100, family=bad)[0] == STATUS["INVALID_VALUE"], bad


def test_the_planner_offers_a_piped_tile_once_its_row_is_calibrated(plan_on):
    """A row of zeros in cost_coefficients.inc is not calibrated: the planner then never picks that piped tile
    (a tile lands behind the old routes); once one is calibrated, it picks one somewhere on a grid of shapes that
    fill the GPU poorly with simt's 128-wide tiles. A piped tile's estimate is its shape's row (mirrored tiles
    share one; a batch has its own) times the plan's features."""
    no_floor = Device(9, 0, SMS, 232448, 0.0)
    for batch in (1, 300):
        # Each tile pinned: its row (the tool's cost_row, as the fit names it) and its estimate, that row times
        # the plan's features.
        offered = set()
        for tile in PIPED:
            status, text, x = plan_on("fp32", 1371, 358, 124, family=f"simt:{tile}", batch=batch, device=no_floor)
            row = cost_row(text, batch > 1)
            assert row.startswith("simt/piped") and row.endswith("_batched") == (batch > 1), (batch, text)
            coefs = inc_coefs()[row]
            est = float(fields(text)["est"].removesuffix("us"))
            assert est == pytest.approx(sum(a * b for a, b in zip(coefs, x)), abs=0.051), (batch, text)
            if any(coefs):
                offered.add(tile)
        picked = set()
        for mode in ("fp32", "tf32tf32"):
            for m, n, k in itertools.product((11, 40, 300, 1371, 6000), (33, 90, 358, 2000), (33, 124, 1000)):
                if batch * m * n * k > 2 ** 36:
                    continue
                tile = fields(plan_on(mode, m, n, k, batch=batch)[1]).get("tile", "")
                if tile.startswith("piped"):
                    picked.add(tile)
        assert picked <= offered and bool(picked) == bool(offered), (batch, offered, picked)
