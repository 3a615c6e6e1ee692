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
