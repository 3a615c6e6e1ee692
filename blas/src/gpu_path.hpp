// The GPU route of libecgemm_blas: where the operands live, and running one
// problem through ecgemm_sgemm with host arrays staged in and out.
#pragma once

#include "ecgemm.h"
#include "gemm_problem.h"

namespace ecgemm_blas {

// Whether a usable CUDA device exists (asked once per process).
bool gpu_present();

// Where one operand lives. Device and managed memory are used in place; anything
// else (pageable or pinned host memory) is staged through device buffers.
struct Residence {
  bool on_device = false;
  int device = -1;
};
Residence locate(const void* ptr);

struct Placement {
  Residence a, b, c;
  bool any_on_device() const { return a.on_device || b.on_device || c.on_device; }
};

struct GpuOutcome {
  ecgemmStatus_t status = ECGEMM_STATUS_SUCCESS;
  const char* failed_step = nullptr;  // what failed, for the message
  bool c_modified = false;            // whether C may have been written before the failure
};

// C = alpha*op(A)*op(B) + beta*C on the GPU with the process's mode, for every product
// of the batch (one product: count 1); synchronous.
GpuOutcome gpu_sgemm(const ecgemm_blas_problem& p, const ecgemm_blas_batch& batch,
                     const Placement& where);

}  // namespace ecgemm_blas
