/*
 * ecgemm — error-corrected single-precision GEMM on NVIDIA Tensor Cores.
 *
 * Public C ABI. Column-major, cuBLAS/netlib semantics. Usable from C99 and C++.
 * Nothing in this header needs C++ or the CUDA headers beyond the stream type.
 */
#ifndef ECGEMM_H
#define ECGEMM_H

#include <stddef.h>
#include <stdint.h>

#define ECGEMM_VERSION_MAJOR 0
#define ECGEMM_VERSION_MINOR 1
#define ECGEMM_VERSION_PATCH 0
/* major * 10000 + minor * 100 + patch, as cuBLAS encodes CUBLAS_VERSION. */
#define ECGEMM_VERSION \
  (ECGEMM_VERSION_MAJOR * 10000 + ECGEMM_VERSION_MINOR * 100 + ECGEMM_VERSION_PATCH)

#if defined(_WIN32)
#  define ECGEMM_API __declspec(dllimport)
#elif defined(__GNUC__)
#  define ECGEMM_API __attribute__((visibility("default")))
#else
#  define ECGEMM_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The stream type without pulling in cuda_runtime.h: same layout as cudaStream_t. */
struct CUstream_st;
typedef struct CUstream_st* ecgemmStream_t;

typedef enum {
  ECGEMM_STATUS_SUCCESS = 0,
  ECGEMM_STATUS_NOT_INITIALIZED = 1,
  ECGEMM_STATUS_ALLOC_FAILED = 3,
  ECGEMM_STATUS_INVALID_VALUE = 7,
  ECGEMM_STATUS_ARCH_MISMATCH = 8,
  ECGEMM_STATUS_EXECUTION_FAILED = 13,
  ECGEMM_STATUS_INTERNAL_ERROR = 14,
  ECGEMM_STATUS_NOT_SUPPORTED = 15,
  ECGEMM_STATUS_NO_DEVICE = 16
} ecgemmStatus_t;

typedef enum {
  /* The corrected modes. Skinny and small shapes, where a separate split pass costs
   * more than the product, run on Tensor Core kernels that split inside the CTA (the same
   * products and accuracy class); GEMV-like ones (a side of C at most 4 wide) on an FP32
   * kernel. Which kernel takes which shape is measured: libecgemm/planner.cpp. */
  ECGEMM_MODE_TF32TF32 = 0, /* default: TF32 hi/lo split, 3 products, RN promotion */
  ECGEMM_MODE_HALFHALF = 1, /* FP16 hi/lo split, lo scaled by 2^11, 3 products  */
  ECGEMM_MODE_FP32 = 2,     /* plain FP32 SIMT kernel: the in-library reference    */
  ECGEMM_MODE_TF32 = 3,     /* one TF32 pass, uncorrected                          */
  ECGEMM_MODE_FP16 = 4,     /* one FP16 pass, uncorrected                          */
  ECGEMM_MODE_MARKIDIS = 5, /* FP16 split, unscaled lo, 4 products inside the TC   */
  /* halfhalf's speed on any data: per call, on the device, each row of op(A) and
   * column of op(B) is scaled by a power of two (exact; the inputs are not written)
   * into FP16's window and the epilogue undoes it; when a row or column spans more
   * binades than the window holds, or holds NaN/Inf, the call runs tf32tf32's products
   * (on the same scaled operands) instead, decided on the device. Shapes that do not take the split-pass Tensor Core
   * route run as tf32tf32 does. */
  ECGEMM_MODE_AUTO = 6
} ecgemmMode_t;

typedef enum {
  ECGEMM_OP_N = 0,
  ECGEMM_OP_T = 1,
  ECGEMM_OP_C = 2 /* same as T for real data */
} ecgemmOperation_t;

typedef enum {
  ECGEMM_POINTER_MODE_HOST = 0,  /* alpha, beta are host pointers (default) */
  ECGEMM_POINTER_MODE_DEVICE = 1 /* alpha, beta are device pointers         */
} ecgemmPointerMode_t;

typedef struct ecgemmContext* ecgemmHandle_t;

ECGEMM_API const char* ecgemm_get_status_string(ecgemmStatus_t status);
/* The enumerator's name, e.g. "ECGEMM_STATUS_INVALID_VALUE". */
ECGEMM_API const char* ecgemm_get_status_name(ecgemmStatus_t status);
ECGEMM_API int ecgemm_get_version(void);

/*
 * After an sgemm entry returns ECGEMM_STATUS_INVALID_VALUE: the 1-based position of
 * the first bad argument in netlib's numbering (1 transa, 2 transb, 3 m, 4 n, 5 k,
 * 6 alpha, 7 A, 8 lda, 9 B, 10 ldb, 11 beta, 12 C, 13 ldc; the batched calls add
 * 14..17, see below; 0 for a handle problem). Thread-local; reset by every sgemm call.
 */
ECGEMM_API int ecgemm_get_last_error_arg(void);

ECGEMM_API ecgemmStatus_t ecgemm_create(ecgemmHandle_t* handle);
ECGEMM_API ecgemmStatus_t ecgemm_destroy(ecgemmHandle_t handle);
ECGEMM_API ecgemmStatus_t ecgemm_set_stream(ecgemmHandle_t handle, ecgemmStream_t stream);
ECGEMM_API ecgemmStatus_t ecgemm_get_stream(ecgemmHandle_t handle, ecgemmStream_t* stream);
ECGEMM_API ecgemmStatus_t ecgemm_set_mode(ecgemmHandle_t handle, ecgemmMode_t mode);
ECGEMM_API ecgemmStatus_t ecgemm_get_mode(ecgemmHandle_t handle, ecgemmMode_t* mode);
ECGEMM_API ecgemmStatus_t ecgemm_set_pointer_mode(ecgemmHandle_t handle, ecgemmPointerMode_t mode);
ECGEMM_API ecgemmStatus_t ecgemm_get_pointer_mode(ecgemmHandle_t handle, ecgemmPointerMode_t* mode);
/* Device ordinal the handle was created on (the current device at ecgemm_create). */
ECGEMM_API ecgemmStatus_t ecgemm_get_device(ecgemmHandle_t handle, int* device);

/* The mode's name as every binding spells it: the enumerator's suffix in lower case
 * ("tf32tf32", "auto", ...); NULL for a value that is no mode. ecgemm_get_mode_by_name
 * is its inverse (case-insensitive; ECGEMM_STATUS_INVALID_VALUE for an unknown name). */
ECGEMM_API const char* ecgemm_get_mode_name(ecgemmMode_t mode);
ECGEMM_API ecgemmStatus_t ecgemm_get_mode_by_name(const char* name, ecgemmMode_t* mode);

/*
 * Scratch memory, streams and CUDA graphs (docs/memory.md).
 *
 * A call that needs scratch (split planes, split-K partials, AUTO's scales) takes one
 * block before its first kernel and gives it back after its last, both ordered on the
 * call's stream, from the first of:
 *  1. the user workspace (ecgemm_set_workspace): device memory, 256-byte aligned, used
 *     as it is by every call of the handle. Calls that share it must be ordered by the
 *     caller (one stream, or events), as with cublasSetWorkspace;
 *  2. the user's stream-ordered allocator (ecgemm_set_device_mem_handler);
 *  3. the library's memory pool for the device (cudaMallocFromPoolAsync on the call's
 *     stream), shared by all handles on it.
 * With 2 and 3 a handle may switch streams between calls and have calls in flight on
 * any number of streams: each result is bit for bit the same call's made alone. A call
 * captured into a CUDA graph takes its block from the graph (a memory node), valid for
 * every replay whatever the handle does meanwhile. The pool keeps freed blocks for the
 * next calls until ecgemm_release_workspace or until its device's last handle is
 * destroyed. A handle is still used by one host thread at a time.
 */
ECGEMM_API ecgemmStatus_t ecgemm_set_workspace(ecgemmHandle_t handle, void* workspace, size_t bytes);

/*
 * The most scratch one call of this handle may take, in bytes; 0 (the default, unless
 * the environment variable ECGEMM_WORKSPACE_LIMIT gives one, with an optional K/M/G
 * suffix) means no limit. A call that would need more plans fewer split-K steps or
 * another kernel family (slower, never less accurate than FP32 SGEMM). A user workspace
 * is a limit of its own size.
 */
ECGEMM_API ecgemmStatus_t ecgemm_set_workspace_limit(ecgemmHandle_t handle, size_t bytes);
ECGEMM_API ecgemmStatus_t ecgemm_get_workspace_limit(ecgemmHandle_t handle, size_t* bytes);

/* Returns the idle blocks of the pool of the handle's device to the driver (blocks of
 * calls still in flight stay until they finish). The user workspace is not touched. */
ECGEMM_API ecgemmStatus_t ecgemm_release_workspace(ecgemmHandle_t handle);

/*
 * A stream-ordered device allocator for the handle's scratch (PyTorch's caching
 * allocator, XLA's scratch allocator, RMM, ...). device_alloc returns 0 and a block of
 * at least `size` bytes, 256-byte aligned, usable by work queued on `stream` after the
 * call; device_free returns it on the same stream once the call's kernels are queued
 * (work queued later on that stream may reuse it at once). ecgemm takes at most one
 * block per call. NULL restores the library's pool. get returns
 * ECGEMM_STATUS_NOT_SUPPORTED when none is set.
 */
typedef struct {
  void* ctx;
  int (*device_alloc)(void* ctx, void** ptr, size_t size, ecgemmStream_t stream);
  int (*device_free)(void* ctx, void* ptr, size_t size, ecgemmStream_t stream);
  char name[64];
} ecgemmDeviceMemHandler_t;
ECGEMM_API ecgemmStatus_t ecgemm_set_device_mem_handler(ecgemmHandle_t handle,
                                                        const ecgemmDeviceMemHandler_t* handler);
ECGEMM_API ecgemmStatus_t ecgemm_get_device_mem_handler(ecgemmHandle_t handle,
                                                        ecgemmDeviceMemHandler_t* handler);

/*
 * The scratch bytes a call will take in the handle's current mode and limit: the same
 * plan the call runs. The _64 form describes the call fully: batch_count 1 for
 * ecgemm_sgemm (and a strided batch of one), the call's batch_count for the batched
 * forms, pointer_arrays = 1 for ecgemm_sgemm_batched*. ecgemm_get_workspace_size is
 * ecgemm_sgemm's with N, N and packed leading dimensions.
 */
ECGEMM_API ecgemmStatus_t ecgemm_get_workspace_size(ecgemmHandle_t handle, int m, int n, int k,
                                                    size_t* bytes);
ECGEMM_API ecgemmStatus_t ecgemm_get_workspace_size_64(ecgemmHandle_t handle,
                                                       ecgemmOperation_t transa,
                                                       ecgemmOperation_t transb, int64_t m,
                                                       int64_t n, int64_t k, int64_t lda,
                                                       int64_t ldb, int64_t ldc,
                                                       int64_t batch_count, int pointer_arrays,
                                                       size_t* bytes);

/*
 * C = alpha * op(A) * op(B) + beta * C, column-major, on the handle's stream.
 * The environment variable ECGEMM_VERBOSE, set to 1, prints one line per call on stderr:
 * entry point, shape, mode, stream ("captured" when recorded into a CUDA graph, whose
 * replays print nothing) and the plan (kernel family, tile, split-K, scratch bytes).
 */
ECGEMM_API ecgemmStatus_t ecgemm_sgemm(ecgemmHandle_t handle, ecgemmOperation_t transa,
                                       ecgemmOperation_t transb, int m, int n, int k,
                                       const float* alpha, const float* A, int lda,
                                       const float* B, int ldb, const float* beta, float* C,
                                       int ldc);

/* ecgemm_sgemm with 64-bit sizes and leading dimensions (cuBLAS's cublasSgemm_64). */
ECGEMM_API ecgemmStatus_t ecgemm_sgemm_64(ecgemmHandle_t handle, ecgemmOperation_t transa,
                                          ecgemmOperation_t transb, int64_t m, int64_t n,
                                          int64_t k, const float* alpha, const float* A,
                                          int64_t lda, const float* B, int64_t ldb,
                                          const float* beta, float* C, int64_t ldc);

/*
 * Batched products, cuBLAS-style: for z in [0, batch_count),
 *   C_z = alpha * op(A_z) * op(B_z) + beta * C_z,
 * with one m, n, k, lda, ldb, ldc, alpha and beta for all. Run as one launch (or a
 * few) on the handle's stream.
 * - strided: A_z = A + z * strideA (likewise B, C), strides in elements. strideA or
 *   strideB may be 0 (one operand shared by every product); C blocks must not overlap.
 * - pointer arrays: A_z = A[z] (likewise B, C); the arrays live in device memory.
 * Positions reported by ecgemm_get_last_error_arg: sgemm's (1 transa ... 13 ldc; the
 * pointer arrays take A's, B's and C's: 7, 9, 12), then 14 strideA, 15 strideB,
 * 16 strideC (negative, or C blocks that overlap), 17 batch_count (negative).
 * batch_count = 0, m = 0 or n = 0 return at once. Every Tensor Core mode runs batches on
 * kernels that split inside the CTA (mma.sync from sm_80, wgmma on Hopper).
 */
ECGEMM_API ecgemmStatus_t ecgemm_sgemm_strided_batched(
    ecgemmHandle_t handle, ecgemmOperation_t transa, ecgemmOperation_t transb, int m, int n, int k,
    const float* alpha, const float* A, int lda, long long strideA, const float* B, int ldb,
    long long strideB, const float* beta, float* C, int ldc, long long strideC, int batch_count);
ECGEMM_API ecgemmStatus_t ecgemm_sgemm_strided_batched_64(
    ecgemmHandle_t handle, ecgemmOperation_t transa, ecgemmOperation_t transb, int64_t m,
    int64_t n, int64_t k, const float* alpha, const float* A, int64_t lda, int64_t strideA,
    const float* B, int64_t ldb, int64_t strideB, const float* beta, float* C, int64_t ldc,
    int64_t strideC, int64_t batch_count);
ECGEMM_API ecgemmStatus_t ecgemm_sgemm_batched(ecgemmHandle_t handle, ecgemmOperation_t transa,
                                               ecgemmOperation_t transb, int m, int n, int k,
                                               const float* alpha, const float* const A[],
                                               int lda, const float* const B[], int ldb,
                                               const float* beta, float* const C[], int ldc,
                                               int batch_count);
ECGEMM_API ecgemmStatus_t ecgemm_sgemm_batched_64(
    ecgemmHandle_t handle, ecgemmOperation_t transa, ecgemmOperation_t transb, int64_t m,
    int64_t n, int64_t k, const float* alpha, const float* const A[], int64_t lda,
    const float* const B[], int64_t ldb, const float* beta, float* const C[], int64_t ldc,
    int64_t batch_count);

/*
 * Device memory helpers for callers without CUDA headers (C, gfortran): thin,
 * synchronous wrappers over the CUDA runtime on the current device.
 */
ECGEMM_API ecgemmStatus_t ecgemm_device_malloc(void** ptr, size_t bytes);
ECGEMM_API ecgemmStatus_t ecgemm_device_free(void* ptr);
ECGEMM_API ecgemmStatus_t ecgemm_memcpy_to_device(void* dst, const void* src, size_t bytes);
ECGEMM_API ecgemmStatus_t ecgemm_memcpy_to_host(void* dst, const void* src, size_t bytes);
ECGEMM_API ecgemmStatus_t ecgemm_device_synchronize(void);
/* Number of CUDA devices usable by ecgemm (0 when there is no driver or GPU). */
ECGEMM_API int ecgemm_get_device_count(void);

#ifdef __cplusplus
}
#endif

#endif /* ECGEMM_H */
