/* The part of cuBLAS's C ABI that the stub library and the CPU test driver need,
 * written from the cuBLAS documentation (enum values as documented), so the CPU tests
 * build where no cuBLAS headers are installed. Test-only: libecgemm_cublas itself is
 * compiled against the real cublas_v2.h, and the tests check that the two agree by
 * passing calls through it. */
#ifndef ECGEMM_TEST_FAKE_CUBLAS_H
#define ECGEMM_TEST_FAKE_CUBLAS_H

#include <stdint.h>

typedef struct cublasContext* cublasHandle_t;
typedef struct CUstream_st* cudaStream_t;

typedef enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_NOT_SUPPORTED = 15
} cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2, CUBLAS_OP_CONJG = 3 } cublasOperation_t;
typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;
typedef enum {
  CUBLAS_DEFAULT_MATH = 0,
  CUBLAS_TENSOR_OP_MATH = 1,
  CUBLAS_PEDANTIC_MATH = 2,
  CUBLAS_TF32_TENSOR_OP_MATH = 3,
  CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16
} cublasMath_t;
typedef enum {
  CUBLAS_COMPUTE_32F = 68,
  CUBLAS_COMPUTE_32F_PEDANTIC = 69,
  CUBLAS_COMPUTE_32F_FAST_16F = 74,
  CUBLAS_COMPUTE_32F_FAST_TF32 = 77
} cublasComputeType_t;
typedef enum { CUDA_R_32F = 0, CUDA_R_16F = 2 } cudaDataType;
typedef enum { CUBLAS_GEMM_DEFAULT = -1, CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99 } cublasGemmAlgo_t;

cublasStatus_t cublasCreate_v2(cublasHandle_t* handle);
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle);
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream);
cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t* stream);
cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode);
cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t* mode);
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode);
cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t* mode);

cublasStatus_t cublasSgemm_v2(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                              const float*, const float*, int, const float*, int, const float*,
                              float*, int);
cublasStatus_t cublasSgemm_v2_64(cublasHandle_t, cublasOperation_t, cublasOperation_t, int64_t,
                                 int64_t, int64_t, const float*, const float*, int64_t,
                                 const float*, int64_t, const float*, float*, int64_t);
cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t, cublasOperation_t, cublasOperation_t, int,
                                         int, int, const float*, const float*, int, long long,
                                         const float*, int, long long, const float*, float*, int,
                                         long long, int);
cublasStatus_t cublasSgemmStridedBatched_64(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                            int64_t, int64_t, int64_t, const float*, const float*,
                                            int64_t, long long, const float*, int64_t, long long,
                                            const float*, float*, int64_t, long long, int64_t);
cublasStatus_t cublasSgemmBatched(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                  int, const float*, const float* const[], int,
                                  const float* const[], int, const float*, float* const[], int,
                                  int);
cublasStatus_t cublasSgemmBatched_64(cublasHandle_t, cublasOperation_t, cublasOperation_t, int64_t,
                                     int64_t, int64_t, const float*, const float* const[], int64_t,
                                     const float* const[], int64_t, const float*, float* const[],
                                     int64_t, int64_t);
cublasStatus_t cublasGemmEx(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                            const void*, const void*, cudaDataType, int, const void*, cudaDataType,
                            int, const void*, void*, cudaDataType, int, cublasComputeType_t,
                            cublasGemmAlgo_t);
cublasStatus_t cublasGemmEx_64(cublasHandle_t, cublasOperation_t, cublasOperation_t, int64_t,
                               int64_t, int64_t, const void*, const void*, cudaDataType, int64_t,
                               const void*, cudaDataType, int64_t, const void*, void*,
                               cudaDataType, int64_t, cublasComputeType_t, cublasGemmAlgo_t);
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                          int, int, int, const void*, const void*, cudaDataType,
                                          int, long long, const void*, cudaDataType, int,
                                          long long, const void*, void*, cudaDataType, int,
                                          long long, int, cublasComputeType_t, cublasGemmAlgo_t);
cublasStatus_t cublasGemmStridedBatchedEx_64(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                             int64_t, int64_t, int64_t, const void*, const void*,
                                             cudaDataType, int64_t, long long, const void*,
                                             cudaDataType, int64_t, long long, const void*, void*,
                                             cudaDataType, int64_t, long long, int64_t,
                                             cublasComputeType_t, cublasGemmAlgo_t);
cublasStatus_t cublasGemmBatchedEx(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                   int, const void*, const void* const[], cudaDataType, int,
                                   const void* const[], cudaDataType, int, const void*,
                                   void* const[], cudaDataType, int, int, cublasComputeType_t,
                                   cublasGemmAlgo_t);
cublasStatus_t cublasGemmBatchedEx_64(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                      int64_t, int64_t, int64_t, const void*, const void* const[],
                                      cudaDataType, int64_t, const void* const[], cudaDataType,
                                      int64_t, const void*, void* const[], cudaDataType, int64_t,
                                      int64_t, cublasComputeType_t, cublasGemmAlgo_t);

/* The stub's record of the calls that reached it (stub_cublas.c). The CPU tests build
 * the stub twice, as libcublas.so.12 and libcublas.so.13, each with its own record. */
typedef struct {
  int major;          /* which stub: 12 or 13 */
  int calls;          /* GEMM and destroy calls that reached the stub so far */
  char function[48];  /* the last one's name */
  uint64_t digest;    /* digest of its arguments, in order (arg_digest.h) */
  int creates;        /* handles it made */
  int state_reads;    /* cublasGetStream_v2, cublasGetPointerMode_v2, cublasGetMathMode calls */
  int foreign;        /* calls that brought a handle the other stub made */
} stub_record;
const stub_record* stub_last(void);

#endif
