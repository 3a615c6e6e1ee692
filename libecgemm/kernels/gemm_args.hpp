// What dispatch hands to a kernel family: one validated, non-degenerate GEMM.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace ecgemm::detail {

// alpha/beta: read from `device_*` when non-null (device pointer mode), else the
// host values. Kernels resolve them on the device, so a device-side alpha = 0 or
// beta = 0 keeps the BLAS meaning (A·B not used, C not read).
struct Scalars {
  float alpha = 1.0f;
  float beta = 0.0f;
  const float* device_alpha = nullptr;
  const float* device_beta = nullptr;
};

#if defined(__CUDACC__)
__device__ __forceinline__ float resolve_alpha(const Scalars& s) {
  return s.device_alpha ? *s.device_alpha : s.alpha;
}
__device__ __forceinline__ float resolve_beta(const Scalars& s) {
  return s.device_beta ? *s.device_beta : s.beta;
}
// C[i,j] = alpha * acc + beta * C[i,j], with BLAS's zero rules.
__device__ __forceinline__ void store_epilogue(float* c, float acc, float alpha, float beta) {
  const float ab = alpha == 0.0f ? 0.0f : alpha * acc;
  *c = beta == 0.0f ? ab : ab + beta * *c;
}
#endif

// A batch of `count` products that share m, n, k, ld and the scalars. Product z reads
// a + z * stride_a (strided form) or a_array[z] (pointer-array form: the arrays live
// in device memory, as cuBLAS's batched calls expect); likewise B and C. count = 1
// with null arrays and zero strides is the plain call.
struct Batch {
  int64_t count = 1;
  int64_t first = 0;  // product of grid.y = 0 in this launch (grids cap y at 65535)
  int64_t stride_a = 0, stride_b = 0, stride_c = 0;  // in elements
  const float* const* a_array = nullptr;
  const float* const* b_array = nullptr;
  float* const* c_array = nullptr;
  constexpr bool pointer_array() const { return c_array != nullptr; }
  constexpr bool batched() const { return count > 1 || pointer_array(); }
};

// Products per launch along grid.y (CUDA caps it at 65535); larger batches take several.
constexpr int64_t kMaxBatchPerLaunch = 65535;

// C (m x n, column-major) = alpha * op(A) * op(B) + beta * C with m, n, k >= 1.
struct GemmArgs {
  bool trans_a = false;  // op(A) = A^T; A is stored k x m
  bool trans_b = false;  // op(B) = B^T; B is stored n x k
  int64_t m = 0, n = 0, k = 0;
  const float* a = nullptr;
  int64_t lda = 0;
  const float* b = nullptr;
  int64_t ldb = 0;
  float* c = nullptr;
  int64_t ldc = 0;
  Scalars scalars;
  Batch batch;
};

#if defined(__CUDACC__)
// Operand pointers of product z of a (possibly batched) call.
__device__ __forceinline__ const float* batch_a(const GemmArgs& g, int64_t z) {
  return g.batch.pointer_array() ? g.batch.a_array[z] : g.a + z * g.batch.stride_a;
}
__device__ __forceinline__ const float* batch_b(const GemmArgs& g, int64_t z) {
  return g.batch.pointer_array() ? g.batch.b_array[z] : g.b + z * g.batch.stride_b;
}
__device__ __forceinline__ float* batch_c(const GemmArgs& g, int64_t z) {
  return g.batch.pointer_array() ? g.batch.c_array[z] : g.c + z * g.batch.stride_c;
}
#endif

struct DeviceInfo {
  int ordinal = 0;  // the CUDA device the handle runs on
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  int max_smem_per_block = 0;  // opt-in limit for dynamic shared memory
};

}  // namespace ecgemm::detail
