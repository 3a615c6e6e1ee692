# Included by _ecgemm.pyx: the common case of ecgemm.matmul in one Cython corridor.
#
# Two 2-D float32 CUDA tensors of PyTorch or CuPy, or two 3-D stacks of one batch size
# (one strided-batched call; broadcasting is the general path's), and `out` of the same
# kind, or none with beta = 0, no stream, and no handle or one without a stream of its
# own: read each operand's attributes once (no __cuda_array_interface__ dict: PyTorch
# builds it in Python, ~4 us a tensor), plan in C, take the handle (this thread's cached
# one by default) and the package's raw current stream, allocate the result and make the C call with
# the GIL released. Anything unusual (another dtype, a layout without a unit stride,
# operands on two devices, empty or huge sizes, a bool alpha...) returns None and the
# general path in _api.py raises the same typed errors it always did: this corridor
# never reports an error of its own, it only declines.

import sys

cdef object _thread_state = threading.local()


def default_handle(int device):
    """This thread's handle for `device`, created on first use.

    One per thread because a handle serves one thread at a time; one per device
    because a handle is bound to the device it was created on.
    """
    try:
        handles = _thread_state.handles
    except AttributeError:
        handles = _thread_state.handles = {}
    handle = handles.get(device)
    if handle is None:
        handle = handles[device] = Handle(device=device)
    return handle


cdef enum Kind:
    KIND_OTHER = 0
    KIND_TORCH = 1
    KIND_CUPY = 2

cdef dict _kinds = {}  # type -> Kind, filled on first sight of a type
cdef object _torch_float32 = None, _torch_strided = None, _torch_raw_stream = None
cdef object _cupy_empty = None, _cupy_current_stream = None, _cupy_float32 = None


cdef int _kind_of(type kind) except -1:
    global _torch_float32, _torch_strided, _torch_raw_stream
    global _cupy_empty, _cupy_current_stream, _cupy_float32
    known = _kinds.get(kind)
    if known is not None:
        return known
    result = KIND_OTHER
    root = kind.__module__.partition(".")[0]
    torch = sys.modules.get("torch") if root == "torch" else None
    cupy = sys.modules.get("cupy") if root == "cupy" else None
    if torch is not None and kind is torch.Tensor:
        # The raw current stream without building a torch.cuda.Stream object.
        _torch_raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        if _torch_raw_stream is not None:
            _torch_float32, _torch_strided = torch.float32, torch.strided
            result = KIND_TORCH
    elif cupy is not None and kind is cupy.ndarray:
        _cupy_empty, _cupy_current_stream = cupy.empty, cupy.cuda.get_current_stream
        _cupy_float32 = np.dtype(np.float32)
        result = KIND_CUPY
    _kinds[kind] = result
    return result


cdef struct Matrix:
    uintptr_t ptr
    long long rows
    long long cols
    long long row_stride  # elements
    long long col_stride
    int device
    int stacked           # a 3-D stack: `count` matrices `batch_stride` elements apart
    long long count
    long long batch_stride


cdef bint _read_torch(tensor, Matrix* mat) except -1:
    # requires_grad: PyTorch refuses to export such tensors; the general path says so.
    if tensor.dtype is not _torch_float32 or tensor.layout is not _torch_strided \
            or tensor.requires_grad:
        return False
    dims = tensor.dim()
    if dims != 2 and dims != 3:
        return False
    mat.device = tensor.get_device()
    if mat.device < 0:
        return False
    mat.stacked = dims == 3
    if mat.stacked:
        mat.count, mat.rows, mat.cols = tensor.shape
        mat.batch_stride, mat.row_stride, mat.col_stride = tensor.stride()
    else:
        mat.count, mat.batch_stride = 1, 0
        mat.rows, mat.cols = tensor.shape
        mat.row_stride, mat.col_stride = tensor.stride()
    mat.ptr = tensor.data_ptr()
    return True


cdef bint _read_cupy(array, Matrix* mat) except -1:
    if array.dtype != _cupy_float32 or (array.ndim != 2 and array.ndim != 3):
        return False
    mat.stacked = array.ndim == 3
    if mat.stacked:
        mat.count, mat.rows, mat.cols = array.shape
        mat.batch_stride, mat.row_stride, mat.col_stride = array.strides
    else:
        mat.count, mat.batch_stride = 1, 0
        mat.rows, mat.cols = array.shape
        mat.row_stride, mat.col_stride = array.strides
    if mat.row_stride % FLOAT_BYTES or mat.col_stride % FLOAT_BYTES \
            or mat.batch_stride % FLOAT_BYTES:
        return False
    mat.row_stride //= FLOAT_BYTES
    mat.col_stride //= FLOAT_BYTES
    mat.batch_stride //= FLOAT_BYTES
    mat.ptr = array.data.ptr
    mat.device = array.device.id
    return True


cdef long long _column_major_ld(long long rows, long long cols, long long row_stride,
                                long long col_stride) noexcept nogil:
    """_layout.column_major_ld in C; -1 for "not column-major"."""
    if rows == 0 or cols == 0:
        return max(1, rows)
    if rows > 1 and row_stride != 1:
        return -1
    if cols <= 1:
        return max(1, rows)
    return col_stride if col_stride >= max(1, rows) else -1


cdef bint _stored(const Matrix* mat, ecgemmOperation_t* trans, long long* ld) noexcept nogil:
    """_layout._stored in C: how the ABI reads `mat`; False if it cannot in place."""
    ld[0] = _column_major_ld(mat.rows, mat.cols, mat.row_stride, mat.col_stride)
    if ld[0] >= 0:
        trans[0] = ECGEMM_OP_N
        return True
    ld[0] = _column_major_ld(mat.cols, mat.rows, mat.col_stride, mat.row_stride)
    trans[0] = ECGEMM_OP_T
    return ld[0] >= 0


cdef inline ecgemmOperation_t _flip(ecgemmOperation_t trans) noexcept nogil:
    return ECGEMM_OP_T if trans == ECGEMM_OP_N else ECGEMM_OP_N


cdef bint _plan(const Matrix* a, const Matrix* b, const Matrix* c, SgemmCall* call) noexcept nogil:
    """_layout.plan_gemm in C (same arguments, so the same kernels and bits)."""
    cdef ecgemmOperation_t ta, tb, tc
    cdef long long lda, ldb, ldc
    if not (_stored(a, &ta, &lda) and _stored(b, &tb, &ldb) and _stored(c, &tc, &ldc)):
        return False
    if max(a.rows, b.cols, a.cols, lda, ldb, ldc) > INT32_LIMIT:
        return False
    call.k = a.cols
    call.c, call.ldc = <float*>c.ptr, ldc
    if tc == ECGEMM_OP_N:
        call.transa, call.transb, call.m, call.n = ta, tb, a.rows, b.cols
        call.a, call.lda, call.b, call.ldb = <const float*>a.ptr, lda, <const float*>b.ptr, ldb
    else:  # C^T = B^T A^T
        call.transa, call.transb, call.m, call.n = _flip(tb), _flip(ta), b.cols, a.rows
        call.a, call.lda, call.b, call.ldb = <const float*>b.ptr, ldb, <const float*>a.ptr, lda
    return True


cdef long long INT32_LIMIT = 2147483647


cdef bint _disjoint(const Matrix* x, const Matrix* y) noexcept nogil:
    """_operands.check_no_overlap's test: the byte ranges of `x` and `y` do not meet."""
    cdef long long x_low = 0, x_high = 1, y_low = 0, y_high = 1
    cdef long long x_off[3]
    cdef long long y_off[3]
    x_off[0], x_off[1] = (x.rows - 1) * x.row_stride, (x.cols - 1) * x.col_stride
    y_off[0], y_off[1] = (y.rows - 1) * y.row_stride, (y.cols - 1) * y.col_stride
    x_off[2], y_off[2] = (x.count - 1) * x.batch_stride, (y.count - 1) * y.batch_stride
    for i in range(3):
        x_low += min(0, x_off[i])
        x_high += max(0, x_off[i])
        y_low += min(0, y_off[i])
        y_high += max(0, y_off[i])
    return not (<long long>y.ptr + y_low * 4 < <long long>x.ptr + x_high * 4
                and <long long>x.ptr + x_low * 4 < <long long>y.ptr + y_high * 4)


cdef bint _items_apart(const Matrix* c) noexcept nogil:
    """A stack's items do not overlap (each starts past the previous one's last element)."""
    if c.count <= 1:
        return True
    return c.batch_stride > (c.rows - 1) * c.row_stride + (c.cols - 1) * c.col_stride


def matmul_fast(a, b, out, alpha, beta, mode, Handle handle=None):
    """``a @ b`` (into `out`) for the common case, or None when the general path must decide.

    See the comment at the top of _fast.pxi for what "common" means. `handle`: a handle
    without a stream of its own (default: this thread's for the operands' device).
    """
    cdef Matrix A, B, C
    cdef SgemmCall call
    cdef int kind = _kind_of(type(a))
    cdef int current = -1
    cdef int mode_code
    cdef ecgemmStatus_t status = ECGEMM_STATUS_SUCCESS
    cdef rt.cudaError_t error
    cdef long long stride_a = 0, stride_b = 0, stride_c = 0
    if kind == KIND_OTHER or type(b) is not type(a) or (out is not None and type(out) is not type(a)):
        return None
    if not ((type(alpha) is float or type(alpha) is int)
            and (type(beta) is float or type(beta) is int) and (beta == 0 or out is not None)):
        return None
    if kind == KIND_TORCH:
        if not (_read_torch(a, &A) and _read_torch(b, &B)
                and (out is None or _read_torch(out, &C))):
            return None
    elif not (_read_cupy(a, &A) and _read_cupy(b, &B) and (out is None or _read_cupy(out, &C))):
        return None
    if A.device != B.device or A.cols != B.rows or A.rows == 0 or B.cols == 0 or A.cols == 0 \
            or A.ptr % FLOAT_BYTES or B.ptr % FLOAT_BYTES:
        return None
    if A.stacked != B.stacked or A.count != B.count or A.count == 0 or A.count > INT32_LIMIT \
            or A.batch_stride < 0 or B.batch_stride < 0:
        return None
    if out is not None and not (C.device == A.device and C.rows == A.rows and C.cols == B.cols
                                and C.stacked == A.stacked and C.count == A.count
                                and C.ptr % FLOAT_BYTES == 0 and _disjoint(&C, &A)
                                and _disjoint(&C, &B) and _items_apart(&C)):
        return None
    if handle is None:
        handle = default_handle(A.device)
    elif handle.device != A.device or handle._stream is not None:
        return None
    mode_code = _MODE_CODES[handle._mode] if mode is None else _MODE_CODES.get(mode, -1)
    if mode_code < 0:
        return None
    call.mode = <ecgemmMode_t>mode_code
    if kind == KIND_CUPY:
        with nogil:
            rt.cudaGetDevice(&current)
        if current != A.device:  # CuPy's current stream is per device: let the general path
            return None
        stream = _cupy_current_stream().ptr if handle._stream is None else handle._stream
    else:
        stream = _torch_raw_stream(A.device) if handle._stream is None else handle._stream
    if out is None:  # the result: C-ordered (m, n) or (count, m, n), allocated once the plan holds
        C.ptr, C.rows, C.cols, C.row_stride, C.col_stride = 0, A.rows, B.cols, B.cols, 1
        C.stacked, C.count, C.batch_stride = A.stacked, A.count, A.rows * B.cols
    if not _plan(&A, &B, &C, &call):
        return None
    # Item strides in the ABI's order (_plan may compute C^T = B^T A^T); one item: none,
    # as _layout.plan_batch has it.
    if A.count > 1:
        stride_c = C.batch_stride
        if <uintptr_t>call.a == A.ptr:
            stride_a, stride_b = A.batch_stride, B.batch_stride
        else:
            stride_a, stride_b = B.batch_stride, A.batch_stride
    if A.stacked:
        shape = (A.count, A.rows, B.cols)
    else:
        shape = (A.rows, B.cols)
    if out is not None:
        result = out
    elif kind == KIND_CUPY:
        result = _cupy_empty(shape, dtype=_cupy_float32)
        call.c = <float*><uintptr_t>result.data.ptr
    else:
        result = a.new_empty(shape)
        call.c = <float*><uintptr_t>result.data_ptr()
    call.handle = handle._require()
    call.stream = <ecgemmStream_t><uintptr_t>stream
    call.alpha, call.beta = alpha, beta
    lock = handle._lock
    lock.acquire()
    try:
        with nogil:
            error = rt.cudaGetDevice(&current)
            if error == rt.cudaSuccess and current != handle.device:
                error = rt.cudaSetDevice(handle.device)
            if error == rt.cudaSuccess:
                status = ecgemm_set_stream(call.handle, call.stream)
                if status == ECGEMM_STATUS_SUCCESS:
                    status = ecgemm_set_mode(call.handle, call.mode)
                if status == ECGEMM_STATUS_SUCCESS and not A.stacked:
                    status = ecgemm_sgemm(call.handle, call.transa, call.transb, call.m, call.n,
                                          call.k, &call.alpha, call.a, call.lda, call.b,
                                          call.ldb, &call.beta, call.c, call.ldc)
                elif status == ECGEMM_STATUS_SUCCESS:
                    status = ecgemm_sgemm_strided_batched(
                        call.handle, call.transa, call.transb, call.m, call.n, call.k,
                        &call.alpha, call.a, call.lda, stride_a, call.b, call.ldb, stride_b,
                        &call.beta, call.c, call.ldc, stride_c, <int>A.count)
                if current != handle.device:
                    rt.cudaSetDevice(current)
    finally:
        lock.release()
    _check_cuda(error, "selecting the operands' device")
    if status == ECGEMM_STATUS_ALLOC_FAILED and handle._allocator is None:
        return None  # short of memory: nothing ran; the general path retries with less
    _check_call(handle, status)
    return result
