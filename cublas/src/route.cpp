// Where each FP32 GEMM goes. In order: calls made from inside the real cuBLAS, with
// no handle, with interception off, or whose types ask for something else go to
// cuBLAS unchanged; then the handle's math mode (read, like its stream and pointer
// mode, from the libcublas that serves it); then cuBLAS's own argument checks (bad
// arguments return CUBLAS_STATUS_INVALID_VALUE here, before anything runs); then
// ECGEMM_CUBLAS_MIN_FLOPS; the rest runs on ecgemm, on the handle's stream with its
// pointer mode. Whatever ecgemm declines (no usable GPU, a workspace that
// would grow inside a CUDA graph capture, ...) goes to cuBLAS, so every call cuBLAS
// can do still works.
#include <atomic>
#include <cinttypes>
#include <cstdio>

#include "ecgemm.h"
#include "gemm_call.hpp"
#include "handles.hpp"
#include "real_cublas.hpp"
#include "settings.hpp"

namespace ecgemm_cublas {
namespace {

// The math mode's low bits choose how single precision may be computed (1 TF32 or FP16
// tensor ops, 2 pedantic, 3 TF32, 4 BF16x9 emulation); the higher bits are flags that
// do not concern FP32 GEMMs (8: FP64 emulation, 16: reduction precision).
constexpr int kSinglePrecisionMathBits = 0x7;

// Why the handle's math mode keeps a call from ecgemm, or nullptr when it does not:
// reduced precision is the caller's choice, and pedantic math prescribes cuBLAS's own
// FP32 arithmetic, no substitute.
const char* math_mode_refusal(cublasMath_t math) {
  switch (static_cast<int>(math) & kSinglePrecisionMathBits) {
    case CUBLAS_DEFAULT_MATH: return nullptr;
    case CUBLAS_PEDANTIC_MATH: return "pedantic math mode";
    default: return "math mode allows reduced precision";
  }
}

char op_letter(cublasOperation_t op) {
  switch (op) {
    case CUBLAS_OP_N: return 'N';
    case CUBLAS_OP_T: return 'T';
    case CUBLAS_OP_C: return 'C';
    default: return '?';
  }
}

void trace(const GemmCall& call, const char* route, const char* detail) {
  if (!settings().verbose) return;
  std::fprintf(stderr,
               "ecgemm_cublas: %s %c%c m=%" PRId64 " n=%" PRId64 " k=%" PRId64 " batch=%" PRId64
               " route=%s (%s)\n",
               call.function, op_letter(call.transa), op_letter(call.transb), call.m, call.n,
               call.k, call.batch, route, detail);
}

Outcome pass(const GemmCall& call, const char* why) {
  trace(call, "cublas", why);
  return {false, CUBLAS_STATUS_SUCCESS};
}

bool valid_op(cublasOperation_t op) {
  return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

int64_t at_least_one(int64_t rows) { return rows > 1 ? rows : 1; }

// cuBLAS's documented checks for gemm and its batched forms, reported in netlib's
// argument numbering (ecgemm.h), first bad one first; 0 when all are good.
int first_invalid_argument(const GemmCall& c) {
  if (!valid_op(c.transa)) return 1;
  if (!valid_op(c.transb)) return 2;
  if (c.m < 0) return 3;
  if (c.n < 0) return 4;
  if (c.k < 0) return 5;
  if (c.alpha == nullptr) return 6;
  if (c.lda < at_least_one(c.transa == CUBLAS_OP_N ? c.m : c.k)) return 8;
  if (c.ldb < at_least_one(c.transb == CUBLAS_OP_N ? c.k : c.n)) return 10;
  if (c.beta == nullptr) return 11;
  if (c.ldc < at_least_one(c.m)) return 13;
  if (c.batch < 0) return 17;
  return 0;
}

ecgemmOperation_t to_ecgemm(cublasOperation_t op) {
  return op == CUBLAS_OP_N ? ECGEMM_OP_N : op == CUBLAS_OP_T ? ECGEMM_OP_T : ECGEMM_OP_C;
}

ecgemmStatus_t run(ecgemmHandle_t h, const GemmCall& c) {
  const ecgemmOperation_t ta = to_ecgemm(c.transa), tb = to_ecgemm(c.transb);
  switch (c.layout) {
    case Layout::kSingle:
      return ecgemm_sgemm_64(h, ta, tb, c.m, c.n, c.k, c.alpha, c.a, c.lda, c.b, c.ldb, c.beta,
                             c.c, c.ldc);
    case Layout::kStrided:
      return ecgemm_sgemm_strided_batched_64(h, ta, tb, c.m, c.n, c.k, c.alpha, c.a, c.lda,
                                             c.stride_a, c.b, c.ldb, c.stride_b, c.beta, c.c,
                                             c.ldc, c.stride_c, c.batch);
    case Layout::kPointerArrays:
      return ecgemm_sgemm_batched_64(h, ta, tb, c.m, c.n, c.k, c.alpha, c.a_array, c.lda,
                                     c.b_array, c.ldb, c.beta, c.c_array, c.ldc, c.batch);
  }
  return ECGEMM_STATUS_INTERNAL_ERROR;
}

// Points the ecgemm handle at the cuBLAS handle's stream, pointer mode and our mode.
ecgemmStatus_t configure(ecgemmHandle_t h, const HandleState& state, int mode) {
  ecgemmStatus_t status = ecgemm_set_stream(h, reinterpret_cast<ecgemmStream_t>(state.stream));
  if (status == ECGEMM_STATUS_SUCCESS) {
    status = ecgemm_set_pointer_mode(h, state.pointer_mode == CUBLAS_POINTER_MODE_DEVICE
                                            ? ECGEMM_POINTER_MODE_DEVICE
                                            : ECGEMM_POINTER_MODE_HOST);
  }
  if (status == ECGEMM_STATUS_SUCCESS) status = ecgemm_set_mode(h, static_cast<ecgemmMode_t>(mode));
  return status;
}

std::atomic<bool> g_told_no_auto{false};

}  // namespace

Outcome intercept(Library* real, cublasHandle_t handle, const GemmCall& call) {
  if (in_real_call()) return {false, CUBLAS_STATUS_SUCCESS};  // cuBLAS calling itself: no trace
  if (handle == nullptr) return pass(call, "no handle");
  const int mode = current_mode();
  if (mode == kModeOff) return pass(call, "interception off");
  if (call.request == Request::kOther) return pass(call, call.reason);

  HandleState state;
  if (read_handle_state(real, handle, &state) != CUBLAS_STATUS_SUCCESS) {
    return pass(call, "handle state unreadable");
  }
  if (const char* refusal = math_mode_refusal(state.math_mode)) return pass(call, refusal);
  if (const int bad = first_invalid_argument(call)) {
    if (settings().verbose) {
      char detail[48];
      std::snprintf(detail, sizeof detail, "argument %d", bad);
      trace(call, "invalid", detail);
    }
    return {true, CUBLAS_STATUS_INVALID_VALUE};
  }
  const double flops = 2.0 * static_cast<double>(call.m) * static_cast<double>(call.n) *
                       static_cast<double>(call.k) * static_cast<double>(call.batch);
  if (flops < settings().min_flops) return pass(call, "below ECGEMM_CUBLAS_MIN_FLOPS");

  const EcgemmHandle ecgemm = ecgemm_handle_for(handle);
  if (ecgemm.handle == nullptr) return pass(call, ecgemm_get_status_name(ecgemm.status));
  ecgemmStatus_t status = configure(ecgemm.handle, state, mode);
  if (status == ECGEMM_STATUS_INVALID_VALUE && mode == kModeAuto) {
    if (!g_told_no_auto.exchange(true)) {
      std::fprintf(stderr,
                   "ecgemm_cublas: this libecgemm has no mode 'auto' (ECGEMM_MODE_AUTO); FP32 "
                   "GEMMs go to cuBLAS. Use ECGEMM_CUBLAS_MODE=tf32tf32 or halfhalf.\n");
    }
    return pass(call, "libecgemm has no mode auto");
  }
  if (status == ECGEMM_STATUS_SUCCESS) status = run(ecgemm.handle, call);
  if (status != ECGEMM_STATUS_SUCCESS) return pass(call, ecgemm_get_status_name(status));
  trace(call, "ecgemm", mode_name(mode));
  return {true, CUBLAS_STATUS_SUCCESS};
}

}  // namespace ecgemm_cublas
