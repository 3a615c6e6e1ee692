// cublasSgemm_v2, cublasSgemmStridedBatched, cublasSgemmBatched and their _64 forms.
// Each describes its call to route.cpp; what route.cpp does not answer goes to the
// real function with the caller's arguments untouched. (__func__ is the entry
// point's own name: the real symbol to find.)
#include "gemm_call.hpp"
#include "real_cublas.hpp"

using ecgemm_cublas::call_real;
using ecgemm_cublas::GemmCall;
using ecgemm_cublas::gemm_call;
using ecgemm_cublas::intercept;
using ecgemm_cublas::Layout;
using ecgemm_cublas::Outcome;
using ecgemm_cublas::real_function;

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
  static const auto real = real_function<decltype(cublasSgemm_v2)>(__func__);
  const Outcome out = intercept(
      handle, single(gemm_call(__func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc), A,
                     B, C));
  return out.answered ? out.status
                      : call_real(real, __func__, handle, transa, transb, m, n, k, alpha, A, lda,
                                  B, ldb, beta, C, ldc);
}

cublasStatus_t cublasSgemm_v2_64(cublasHandle_t handle, cublasOperation_t transa,
                                 cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                 const float* alpha, const float* A, int64_t lda, const float* B,
                                 int64_t ldb, const float* beta, float* C, int64_t ldc) {
  static const auto real = real_function<decltype(cublasSgemm_v2_64)>(__func__);
  const Outcome out = intercept(
      handle, single(gemm_call(__func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc), A,
                     B, C));
  return out.answered ? out.status
                      : call_real(real, __func__, handle, transa, transb, m, n, k, alpha, A, lda,
                                  B, ldb, beta, C, ldc);
}

cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa,
                                         cublasOperation_t transb, int m, int n, int k,
                                         const float* alpha, const float* A, int lda,
                                         long long strideA, const float* B, int ldb,
                                         long long strideB, const float* beta, float* C, int ldc,
                                         long long strideC, int batchCount) {
  static const auto real = real_function<decltype(cublasSgemmStridedBatched)>(__func__);
  const Outcome out = intercept(
      handle, strided(gemm_call(__func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc), A,
                      strideA, B, strideB, C, strideC, batchCount));
  return out.answered ? out.status
                      : call_real(real, __func__, handle, transa, transb, m, n, k, alpha, A, lda,
                                  strideA, B, ldb, strideB, beta, C, ldc, strideC, batchCount);
}

cublasStatus_t cublasSgemmStridedBatched_64(cublasHandle_t handle, cublasOperation_t transa,
                                            cublasOperation_t transb, int64_t m, int64_t n,
                                            int64_t k, const float* alpha, const float* A,
                                            int64_t lda, long long strideA, const float* B,
                                            int64_t ldb, long long strideB, const float* beta,
                                            float* C, int64_t ldc, long long strideC,
                                            int64_t batchCount) {
  static const auto real = real_function<decltype(cublasSgemmStridedBatched_64)>(__func__);
  const Outcome out = intercept(
      handle, strided(gemm_call(__func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc), A,
                      strideA, B, strideB, C, strideC, batchCount));
  return out.answered ? out.status
                      : call_real(real, __func__, handle, transa, transb, m, n, k, alpha, A, lda,
                                  strideA, B, ldb, strideB, beta, C, ldc, strideC, batchCount);
}

cublasStatus_t cublasSgemmBatched(cublasHandle_t handle, cublasOperation_t transa,
                                  cublasOperation_t transb, int m, int n, int k,
                                  const float* alpha, const float* const Aarray[], int lda,
                                  const float* const Barray[], int ldb, const float* beta,
                                  float* const Carray[], int ldc, int batchCount) {
  static const auto real = real_function<decltype(cublasSgemmBatched)>(__func__);
  const Outcome out = intercept(
      handle, arrays(gemm_call(__func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc),
                     Aarray, Barray, Carray, batchCount));
  return out.answered ? out.status
                      : call_real(real, __func__, handle, transa, transb, m, n, k, alpha, Aarray,
                                  lda, Barray, ldb, beta, Carray, ldc, batchCount);
}

cublasStatus_t cublasSgemmBatched_64(cublasHandle_t handle, cublasOperation_t transa,
                                     cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                     const float* alpha, const float* const Aarray[], int64_t lda,
                                     const float* const Barray[], int64_t ldb, const float* beta,
                                     float* const Carray[], int64_t ldc, int64_t batchCount) {
  static const auto real = real_function<decltype(cublasSgemmBatched_64)>(__func__);
  const Outcome out = intercept(
      handle, arrays(gemm_call(__func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc),
                     Aarray, Barray, Carray, batchCount));
  return out.answered ? out.status
                      : call_real(real, __func__, handle, transa, transb, m, n, k, alpha, Aarray,
                                  lda, Barray, ldb, beta, Carray, ldc, batchCount);
}

}  // extern "C"
