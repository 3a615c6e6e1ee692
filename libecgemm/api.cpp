// Public ABI: handles, settings, status strings, version, and ecgemm_sgemm's
// front end (validation, quick returns, pointer checks) before dispatch.
#include <cuda_runtime.h>

#include <new>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <strings.h>

#include "dispatch.hpp"
#include "ecgemm.h"
#include "handle.hpp"
#include "internal.h"
#include "kernels/scale_c.hpp"
#include "memory.hpp"
#include "planner.hpp"
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
  const char* entry = "ecgemm_sgemm";
};

bool valid_mode(ecgemmMode_t mode) { return ecgemm_get_mode_name(mode) != nullptr; }

// The ecgemm_get_* settings: a handle, somewhere to put the value, the value.
template <typename T, typename Read>
ecgemmStatus_t get_setting(ecgemmHandle_t handle, T* out, Read read) {
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  if (out == nullptr) return invalid(0);
  *out = read(*handle);
  return ECGEMM_STATUS_SUCCESS;
}

// Mode values are consecutive from 0 (ecgemm.h): the first without a name ends them.
constexpr int kModeSearchEnd = 64;

// The planner's view of a call: shape, transposes, batch form (pointers play no part).
ecgemm::detail::GemmArgs shape_args(const Call& call) {
  ecgemm::detail::GemmArgs args;
  args.trans_a = call.transa != ECGEMM_OP_N;
  args.trans_b = call.transb != ECGEMM_OP_N;
  args.m = call.m;
  args.n = call.n;
  args.k = call.k;
  args.lda = call.lda;
  args.ldb = call.ldb;
  args.ldc = call.ldc;
  args.batch = call.batch;
  return args;
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

  GemmArgs args = shape_args(call);
  args.a = call.a;
  args.b = call.b;
  args.c = call.c;
  if (on_host) {
    args.scalars.alpha = *call.alpha;
    args.scalars.beta = *call.beta;
  } else {
    args.scalars.device_alpha = call.alpha;
    args.scalars.device_beta = call.beta;
  }

  DeviceGuard guard(handle->dev.ordinal);
  if (!guard.ok()) return ECGEMM_STATUS_EXECUTION_FAILED;
  if (!product) {
    const cudaError_t err = ecgemm::detail::launch_scale_c(args, handle->dev.sm_count, handle->stream);
    return err == cudaSuccess ? ECGEMM_STATUS_SUCCESS : ECGEMM_STATUS_EXECUTION_FAILED;
  }
  return ecgemm::detail::dispatch_sgemm(*handle, args, call.entry);
}

// A query's stand-in for a call of this shape: the checks run() makes on the shape, then
// the planner's arguments (`arrays`: the pointer-array form, whose planning differs from
// a strided batch of one).
ecgemmStatus_t query_args(ecgemmHandle_t handle, const Call& call, bool arrays,
                          ecgemm::detail::GemmArgs* args, bool* nothing) {
  last_error_arg = 0;
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  if (const int bad = ecgemm_validate_sgemm(call.transa, call.transb, call.m, call.n, call.k,
                                            call.lda, call.ldb, call.ldc))
    return invalid(bad);
  if (call.batch.count < 0) return invalid(ECGEMM_ARG_BATCH_COUNT);
  *nothing = call.m == 0 || call.n == 0 || call.k == 0 || call.batch.count == 0;
  *args = shape_args(call);
  // Only the form matters to the planner: a host address that is never dereferenced.
  static float* const kNoPointers[1] = {nullptr};
  if (arrays) args->batch.c_array = kNoPointers;
  return ECGEMM_STATUS_SUCCESS;
}

// ECGEMM_WORKSPACE_LIMIT: the default limit of new handles, in bytes, with an optional
// K, M or G suffix (powers of 1024). Unparsable values are ignored.
size_t default_workspace_limit() {
  const char* text = std::getenv("ECGEMM_WORKSPACE_LIMIT");
  if (text == nullptr || *text == '\0') return 0;
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (errno != 0 || end == text) return 0;
  unsigned shift = 0;
  switch (*end) {
    case 'k': case 'K': shift = 10; ++end; break;
    case 'm': case 'M': shift = 20; ++end; break;
    case 'g': case 'G': shift = 30; ++end; break;
    default: break;
  }
  if (*end != '\0' || (shift && value > (SIZE_MAX >> shift))) return 0;
  return static_cast<size_t>(value) << shift;
}

// Peak DRAM bandwidth in GB/s (two transfers a memory clock), for the cost model's floor;
// 0 where the driver does not say.
double peak_dram_gbps(int device) {
  int clock_khz = 0, bus_bits = 0;
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device) != cudaSuccess) {
    cudaGetLastError();
    return 0.0;
  }
  return 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
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
  ctx->dev.ordinal = device;
  ctx->dev.cc_major = prop.major;
  ctx->dev.cc_minor = prop.minor;
  ctx->dev.sm_count = prop.multiProcessorCount;
  ctx->dev.max_smem_per_block = static_cast<int>(prop.sharedMemPerBlockOptin);
  ctx->dev.dram_gbps = peak_dram_gbps(device);
  ctx->workspace_limit = default_workspace_limit();
  ecgemm::detail::attach_device(device);
  *handle = ctx;
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_destroy(ecgemmHandle_t handle) {
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  // Calls still in flight hold their scratch until they finish (stream order), so
  // nothing here waits for the device.
  {
    DeviceGuard guard(handle->dev.ordinal);
    ecgemm::detail::detach_device(handle->dev.ordinal);
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
  return get_setting(handle, stream, [](const ecgemmContext& h) {
    return reinterpret_cast<ecgemmStream_t>(h.stream);
  });
}

ECGEMM_API ecgemmStatus_t ecgemm_set_mode(ecgemmHandle_t handle, ecgemmMode_t mode) {
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  if (!valid_mode(mode)) return invalid(0);
  handle->mode = mode;
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_get_mode(ecgemmHandle_t handle, ecgemmMode_t* mode) {
  return get_setting(handle, mode, [](const ecgemmContext& h) { return h.mode; });
}

ECGEMM_API ecgemmStatus_t ecgemm_set_pointer_mode(ecgemmHandle_t handle, ecgemmPointerMode_t mode) {
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  if (mode != ECGEMM_POINTER_MODE_HOST && mode != ECGEMM_POINTER_MODE_DEVICE) return invalid(0);
  handle->pointer_mode = mode;
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_get_pointer_mode(ecgemmHandle_t handle, ecgemmPointerMode_t* mode) {
  return get_setting(handle, mode, [](const ecgemmContext& h) { return h.pointer_mode; });
}

ECGEMM_API ecgemmStatus_t ecgemm_get_device(ecgemmHandle_t handle, int* device) {
  return get_setting(handle, device, [](const ecgemmContext& h) { return h.dev.ordinal; });
}

ECGEMM_API ecgemmStatus_t ecgemm_set_workspace(ecgemmHandle_t handle, void* workspace, size_t bytes) {
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  if ((workspace == nullptr) != (bytes == 0) || reinterpret_cast<uintptr_t>(workspace) % 256 != 0)
    return invalid(0);
  // NULL hands the scratch back to the allocator or the pool.
  handle->user_workspace = workspace;
  handle->user_workspace_bytes = bytes;
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_set_workspace_limit(ecgemmHandle_t handle, size_t bytes) {
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  handle->workspace_limit = bytes;
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_get_workspace_limit(ecgemmHandle_t handle, size_t* bytes) {
  return get_setting(handle, bytes, [](const ecgemmContext& h) { return h.workspace_limit; });
}

ECGEMM_API ecgemmStatus_t ecgemm_release_workspace(ecgemmHandle_t handle) {
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  DeviceGuard guard(handle->dev.ordinal);
  if (!guard.ok()) return ECGEMM_STATUS_EXECUTION_FAILED;
  return ecgemm::detail::release_idle(handle->dev.ordinal);
}

ECGEMM_API ecgemmStatus_t ecgemm_set_device_mem_handler(ecgemmHandle_t handle,
                                                        const ecgemmDeviceMemHandler_t* handler) {
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  if (handler == nullptr) {
    handle->mem_handler = ecgemmDeviceMemHandler_t{};
    handle->has_mem_handler = false;
    return ECGEMM_STATUS_SUCCESS;
  }
  if (handler->device_alloc == nullptr || handler->device_free == nullptr) return invalid(0);
  handle->mem_handler = *handler;
  handle->mem_handler.name[sizeof handler->name - 1] = '\0';
  handle->has_mem_handler = true;
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_get_device_mem_handler(ecgemmHandle_t handle,
                                                        ecgemmDeviceMemHandler_t* handler) {
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  if (handler == nullptr) return invalid(0);
  if (!handle->has_mem_handler) return ECGEMM_STATUS_NOT_SUPPORTED;  // the library's pool
  *handler = handle->mem_handler;
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_get_workspace_size_64(ecgemmHandle_t handle,
                                                       ecgemmOperation_t transa,
                                                       ecgemmOperation_t transb, int64_t m,
                                                       int64_t n, int64_t k, int64_t lda,
                                                       int64_t ldb, int64_t ldc,
                                                       int64_t batch_count, int pointer_arrays,
                                                       size_t* bytes) {
  Call call{transa, transb, m, n, k, nullptr, nullptr, lda, nullptr, ldb, nullptr, nullptr, ldc};
  call.batch.count = batch_count;
  ecgemm::detail::GemmArgs args;
  bool nothing = false;
  if (const ecgemmStatus_t s = query_args(handle, call, pointer_arrays != 0, &args, &nothing);
      s != ECGEMM_STATUS_SUCCESS)
    return s;
  if (bytes == nullptr) return invalid(0);
  *bytes = nothing ? 0 : ecgemm::detail::workspace_bytes(*handle, args);
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_get_workspace_size(ecgemmHandle_t handle, int m, int n, int k,
                                                    size_t* bytes) {
  if (handle == nullptr) return ECGEMM_STATUS_NOT_INITIALIZED;
  if (m < 0) return invalid(3);
  if (n < 0) return invalid(4);
  if (k < 0) return invalid(5);
  if (bytes == nullptr) return invalid(0);
  const int ld = m > 1 ? m : 1, ldb = k > 1 ? k : 1;
  return ecgemm_get_workspace_size_64(handle, ECGEMM_OP_N, ECGEMM_OP_N, m, n, k, ld, ldb, ld, 1,
                                      0, bytes);
}

ECGEMM_API const char* ecgemm_get_mode_name(ecgemmMode_t mode) {
  switch (mode) {
    case ECGEMM_MODE_TF32TF32: return "tf32tf32";
    case ECGEMM_MODE_HALFHALF: return "halfhalf";
    case ECGEMM_MODE_FP32: return "fp32";
    case ECGEMM_MODE_TF32: return "tf32";
    case ECGEMM_MODE_FP16: return "fp16";
    case ECGEMM_MODE_MARKIDIS: return "markidis";
    case ECGEMM_MODE_AUTO: return "auto";
  }
  return nullptr;
}

ECGEMM_API ecgemmStatus_t ecgemm_get_mode_by_name(const char* name, ecgemmMode_t* mode) {
  if (name == nullptr || mode == nullptr) return invalid(0);
  for (int value = 0; value < kModeSearchEnd; ++value) {
    const char* known = ecgemm_get_mode_name(static_cast<ecgemmMode_t>(value));
    if (known == nullptr) break;
    if (strcasecmp(name, known) == 0) {
      *mode = static_cast<ecgemmMode_t>(value);
      return ECGEMM_STATUS_SUCCESS;
    }
  }
  return invalid(0);
}

static_assert(ecgemm::detail::kCostFeatures == ECGEMM_INTERNAL_COST_FEATURES,
              "internal.h names the cost model's feature count");

ECGEMM_API ecgemmStatus_t ecgemm_internal_plan_on(const ecgemmInternalDevice_t* device,
                                                  ecgemmMode_t mode, const char* family,
                                                  int transa, int transb, int64_t m, int64_t n,
                                                  int64_t k, int64_t lda, int64_t ldb,
                                                  int64_t ldc, int64_t batch_count, float beta,
                                                  double* features, char* text, size_t length) {
  using namespace ecgemm::detail;
  last_error_arg = 0;
  if (device == nullptr || text == nullptr || length == 0) return invalid(0);
  if (!valid_mode(mode)) return invalid(0);
  if (const int bad = ecgemm_validate_sgemm(transa, transb, m, n, k, lda, ldb, ldc))
    return invalid(bad);
  if (m == 0 || n == 0 || k == 0 || batch_count < 1) return ECGEMM_STATUS_NOT_SUPPORTED;
  Call call{static_cast<ecgemmOperation_t>(transa), static_cast<ecgemmOperation_t>(transb), m, n, k,
            nullptr, nullptr, lda, nullptr, ldb, nullptr, nullptr, ldc};
  call.batch.count = batch_count;
  GemmArgs args = shape_args(call);
  args.scalars.beta = beta;
  ecgemmContext ctx;
  ctx.dev.cc_major = device->cc_major;
  ctx.dev.cc_minor = device->cc_minor;
  ctx.dev.sm_count = device->sm_count;
  ctx.dev.max_smem_per_block = device->max_smem_per_block;
  ctx.dev.dram_gbps = device->dram_gbps;
  ctx.dev.described = true;
  ctx.mode = mode;
  Plan plan;
  if (family == nullptr || *family == '\0') {
    plan = make_plan(ctx, args);
  } else {
    FamilyPin pin;
    if (!family_by_name(family, &pin)) return invalid(0);
    if (!plan_family(ctx, args, pin, &plan)) return ECGEMM_STATUS_NOT_SUPPORTED;
  }
  if (features != nullptr) {
    const CostFeatures x = plan_features(plan, args, ctx.dev);
    for (int i = 0; i < kCostFeatures; ++i) features[i] = x.x[i];
  }
  const std::string line = describe(plan);
  std::strncpy(text, line.c_str(), length - 1);
  text[length - 1] = '\0';
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_internal_plan_string(ecgemmHandle_t handle, int transa, int transb,
                                                      int64_t m, int64_t n, int64_t k, int64_t lda,
                                                      int64_t ldb, int64_t ldc, int64_t batch_count,
                                                      int pointer_arrays, char* text, size_t length) {
  Call call{static_cast<ecgemmOperation_t>(transa), static_cast<ecgemmOperation_t>(transb), m, n, k,
            nullptr, nullptr, lda, nullptr, ldb, nullptr, nullptr, ldc};
  call.batch.count = batch_count;
  ecgemm::detail::GemmArgs args;
  bool nothing = false;
  if (const ecgemmStatus_t s = query_args(handle, call, pointer_arrays != 0, &args, &nothing);
      s != ECGEMM_STATUS_SUCCESS)
    return s;
  if (text == nullptr || length == 0) return invalid(0);
  const std::string plan =
      nothing ? std::string("family=none (no product: C = beta * C)")
              : ecgemm::detail::plan_string(*handle, args);
  std::strncpy(text, plan.c_str(), length - 1);
  text[length - 1] = '\0';
  return ECGEMM_STATUS_SUCCESS;
}

ECGEMM_API ecgemmStatus_t ecgemm_internal_workspace_usage(int device, int reset_high, size_t* used,
                                                          size_t* used_high, size_t* reserved,
                                                          size_t* reserved_high) {
  if (used == nullptr || used_high == nullptr || reserved == nullptr || reserved_high == nullptr)
    return invalid(0);
  ecgemm::detail::PoolUsage usage;
  const ecgemmStatus_t s = ecgemm::detail::pool_usage(device, reset_high != 0, &usage);
  *used = usage.used;
  *used_high = usage.used_high;
  *reserved = usage.reserved;
  *reserved_high = usage.reserved_high;
  return s;
}

ECGEMM_API ecgemmStatus_t ecgemm_sgemm(ecgemmHandle_t handle, ecgemmOperation_t transa,
                                       ecgemmOperation_t transb, int m, int n, int k,
                                       const float* alpha, const float* A, int lda,
                                       const float* B, int ldb, const float* beta, float* C,
                                       int ldc) {
  Call call{transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc};
  call.entry = __func__;
  return run(handle, call);
}

ECGEMM_API ecgemmStatus_t ecgemm_sgemm_64(ecgemmHandle_t handle, ecgemmOperation_t transa,
                                          ecgemmOperation_t transb, int64_t m, int64_t n,
                                          int64_t k, const float* alpha, const float* A,
                                          int64_t lda, const float* B, int64_t ldb,
                                          const float* beta, float* C, int64_t ldc) {
  Call call{transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc};
  call.entry = __func__;
  return run(handle, call);
}

ECGEMM_API ecgemmStatus_t ecgemm_sgemm_strided_batched_64(
    ecgemmHandle_t handle, ecgemmOperation_t transa, ecgemmOperation_t transb, int64_t m,
    int64_t n, int64_t k, const float* alpha, const float* A, int64_t lda, int64_t strideA,
    const float* B, int64_t ldb, int64_t strideB, const float* beta, float* C, int64_t ldc,
    int64_t strideC, int64_t batch_count) {
  Call call{transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc};
  call.form = Form::kStrided;
  call.entry = __func__;
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
  call.entry = __func__;
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
