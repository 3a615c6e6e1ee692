// The state behind an ecgemmHandle_t.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "ecgemm.h"

struct ecgemmContext {
  int device = 0;
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  int max_smem_per_block = 0;
  cudaStream_t stream = nullptr;
  ecgemmMode_t mode = ECGEMM_MODE_TF32TF32;
  ecgemmPointerMode_t pointer_mode = ECGEMM_POINTER_MODE_HOST;

  // Workspace: owned (grown once to the largest request, freed at destroy) unless
  // the user supplied one, which is never freed or grown.
  void* workspace = nullptr;
  size_t workspace_bytes = 0;
  bool workspace_is_user = false;
};

namespace ecgemm::detail {
// Makes the handle's workspace at least `bytes` large (device memory).
ecgemmStatus_t reserve_workspace(ecgemmContext& ctx, size_t bytes);
}  // namespace ecgemm::detail
