// What this library keeps per cuBLAS handle: the libcublas that created it and the
// device current then (recorded by cublasCreate_v2), and one ecgemm handle per thread
// that runs FP32 GEMMs on it (ecgemm handles are used by one thread at a time; cuBLAS
// handles may be shared). An ecgemm handle goes when its thread exits or when the
// cuBLAS handle is destroyed, whichever comes first.
#pragma once

#include "cublas_decls.hpp"
#include "ecgemm.h"
#include "real_cublas.hpp"

namespace ecgemm_cublas {

// Records a handle our cublasCreate_v2 made through `library` with `device` current
// (-1: unknown). A record left at the same address by a handle destroyed unseen goes.
void register_handle(cublasHandle_t cublas, Library* library, int device);

// The library every call on `cublas` goes to: the one this thread's real call is inside
// (cuBLAS calling itself), else the one that created it, else default_library().
Library* library_of(cublasHandle_t cublas);

struct EcgemmHandle {
  ecgemmHandle_t handle;  // nullptr when ecgemm cannot run here
  ecgemmStatus_t status;  // why not (kept, so a machine without a usable GPU asks once)
};

// The calling thread's ecgemm handle for `cublas`, created on first use on the device
// recorded at cublasCreate_v2 (else on the current one, the handle's as cuBLAS requires).
EcgemmHandle ecgemm_handle_for(cublasHandle_t cublas);

// Forgets `cublas` and destroys its ecgemm handles, every thread's (cublasDestroy_v2,
// before the real destroy: a later handle at the same address must not find them).
void forget_handle(cublasHandle_t cublas);

}  // namespace ecgemm_cublas
