// The handle's workspace: split planes and split-K partials live here, so that a
// steady stream of calls allocates nothing.
#include <cuda_runtime.h>

#include "handle.hpp"

namespace ecgemm::detail {

ecgemmStatus_t reserve_workspace(ecgemmContext& ctx, size_t bytes) {
  if (bytes <= ctx.workspace_bytes) return ECGEMM_STATUS_SUCCESS;
  if (ctx.workspace_is_user) return ECGEMM_STATUS_ALLOC_FAILED;  // too small, and not ours
  // Inside CUDA-graph capture, cudaMalloc and the device-wide wait below would break the
  // capture: refuse the call instead (ecgemm.h says how to avoid it).
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(ctx.stream, &capture) != cudaSuccess) {
    cudaGetLastError();
    return ECGEMM_STATUS_EXECUTION_FAILED;
  }
  if (capture != cudaStreamCaptureStatusNone) return ECGEMM_STATUS_NOT_SUPPORTED;
  // Growth is rare (the largest call so far sets the size), so waiting for the device
  // is affordable: work still in flight on any stream the handle used may read the
  // old block.
  if (ctx.workspace) {
    cudaDeviceSynchronize();
    cudaFree(ctx.workspace);
  }
  ctx.workspace = nullptr;
  ctx.workspace_bytes = 0;
  if (cudaMalloc(&ctx.workspace, bytes) != cudaSuccess) {
    cudaGetLastError();  // clear the error so that later runtime calls don't report it
    ctx.workspace = nullptr;
    return ECGEMM_STATUS_ALLOC_FAILED;
  }
  ctx.workspace_bytes = bytes;
  return ECGEMM_STATUS_SUCCESS;
}

}  // namespace ecgemm::detail
