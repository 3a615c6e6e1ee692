#include "real_cublas.hpp"

#include <dlfcn.h>

#include <atomic>
#include <cstdio>

namespace ecgemm_cublas {
namespace {

// Where an application's libcublas may sit outside the global symbol scope (a Python
// extension module loaded RTLD_LOCAL that depends on it, as CuPy's do), RTLD_NEXT does
// not see it; an already loaded copy is still found by its soname.
constexpr const char* kCublasSonames[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so"};

thread_local bool t_in_real_call = false;
std::atomic<bool> g_reported_missing{false};

}  // namespace

void* find_real(const char* name) {
  if (void* fn = dlsym(RTLD_NEXT, name)) return fn;
  for (const char* soname : kCublasSonames) {
    void* library = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
    if (library == nullptr) continue;
    void* fn = dlsym(library, name);
    dlclose(library);  // drops only the reference RTLD_NOLOAD took; the application holds its own
    if (fn != nullptr) return fn;
  }
  return nullptr;
}

bool in_real_call() { return t_in_real_call; }

RealCallScope::RealCallScope() : outer_(t_in_real_call) { t_in_real_call = true; }
RealCallScope::~RealCallScope() { t_in_real_call = outer_; }

void report_missing(const char* name) {
  if (!g_reported_missing.exchange(true)) {
    std::fprintf(stderr,
                 "ecgemm_cublas: %s: no libcublas is loaded in this process to pass the call to "
                 "(returning CUBLAS_STATUS_NOT_INITIALIZED)\n",
                 name);
  }
}

cublasStatus_t read_handle_state(cublasHandle_t handle, HandleState* state) {
  static const auto get_stream = real_function<decltype(cublasGetStream_v2)>("cublasGetStream_v2");
  static const auto get_pointer_mode =
      real_function<decltype(cublasGetPointerMode_v2)>("cublasGetPointerMode_v2");
  static const auto get_math_mode = real_function<decltype(cublasGetMathMode)>("cublasGetMathMode");
  if (get_stream == nullptr || get_pointer_mode == nullptr || get_math_mode == nullptr) {
    return CUBLAS_STATUS_NOT_INITIALIZED;
  }
  RealCallScope scope;
  cublasStatus_t status = get_stream(handle, &state->stream);
  if (status == CUBLAS_STATUS_SUCCESS) status = get_pointer_mode(handle, &state->pointer_mode);
  if (status == CUBLAS_STATUS_SUCCESS) status = get_math_mode(handle, &state->math_mode);
  return status;
}

}  // namespace ecgemm_cublas
