// Public ABI: handles, settings, status strings, version, and ecgemm_sgemm's
// front end (validation, quick returns, pointer checks) before dispatch.
#include <cuda_runtime.h>

#include <new>

#include "dispatch.hpp"
#include "ecgemm.h"
#include "handle.hpp"
#include "kernels/scale_c.hpp"
#include "validate.h"

namespace {

thread_local int last_error_arg = 0;

ecgemmStatus_t invalid(int arg) {
  last_error_arg = arg;
  return ECGEMM_STATUS_INVALID_VALUE;
}

bool no_device(cudaError_t err) {
  return err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver ||
         err == cudaErrorInitializationError || err == cudaErrorCompatNotSupportedOnDevice;
}

// Runs the call on the handle's device and puts the caller's current device back.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    if (cudaGetDevice(&previous_) == cudaSuccess && previous_ != device)
      ok_ = cudaSetDevice(device) == cudaSuccess;
    else
      previous_ = -1;
  }
  ~DeviceGuard() {
    if (previous_ >= 0) cudaSetDevice(previous_);
  }
  bool ok() const { return ok_; }

 private:
  int previous_ = -1;
  bool ok_ = true;
};

// One sgemm entry's arguments, widened to 64 bits: every public entry (32/64-bit, single,
// strided, pointer-array) goes through run(), so validation and dispatch exist once.
enum class Form { kSingle, kStrided, kPointerArray };

struct Call {
  ecgemmOperation_t transa, transb;
  int64_t m, n, k;
  const float* alpha;
  const float* a;
  int64_t lda;
  const float* b;
  int64_t ldb;
  const float* beta;
  float* c;
  int64_t ldc;
  Form form = Form::kSingle;
  ecgemm::detail::Batch batch;
};

bool valid_mode(ecgemmMode_t mode) {
  switch (mode) {
    case ECGEMM_MODE_TF32TF32:
    case ECGEMM_MODE_HALFHALF:
    case ECGEMM_MODE_FP32:
    case ECGEMM_MODE_TF32:
    case ECGEMM_MODE_FP16:
    case ECGEMM_MODE_MARKIDIS:
    case ECGEMM_MODE_AUTO: return true;
  }
  return false;
}

// Validation in netlib order, quick returns, pointer checks, then the launch.
ecgemmStatus_t run(ecgemmHandle_t handle, const Call& call) {
  using ecgemm::detail::GemmArgs;
  last_error_arg = 0;
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  if (const int bad = ecgemm_validate_sgemm(call.transa, call.transb, call.m, call.n, call.k,
                                            call.lda, call.ldb, call.ldc))
    return invalid(bad);
  const bool arrays = call.form == Form::kPointerArray;
  if (call.form != Form::kSingle)
    if (const int bad = ecgemm_validate_batch(call.m, call.n, call.ldc, call.batch.stride_a,
                                              call.batch.stride_b, call.batch.stride_c,
                                              call.batch.count, !arrays))
      return invalid(bad);
  if (call.m == 0 || call.n == 0 || call.batch.count == 0) return ECGEMM_STATUS_SUCCESS;
  if (call.alpha == nullptr) return invalid(ECGEMM_ARG_ALPHA);
  if (call.beta == nullptr) return invalid(ECGEMM_ARG_BETA);
  const bool on_host = handle->pointer_mode == ECGEMM_POINTER_MODE_HOST;
  // A and B are referenced only when the product contributes (BLAS: alpha = 0 or k = 0).
  const bool product = call.k > 0 && (!on_host || *call.alpha != 0.0f);
  if (product && (arrays ? call.batch.a_array == nullptr : call.a == nullptr))
    return invalid(ECGEMM_ARG_A);
  if (product && (arrays ? call.batch.b_array == nullptr : call.b == nullptr))
    return invalid(ECGEMM_ARG_B);
  if (arrays ? call.batch.c_array == nullptr : call.c == nullptr) return invalid(ECGEMM_ARG_C);
  if (on_host && !product && *call.beta == 1.0f) return ECGEMM_STATUS_SUCCESS;

  GemmArgs args;
  args.trans_a = call.transa != ECGEMM_OP_N;
  args.trans_b = call.transb != ECGEMM_OP_N;
  args.m = call.m;
  args.n = call.n;
  args.k = call.k;
  args.a = call.a;
  args.lda = call.lda;
  args.b = call.b;
  args.ldb = call.ldb;
  args.c = call.c;
  args.ldc = call.ldc;
  args.batch = call.batch;
  if (on_host) {
    args.scalars.alpha = *call.alpha;
    args.scalars.beta = *call.beta;
  } else {
    args.scalars.device_alpha = call.alpha;
    args.scalars.device_beta = call.beta;
  }

  DeviceGuard guard(handle->device);
  if (!guard.ok()) return ECGEMM_STATUS_EXECUTION_FAILED;
  if (!product) {
    const cudaError_t err = ecgemm::detail::launch_scale_c(args, handle->sm_count, handle->stream);
    return err == cudaSuccess ? ECGEMM_STATUS_SUCCESS : ECGEMM_STATUS_EXECUTION_FAILED;
  }
  return ecgemm::detail::dispatch_sgemm(*handle, args);
}

}  // namespace

extern "C" {

ECGEMM_API const char* ecgemm_get_status_name(ecgemmStatus_t status) {
  switch (status) {
    case ECGEMM_STATUS_SUCCESS: return "ECGEMM_STATUS_SUCCESS";
    case ECGEMM_STATUS_NOT_INITIALIZED: return "ECGEMM_STATUS_NOT_INITIALIZED";
    case ECGEMM_STATUS_ALLOC_FAILED: return "ECGEMM_STATUS_ALLOC_FAILED";
    case ECGEMM_STATUS_INVALID_VALUE: return "ECGEMM_STATUS_INVALID_VALUE";
    case ECGEMM_STATUS_ARCH_MISMATCH: return "ECGEMM_STATUS_ARCH_MISMATCH";
    case ECGEMM_STATUS_EXECUTION_FAILED: return "ECGEMM_STATUS_EXECUTION_FAILED";
    case ECGEMM_STATUS_INTERNAL_ERROR: return "ECGEMM_STATUS_INTERNAL_ERROR";
    case ECGEMM_STATUS_NOT_SUPPORTED: return "ECGEMM_STATUS_NOT_SUPPORTED";
    case ECGEMM_STATUS_NO_DEVICE: return "ECGEMM_STATUS_NO_DEVICE";
  }
  return "ECGEMM_STATUS_UNKNOWN";
}

ECGEMM_API const char* ecgemm_get_status_string(ecgemmStatus_t status) {
  switch (status) {
    case ECGEMM_STATUS_SUCCESS: return "success";
    case ECGEMM_STATUS_NOT_INITIALIZED: return "the handle is NULL or was not created by ecgemm_create";
    case ECGEMM_STATUS_ALLOC_FAILED: return "device memory allocation failed (workspace)";
    case ECGEMM_STATUS_INVALID_VALUE: return "an argument is invalid (see ecgemm_get_last_error_arg)";
    case ECGEMM_STATUS_ARCH_MISMATCH: return "the GPU is older than compute capability 8.0 or has no compatible kernel image";
    case ECGEMM_STATUS_EXECUTION_FAILED: return "a kernel failed to launch or run";
    case ECGEMM_STATUS_INTERNAL_ERROR: return "internal error";
    case ECGEMM_STATUS_NOT_SUPPORTED: return "the operation is not supported";
    case ECGEMM_STATUS_NO_DEVICE: return "no usable CUDA device (no GPU or no driver)";
  }
  return "unknown status";
}

ECGEMM_API int ecgemm_get_version(void) { return ECGEMM_VERSION; }

ECGEMM_API int ecgemm_get_last_error_arg(void) { return last_error_arg; }

ECGEMM_API int ecgemm_get_device_count(void) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

ECGEMM_API ecgemmStatus_t ecgemm_create(ecgemmHandle_t* handle) {
  if (handle == nullptr) return invalid(0);
  *handle = nullptr;
  int device = 0;
  cudaError_t err = cudaGetDevice(&device);
  cudaDeviceProp prop;
  if (err == cudaSuccess) err = cudaGetDeviceProperties(&prop, device);
  if (err != cudaSuccess) {
    cudaGetLastError();
    return no_device(err) ? ECGEMM_STATUS_NO_DEVICE : ECGEMM_STATUS_NOT_INITIALIZED;
  }
  if (prop.major < 8) return ECGEMM_STATUS_ARCH_MISMATCH;
  auto* ctx = new (std::nothrow) ecgemmContext;
  if (ctx == nullptr) return ECGEMM_STATUS_ALLOC_FAILED;
  ctx->device = device;
  ctx->cc_major = prop.major;
  ctx->cc_minor = prop.minor;
  ctx->sm_count = prop.multiProcessorCount;
  ctx->max_smem_per_block = static_cast<int>(prop.sharedMemPerBlockOptin);
  *handle = ctx;
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_destroy(ecgemmHandle_t handle) {
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  if (handle->workspace && !handle->workspace_is_user) {
    DeviceGuard guard(handle->device);
    cudaFree(handle->workspace);
  }
  delete handle;
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_set_stream(ecgemmHandle_t handle, ecgemmStream_t stream) {
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  handle->stream = reinterpret_cast<cudaStream_t>(stream);
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_get_stream(ecgemmHandle_t handle, ecgemmStream_t* stream) {
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  if (stream == nullptr) return invalid(0);
  *stream = reinterpret_cast<ecgemmStream_t>(handle->stream);
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_set_mode(ecgemmHandle_t handle, ecgemmMode_t mode) {
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  if (!valid_mode(mode)) return invalid(0);
  handle->mode = mode;
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_get_mode(ecgemmHandle_t handle, ecgemmMode_t* mode) {
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  if (mode == nullptr) return invalid(0);
  *mode = handle->mode;
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_set_pointer_mode(ecgemmHandle_t handle, ecgemmPointerMode_t mode) {
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  if (mode != ECGEMM_POINTER_MODE_HOST && mode != ECGEMM_POINTER_MODE_DEVICE) return invalid(0);
  handle->pointer_mode = mode;
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_get_pointer_mode(ecgemmHandle_t handle, ecgemmPointerMode_t* mode) {
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  if (mode == nullptr) return invalid(0);
  *mode = handle->pointer_mode;
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_get_device(ecgemmHandle_t handle, int* device) {
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  if (device == nullptr) return invalid(0);
  *device = handle->device;
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_set_workspace(ecgemmHandle_t handle, void* workspace, size_t bytes) {
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  if ((workspace == nullptr) != (bytes == 0) || reinterpret_cast<uintptr_t>(workspace) % 256 != 0)
    return invalid(0);
  if (handle->workspace && !handle->workspace_is_user) {
    DeviceGuard guard(handle->device);
    cudaFree(handle->workspace);
  }
  // NULL hands management back to the library.
  handle->workspace = workspace;
  handle->workspace_bytes = bytes;
  handle->workspace_is_user = workspace != nullptr;
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_get_workspace_size(ecgemmHandle_t handle, int m, int n, int k,
                                                    size_t* bytes) {
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  if (m < 0) return invalid(3);
  if (n < 0) return invalid(4);
  if (k < 0) return invalid(5);
  if (bytes == nullptr) return invalid(0);
  *bytes = ecgemm::detail::workspace_bytes(*handle, m, n, k);
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_sgemm(ecgemmHandle_t handle, ecgemmOperation_t transa,
                                       ecgemmOperation_t transb, int m, int n, int k,
                                       const float* alpha, const float* A, int lda,
                                       const float* B, int ldb, const float* beta, float* C,
                                       int ldc) {
  return run(handle, {transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc});
}

ECGEMM_API ecgemmStatus_t ecgemm_sgemm_64(ecgemmHandle_t handle, ecgemmOperation_t transa,
                                          ecgemmOperation_t transb, int64_t m, int64_t n,
                                          int64_t k, const float* alpha, const float* A,
                                          int64_t lda, const float* B, int64_t ldb,
                                          const float* beta, float* C, int64_t ldc) {
  return run(handle, {transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc});
}

ECGEMM_API ecgemmStatus_t ecgemm_sgemm_strided_batched_64(
    ecgemmHandle_t handle, ecgemmOperation_t transa, ecgemmOperation_t transb, int64_t m,
    int64_t n, int64_t k, const float* alpha, const float* A, int64_t lda, int64_t strideA,
    const float* B, int64_t ldb, int64_t strideB, const float* beta, float* C, int64_t ldc,
    int64_t strideC, int64_t batch_count) {
  Call call{transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc};
  call.form = Form::kStrided;
  call.batch.count = batch_count;
  call.batch.stride_a = strideA;
  call.batch.stride_b = strideB;
  call.batch.stride_c = strideC;
  return run(handle, call);
}

ECGEMM_API ecgemmStatus_t ecgemm_sgemm_strided_batched(
    ecgemmHandle_t handle, ecgemmOperation_t transa, ecgemmOperation_t transb, int m, int n, int k,
    const float* alpha, const float* A, int lda, long long strideA, const float* B, int ldb,
    long long strideB, const float* beta, float* C, int ldc, long long strideC, int batch_count) {
  return ecgemm_sgemm_strided_batched_64(handle, transa, transb, m, n, k, alpha, A, lda, strideA,
                                         B, ldb, strideB, beta, C, ldc, strideC, batch_count);
}

ECGEMM_API ecgemmStatus_t ecgemm_sgemm_batched_64(
    ecgemmHandle_t handle, ecgemmOperation_t transa, ecgemmOperation_t transb, int64_t m,
    int64_t n, int64_t k, const float* alpha, const float* const A[], int64_t lda,
    const float* const B[], int64_t ldb, const float* beta, float* const C[], int64_t ldc,
    int64_t batch_count) {
  Call call{transa, transb, m, n, k, alpha, nullptr, lda, nullptr, ldb, beta, nullptr, ldc};
  call.form = Form::kPointerArray;
  call.batch.count = batch_count;
  call.batch.a_array = A;
  call.batch.b_array = B;
  call.batch.c_array = C;
  return run(handle, call);
}

ECGEMM_API ecgemmStatus_t ecgemm_sgemm_batched(ecgemmHandle_t handle, ecgemmOperation_t transa,
                                               ecgemmOperation_t transb, int m, int n, int k,
                                               const float* alpha, const float* const A[],
                                               int lda, const float* const B[], int ldb,
                                               const float* beta, float* const C[], int ldc,
                                               int batch_count) {
  return ecgemm_sgemm_batched_64(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C,
                                 ldc, batch_count);
}

// --- device memory helpers ----------------------------------------------------

ECGEMM_API ecgemmStatus_t ecgemm_device_malloc(void** ptr, size_t bytes) {
  if (ptr == nullptr) return invalid(0);
  const cudaError_t err = cudaMalloc(ptr, bytes);
  if (err == cudaSuccess) return ECGEMM_STATUS_SUCCESS;
  cudaGetLastError();
  *ptr = nullptr;
  return no_device(err) ? ECGEMM_STATUS_NO_DEVICE : ECGEMM_STATUS_ALLOC_FAILED;
}

ECGEMM_API ecgemmStatus_t ecgemm_device_free(void* ptr) {
  return cudaFree(ptr) == cudaSuccess ? ECGEMM_STATUS_SUCCESS : ECGEMM_STATUS_EXECUTION_FAILED;
}

ECGEMM_API ecgemmStatus_t ecgemm_memcpy_to_device(void* dst, const void* src, size_t bytes) {
  return cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice) == cudaSuccess
             ? ECGEMM_STATUS_SUCCESS
             : ECGEMM_STATUS_EXECUTION_FAILED;
}

ECGEMM_API ecgemmStatus_t ecgemm_memcpy_to_host(void* dst, const void* src, size_t bytes) {
  return cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost) == cudaSuccess
             ? ECGEMM_STATUS_SUCCESS
             : ECGEMM_STATUS_EXECUTION_FAILED;
}

ECGEMM_API ecgemmStatus_t ecgemm_device_synchronize(void) {
  return cudaDeviceSynchronize() == cudaSuccess ? ECGEMM_STATUS_SUCCESS
                                                : ECGEMM_STATUS_EXECUTION_FAILED;
}

}  // extern "C"
