// What the planner hands to a kernel family: one validated, non-degenerate GEMM.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace ecgemm::detail {

// alpha/beta: read from `device_*` when non-null (device pointer mode), else the
// host values. Kernels resolve them on the device (common/epilogue.cuh), so a
// device-side alpha = 0 or beta = 0 keeps the BLAS meaning (A·B not used, C not read).
struct Scalars {
  float alpha = 1.0f;
  float beta = 0.0f;
  const float* device_alpha = nullptr;
  const float* device_beta = nullptr;
};

// ECGEMM_MODE_AUTO (planes/auto_scale.hpp) launches both of its routes and the device
// picks one: its route word says halfhalf's products of the scaled operands (0),
// tf32tf32's of the scaled operands (a row or column too wide for FP16) or tf32tf32's of
// the operands as they are (NaN/Inf present: scaling could turn a finite product into
// Inf and Inf into NaN). A launch for the route not taken returns at once. Row i of
// op(A) was split as x * 2^row_exp[i] and column j of op(B) as x * 2^col_exp[j] unless
// the word says unscaled; the epilogue undoes it (common/epilogue.cuh). All null: a
// call without AUTO.
constexpr int kAutoScaledRoute = 0;
constexpr int kAutoWideRoute = 1;
constexpr int kAutoUnscaledRoute = 2;
struct AutoScale {
  const int* row_exp = nullptr;
  const int* col_exp = nullptr;
  const int* route = nullptr;
  bool on_fallback = false;  // this launch computes tf32tf32's products (routes 1 and 2)
};

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
  AutoScale scale;
};

// op(A) as m x k, or op(B)^T as n x k, in the caller's layout: element (r, kk) is
// p[r * stride_r + kk * stride_k], one of the two strides being 1.
struct OperandView {
  const float* p;
  int64_t stride_r, stride_k, rows;
};
inline OperandView view_a(const GemmArgs& g) {
  return {g.a, g.trans_a ? g.lda : 1, g.trans_a ? 1 : g.lda, g.m};
}
inline OperandView view_b(const GemmArgs& g) {
  return {g.b, g.trans_b ? 1 : g.ldb, g.trans_b ? g.ldb : 1, g.n};
}

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
  double dram_gbps = 0.0;      // peak DRAM bandwidth, GB/s; 0: unknown (cost_model.hpp: the floor)
  // A device described rather than opened (ecgemm_internal_plan_on: the planner on a CPU):
  // the driver entry points the families look up are assumed present.
  bool described = false;
};

}  // namespace ecgemm::detail
