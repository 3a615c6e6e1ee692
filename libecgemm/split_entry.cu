// ecgemm_internal_split_{host,device}: the split functions of split.cuh, exposed so
// tests check the exact numerics the kernels use, on both sides.
#include <cuda_runtime.h>

#include "internal.h"
#include "kernels/common/launch.cuh"
#include "split.cuh"

namespace {

__host__ __device__ ecgemm::SplitValue split_by(ecgemmSplitMethod_t method, float x) {
  switch (method) {
    case ECGEMM_SPLIT_TF32: return ecgemm::split_tf32(x);
    case ECGEMM_SPLIT_HALF: return ecgemm::split_half(x);
    default: return ecgemm::split_markidis(x);
  }
}

bool valid_method(ecgemmSplitMethod_t method) {
  return method == ECGEMM_SPLIT_TF32 || method == ECGEMM_SPLIT_HALF ||
         method == ECGEMM_SPLIT_MARKIDIS;
}

// FP16 methods go through split_half_pair, as the fused kernels do, so that the
// bit-for-bit comparison with the host covers the packed path too.
__global__ void split_kernel(ecgemmSplitMethod_t method, const float* x, float* hi, float* lo,
                             size_t n) {
  const size_t pairs = (n + 1) / 2;
  for (size_t p = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; p < pairs;
       p += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const size_t i = 2 * p;
    const bool second = i + 1 < n;
    if (method == ECGEMM_SPLIT_TF32) {
      for (size_t j = i; j < i + (second ? 2 : 1); ++j) {
        const ecgemm::SplitValue s = ecgemm::split_tf32(x[j]);
        hi[j] = s.hi;
        lo[j] = s.lo;
      }
      continue;
    }
    const float x1 = second ? x[i + 1] : 0.0f;
    const ecgemm::HalfPair s = method == ECGEMM_SPLIT_HALF
                                   ? ecgemm::split_half_pair<true>(x[i], x1)
                                   : ecgemm::split_half_pair<false>(x[i], x1);
    const float his[2] = {__low2float(s.hi), __high2float(s.hi)};
    const float los[2] = {__low2float(s.lo), __high2float(s.lo)};
    for (size_t j = 0; j < (second ? 2u : 1u); ++j) {
      // A NaN is reported with its FP32 payload, as split_half returns it; the kernels
      // store it as an FP16 NaN.
      const bool nan = isnan(x[i + j]);
      const ecgemm::SplitValue ref = nan ? split_by(method, x[i + j]) : ecgemm::SplitValue{};
      hi[i + j] = nan ? ref.hi : his[j];
      lo[i + j] = nan ? ref.lo : los[j];
    }
  }
}

}  // namespace

extern "C" {

ECGEMM_API ecgemmStatus_t ecgemm_internal_split_host(ecgemmSplitMethod_t method, const float* x,
                                                     float* hi, float* lo, size_t n) {
  if (!valid_method(method)) return ECGEMM_STATUS_INVALID_VALUE;
  if (n > 0 && (x == nullptr || hi == nullptr || lo == nullptr)) return ECGEMM_STATUS_INVALID_VALUE;
  for (size_t i = 0; i < n; ++i) {
    const ecgemm::SplitValue s = split_by(method, x[i]);
    hi[i] = s.hi;
    lo[i] = s.lo;
  }
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_internal_split_device(ecgemmSplitMethod_t method, const float* x,
                                                       float* hi, float* lo, size_t n) {
  if (!valid_method(method)) return ECGEMM_STATUS_INVALID_VALUE;
  if (n == 0) return ECGEMM_STATUS_SUCCESS;
  if (x == nullptr || hi == nullptr || lo == nullptr) return ECGEMM_STATUS_INVALID_VALUE;
  if (ecgemm::detail::launch({256, 256}, split_kernel, method, x, hi, lo, n) != cudaSuccess ||
      cudaDeviceSynchronize() != cudaSuccess)
    return ECGEMM_STATUS_EXECUTION_FAILED;
  return ECGEMM_STATUS_SUCCESS;
}

}  // extern "C"
