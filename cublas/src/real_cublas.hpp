// The real cuBLAS behind this library. A process may hold several (PyTorch's
// libcublas.so.13 beside CuPy's libcublas.so.12): each loaded libcublas is a Library,
// its entry points looked up by name at run time, and each cuBLAS handle is served by
// the library that created it (handles.hpp).
#pragma once

#include <atomic>

#include "cublas_decls.hpp"

namespace ecgemm_cublas {

// Every real function this library calls. The three the C++ header overloads (a
// legacy cudaDataType compute type) cannot be named by decltype and are listed apart.
#define ECGEMM_CUBLAS_DECLTYPE_FUNCTIONS(X)                                                    \
  X(cublasCreate_v2)                                                                           \
  X(cublasDestroy_v2)                                                                          \
  X(cublasGetStream_v2)                                                                        \
  X(cublasGetPointerMode_v2)                                                                   \
  X(cublasGetMathMode)                                                                         \
  X(cublasSgemm_v2)                                                                            \
  X(cublasSgemm_v2_64)                                                                         \
  X(cublasSgemmStridedBatched)                                                                 \
  X(cublasSgemmStridedBatched_64)                                                              \
  X(cublasSgemmBatched)                                                                        \
  X(cublasSgemmBatched_64)                                                                     \
  X(cublasGemmEx_64)                                                                           \
  X(cublasGemmStridedBatchedEx_64)                                                             \
  X(cublasGemmBatchedEx_64)
#define ECGEMM_CUBLAS_OVERLOADED_FUNCTIONS(X) \
  X(cublasGemmEx)                             \
  X(cublasGemmStridedBatchedEx)               \
  X(cublasGemmBatchedEx)

enum class Fn : int {
#define ECGEMM_CUBLAS_ENUMERATOR(name) name,
  ECGEMM_CUBLAS_DECLTYPE_FUNCTIONS(ECGEMM_CUBLAS_ENUMERATOR)
  ECGEMM_CUBLAS_OVERLOADED_FUNCTIONS(ECGEMM_CUBLAS_ENUMERATOR)
#undef ECGEMM_CUBLAS_ENUMERATOR
  kCount
};

const char* name_of(Fn fn);

// The prototype each real function is called with: exactly the header's.
template <Fn>
struct Prototype;
#define ECGEMM_CUBLAS_PROTOTYPE(name) \
  template <>                         \
  struct Prototype<Fn::name> {        \
    using type = decltype(::name);    \
  };
ECGEMM_CUBLAS_DECLTYPE_FUNCTIONS(ECGEMM_CUBLAS_PROTOTYPE)
#undef ECGEMM_CUBLAS_PROTOTYPE
template <>
struct Prototype<Fn::cublasGemmEx> {
  using type = cublasStatus_t(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                              const void*, const void*, cudaDataType, int, const void*,
                              cudaDataType, int, const void*, void*, cudaDataType, int,
                              cublasComputeType_t, cublasGemmAlgo_t);
};
template <>
struct Prototype<Fn::cublasGemmStridedBatchedEx> {
  using type = cublasStatus_t(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                              const void*, const void*, cudaDataType, int, long long, const void*,
                              cudaDataType, int, long long, const void*, void*, cudaDataType, int,
                              long long, int, cublasComputeType_t, cublasGemmAlgo_t);
};
template <>
struct Prototype<Fn::cublasGemmBatchedEx> {
  using type = cublasStatus_t(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                              const void*, const void* const[], cudaDataType, int,
                              const void* const[], cudaDataType, int, const void*, void* const[],
                              cudaDataType, int, int, cublasComputeType_t, cublasGemmAlgo_t);
};

// One loaded libcublas, held open (dlopen reference never dropped) so that the entry
// points found in it stay valid. A lookup that succeeds is kept; one that fails is
// asked again next time.
class Library {
 public:
  Library(void* dl, const char* path);
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;

  void* function(Fn fn);
  void* dl() const { return dl_; }
  const char* path() const { return path_; }

 private:
  void* const dl_;
  const char* const path_;  // as the loader names it; owned by the loader
  std::atomic<void*> functions_[static_cast<int>(Fn::kCount)] = {};
};

// The libcublas the object holding `code` (a return address: the caller of
// cublasCreate_v2) links against, by its DT_NEEDED libcublas.so.N entry; else
// default_library(). nullptr when no libcublas is loaded.
Library* library_of_caller(const void* code);

// For handles this library never saw created: the libcublas that the application's
// global scope resolves cublasCreate_v2 to (dlsym(RTLD_NEXT)), else one already loaded
// under a known soname (libcublas.so.13, .12: CuPy loads it outside the global scope).
// nullptr while none is loaded; found once, kept.
Library* default_library();

// The library whose call this thread is inside, or nullptr. Should that library call
// one of its own exported entry points, the call reaches us again; it must go straight
// back to the same library, unchanged, for pass-through to be bit for bit.
Library* current_real_library();
inline bool in_real_call() { return current_real_library() != nullptr; }

class RealCallScope {
 public:
  explicit RealCallScope(Library* library);
  ~RealCallScope();
  RealCallScope(const RealCallScope&) = delete;
  RealCallScope& operator=(const RealCallScope&) = delete;

 private:
  Library* outer_;
};

// Tells once, on stderr, that `fn` has nowhere to go (no library, or one without it);
// returns the status the caller gets.
cublasStatus_t report_missing(const Library* library, Fn fn);

// The real `fn` of `library`, typed by its prototype; nullptr when there is none.
template <Fn fn>
typename Prototype<fn>::type* real_function(Library* library) {
  return reinterpret_cast<typename Prototype<fn>::type*>(library != nullptr ? library->function(fn)
                                                                            : nullptr);
}

// Runs the real `fn` of `library` with the caller's arguments, unchanged.
template <Fn fn, typename... Args>
cublasStatus_t call_real(Library* library, Args... args) {
  const auto real = real_function<fn>(library);
  if (real == nullptr) return report_missing(library, fn);
  RealCallScope scope(library);
  return real(args...);
}

// What ecgemm needs to know about a cuBLAS handle to act as cuBLAS would, read from
// the library that serves it.
struct HandleState {
  cudaStream_t stream = nullptr;
  cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST;
  cublasMath_t math_mode = CUBLAS_DEFAULT_MATH;
};
cublasStatus_t read_handle_state(Library* library, cublasHandle_t handle, HandleState* state);

}  // namespace ecgemm_cublas
