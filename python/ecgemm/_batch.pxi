# Included by _ecgemm.pyx: batched products (one strided-batched or pointer-array call
# for a whole stack) and DeviceArray, device memory that ecgemm allocates itself (host
# staging of NumPy stacks, results for packages that can only import via DLPack).

from cpython.pycapsule cimport (PyCapsule_Destructor, PyCapsule_GetPointer, PyCapsule_IsValid,
                               PyCapsule_New)
from cpython.ref cimport Py_DECREF, Py_INCREF, PyObject
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport free, malloc


cdef bint _capturing(uintptr_t stream) except -1:
    cdef rt.cudaStreamCaptureStatus status = rt.cudaStreamCaptureStatusNone
    cdef rt.cudaError_t error
    with nogil:
        error = rt.cudaStreamIsCapturing(<rt.cudaStream_t>stream, &status)
    _check_cuda(error, "cudaStreamIsCapturing")
    return status != rt.cudaStreamCaptureStatusNone


cdef class _ItemPointers:
    """A batch's item pointers in device memory, for one call, ordered on its stream.

    Allocated and freed on the call's stream (the device's stream-ordered pool), so
    calls on other streams never share them. The copy is from pageable memory, which
    the driver takes before cudaMemcpyAsync returns; a CUDA graph could not replay it,
    so a capture is refused before anything is queued.
    """
    cdef void* data
    cdef rt.cudaStream_t stream

    def __cinit__(self):
        self.data = NULL

    cdef int upload(self, const void* host, size_t bytes, uintptr_t stream) except -1:
        cdef rt.cudaError_t error
        if _capturing(stream):
            raise EcgemmError(
                "ECGEMM_STATUS_NOT_SUPPORTED",
                "this stack's batch strides do not reduce to one stride, so its item pointers "
                "are copied from the host, which a CUDA graph cannot replay; capture a "
                "contiguous stack (e.g. .contiguous()) or call outside the capture")
        self.stream = <rt.cudaStream_t>stream
        with nogil:
            error = rt.cudaMallocAsync(&self.data, bytes, self.stream)
            if error == rt.cudaSuccess:
                error = rt.cudaMemcpyAsync(self.data, host, bytes, rt.cudaMemcpyHostToDevice,
                                           self.stream)
        _check_cuda(error, "copying the batch's item pointers to the device")
        return 0

    cdef void release(self) noexcept nogil:
        if self.data != NULL:
            rt.cudaFreeAsync(self.data, self.stream)
            self.data = NULL

    def __dealloc__(self):
        self.release()


def gemm_device_batched(Handle handle, plan, float alpha, float beta, mode, uintptr_t stream,
                        waits):
    """Run `plan` (a _layout.BatchPlan) on device operands, as one batched call.

    Returns once the work is enqueued; the result is ready on `stream`.
    """
    cdef SgemmCall call = _prepare(handle, plan.gemm, alpha, beta, mode, stream)
    cdef _ItemPointers items = None
    cdef int previous
    cdef uint64_t[:, ::1] pointers
    call.count = plan.count
    if plan.strides is None:
        # Item addresses: item 0's plus each item's offset (elements -> bytes).
        host = np.empty((3, call.count), dtype=np.uint64)
        base = np.array([<uintptr_t>call.a, <uintptr_t>call.b, <uintptr_t>call.c],
                        dtype=np.uint64)
        np.add(base[:, None], plan.offsets.astype(np.uint64) * np.uint64(FLOAT_BYTES),
               out=host)
        pointers = host
        items = _ItemPointers()
    else:
        call.stride_a, call.stride_b, call.stride_c = plan.strides
    with handle._lock:
        previous = _enter_device(handle.device)
        try:
            for producer in waits:
                _stream_wait(stream, producer)
            if items is not None:
                items.upload(&pointers[0, 0], 3 * call.count * sizeof(uint64_t), stream)
                call.items = <const float* const*>items.data
            _run(handle, &call)
        finally:
            if items is not None:
                items.release()
            _leave_device(previous, handle.device)


# --- device memory that ecgemm owns ----------------------------------------------

# DLPack's C structures (dlpack.h, ABI version 0.x: the "dltensor" capsule).
cdef struct DLDevice:
    int32_t device_type
    int32_t device_id

cdef struct DLDataType:
    uint8_t code
    uint8_t bits
    uint16_t lanes

cdef struct DLTensor:
    void* data
    DLDevice device
    int32_t ndim
    DLDataType dtype
    int64_t* shape
    int64_t* strides
    uint64_t byte_offset

cdef struct DLManagedTensor:
    DLTensor dl_tensor
    void* manager_ctx
    void (*deleter)(DLManagedTensor*) noexcept nogil

cdef int DL_CUDA = 2
cdef uint8_t DL_FLOAT = 2


cdef void _release_managed(DLManagedTensor* managed) noexcept nogil:
    """The DLPack deleter: the consumer is done with the memory."""
    with gil:
        Py_DECREF(<object>managed.manager_ctx)
    free(managed)


cdef void _capsule_destructor(object capsule) noexcept:
    # A capsule still named "dltensor" was never consumed: release it here.
    if PyCapsule_IsValid(capsule, b"dltensor"):
        _release_managed(<DLManagedTensor*>PyCapsule_GetPointer(capsule, b"dltensor"))


cdef class DeviceArray:
    """A C-ordered float32 array in device memory that ecgemm allocated.

    Stream-ordered: allocated on `stream`, written there; ``__cuda_array_interface__``
    (v3) names that stream and ``__dlpack__`` makes the consumer's stream wait for it,
    so packages that import it (``jax.dlpack.from_dlpack``...) read finished data.
    Freed with ``cudaFree`` (which waits for the device) when the last holder lets go,
    since importers may still have reads queued on their own streams.
    """
    cdef void* _data
    cdef readonly tuple shape
    cdef readonly int device
    cdef readonly uintptr_t stream

    def __cinit__(self, shape, int device, uintptr_t stream):
        cdef size_t count = 1
        cdef rt.cudaError_t error
        self._data = NULL
        self.shape = tuple(int(extent) for extent in shape)
        for extent in self.shape:
            count *= <size_t>extent
        self.device, self.stream = device, stream
        previous = _enter_device(device)
        try:
            with nogil:
                error = rt.cudaMallocAsync(&self._data, max(count, 1) * FLOAT_BYTES,
                                           <rt.cudaStream_t>stream)
                if error == rt.cudaErrorNotSupported:
                    rt.cudaGetLastError()
                    error = rt.cudaMalloc(&self._data, max(count, 1) * FLOAT_BYTES)
        finally:
            _leave_device(previous, device)
        _check_cuda(error, f"allocating a {self.shape} float32 result")

    def __dealloc__(self):
        if self._data != NULL:
            with nogil:
                rt.cudaFree(self._data)

    @property
    def ptr(self):
        return <uintptr_t>self._data

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": "<f4", "strides": None,
                "data": (<uintptr_t>self._data, False), "version": 3,
                "stream": self.stream or 1}

    def __dlpack_device__(self):
        return (DL_CUDA, self.device)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        cdef DLManagedTensor* managed
        cdef int ndim = len(self.shape)
        cdef int64_t step = 1
        if copy:
            raise BufferError("DeviceArray exports its memory in place (copy=True refused)")
        if dl_device is not None and tuple(dl_device) != (DL_CUDA, self.device):
            raise BufferError(f"DeviceArray lives on CUDA device {self.device}")
        if stream is not None and stream != -1:
            # None and 1: the legacy default stream (handle 0); 2: per-thread default.
            consumer = 0 if stream == 1 else int(stream)
            if consumer != self.stream:
                _stream_wait(consumer, self.stream)
        elif stream is None and self.stream != 0:
            _stream_wait(0, self.stream)
        managed = <DLManagedTensor*>malloc(sizeof(DLManagedTensor) + 2 * max(ndim, 1)
                                            * sizeof(int64_t))
        if managed == NULL:
            raise MemoryError()
        managed.dl_tensor.data = self._data
        managed.dl_tensor.device.device_type = DL_CUDA
        managed.dl_tensor.device.device_id = self.device
        managed.dl_tensor.ndim = ndim
        managed.dl_tensor.dtype.code = DL_FLOAT
        managed.dl_tensor.dtype.bits = 32
        managed.dl_tensor.dtype.lanes = 1
        managed.dl_tensor.shape = <int64_t*>(managed + 1)
        managed.dl_tensor.strides = managed.dl_tensor.shape + max(ndim, 1)
        managed.dl_tensor.byte_offset = 0
        for axis in range(ndim - 1, -1, -1):
            managed.dl_tensor.shape[axis] = self.shape[axis]
            managed.dl_tensor.strides[axis] = step
            step *= max(1, self.shape[axis])
        Py_INCREF(self)
        managed.manager_ctx = <void*><PyObject*>self
        managed.deleter = _release_managed
        return PyCapsule_New(managed, b"dltensor", <PyCapsule_Destructor>_capsule_destructor)

    def upload(self, size_t offset, uintptr_t host, size_t nbytes):
        """Copy `nbytes` from host address `host` to byte `offset`, on the array's stream."""
        self._copy(<char*>self._data + offset, <const void*>host, nbytes,
                   rt.cudaMemcpyHostToDevice)

    def download(self, size_t offset, uintptr_t host, size_t nbytes):
        """Copy `nbytes` at byte `offset` to host address `host` and wait for them."""
        cdef rt.cudaError_t error
        self._copy(<void*>host, <const char*>self._data + offset, nbytes,
                   rt.cudaMemcpyDeviceToHost)
        with nogil:
            error = rt.cudaStreamSynchronize(<rt.cudaStream_t>self.stream)
        _check_cuda(error, "cudaStreamSynchronize")

    cdef int _copy(self, void* dst, const void* src, size_t nbytes,
                   rt.cudaMemcpyKind kind) except -1:
        cdef rt.cudaError_t error
        previous = _enter_device(self.device)
        try:
            with nogil:
                error = rt.cudaMemcpyAsync(dst, src, nbytes, kind, <rt.cudaStream_t>self.stream)
        finally:
            _leave_device(previous, self.device)
        _check_cuda(error, "copying a NumPy stack")
        return 0
