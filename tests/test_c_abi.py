"""C ABI checks that need no GPU: validation order and codes, status strings,
version, NULL handles, and a clean NO_DEVICE when there is no GPU."""
import ctypes
import itertools

import pytest

from _capi import MODES, OP, STATUS, load

lib = load()


def validate(transa="N", transb="N", m=4, n=5, k=6, lda=None, ldb=None, ldc=None):
    ta, tb = OP.get(transa, transa), OP.get(transb, transb)
    rows_a = m if ta == 0 else k
    rows_b = k if tb == 0 else n
    lda = max(1, rows_a) if lda is None else lda
    ldb = max(1, rows_b) if ldb is None else ldb
    ldc = max(1, m) if ldc is None else ldc
    return lib.ecgemm_internal_validate(ta, tb, m, n, k, lda, ldb, ldc)


@pytest.mark.parametrize("transa,transb", list(itertools.product("NTC", repeat=2)))
def test_valid_arguments_pass(transa, transb):
    assert validate(transa, transb) == 0
    assert validate(transa, transb, m=0, n=0, k=0) == 0  # ld >= max(1, 0) = 1


@pytest.mark.parametrize(
    "kwargs,position",
    [
        (dict(transa=3), 1), (dict(transa=-1), 1), (dict(transb=7), 2),
        (dict(m=-1), 3), (dict(n=-1), 4), (dict(k=-1), 5),
        (dict(lda=3), 8), (dict(transa="T", lda=5), 8), (dict(m=0, lda=0), 8),
        (dict(ldb=5), 10), (dict(transb="T", ldb=4), 10), (dict(k=0, ldb=0), 10),
        (dict(ldc=3), 13), (dict(m=0, ldc=0), 13),
    ],
)
def test_first_bad_argument_is_reported(kwargs, position):
    assert validate(**kwargs) == position


def test_netlib_order_reports_the_first_of_several():
    # every argument bad: transa wins; then each in turn once the earlier ones are fixed
    assert validate(transa=9, transb=9, m=-1, n=-1, k=-1, lda=0, ldb=0, ldc=0) == 1
    assert validate(transb=9, m=-1, n=-1, k=-1, lda=0, ldb=0, ldc=0) == 2
    assert validate(m=-1, n=-1, k=-1, lda=0, ldb=0, ldc=0) == 3
    assert validate(n=-1, k=-1, lda=0, ldb=0, ldc=0) == 4
    assert validate(k=-1, lda=0, ldb=0, ldc=0) == 5
    assert validate(lda=0, ldb=0, ldc=0) == 8
    assert validate(ldb=0, ldc=0) == 10
    assert validate(ldc=0) == 13


def test_status_strings_and_names():
    for name, value in STATUS.items():
        assert lib.ecgemm_get_status_name(value).decode() == "ECGEMM_STATUS_" + name
        assert lib.ecgemm_get_status_string(value)
    assert b"UNKNOWN" in lib.ecgemm_get_status_name(12345)


def test_version():
    assert lib.ecgemm_get_version() == 100  # 0.1.0


def test_null_handle_is_not_initialized():
    one = ctypes.c_float(1.0)
    st = lib.ecgemm_sgemm(None, 0, 0, 1, 1, 1, ctypes.addressof(one), None, 1, None, 1,
                          ctypes.addressof(one), None, 1)
    assert st == STATUS["NOT_INITIALIZED"]
    assert lib.ecgemm_set_mode(None, MODES["fp32"]) == STATUS["NOT_INITIALIZED"]
    assert lib.ecgemm_destroy(None) == STATUS["NOT_INITIALIZED"]


def test_create_without_gpu_reports_no_device():
    if lib.ecgemm_get_device_count() > 0:
        pytest.skip("a GPU is present: this checks the no-GPU error path")
    handle = ctypes.c_void_p(1)
    assert lib.ecgemm_create(ctypes.byref(handle)) == STATUS["NO_DEVICE"]
    assert handle.value is None


# --- the batched entries' own checks (strides, count), after sgemm's ---------------------------

def validate_batch(m=4, n=5, ldc=4, sa=20, sb=30, sc=20, count=3, strided=1):
    return lib.ecgemm_internal_validate_batch(m, n, ldc, sa, sb, sc, count, strided)


def test_batch_arguments_pass_and_operands_may_repeat():
    assert validate_batch() == 0
    assert validate_batch(sa=0, sb=0) == 0            # one A and one B for every product
    assert validate_batch(count=0) == 0               # quick return
    assert validate_batch(count=1, sc=0) == 0         # one product: C never overlaps itself
    assert validate_batch(sc=-5, strided=0) == 0      # pointer arrays: strides unused


@pytest.mark.parametrize("kwargs,position", [
    (dict(sa=-1), 14), (dict(sb=-1), 15), (dict(sc=-1), 16), (dict(count=-1), 17),
    (dict(sc=0), 16),                       # every product writes the same C
    (dict(m=4, n=5, ldc=4, sc=19), 16),     # the last column of C_z runs into C_{z+1}
    (dict(count=-1, strided=0), 17),
])
def test_batch_first_bad_argument_is_reported(kwargs, position):
    assert validate_batch(**kwargs) == position


def test_batch_positions_follow_the_order_of_the_arguments():
    assert validate_batch(sa=-1, sb=-1, sc=-1, count=-1) == 14
    assert validate_batch(sb=-1, sc=-1, count=-1) == 15
    assert validate_batch(sc=-1, count=-1) == 16


def test_c_blocks_that_touch_without_overlap_pass():
    # C_z = [z * sc, z * sc + (n - 1) * ldc + m): sc = (n - 1) * ldc + m is the tightest packing
    assert validate_batch(m=4, n=5, ldc=6, sc=4 * 6 + 4) == 0
    assert validate_batch(m=4, n=5, ldc=6, sc=4 * 6 + 3) == 16


def test_new_entries_report_a_null_handle():
    one = ctypes.c_float(1.0)
    p = ctypes.addressof(one)
    assert lib.ecgemm_sgemm_64(None, 0, 0, 1, 1, 1, p, p, 1, p, 1, p, p, 1) == STATUS["NOT_INITIALIZED"]
    assert lib.ecgemm_sgemm_strided_batched(None, 0, 0, 1, 1, 1, p, p, 1, 1, p, 1, 1, p, p, 1, 1, 2) == \
        STATUS["NOT_INITIALIZED"]
    assert lib.ecgemm_sgemm_strided_batched_64(None, 0, 0, 1, 1, 1, p, p, 1, 1, p, 1, 1, p, p, 1, 1, 2) == \
        STATUS["NOT_INITIALIZED"]
    assert lib.ecgemm_sgemm_batched(None, 0, 0, 1, 1, 1, p, p, 1, p, 1, p, p, 1, 2) == STATUS["NOT_INITIALIZED"]
    assert lib.ecgemm_sgemm_batched_64(None, 0, 0, 1, 1, 1, p, p, 1, p, 1, p, p, 1, 2) == \
        STATUS["NOT_INITIALIZED"]
