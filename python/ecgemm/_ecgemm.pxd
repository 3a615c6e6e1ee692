# Cython declarations of ecgemm's C ABI (include/ecgemm.h), shipped with the
# package so that other Cython code can call the library directly:
#
#     from ecgemm cimport _ecgemm as ec
#     cdef ec.ecgemmHandle_t h = (<ec.Handle> py_handle)._handle
#
# Compile with ecgemm.get_include() on the include path and link against the
# libecgemm shared library in ecgemm.get_library_dir() (-lecgemm).

from libc.stddef cimport size_t
from libc.stdint cimport int64_t

cdef extern from "ecgemm.h" nogil:
    int ECGEMM_VERSION_MAJOR
    int ECGEMM_VERSION_MINOR
    int ECGEMM_VERSION_PATCH
    int ECGEMM_VERSION

    ctypedef void* ecgemmStream_t "ecgemmStream_t"
    ctypedef void* ecgemmHandle_t "ecgemmHandle_t"

    ctypedef enum ecgemmStatus_t:
        ECGEMM_STATUS_SUCCESS
        ECGEMM_STATUS_NOT_INITIALIZED
        ECGEMM_STATUS_ALLOC_FAILED
        ECGEMM_STATUS_INVALID_VALUE
        ECGEMM_STATUS_ARCH_MISMATCH
        ECGEMM_STATUS_EXECUTION_FAILED
        ECGEMM_STATUS_INTERNAL_ERROR
        ECGEMM_STATUS_NOT_SUPPORTED
        ECGEMM_STATUS_NO_DEVICE

    ctypedef enum ecgemmMode_t:
        ECGEMM_MODE_TF32TF32
        ECGEMM_MODE_HALFHALF
        ECGEMM_MODE_FP32
        ECGEMM_MODE_TF32
        ECGEMM_MODE_FP16
        ECGEMM_MODE_MARKIDIS
        ECGEMM_MODE_AUTO

    ctypedef enum ecgemmOperation_t:
        ECGEMM_OP_N
        ECGEMM_OP_T
        ECGEMM_OP_C

    ctypedef enum ecgemmPointerMode_t:
        ECGEMM_POINTER_MODE_HOST
        ECGEMM_POINTER_MODE_DEVICE

    const char* ecgemm_get_status_string(ecgemmStatus_t status)
    const char* ecgemm_get_status_name(ecgemmStatus_t status)
    int ecgemm_get_version()
    int ecgemm_get_last_error_arg()

    ecgemmStatus_t ecgemm_create(ecgemmHandle_t* handle)
    ecgemmStatus_t ecgemm_destroy(ecgemmHandle_t handle)
    ecgemmStatus_t ecgemm_set_stream(ecgemmHandle_t handle, ecgemmStream_t stream)
    ecgemmStatus_t ecgemm_get_stream(ecgemmHandle_t handle, ecgemmStream_t* stream)
    ecgemmStatus_t ecgemm_set_mode(ecgemmHandle_t handle, ecgemmMode_t mode)
    ecgemmStatus_t ecgemm_get_mode(ecgemmHandle_t handle, ecgemmMode_t* mode)
    ecgemmStatus_t ecgemm_set_pointer_mode(ecgemmHandle_t handle, ecgemmPointerMode_t mode)
    ecgemmStatus_t ecgemm_get_pointer_mode(ecgemmHandle_t handle, ecgemmPointerMode_t* mode)
    ecgemmStatus_t ecgemm_get_device(ecgemmHandle_t handle, int* device)
    const char* ecgemm_get_mode_name(ecgemmMode_t mode)

    ctypedef struct ecgemmDeviceMemHandler_t:
        void* ctx
        int (*device_alloc)(void* ctx, void** ptr, size_t size, ecgemmStream_t stream) noexcept nogil
        int (*device_free)(void* ctx, void* ptr, size_t size, ecgemmStream_t stream) noexcept nogil
        char name[64]

    ecgemmStatus_t ecgemm_set_workspace(ecgemmHandle_t handle, void* workspace, size_t bytes)
    ecgemmStatus_t ecgemm_set_workspace_limit(ecgemmHandle_t handle, size_t bytes)
    ecgemmStatus_t ecgemm_get_workspace_limit(ecgemmHandle_t handle, size_t* bytes)
    ecgemmStatus_t ecgemm_release_workspace(ecgemmHandle_t handle)
    ecgemmStatus_t ecgemm_set_device_mem_handler(ecgemmHandle_t handle,
                                                 const ecgemmDeviceMemHandler_t* handler)
    ecgemmStatus_t ecgemm_get_device_mem_handler(ecgemmHandle_t handle,
                                                 ecgemmDeviceMemHandler_t* handler)
    ecgemmStatus_t ecgemm_get_workspace_size(ecgemmHandle_t handle, int m, int n, int k,
                                             size_t* bytes)
    ecgemmStatus_t ecgemm_get_workspace_size_64(
        ecgemmHandle_t handle, ecgemmOperation_t transa, ecgemmOperation_t transb, int64_t m,
        int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc, int64_t batch_count,
        int pointer_arrays, size_t* bytes)

    ecgemmStatus_t ecgemm_sgemm(ecgemmHandle_t handle, ecgemmOperation_t transa,
                                ecgemmOperation_t transb, int m, int n, int k,
                                const float* alpha, const float* A, int lda,
                                const float* B, int ldb, const float* beta, float* C, int ldc)

    ecgemmStatus_t ecgemm_sgemm_strided_batched(
        ecgemmHandle_t handle, ecgemmOperation_t transa, ecgemmOperation_t transb, int m, int n,
        int k, const float* alpha, const float* A, int lda, long long strideA, const float* B,
        int ldb, long long strideB, const float* beta, float* C, int ldc, long long strideC,
        int batch_count)
    ecgemmStatus_t ecgemm_sgemm_batched(
        ecgemmHandle_t handle, ecgemmOperation_t transa, ecgemmOperation_t transb, int m, int n,
        int k, const float* alpha, const float* const* A, int lda, const float* const* B,
        int ldb, const float* beta, float* const* C, int ldc, int batch_count)
    ecgemmStatus_t ecgemm_sgemm_64(
        ecgemmHandle_t handle, ecgemmOperation_t transa, ecgemmOperation_t transb, int64_t m,
        int64_t n, int64_t k, const float* alpha, const float* A, int64_t lda, const float* B,
        int64_t ldb, const float* beta, float* C, int64_t ldc)
    ecgemmStatus_t ecgemm_sgemm_strided_batched_64(
        ecgemmHandle_t handle, ecgemmOperation_t transa, ecgemmOperation_t transb, int64_t m,
        int64_t n, int64_t k, const float* alpha, const float* A, int64_t lda, int64_t strideA,
        const float* B, int64_t ldb, int64_t strideB, const float* beta, float* C, int64_t ldc,
        int64_t strideC, int64_t batch_count)
    ecgemmStatus_t ecgemm_sgemm_batched_64(
        ecgemmHandle_t handle, ecgemmOperation_t transa, ecgemmOperation_t transb, int64_t m,
        int64_t n, int64_t k, const float* alpha, const float* const* A, int64_t lda,
        const float* const* B, int64_t ldb, const float* beta, float* const* C, int64_t ldc,
        int64_t batch_count)

    ecgemmStatus_t ecgemm_device_malloc(void** ptr, size_t bytes)
    ecgemmStatus_t ecgemm_device_free(void* ptr)
    ecgemmStatus_t ecgemm_memcpy_to_device(void* dst, const void* src, size_t bytes)
    ecgemmStatus_t ecgemm_memcpy_to_host(void* dst, const void* src, size_t bytes)
    ecgemmStatus_t ecgemm_device_synchronize()
    int ecgemm_get_device_count()


# The Python-level handle; `_handle` is NULL once closed.
cdef class Handle:
    cdef ecgemmHandle_t _handle
    cdef readonly int device
    cdef str _mode
    cdef object _stream
    cdef object _lock
    # The stream-ordered allocator the library takes scratch from (None: its pool);
    # kept alive here because the C handle holds a borrowed pointer to it.
    cdef object _allocator
    cdef ecgemmHandle_t _require(self) except NULL
