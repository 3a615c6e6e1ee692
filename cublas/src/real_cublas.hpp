// The real cuBLAS behind this library: its functions, looked up by name at run time,
// and the handle state read through them.
#pragma once

#include "cublas_decls.hpp"

namespace ecgemm_cublas {

// Address of `name` in the application's libcublas, or nullptr when none is loaded.
void* find_real(const char* name);

// find_real, typed by the header's prototype (decltype(cublasSgemm_v2)): the call
// through it then has exactly the argument types the header declares.
template <typename Fn>
Fn* real_function(const char* name) {
  return reinterpret_cast<Fn*>(find_real(name));
}

// True while this thread runs a call we handed to the real cuBLAS. Should that library
// call one of its own exported GEMMs, the call reaches us again; it must go straight
// back, unchanged, for pass-through to be bit for bit.
bool in_real_call();

class RealCallScope {
 public:
  RealCallScope();
  ~RealCallScope();
  RealCallScope(const RealCallScope&) = delete;
  RealCallScope& operator=(const RealCallScope&) = delete;

 private:
  bool outer_;
};

// Tells once, on stderr, that `name` has no real implementation to go to.
void report_missing(const char* name);

// Runs the real `fn` (already looked up) with the caller's arguments, unchanged.
template <typename Fn, typename... Args>
cublasStatus_t call_real(Fn* fn, const char* name, Args... args) {
  if (fn == nullptr) {
    report_missing(name);
    return CUBLAS_STATUS_NOT_INITIALIZED;
  }
  RealCallScope scope;
  return fn(args...);
}

// What ecgemm needs to know about a cuBLAS handle to act as cuBLAS would.
struct HandleState {
  cudaStream_t stream = nullptr;
  cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST;
  cublasMath_t math_mode = CUBLAS_DEFAULT_MATH;
};
cublasStatus_t read_handle_state(cublasHandle_t handle, HandleState* state);

}  // namespace ecgemm_cublas
