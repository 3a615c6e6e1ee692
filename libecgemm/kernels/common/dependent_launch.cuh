// Programmatic dependent launch (sm_90+) between the kernels of one call. A kernel
// launched with `overlap` may be scheduled while the stream's previous kernel is still
// running (once every CTA of that kernel called allow_dependents() or exited), so its
// launch and prologue hide behind that kernel's tail instead of following it: a small
// call's route is two or three short kernels, and each boundary cost ~1 us of idle GPU.
//
// The contract, which keeps every hazard of the stream order covered: a kernel that can
// be launched with `overlap` calls wait_for_prior_grids() before it reads or writes any
// global memory (the call waits for the previous grid to complete and its writes to be
// visible), and a kernel calls allow_dependents() only after its own wait; so when a
// dependent passes its wait, everything queued before it has finished. Launched
// without the attribute (other GPUs, other callers) both are no-ops.
#pragma once

#include <cuda_runtime.h>

#include "kernels/common/kernel_attributes.hpp"

namespace ecgemm::detail {

__device__ __forceinline__ void wait_for_prior_grids() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

__device__ __forceinline__ void allow_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// kernel<<<grid, block, smem, stream>>>(args...), as a programmatic dependent of the
// stream's previous kernel when `overlap` (only where that kernel is ours, on cc >= 9.0).
template <typename... Params, typename... Args>
cudaError_t launch_kernel_after(bool overlap, void (*kernel)(Params...), dim3 grid, dim3 block,
                                size_t smem, cudaStream_t stream, Args&&... args) {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  const bool dependent = overlap && !serial_launches();
  config.attrs = dependent ? &attribute : nullptr;
  config.numAttrs = dependent ? 1 : 0;
  return cudaLaunchKernelEx(&config, kernel, static_cast<Args&&>(args)...);
}

}  // namespace ecgemm::detail
