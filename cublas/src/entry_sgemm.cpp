// cublasSgemm_v2, cublasSgemmStridedBatched, cublasSgemmBatched and their _64 forms.
// Each describes its call to route.cpp; what route.cpp does not answer goes to the
// real function, in the library that serves the handle, with the caller's arguments
// untouched.
#include "gemm_call.hpp"
#include "handles.hpp"
#include "real_cublas.hpp"

using ecgemm_cublas::call_real;
using ecgemm_cublas::Fn;
using ecgemm_cublas::gemm_call;
using ecgemm_cublas::GemmCall;
using ecgemm_cublas::intercept;
using ecgemm_cublas::Layout;
using ecgemm_cublas::Library;
using ecgemm_cublas::library_of;
using ecgemm_cublas::Outcome;

namespace {

GemmCall single(GemmCall call, const float* A, const float* B, float* C) {
  call.a = A;
  call.b = B;
  call.c = C;
  return call;
}

GemmCall strided(GemmCall call, const float* A, long long strideA, const float* B,
                 long long strideB, float* C, long long strideC, int64_t batch) {
  call.layout = Layout::kStrided;
  call.a = A;
  call.b = B;
  call.c = C;
  call.stride_a = strideA;
  call.stride_b = strideB;
  call.stride_c = strideC;
  call.batch = batch;
  return call;
}

GemmCall arrays(GemmCall call, const float* const A[], const float* const B[], float* const C[],
                int64_t batch) {
  call.layout = Layout::kPointerArrays;
  call.a_array = A;
  call.b_array = B;
  call.c_array = C;
  call.batch = batch;
  return call;
}

}  // namespace

extern "C" {

cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                              cublasOperation_t transb, int m, int n, int k, const float* alpha,
                              const float* A, int lda, const float* B, int ldb, const float* beta,
                              float* C, int ldc) {
  const GemmCall shape = gemm_call(__func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc);
  const GemmCall call = single(shape, A, B, C);
  Library* const real = library_of(handle);
  const Outcome out = intercept(real, handle, call);
  if (out.answered) return out.status;
  return call_real<Fn::cublasSgemm_v2>(real, handle, transa, transb, m, n, k, alpha, A, lda, B, ldb,
                                       beta, C, ldc);
}

cublasStatus_t cublasSgemm_v2_64(cublasHandle_t handle, cublasOperation_t transa,
                                 cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                 const float* alpha, const float* A, int64_t lda, const float* B,
                                 int64_t ldb, const float* beta, float* C, int64_t ldc) {
  const GemmCall shape = gemm_call(__func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc);
  const GemmCall call = single(shape, A, B, C);
  Library* const real = library_of(handle);
  const Outcome out = intercept(real, handle, call);
  if (out.answered) return out.status;
  return call_real<Fn::cublasSgemm_v2_64>(real, handle, transa, transb, m, n, k, alpha, A, lda, B,
                                          ldb, beta, C, ldc);
}

cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa,
                                         cublasOperation_t transb, int m, int n, int k,
                                         const float* alpha, const float* A, int lda,
                                         long long strideA, const float* B, int ldb,
                                         long long strideB, const float* beta, float* C, int ldc,
                                         long long strideC, int batchCount) {
  const GemmCall shape = gemm_call(__func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc);
  const GemmCall call = strided(shape, A, strideA, B, strideB, C, strideC, batchCount);
  Library* const real = library_of(handle);
  const Outcome out = intercept(real, handle, call);
  if (out.answered) return out.status;
  return call_real<Fn::cublasSgemmStridedBatched>(real, handle, transa, transb, m, n, k, alpha, A,
                                                  lda, strideA, B, ldb, strideB, beta, C, ldc,
                                                  strideC, batchCount);
}

cublasStatus_t cublasSgemmStridedBatched_64(cublasHandle_t handle, cublasOperation_t transa,
                                            cublasOperation_t transb, int64_t m, int64_t n,
                                            int64_t k, const float* alpha, const float* A,
                                            int64_t lda, long long strideA, const float* B,
                                            int64_t ldb, long long strideB, const float* beta,
                                            float* C, int64_t ldc, long long strideC,
                                            int64_t batchCount) {
  const GemmCall shape = gemm_call(__func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc);
  const GemmCall call = strided(shape, A, strideA, B, strideB, C, strideC, batchCount);
  Library* const real = library_of(handle);
  const Outcome out = intercept(real, handle, call);
  if (out.answered) return out.status;
  return call_real<Fn::cublasSgemmStridedBatched_64>(real, handle, transa, transb, m, n, k, alpha,
                                                     A, lda, strideA, B, ldb, strideB, beta, C, ldc,
                                                     strideC, batchCount);
}

cublasStatus_t cublasSgemmBatched(cublasHandle_t handle, cublasOperation_t transa,
                                  cublasOperation_t transb, int m, int n, int k,
                                  const float* alpha, const float* const Aarray[], int lda,
                                  const float* const Barray[], int ldb, const float* beta,
                                  float* const Carray[], int ldc, int batchCount) {
  const GemmCall shape = gemm_call(__func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc);
  const GemmCall call = arrays(shape, Aarray, Barray, Carray, batchCount);
  Library* const real = library_of(handle);
  const Outcome out = intercept(real, handle, call);
  if (out.answered) return out.status;
  return call_real<Fn::cublasSgemmBatched>(real, handle, transa, transb, m, n, k, alpha, Aarray,
                                           lda, Barray, ldb, beta, Carray, ldc, batchCount);
}

cublasStatus_t cublasSgemmBatched_64(cublasHandle_t handle, cublasOperation_t transa,
                                     cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                     const float* alpha, const float* const Aarray[], int64_t lda,
                                     const float* const Barray[], int64_t ldb, const float* beta,
                                     float* const Carray[], int64_t ldc, int64_t batchCount) {
  const GemmCall shape = gemm_call(__func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc);
  const GemmCall call = arrays(shape, Aarray, Barray, Carray, batchCount);
  Library* const real = library_of(handle);
  const Outcome out = intercept(real, handle, call);
  if (out.answered) return out.status;
  return call_real<Fn::cublasSgemmBatched_64>(real, handle, transa, transb, m, n, k, alpha, Aarray,
                                              lda, Barray, ldb, beta, Carray, ldc, batchCount);
}

}  // extern "C"
