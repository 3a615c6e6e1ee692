// One ecgemm handle per (cuBLAS handle, thread), created on the first call that
// needs it and destroyed with the cuBLAS handle. ecgemm handles are used by one
// thread at a time, cuBLAS handles may be shared by several threads.
#pragma once

#include "cublas_decls.hpp"
#include "ecgemm.h"

namespace ecgemm_cublas {

struct EcgemmHandle {
  ecgemmHandle_t handle;  // nullptr when ecgemm cannot run here
  ecgemmStatus_t status;  // why not (kept, so a machine without a usable GPU asks once)
};

// The calling thread's ecgemm handle for `cublas`, created on the current device (the
// cuBLAS handle's device, which cuBLAS requires to be current during its calls).
EcgemmHandle ecgemm_handle_for(cublasHandle_t cublas);

// Destroys the ecgemm handles of every thread for `cublas` (from cublasDestroy_v2).
// Handles of threads that exit earlier live until then.
void release_ecgemm_handles(cublasHandle_t cublas);

}  // namespace ecgemm_cublas
