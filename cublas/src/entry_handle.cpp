// cublasDestroy_v2: the ecgemm handles made for this cuBLAS handle (one per thread that
// used it) go first, then the real destroy. A later handle at the same address must
// not find them.
#include "handles.hpp"
#include "real_cublas.hpp"

extern "C" cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  static const auto real = ecgemm_cublas::real_function<decltype(cublasDestroy_v2)>(__func__);
  if (handle != nullptr && !ecgemm_cublas::in_real_call()) {
    ecgemm_cublas::release_ecgemm_handles(handle);
  }
  return ecgemm_cublas::call_real(real, __func__, handle);
}
