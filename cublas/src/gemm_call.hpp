// One FP32 GEMM call of any of the intercepted entry points, in one shape: what
// route.cpp validates, decides on and runs.
#pragma once

#include <cstdint>

#include "cublas_decls.hpp"
#include "real_cublas.hpp"

namespace ecgemm_cublas {

enum class Layout { kSingle, kStrided, kPointerArrays };

// What the caller asked for, as far as the types and the compute type tell.
enum class Request {
  kFp32,   // Sgemm family, GemmEx with CUBLAS_COMPUTE_32F: FP32, unless the handle's math
           // mode allows TF32/BF16/FP16 or prescribes cuBLAS's own arithmetic (pedantic)
  kOther,  // anything else: not ours, `reason` says why
};

struct GemmCall {
  const char* function = nullptr;
  Request request = Request::kFp32;
  const char* reason = nullptr;  // for Request::kOther
  Layout layout = Layout::kSingle;
  cublasOperation_t transa = CUBLAS_OP_N, transb = CUBLAS_OP_N;
  int64_t m = 0, n = 0, k = 0;
  const float* alpha = nullptr;
  const float* beta = nullptr;
  // kSingle and kStrided
  const float* a = nullptr;
  const float* b = nullptr;
  float* c = nullptr;
  // kPointerArrays (arrays in device memory)
  const float* const* a_array = nullptr;
  const float* const* b_array = nullptr;
  float* const* c_array = nullptr;
  int64_t lda = 0, ldb = 0, ldc = 0;
  int64_t stride_a = 0, stride_b = 0, stride_c = 0;  // kStrided, in elements
  int64_t batch = 1;
};

// The call's shape and scalars; the entry points fill in the operands and the layout.
inline GemmCall gemm_call(const char* function, cublasOperation_t transa, cublasOperation_t transb,
                          int64_t m, int64_t n, int64_t k, const void* alpha, int64_t lda,
                          int64_t ldb, const void* beta, int64_t ldc) {
  GemmCall call;
  call.function = function;
  call.transa = transa;
  call.transb = transb;
  call.m = m;
  call.n = n;
  call.k = k;
  // For every call we take, the scale type is float (FP32 data, FP32 compute).
  call.alpha = static_cast<const float*>(alpha);
  call.beta = static_cast<const float*>(beta);
  call.lda = lda;
  call.ldb = ldb;
  call.ldc = ldc;
  return call;
}

// What cublasGemm*Ex's types ask for: ours only with A, B and C in CUDA_R_32F and the
// compute type CUBLAS_COMPUTE_32F (then alpha and beta are floats as well).
void classify_ex(GemmCall& call, cudaDataType a_type, cudaDataType b_type, cudaDataType c_type,
                 cublasComputeType_t compute_type, cublasGemmAlgo_t algo);

struct Outcome {
  bool answered;          // false: hand the call to the real cuBLAS unchanged
  cublasStatus_t status;  // when answered
};

// Decides, and runs on ecgemm what it takes (route.cpp); `real` is the library that
// serves `handle` (handles.hpp: library_of).
Outcome intercept(Library* real, cublasHandle_t handle, const GemmCall& call);

}  // namespace ecgemm_cublas
