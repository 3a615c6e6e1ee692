// cublasGemmEx, cublasGemmBatchedEx, cublasGemmStridedBatchedEx and their _64 forms:
// ours when A, B and C are CUDA_R_32F with the compute type CUBLAS_COMPUTE_32F;
// everything else (other types, TF32/BF16/FP16 compute types: the caller's explicit
// choice; CUBLAS_COMPUTE_32F_PEDANTIC: cuBLAS's own arithmetic) goes to the real
// function unchanged.
#include "gemm_call.hpp"
#include "handles.hpp"
#include "real_cublas.hpp"

using ecgemm_cublas::call_real;
using ecgemm_cublas::classify_ex;
using ecgemm_cublas::Fn;
using ecgemm_cublas::gemm_call;
using ecgemm_cublas::GemmCall;
using ecgemm_cublas::intercept;
using ecgemm_cublas::Layout;
using ecgemm_cublas::Library;
using ecgemm_cublas::library_of;
using ecgemm_cublas::Outcome;

namespace ecgemm_cublas {

namespace {

// The algorithm numbers cuBLAS's header names. Since CUDA 11 they are hints (the compute
// type decides the arithmetic), so ecgemm may ignore them; a number outside the list is
// left to cuBLAS, which decides whether it is an error.
bool known_algo(cublasGemmAlgo_t algo) {
  const int a = static_cast<int>(algo);
  return a == CUBLAS_GEMM_DEFAULT || (a >= CUBLAS_GEMM_ALGO0 && a <= CUBLAS_GEMM_ALGO23) ||
         (a >= CUBLAS_GEMM_DEFAULT_TENSOR_OP && a <= CUBLAS_GEMM_ALGO15_TENSOR_OP) ||
         a == CUBLAS_GEMM_AUTOTUNE;
}

}  // namespace

void classify_ex(GemmCall& call, cudaDataType a_type, cudaDataType b_type, cudaDataType c_type,
                 cublasComputeType_t compute_type, cublasGemmAlgo_t algo) {
  if (a_type != CUDA_R_32F || b_type != CUDA_R_32F || c_type != CUDA_R_32F) {
    call.request = Request::kOther;
    call.reason = "A, B, C are not all CUDA_R_32F";
  } else if (compute_type == CUBLAS_COMPUTE_32F) {
    call.request = Request::kFp32;
  } else if (compute_type == CUBLAS_COMPUTE_32F_PEDANTIC) {
    // The prescribed FP32 arithmetic, no substitute.
    call.request = Request::kOther;
    call.reason = "pedantic compute type";
  } else {
    call.request = Request::kOther;
    call.reason = "compute type asks for other than FP32";
  }
  if (call.request != Request::kOther && !known_algo(algo)) {
    call.request = Request::kOther;
    call.reason = "unknown algo";
  }
}

}  // namespace ecgemm_cublas

namespace {

GemmCall single(GemmCall call, const void* A, const void* B, void* C) {
  call.a = static_cast<const float*>(A);
  call.b = static_cast<const float*>(B);
  call.c = static_cast<float*>(C);
  return call;
}

GemmCall strided(GemmCall call, const void* A, long long strideA, const void* B, long long strideB,
                 void* C, long long strideC, int64_t batch) {
  call = single(call, A, B, C);
  call.layout = Layout::kStrided;
  call.stride_a = strideA;
  call.stride_b = strideB;
  call.stride_c = strideC;
  call.batch = batch;
  return call;
}

GemmCall arrays(GemmCall call, const void* const A[], const void* const B[], void* const C[],
                int64_t batch) {
  call.layout = Layout::kPointerArrays;
  call.a_array = reinterpret_cast<const float* const*>(A);
  call.b_array = reinterpret_cast<const float* const*>(B);
  call.c_array = reinterpret_cast<float* const*>(C);
  call.batch = batch;
  return call;
}

GemmCall classified(GemmCall call, cudaDataType Atype, cudaDataType Btype, cudaDataType Ctype,
                    cublasComputeType_t computeType, cublasGemmAlgo_t algo) {
  classify_ex(call, Atype, Btype, Ctype, computeType, algo);
  return call;
}

}  // namespace

extern "C" {

cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa,
                            cublasOperation_t transb, int m, int n, int k, const void* alpha,
                            const void* A, cudaDataType Atype, int lda, const void* B,
                            cudaDataType Btype, int ldb, const void* beta, void* C,
                            cudaDataType Ctype, int ldc, cublasComputeType_t computeType,
                            cublasGemmAlgo_t algo) {
  const GemmCall shape = gemm_call(__func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc);
  const GemmCall call = classified(single(shape, A, B, C), Atype, Btype, Ctype, computeType, algo);
  Library* const real = library_of(handle);
  const Outcome out = intercept(real, handle, call);
  if (out.answered) return out.status;
  return call_real<Fn::cublasGemmEx>(real, handle, transa, transb, m, n, k, alpha, A, Atype, lda, B,
                                     Btype, ldb, beta, C, Ctype, ldc, computeType, algo);
}

cublasStatus_t cublasGemmEx_64(cublasHandle_t handle, cublasOperation_t transa,
                               cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
                               const void* alpha, const void* A, cudaDataType Atype, int64_t lda,
                               const void* B, cudaDataType Btype, int64_t ldb, const void* beta,
                               void* C, cudaDataType Ctype, int64_t ldc,
                               cublasComputeType_t computeType, cublasGemmAlgo_t algo) {
  const GemmCall shape = gemm_call(__func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc);
  const GemmCall call = classified(single(shape, A, B, C), Atype, Btype, Ctype, computeType, algo);
  Library* const real = library_of(handle);
  const Outcome out = intercept(real, handle, call);
  if (out.answered) return out.status;
  return call_real<Fn::cublasGemmEx_64>(real, handle, transa, transb, m, n, k, alpha, A, Atype, lda,
                                        B, Btype, ldb, beta, C, Ctype, ldc, computeType, algo);
}

cublasStatus_t cublasGemmStridedBatchedEx(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
    const void* alpha, const void* A, cudaDataType Atype, int lda, long long strideA,
    const void* B, cudaDataType Btype, int ldb, long long strideB, const void* beta, void* C,
    cudaDataType Ctype, int ldc, long long strideC, int batchCount,
    cublasComputeType_t computeType, cublasGemmAlgo_t algo) {
  const GemmCall shape = gemm_call(__func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc);
  const GemmCall call =
      classified(strided(shape, A, strideA, B, strideB, C, strideC, batchCount), Atype, Btype,
                 Ctype, computeType, algo);
  Library* const real = library_of(handle);
  const Outcome out = intercept(real, handle, call);
  if (out.answered) return out.status;
  return call_real<Fn::cublasGemmStridedBatchedEx>(real, handle, transa, transb, m, n, k, alpha, A,
                                                   Atype, lda, strideA, B, Btype, ldb, strideB,
                                                   beta, C, Ctype, ldc, strideC, batchCount,
                                                   computeType, algo);
}

cublasStatus_t cublasGemmStridedBatchedEx_64(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int64_t m,
    int64_t n, int64_t k, const void* alpha, const void* A, cudaDataType Atype, int64_t lda,
    long long strideA, const void* B, cudaDataType Btype, int64_t ldb, long long strideB,
    const void* beta, void* C, cudaDataType Ctype, int64_t ldc, long long strideC,
    int64_t batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t algo) {
  const GemmCall shape = gemm_call(__func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc);
  const GemmCall call =
      classified(strided(shape, A, strideA, B, strideB, C, strideC, batchCount), Atype, Btype,
                 Ctype, computeType, algo);
  Library* const real = library_of(handle);
  const Outcome out = intercept(real, handle, call);
  if (out.answered) return out.status;
  return call_real<Fn::cublasGemmStridedBatchedEx_64>(real, handle, transa, transb, m, n, k, alpha,
                                                      A, Atype, lda, strideA, B, Btype, ldb,
                                                      strideB, beta, C, Ctype, ldc, strideC,
                                                      batchCount, computeType, algo);
}

cublasStatus_t cublasGemmBatchedEx(cublasHandle_t handle, cublasOperation_t transa,
                                   cublasOperation_t transb, int m, int n, int k,
                                   const void* alpha, const void* const Aarray[],
                                   cudaDataType Atype, int lda, const void* const Barray[],
                                   cudaDataType Btype, int ldb, const void* beta,
                                   void* const Carray[], cudaDataType Ctype, int ldc,
                                   int batchCount, cublasComputeType_t computeType,
                                   cublasGemmAlgo_t algo) {
  const GemmCall shape = gemm_call(__func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc);
  const GemmCall call =
      classified(arrays(shape, Aarray, Barray, Carray, batchCount), Atype, Btype, Ctype,
                 computeType, algo);
  Library* const real = library_of(handle);
  const Outcome out = intercept(real, handle, call);
  if (out.answered) return out.status;
  return call_real<Fn::cublasGemmBatchedEx>(real, handle, transa, transb, m, n, k, alpha, Aarray,
                                            Atype, lda, Barray, Btype, ldb, beta, Carray, Ctype,
                                            ldc, batchCount, computeType, algo);
}

cublasStatus_t cublasGemmBatchedEx_64(cublasHandle_t handle, cublasOperation_t transa,
                                      cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                      const void* alpha, const void* const Aarray[],
                                      cudaDataType Atype, int64_t lda, const void* const Barray[],
                                      cudaDataType Btype, int64_t ldb, const void* beta,
                                      void* const Carray[], cudaDataType Ctype, int64_t ldc,
                                      int64_t batchCount, cublasComputeType_t computeType,
                                      cublasGemmAlgo_t algo) {
  const GemmCall shape = gemm_call(__func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc);
  const GemmCall call =
      classified(arrays(shape, Aarray, Barray, Carray, batchCount), Atype, Btype, Ctype,
                 computeType, algo);
  Library* const real = library_of(handle);
  const Outcome out = intercept(real, handle, call);
  if (out.answered) return out.status;
  return call_real<Fn::cublasGemmBatchedEx_64>(real, handle, transa, transb, m, n, k, alpha, Aarray,
                                               Atype, lda, Barray, Btype, ldb, beta, Carray, Ctype,
                                               ldc, batchCount, computeType, algo);
}

}  // extern "C"
