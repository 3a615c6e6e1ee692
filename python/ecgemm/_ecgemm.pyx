# cython: language_level=3, embedsignature=True
"""Cython binding over libecgemm's C ABI.

Everything here assumes checked arguments (see _api.py): this module turns a
GemmPlan into C calls, owns handle lifetime, device selection, stream waits and
the host staging copies, and turns status codes into EcgemmError. The GIL is
released around every call into libecgemm and the CUDA runtime.
"""

import operator
import threading

import numpy as np

from libc.stdint cimport int64_t, uintptr_t
from libc.stddef cimport size_t
from libc.string cimport memset, strncpy

cimport ecgemm._cudart as rt

from ecgemm._errors import EcgemmError
from ecgemm._streams import stream_handle

cdef extern from "internal.h" nogil:
    ctypedef enum ecgemmSplitMethod_t:
        ECGEMM_SPLIT_TF32
        ECGEMM_SPLIT_HALF
        ECGEMM_SPLIT_MARKIDIS
    int ecgemm_internal_validate(int transa, int transb, int m, int n, int k, int lda, int ldb,
                                 int ldc)
    ecgemmStatus_t ecgemm_internal_plan_string(
        ecgemmHandle_t handle, int transa, int transb, int64_t m, int64_t n, int64_t k,
        int64_t lda, int64_t ldb, int64_t ldc, int64_t batch_count, int pointer_arrays,
        char* text, size_t length)
    ecgemmStatus_t ecgemm_internal_workspace_usage(int device, int reset_high, size_t* used,
                                                   size_t* used_high, size_t* reserved,
                                                   size_t* reserved_high)
    ecgemmStatus_t ecgemm_internal_split_host(ecgemmSplitMethod_t method, const float* x,
                                              float* hi, float* lo, size_t n)
    ecgemmStatus_t ecgemm_internal_split_device(ecgemmSplitMethod_t method, const float* x,
                                                float* hi, float* lo, size_t n)

cdef tuple _library_modes():
    """The modes' names in ecgemmMode_t's order, from libecgemm (ecgemm_get_mode_name):
    the C enum is the one table every binding derives its names from."""
    cdef const char* name
    cdef int value = 0
    names = []
    while True:
        name = ecgemm_get_mode_name(<ecgemmMode_t>value)
        if name == NULL:
            return tuple(names)
        names.append(name.decode())
        value += 1


MODES = _library_modes()
_MODE_CODES = {name: code for code, name in enumerate(MODES)}


def normalize_mode(mode, *, allow_none=True):
    """_modes.normalize_mode (pure Python, so that torch.compile traces the callers that use
    it); imported here on use, since _modes takes MODES from this module."""
    from ecgemm._modes import normalize_mode as normalize
    return normalize(mode, allow_none=allow_none)


_SPLIT_METHODS = {
    "tf32": ECGEMM_SPLIT_TF32,
    "half": ECGEMM_SPLIT_HALF,
    "markidis": ECGEMM_SPLIT_MARKIDIS,
}

cdef size_t FLOAT_BYTES = sizeof(float)
cdef size_t STAGING_ALIGNMENT = 256  # bytes; what cudaMalloc guarantees, kept for each operand


# --- errors ------------------------------------------------------------------

cdef str _status_name(ecgemmStatus_t status):
    cdef const char* name
    with nogil:
        name = ecgemm_get_status_name(status)
    return name.decode() if name != NULL else f"ecgemm status {<int>status}"


cdef int _check(ecgemmStatus_t status, bint from_sgemm=False) except -1:
    """Raise EcgemmError for a failed libecgemm call."""
    cdef int arg = 0
    cdef const char* text
    if status == ECGEMM_STATUS_SUCCESS:
        return 0
    with nogil:
        # Which argument is only known for ecgemm_sgemm, and only right after it.
        if from_sgemm and status == ECGEMM_STATUS_INVALID_VALUE:
            arg = ecgemm_get_last_error_arg()
        text = ecgemm_get_status_string(status)
    message = text.decode() if text != NULL else "unknown status"
    raise EcgemmError(_status_name(status), message, arg or None)


cdef int _check_cuda(rt.cudaError_t error, str what) except -1:
    """Raise EcgemmError for a failed CUDA runtime call, classified as a status."""
    cdef ecgemmStatus_t status
    if error == rt.cudaSuccess:
        return 0
    with nogil:
        rt.cudaGetLastError()  # clear it, so that no later call reports it again
    detail = (f"{what} failed with {rt.cudaGetErrorName(error).decode()}: "
              f"{rt.cudaGetErrorString(error).decode()}")
    if error == rt.cudaErrorNoDevice or error == rt.cudaErrorInsufficientDriver:
        status = ECGEMM_STATUS_NO_DEVICE
        detail = ("ecgemm needs an NVIDIA GPU of compute capability 8.0 or newer and its "
                  "driver; " + detail)
    elif error == rt.cudaErrorMemoryAllocation:
        status = ECGEMM_STATUS_ALLOC_FAILED
    else:
        status = ECGEMM_STATUS_EXECUTION_FAILED
    raise EcgemmError(_status_name(status), detail)


# --- devices -----------------------------------------------------------------

def version():
    """The library's version as ``"major.minor.patch"`` (from ``ecgemm_get_version``)."""
    cdef int encoded
    with nogil:
        encoded = ecgemm_get_version()
    return f"{encoded // 10000}.{encoded // 100 % 100}.{encoded % 100}"


def device_count():
    """Number of CUDA devices ecgemm can use: 0 without a GPU or driver (never raises)."""
    cdef int count
    with nogil:
        count = ecgemm_get_device_count()
    return count


def current_device():
    """This thread's current CUDA device; ``EcgemmError`` (NO_DEVICE) without a GPU."""
    cdef int device = 0
    cdef rt.cudaError_t error
    with nogil:
        error = rt.cudaGetDevice(&device)
    _check_cuda(error, "cudaGetDevice")
    return device


def device_properties(int device):
    """Name, compute capability, multiprocessor count and memory of `device`, as a dict."""
    cdef rt.cudaDeviceProp prop
    cdef rt.cudaError_t error
    with nogil:
        error = rt.cudaGetDeviceProperties(&prop, device)
    _check_cuda(error, f"cudaGetDeviceProperties({device})")
    return {"name": prop.name.decode(errors="replace"),
            "compute_capability": (prop.major, prop.minor),
            "multiprocessors": prop.multiProcessorCount,
            "memory_bytes": prop.totalGlobalMem}


def pointer_device(uintptr_t ptr, str name):
    """The device that holds the memory at `ptr` (the operand called `name`)."""
    cdef rt.cudaPointerAttributes attributes
    cdef rt.cudaError_t error
    with nogil:
        error = rt.cudaPointerGetAttributes(&attributes, <const void*>ptr)
    _check_cuda(error, f"cudaPointerGetAttributes({name})")
    if attributes.type == rt.cudaMemoryTypeUnregistered:
        raise ValueError(f"{name} has __cuda_array_interface__, but its address {ptr:#x} is "
                         "host memory unknown to CUDA")
    return attributes.device


cdef int _enter_device(int device) except -1:
    """Make `device` current; return the device that was."""
    cdef int previous = 0
    cdef rt.cudaError_t error
    with nogil:
        error = rt.cudaGetDevice(&previous)
    _check_cuda(error, "cudaGetDevice")
    if previous != device:
        with nogil:
            error = rt.cudaSetDevice(device)
        _check_cuda(error, f"cudaSetDevice({device})")
    return previous


cdef void _leave_device(int previous, int device) noexcept nogil:
    if previous != device:
        rt.cudaSetDevice(previous)


# --- handles -----------------------------------------------------------------

cdef int _allocator_alloc(void* ctx, void** ptr, size_t size,
                          ecgemmStream_t stream) noexcept with gil:
    """ecgemmDeviceMemHandler_t.device_alloc over a Python allocator (Handle.set_allocator)."""
    allocator = <object>ctx
    try:
        ptr[0] = <void*><uintptr_t>allocator.alloc(size, <uintptr_t>stream)
        return 0
    except BaseException as error:  # reported by the call that needed the memory
        allocator.failure = error
        return 1


cdef int _allocator_free(void* ctx, void* ptr, size_t size,
                         ecgemmStream_t stream) noexcept with gil:
    allocator = <object>ctx
    try:
        allocator.free(<uintptr_t>ptr, size, <uintptr_t>stream)
        return 0
    except BaseException as error:
        allocator.failure = error
        return 1


class _Allocator:
    """What the C handle points at: the user's allocator and the last error it raised."""
    __slots__ = ("alloc", "free", "failure")

    def __init__(self, allocator):
        self.alloc, self.free, self.failure = allocator.alloc, allocator.free, None


cdef class Handle:
    """An ecgemm library handle: device, stream, mode and where scratch memory comes from.

    Parameters
    ----------
    device : int, optional
        CUDA device ordinal; default: the current device.
    stream : int or stream object, optional
        Stream for every call made with this handle (an int handle, a
        ``cupy.cuda.Stream``, a ``torch.cuda.Stream``...); only its raw handle is
        kept, so keep the stream object alive. Default ``None``: follow the
        operands' package's current stream at each call.
    mode : str
        Default mode of calls made with this handle; one of ``ecgemm.MODES``.

    Notes
    -----
    A handle serializes the calls made through it (calls from several threads
    wait for each other); use one handle per thread for concurrency. Calls may run
    on any streams: each takes its scratch memory on its own stream (from the
    library's pool, or from :meth:`set_allocator`'s allocator), so calls in flight
    on several streams, and calls captured into CUDA graphs, never share it
    (docs/memory.md). Close the handle with :meth:`close` or a ``with`` block;
    otherwise it is destroyed when collected.

    Examples
    --------
    >>> with ecgemm.Handle(mode="halfhalf") as h:          # doctest: +SKIP
    ...     c = ecgemm.matmul(a, b, handle=h)
    """

    def __cinit__(self):
        self._handle = NULL
        self._allocator = None

    def __init__(self, device=None, stream=None, mode="tf32tf32"):
        cdef int dev
        cdef int previous
        cdef ecgemmHandle_t handle = NULL
        cdef ecgemmStatus_t status
        if self._handle != NULL:
            raise RuntimeError("Handle.__init__ called twice")
        self._mode = normalize_mode(mode, allow_none=False)
        self._stream = None if stream is None else stream_handle(stream)
        self._lock = threading.Lock()
        dev = current_device() if device is None else operator.index(device)
        count = device_count()
        if not 0 <= dev < count:
            raise ValueError(f"device {dev} does not exist: ecgemm sees {count} device(s)")
        previous = _enter_device(dev)
        try:
            with nogil:
                status = ecgemm_create(&handle)
        finally:
            _leave_device(previous, dev)
        _check(status)
        self._handle = handle
        self.device = dev

    def __dealloc__(self):
        if self._handle != NULL:
            with nogil:
                ecgemm_destroy(self._handle)  # nothing to report to from here

    cdef ecgemmHandle_t _require(self) except NULL:
        if self._handle == NULL:
            raise ValueError("this ecgemm.Handle is closed")
        return self._handle

    def close(self):
        """Destroy the library handle; further use raises."""
        cdef ecgemmHandle_t handle
        cdef ecgemmStatus_t status = ECGEMM_STATUS_SUCCESS
        cdef int previous
        with self._lock:
            if self._handle == NULL:
                return
            previous = _enter_device(self.device)
            handle, self._handle = self._handle, NULL
            try:
                with nogil:
                    status = ecgemm_destroy(handle)
            finally:
                _leave_device(previous, self.device)
        _check(status)

    def __enter__(self):
        self._require()
        return self

    def __exit__(self, *exc_info):
        self.close()

    @property
    def closed(self):
        """True once :meth:`close` has run."""
        return self._handle == NULL

    @property
    def mode(self):
        """Default mode of this handle's calls (one of ``ecgemm.MODES``)."""
        return self._mode

    @mode.setter
    def mode(self, value):
        self._mode = normalize_mode(value, allow_none=False)

    @property
    def stream(self):
        """The stream handle (int) this handle computes on, or None to follow the operands."""
        return self._stream

    @stream.setter
    def stream(self, value):
        self._stream = None if value is None else stream_handle(value)

    @property
    def workspace_limit(self):
        """The most scratch memory (bytes) one call may take; 0 means no limit.

        A call that would need more plans fewer split-K steps or another kernel
        family: slower, never less accurate than FP32. Default: 0, or the
        ``ECGEMM_WORKSPACE_LIMIT`` environment variable (bytes, optional K/M/G).
        """
        cdef size_t limit = 0
        cdef ecgemmHandle_t handle = self._require()
        with nogil:
            status = ecgemm_get_workspace_limit(handle, &limit)
        _check(status)
        return limit

    @workspace_limit.setter
    def workspace_limit(self, value):
        cdef size_t limit = operator.index(value)
        cdef ecgemmHandle_t handle = self._require()
        with nogil:
            status = ecgemm_set_workspace_limit(handle, limit)
        _check(status)

    def release_workspace(self):
        """Give the idle scratch memory of this handle's device back to the driver."""
        cdef ecgemmHandle_t handle = self._require()
        cdef int previous = _enter_device(self.device)
        try:
            with nogil:
                status = ecgemm_release_workspace(handle)
        finally:
            _leave_device(previous, self.device)
        _check(status)

    def set_allocator(self, allocator):
        """Take scratch memory from `allocator` instead of the library's pool.

        `allocator` has ``alloc(size, stream) -> int`` (a device address, 256-byte
        aligned, usable by work queued on the int `stream` after the call) and
        ``free(ptr, size, stream)`` (stream-ordered: work queued later on `stream`
        may reuse the memory at once), as PyTorch's caching allocator behaves.
        ``None`` restores the pool. An exception raised by `alloc` is re-raised
        by the call that needed the memory.
        """
        cdef ecgemmDeviceMemHandler_t handler
        cdef ecgemmHandle_t handle = self._require()
        cdef ecgemmStatus_t status
        wrapped = None if allocator is None else _Allocator(allocator)
        with self._lock:
            if wrapped is None:
                with nogil:
                    status = ecgemm_set_device_mem_handler(handle, NULL)
            else:
                memset(&handler, 0, sizeof(handler))
                handler.ctx = <void*>wrapped
                handler.device_alloc = _allocator_alloc
                handler.device_free = _allocator_free
                name = type(allocator).__qualname__.encode()
                strncpy(handler.name, name, sizeof(handler.name) - 1)
                with nogil:
                    status = ecgemm_set_device_mem_handler(handle, &handler)
            _check(status)
            self._allocator = wrapped

    @property
    def ptr(self):
        """The raw ``ecgemmHandle_t`` as an int, for calling the C ABI directly."""
        return <uintptr_t>self._require()

    def __repr__(self):
        state = "closed" if self._handle == NULL else f"mode={self._mode!r}, stream={self._stream}"
        return f"<ecgemm.Handle device={self.device}, {state}>"


# --- GEMM --------------------------------------------------------------------

cdef struct SgemmCall:
    ecgemmHandle_t handle
    ecgemmStream_t stream
    ecgemmMode_t mode
    ecgemmOperation_t transa
    ecgemmOperation_t transb
    int m
    int n
    int k
    float alpha
    float beta
    const float* a
    int lda
    const float* b
    int ldb
    float* c
    int ldc
    # Batched calls: count > 0 (0: ecgemm_sgemm); items: the pointer arrays on the device
    # (A's, then B's, then C's), else the strides.
    int count
    long long stride_a
    long long stride_b
    long long stride_c
    const float* const* items


cdef SgemmCall _prepare(Handle handle, plan, float alpha, float beta, mode,
                        uintptr_t stream) except *:
    """The C call that `plan` (a _layout.GemmPlan) describes, on the plan's own pointers."""
    cdef SgemmCall call
    call.handle = handle._require()
    call.stream = <ecgemmStream_t>stream
    call.mode = _MODE_CODES[handle._mode if mode is None else mode]
    call.transa = plan.transa
    call.transb = plan.transb
    call.m, call.n, call.k = plan.m, plan.n, plan.k
    call.alpha, call.beta = alpha, beta
    call.a = <const float*><uintptr_t>plan.a.operand.ptr
    call.b = <const float*><uintptr_t>plan.b.operand.ptr
    call.c = <float*><uintptr_t>plan.c.operand.ptr
    call.lda, call.ldb, call.ldc = plan.a.ld, plan.b.ld, plan.c.ld
    call.count, call.stride_a, call.stride_b, call.stride_c, call.items = 0, 0, 0, 0, NULL
    return call


cdef int _set_call(SgemmCall* call) except -1:
    """Point the C handle at the call's stream and mode."""
    cdef ecgemmStatus_t status
    with nogil:
        status = ecgemm_set_stream(call.handle, call.stream)
        if status == ECGEMM_STATUS_SUCCESS:
            status = ecgemm_set_mode(call.handle, call.mode)
    _check(status)
    return 0


cdef ecgemmStatus_t _sgemm(SgemmCall* call) noexcept nogil:
    """The one C entry that `call` describes."""
    if call.count == 0:
        return ecgemm_sgemm(call.handle, call.transa, call.transb, call.m, call.n, call.k,
                            &call.alpha, call.a, call.lda, call.b, call.ldb, &call.beta,
                            call.c, call.ldc)
    if call.items == NULL:
        return ecgemm_sgemm_strided_batched(
            call.handle, call.transa, call.transb, call.m, call.n, call.k, &call.alpha,
            call.a, call.lda, call.stride_a, call.b, call.ldb, call.stride_b, &call.beta,
            call.c, call.ldc, call.stride_c, call.count)
    return ecgemm_sgemm_batched(
        call.handle, call.transa, call.transb, call.m, call.n, call.k, &call.alpha,
        call.items, call.lda, call.items + call.count, call.ldb, &call.beta,
        <float* const*>(call.items + 2 * call.count), call.ldc, call.count)


cdef size_t _shortage_limit(Handle handle) except? 0:
    """After an allocation failure: give back idle scratch and return a limit that the
    device's free memory can hold (at least 1 byte: 0 would mean "no limit")."""
    cdef size_t free = 0, total = 0
    cdef ecgemmHandle_t h = handle._require()
    with nogil:
        ecgemm_release_workspace(h)
        if rt.cudaMemGetInfo(&free, &total) != rt.cudaSuccess:
            rt.cudaGetLastError()
            free = 0
    return max(free // 2, 1)


cdef int _check_call(Handle handle, ecgemmStatus_t status) except -1:
    """_check for an sgemm call; an exception from the handle's allocator comes first."""
    allocator = handle._allocator
    if allocator is not None and allocator.failure is not None:
        error, allocator.failure = allocator.failure, None
        raise EcgemmError(_status_name(status),
                          f"the handle's allocator failed: {error!r}") from error
    return _check(status, from_sgemm=True)


cdef int _run(Handle handle, SgemmCall* call) except -1:
    cdef ecgemmStatus_t status
    cdef size_t limit = 0, short = 0
    _set_call(call)
    with nogil:
        status = _sgemm(call)
    if status == ECGEMM_STATUS_ALLOC_FAILED and handle._allocator is None:
        # The device is short of memory: once more with no more scratch than it has
        # free, which the planner meets with fewer splits or another family (slower,
        # as accurate); SIMT needs none, so this only fails for lack of memory itself.
        short = _shortage_limit(handle)
        with nogil:
            ecgemm_get_workspace_limit(call.handle, &limit)
            if limit == 0 or short < limit:
                ecgemm_set_workspace_limit(call.handle, short)
                status = _sgemm(call)
                ecgemm_set_workspace_limit(call.handle, limit)
    _check_call(handle, status)
    return 0


cdef int _stream_wait(uintptr_t consumer, uintptr_t producer) except -1:
    """Make `consumer` wait for the work enqueued on `producer` so far (no host wait)."""
    cdef rt.cudaEvent_t event = NULL
    cdef rt.cudaError_t error
    with nogil:
        error = rt.cudaEventCreateWithFlags(&event, rt.cudaEventDisableTiming)
    _check_cuda(error, "cudaEventCreateWithFlags")
    with nogil:
        error = rt.cudaEventRecord(event, <rt.cudaStream_t>producer)
        if error == rt.cudaSuccess:
            error = rt.cudaStreamWaitEvent(<rt.cudaStream_t>consumer, event, 0)
        rt.cudaEventDestroy(event)  # the wait has captured the event: safe to destroy now
    _check_cuda(error, f"waiting on the operands' stream {producer:#x}")
    return 0


def gemm_device(Handle handle, plan, float alpha, float beta, mode, uintptr_t stream, waits):
    """Run `plan` on device operands, on `stream`, after the streams in `waits`.

    Returns once the work is enqueued; the result is ready on `stream`.
    """
    cdef SgemmCall call = _prepare(handle, plan, alpha, beta, mode, stream)
    cdef int previous
    with handle._lock:
        previous = _enter_device(handle.device)
        try:
            for producer in waits:
                _stream_wait(stream, producer)
            _run(handle, &call)
        finally:
            _leave_device(previous, handle.device)


def plan_string(Handle handle, gemm, long long count, bint pointer_arrays, mode):
    """The plan the handle would run for `gemm` (a _layout.GemmPlan) batched `count` times
    (pointer arrays or strides), in `mode` (None: the handle's)."""
    cdef char text[256]
    cdef ecgemmStatus_t status
    cdef ecgemmHandle_t h = handle._require()
    cdef ecgemmMode_t code = _MODE_CODES[handle._mode if mode is None else mode]
    cdef int transa = gemm.transa, transb = gemm.transb
    cdef int64_t m = gemm.m, n = gemm.n, k = gemm.k
    cdef int64_t lda = gemm.a.ld, ldb = gemm.b.ld, ldc = gemm.c.ld
    with handle._lock:
        with nogil:
            status = ecgemm_set_mode(h, code)
            if status == ECGEMM_STATUS_SUCCESS:
                status = ecgemm_internal_plan_string(h, transa, transb, m, n, k, lda, ldb, ldc,
                                                     count, pointer_arrays, text, sizeof(text))
    _check(status)
    return text.decode()


def workspace_usage(int device, bint reset_high=False):
    """The library pool of `device`: bytes in use now and at most, reserved now and at most
    (since the last reset), as a dict."""
    cdef size_t used = 0, used_high = 0, reserved = 0, reserved_high = 0
    cdef ecgemmStatus_t status
    with nogil:
        status = ecgemm_internal_workspace_usage(device, reset_high, &used, &used_high,
                                                 &reserved, &reserved_high)
    _check(status)
    return {"used": used, "used_high": used_high, "reserved": reserved,
            "reserved_high": reserved_high}


cdef size_t _padded_bytes(size_t rows, size_t cols):
    cdef size_t raw = rows * cols * FLOAT_BYTES
    return (raw + STAGING_ALIGNMENT - 1) // STAGING_ALIGNMENT * STAGING_ALIGNMENT


cdef class _Staging:
    """Device copies of a plan's NumPy operands, packed (ld = rows), for one call.

    Allocated from the device's stream-ordered pool where it has one, so repeated
    NumPy calls do not pay cudaMalloc's device-wide synchronisation.
    """
    cdef void* base
    cdef bint pooled
    cdef rt.cudaStream_t stream

    def __cinit__(self):
        self.base = NULL

    cdef int allocate(self, size_t bytes, uintptr_t stream) except -1:
        cdef rt.cudaError_t error
        self.stream = <rt.cudaStream_t>stream
        self.pooled = True
        with nogil:
            error = rt.cudaMallocAsync(&self.base, bytes, self.stream)
            if error == rt.cudaErrorNotSupported:
                rt.cudaGetLastError()
                self.pooled = False
                error = rt.cudaMalloc(&self.base, bytes)
        _check_cuda(error, f"allocating {bytes} bytes to stage NumPy operands")
        return 0

    cdef void release(self) noexcept nogil:
        if self.base != NULL:
            if self.pooled:
                rt.cudaFreeAsync(self.base, self.stream)
            else:
                rt.cudaFree(self.base)
            self.base = NULL

    def __dealloc__(self):
        self.release()


cdef int _copy_matrix(void* dst, size_t dst_ld, const void* src, size_t src_ld, size_t rows,
                      size_t cols, rt.cudaMemcpyKind kind, rt.cudaStream_t stream,
                      str what) except -1:
    """Copy a rows x cols column-major float matrix between leading dimensions."""
    cdef rt.cudaError_t error
    if rows == 0 or cols == 0:
        return 0
    with nogil:
        error = rt.cudaMemcpy2DAsync(dst, dst_ld * FLOAT_BYTES, src, src_ld * FLOAT_BYTES,
                                     rows * FLOAT_BYTES, cols, kind, stream)
    _check_cuda(error, f"copying {what}")
    return 0


cdef int _stage_in(_Staging staging, SgemmCall* call, plan, bint read_c,
                   uintptr_t stream) except -1:
    """Copy the plan's host operands to the device; point `call` at the copies."""
    cdef size_t bytes_a = _padded_bytes(plan.a.rows, plan.a.cols)
    cdef size_t bytes_b = _padded_bytes(plan.b.rows, plan.b.cols)
    cdef char* base
    staging.allocate(bytes_a + bytes_b + _padded_bytes(plan.c.rows, plan.c.cols), stream)
    base = <char*>staging.base
    _copy_matrix(base, max(1, plan.a.rows), call.a, call.lda, plan.a.rows, plan.a.cols,
                 rt.cudaMemcpyHostToDevice, staging.stream, plan.a.operand.name)
    _copy_matrix(base + bytes_a, max(1, plan.b.rows), call.b, call.ldb, plan.b.rows,
                 plan.b.cols, rt.cudaMemcpyHostToDevice, staging.stream, plan.b.operand.name)
    if read_c:  # beta == 0: C is written without being read, so it need not travel
        _copy_matrix(base + bytes_a + bytes_b, max(1, plan.c.rows), call.c, call.ldc,
                     plan.c.rows, plan.c.cols, rt.cudaMemcpyHostToDevice, staging.stream,
                     plan.c.operand.name)
    call.a, call.lda = <const float*>base, max(1, plan.a.rows)
    call.b, call.ldb = <const float*>(base + bytes_a), max(1, plan.b.rows)
    call.c, call.ldc = <float*>(base + bytes_a + bytes_b), max(1, plan.c.rows)
    return 0


cdef int _stage_out(_Staging staging, SgemmCall* call, plan) except -1:
    """Copy C back into the caller's array and wait for it."""
    cdef rt.cudaError_t error
    _copy_matrix(<void*><uintptr_t>plan.c.operand.ptr, plan.c.ld, call.c, call.ldc,
                 plan.c.rows, plan.c.cols, rt.cudaMemcpyDeviceToHost, staging.stream,
                 plan.c.operand.name)
    with nogil:
        error = rt.cudaStreamSynchronize(staging.stream)
    _check_cuda(error, "cudaStreamSynchronize")
    return 0


def gemm_host(Handle handle, plan, float alpha, float beta, mode, uintptr_t stream,
              bint read_c):
    """Run `plan` on NumPy operands: copy in, compute on `stream`, copy C back.

    Returns when C holds the result. C is written only if the computation
    succeeded. `read_c` (beta != 0) says whether C's old values are needed.
    """
    cdef SgemmCall call = _prepare(handle, plan, alpha, beta, mode, stream)
    cdef _Staging staging = _Staging()
    cdef int previous
    with handle._lock:
        previous = _enter_device(handle.device)
        try:
            _stage_in(staging, &call, plan, read_c, stream)
            _run(handle, &call)
            _stage_out(staging, &call, plan)
        finally:
            staging.release()
            _leave_device(previous, handle.device)


def benchmark_host(Handle handle, plan, mode, int repeats):
    """Time `plan` on NumPy operands with CUDA events, copies excluded.

    Copies in once, runs once to warm up, then `repeats` timed runs, and copies the
    last result back. Returns the milliseconds of each timed run.
    """
    cdef SgemmCall call = _prepare(handle, plan, 1.0, 0.0, mode, 0)
    cdef _Staging staging = _Staging()
    cdef rt.cudaEvent_t start = NULL
    cdef rt.cudaEvent_t end = NULL
    cdef rt.cudaError_t error
    cdef float elapsed = 0.0
    cdef int previous
    times = []
    with handle._lock:
        previous = _enter_device(handle.device)
        try:
            with nogil:
                error = rt.cudaEventCreate(&start)
                if error == rt.cudaSuccess:
                    error = rt.cudaEventCreate(&end)
            _check_cuda(error, "cudaEventCreate")
            _stage_in(staging, &call, plan, False, 0)
            _run(handle, &call)
            for _ in range(repeats):
                with nogil:
                    error = rt.cudaEventRecord(start, staging.stream)
                _check_cuda(error, "cudaEventRecord")
                _run(handle, &call)
                with nogil:
                    error = rt.cudaEventRecord(end, staging.stream)
                    if error == rt.cudaSuccess:
                        error = rt.cudaEventSynchronize(end)
                    if error == rt.cudaSuccess:
                        error = rt.cudaEventElapsedTime(&elapsed, start, end)
                _check_cuda(error, "timing with CUDA events")
                times.append(elapsed)
            _stage_out(staging, &call, plan)
        finally:
            staging.release()
            with nogil:
                if start != NULL:
                    rt.cudaEventDestroy(start)
                if end != NULL:
                    rt.cudaEventDestroy(end)
            _leave_device(previous, handle.device)
    return times


include "_batch.pxi"
include "_fast.pxi"


# --- internal entry points for the numerics tests ------------------------------

def _split_method(method):
    try:
        return _SPLIT_METHODS[method]
    except (KeyError, TypeError):
        raise ValueError(f"method must be one of {tuple(_SPLIT_METHODS)}, got {method!r}") from None


def _float32_vector(x):
    if not isinstance(x, np.ndarray) or x.dtype != np.float32:
        raise TypeError(f"x must be a float32 NumPy array, got "
                        f"{getattr(x, 'dtype', type(x).__name__)}")
    return np.ascontiguousarray(x)


def _split_host(method, x):
    """Split `x` into (hi, lo) with the host-compiled split functions.

    Exactly the kernels' numerics (ecgemm_internal_split_host). For "half", lo
    still carries the 2^11 scale. Returns two float32 arrays shaped like `x`.
    """
    cdef ecgemmSplitMethod_t code = _split_method(method)
    x = _float32_vector(x)
    hi, lo = np.empty_like(x), np.empty_like(x)
    cdef const float* src = <const float*><uintptr_t>x.ctypes.data
    cdef float* hi_ptr = <float*><uintptr_t>hi.ctypes.data
    cdef float* lo_ptr = <float*><uintptr_t>lo.ctypes.data
    cdef size_t n = x.size
    cdef ecgemmStatus_t status
    with nogil:
        status = ecgemm_internal_split_host(code, src, hi_ptr, lo_ptr, n)
    _check(status)
    return hi, lo


def _split_device(method, x):
    """As :func:`_split_host`, through the device-compiled split (a NumPy round trip)."""
    cdef ecgemmSplitMethod_t code = _split_method(method)
    x = _float32_vector(x)
    hi, lo = np.empty_like(x), np.empty_like(x)
    cdef size_t n = x.size
    cdef size_t bytes = max(n, 1) * FLOAT_BYTES
    cdef float* device = NULL
    cdef ecgemmStatus_t status = ECGEMM_STATUS_SUCCESS
    cdef rt.cudaError_t error
    cdef const void* src = <const void*><uintptr_t>x.ctypes.data
    cdef void* hi_ptr = <void*><uintptr_t>hi.ctypes.data
    cdef void* lo_ptr = <void*><uintptr_t>lo.ctypes.data
    with nogil:
        error = rt.cudaMalloc(<void**>&device, 3 * bytes)
    _check_cuda(error, "cudaMalloc")
    try:
        with nogil:
            error = rt.cudaMemcpy(device, src, n * FLOAT_BYTES, rt.cudaMemcpyHostToDevice)
        _check_cuda(error, "copying x to the device")
        with nogil:
            status = ecgemm_internal_split_device(code, device, device + n, device + 2 * n, n)
        _check(status)
        with nogil:
            error = rt.cudaDeviceSynchronize()
            if error == rt.cudaSuccess:
                error = rt.cudaMemcpy(hi_ptr, device + n, n * FLOAT_BYTES,
                                      rt.cudaMemcpyDeviceToHost)
            if error == rt.cudaSuccess:
                error = rt.cudaMemcpy(lo_ptr, device + 2 * n, n * FLOAT_BYTES,
                                      rt.cudaMemcpyDeviceToHost)
        _check_cuda(error, "copying hi and lo back")
    finally:
        with nogil:
            rt.cudaFree(device)
    return hi, lo


def _validate(int transa, int transb, int m, int n, int k, int lda, int ldb, int ldc):
    """ecgemm_internal_validate: 0, or netlib's position of the first bad argument."""
    cdef int result
    with nogil:
        result = ecgemm_internal_validate(transa, transb, m, n, k, lda, ldb, ldc)
    return result
