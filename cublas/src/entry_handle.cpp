// cublasCreate_v2 and cublasDestroy_v2: each handle is served by the libcublas that
// created it, the one the calling code links against (handles.hpp), on the device
// current at its creation.
#include "device.hpp"
#include "handles.hpp"
#include "real_cublas.hpp"

using ecgemm_cublas::call_real;
using ecgemm_cublas::Fn;
using ecgemm_cublas::Library;

extern "C" {

cublasStatus_t cublasCreate_v2(cublasHandle_t* handle) {
  if (Library* inside = ecgemm_cublas::current_real_library()) {
    return call_real<Fn::cublasCreate_v2>(inside, handle);  // cuBLAS calling itself
  }
  Library* const real = ecgemm_cublas::library_of_caller(__builtin_return_address(0));
  const cublasStatus_t status = call_real<Fn::cublasCreate_v2>(real, handle);
  if (status == CUBLAS_STATUS_SUCCESS && handle != nullptr) {
    ecgemm_cublas::register_handle(*handle, real, ecgemm_cublas::current_device());
  }
  return status;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  Library* const real = ecgemm_cublas::library_of(handle);
  if (handle != nullptr && !ecgemm_cublas::in_real_call()) ecgemm_cublas::forget_handle(handle);
  return call_real<Fn::cublasDestroy_v2>(real, handle);
}

}  // extern "C"
