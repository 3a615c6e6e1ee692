// ecgemm_internal_split_{host,device}: the split functions of split.cuh, exposed so
// tests check the exact numerics the kernels use, on both sides.
#include <cuda_runtime.h>

#include "internal.h"
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

__global__ void split_kernel(ecgemmSplitMethod_t method, const float* x, float* hi, float* lo,
                             size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const ecgemm::SplitValue s = split_by(method, x[i]);
    hi[i] = s.hi;
    lo[i] = s.lo;
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
  split_kernel<<<256, 256>>>(method, x, hi, lo, n);
  if (cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess)
    return ECGEMM_STATUS_EXECUTION_FAILED;
  return ECGEMM_STATUS_SUCCESS;
}

}  // extern "C"
