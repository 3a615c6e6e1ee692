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
  double dram_gbps = 0.0;  // peak DRAM bandwidth, GB/s (the cost model's floor); 0: unknown
  cudaStream_t stream = nullptr;
  ecgemmMode_t mode = ECGEMM_MODE_TF32TF32;
  ecgemmPointerMode_t pointer_mode = ECGEMM_POINTER_MODE_HOST;
  bool described = false;  // no GPU behind it: planning only (ecgemm_internal_plan_on)

  // Where a call's scratch comes from (memory.hpp, docs/memory.md): the user's workspace
  // if set, else the user's allocator if set, else the library's pool.
  void* user_workspace = nullptr;
  size_t user_workspace_bytes = 0;
  ecgemmDeviceMemHandler_t mem_handler{};
  bool has_mem_handler = false;
  size_t workspace_limit = 0;  // most scratch one call may take; 0: no limit
};
