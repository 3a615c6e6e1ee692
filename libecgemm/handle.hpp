// The state behind an ecgemmHandle_t.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "ecgemm.h"
#include "kernels/gemm_args.hpp"

struct ecgemmContext {
  // The device the handle runs on, as the planner and the families read it; for
  // ecgemm_internal_plan_on, one described (no GPU behind it: planning only).
  ecgemm::detail::DeviceInfo dev;
  cudaStream_t stream = nullptr;
  ecgemmMode_t mode = ECGEMM_MODE_TF32TF32;
  ecgemmPointerMode_t pointer_mode = ECGEMM_POINTER_MODE_HOST;

  // Where a call's scratch comes from (memory.hpp, docs/memory.md): the user's workspace
  // if set, else the user's allocator if set, else the library's pool.
  void* user_workspace = nullptr;
  size_t user_workspace_bytes = 0;
  ecgemmDeviceMemHandler_t mem_handler{};
  bool has_mem_handler = false;
  size_t workspace_limit = 0;  // most scratch one call may take; 0: no limit
};
