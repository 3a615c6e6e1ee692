// GPU route. One ecgemm handle per (thread, device), created on first use, with
// staging buffers that grow to the largest operand seen and are freed when the
// thread exits. Work runs on the legacy default stream, so it is ordered after
// whatever the caller queued there (CUDA Fortran, OpenACC synchronous regions),
// and every call synchronises before returning, as BLAS callers expect.
#include "gpu_path.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "settings.hpp"

namespace ecgemm_blas {
namespace {

constexpr cudaStream_t kStream = nullptr;  // legacy default stream

// Makes `device` current for a scope and restores the caller's device after.
class DeviceScope {
 public:
  explicit DeviceScope(int device) {
    if (cudaGetDevice(&previous_) != cudaSuccess || previous_ == device) {
      previous_ = -1;
      return;
    }
    ok_ = cudaSetDevice(device) == cudaSuccess;
  }
  ~DeviceScope() {
    if (previous_ >= 0) cudaSetDevice(previous_);
  }
  bool ok() const { return ok_; }

 private:
  int previous_ = -1;
  bool ok_ = true;
};

class StagingBuffer {
 public:
  StagingBuffer() = default;
  StagingBuffer(const StagingBuffer&) = delete;
  StagingBuffer& operator=(const StagingBuffer&) = delete;
  ~StagingBuffer() { release(); }

  void release() {
    if (data_ != nullptr) cudaFree(data_);
    data_ = nullptr;
    capacity_ = 0;
  }

  // Grows (never shrinks) to hold `floats` elements.
  cudaError_t reserve(size_t floats) {
    if (floats <= capacity_) return cudaSuccess;
    release();  // cudaFree synchronises; growth happens a few times per thread at most
    const cudaError_t err = cudaMalloc(&data_, floats * sizeof(float));
    if (err != cudaSuccess) {
      data_ = nullptr;
      return err;
    }
    capacity_ = floats;
    return cudaSuccess;
  }
  float* data() const { return data_; }

 private:
  float* data_ = nullptr;
  size_t capacity_ = 0;
};

struct DeviceContext {
  explicit DeviceContext(int dev) : device(dev) {}
  ~DeviceContext() {
    DeviceScope scope(device);
    if (handle != nullptr) ecgemm_destroy(handle);
    // Freed here, while `device` is current, not by the members' destructors.
    a.release();
    b.release();
    c.release();
  }
  int device;
  ecgemmStatus_t create_status = ECGEMM_STATUS_NOT_INITIALIZED;
  ecgemmHandle_t handle = nullptr;
  StagingBuffer a, b, c;
};

// The calling thread's contexts, indexed by device ordinal.
class ThreadContexts {
 public:
  DeviceContext& on(int device) {
    if (static_cast<size_t>(device) >= contexts_.size()) contexts_.resize(device + 1);
    std::unique_ptr<DeviceContext>& slot = contexts_[device];
    if (!slot) {
      slot = std::make_unique<DeviceContext>(device);
      slot->create_status = ecgemm_create(&slot->handle);
      if (slot->create_status == ECGEMM_STATUS_SUCCESS)
        slot->create_status = ecgemm_set_mode(slot->handle, settings().mode);
    }
    return *slot;
  }

 private:
  std::vector<std::unique_ptr<DeviceContext>> contexts_;
};

thread_local ThreadContexts t_contexts;

GpuOutcome failure(ecgemmStatus_t status, const char* step, bool c_modified = false) {
  GpuOutcome out;
  out.status = status;
  out.failed_step = step;
  out.c_modified = c_modified;
  return out;
}

ecgemmStatus_t status_of(cudaError_t err) {
  cudaGetLastError();  // clear it so the thread's next CUDA call starts clean
  return err == cudaErrorMemoryAllocation ? ECGEMM_STATUS_ALLOC_FAILED
                                          : ECGEMM_STATUS_EXECUTION_FAILED;
}

// A column-major host matrix and the packed (ld = rows) device copy made of it.
struct HostMatrix {
  const float* data;
  int rows, cols, ld;
  size_t row_bytes() const { return static_cast<size_t>(rows) * sizeof(float); }
  size_t packed_floats() const { return static_cast<size_t>(rows) * static_cast<size_t>(cols); }
  int packed_ld() const { return rows > 1 ? rows : 1; }
};

// Copies only rows 0..rows-1 of each column: the rows below belong to the caller.
cudaError_t copy_in(const HostMatrix& h, float* dst) {
  return cudaMemcpy2DAsync(dst, h.packed_ld() * sizeof(float), h.data, h.ld * sizeof(float),
                           h.row_bytes(), h.cols, cudaMemcpyHostToDevice, kStream);
}

// `products` host matrices `stride` floats apart (stride 0: one matrix for all), packed
// one after the other into `buf`; returns the packed stride (0 for a repeated matrix).
cudaError_t stage_in(HostMatrix h, long long stride, int products, StagingBuffer& buf,
                     long long* packed_stride, bool copy = true) {
  const int copies = stride == 0 ? 1 : products;
  cudaError_t err = buf.reserve(h.packed_floats() * static_cast<size_t>(copies));
  *packed_stride = stride == 0 ? 0 : static_cast<long long>(h.packed_floats());
  for (int z = 0; z < copies && copy && err == cudaSuccess; ++z, h.data += stride)
    err = copy_in(h, buf.data() + z * h.packed_floats());
  return err;
}

int pick_device(const Placement& where) {
  for (const Residence* r : {&where.c, &where.a, &where.b})
    if (r->on_device) return r->device;
  int current = 0;
  return cudaGetDevice(&current) == cudaSuccess ? current : 0;
}

}  // namespace

bool gpu_present() {
  static const bool present = ecgemm_get_device_count() > 0;
  return present;
}

Residence locate(const void* ptr) {
  Residence r;
  cudaPointerAttributes attr{};
  if (ptr == nullptr || cudaPointerGetAttributes(&attr, ptr) != cudaSuccess) {
    cudaGetLastError();
    return r;  // unknown to CUDA: plain host memory
  }
  if (attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged) {
    r.on_device = true;
    r.device = attr.device;
  }
  return r;
}

GpuOutcome gpu_sgemm(const ecgemm_blas_problem& p, const ecgemm_blas_batch& batch,
                     const Placement& where) {
  const int device = pick_device(where);
  for (const Residence* r : {&where.a, &where.b, &where.c})
    if (r->on_device && r->device != device)
      return failure(ECGEMM_STATUS_INVALID_VALUE, "operands on different devices");

  DeviceScope scope(device);
  if (!scope.ok()) return failure(ECGEMM_STATUS_EXECUTION_FAILED, "cudaSetDevice");
  DeviceContext& ctx = t_contexts.on(device);
  if (ctx.create_status != ECGEMM_STATUS_SUCCESS)
    return failure(ctx.create_status, "ecgemm_create");

  // alpha = 0 or k = 0: A and B are not referenced, so they are neither located nor staged.
  // Host operands are packed on the device (ld = rows, one product after the other).
  const bool product = p.alpha != 0.0f && p.k > 0;
  const float* a = p.a;
  const float* b = p.b;
  int lda = p.lda, ldb = p.ldb;
  long long stride_a = batch.stride_a, stride_b = batch.stride_b, stride_c = batch.stride_c;
  cudaError_t err = cudaSuccess;
  if (product && !where.a.on_device) {
    const HostMatrix h{p.a, p.trans_a ? p.k : p.m, p.trans_a ? p.m : p.k, p.lda};
    if ((err = stage_in(h, batch.stride_a, batch.count, ctx.a, &stride_a)) != cudaSuccess)
      return failure(status_of(err), "copying A");
    a = ctx.a.data();
    lda = h.packed_ld();
  }
  if (product && !where.b.on_device) {
    const HostMatrix h{p.b, p.trans_b ? p.n : p.k, p.trans_b ? p.k : p.n, p.ldb};
    if ((err = stage_in(h, batch.stride_b, batch.count, ctx.b, &stride_b)) != cudaSuccess)
      return failure(status_of(err), "copying B");
    b = ctx.b.data();
    ldb = h.packed_ld();
  }
  float* c = p.c;
  int ldc = p.ldc;
  const HostMatrix hc{p.c, p.m, p.n, p.ldc};
  if (!where.c.on_device) {
    // beta = 0: C is write-only, so it is not copied in (NaN in C must not propagate).
    if ((err = stage_in(hc, batch.stride_c, batch.count, ctx.c, &stride_c, p.beta != 0.0f)) !=
        cudaSuccess)
      return failure(status_of(err), "copying C");
    c = ctx.c.data();
    ldc = hc.packed_ld();
  }

  const ecgemmOperation_t ta = p.trans_a ? ECGEMM_OP_T : ECGEMM_OP_N;
  const ecgemmOperation_t tb = p.trans_b ? ECGEMM_OP_T : ECGEMM_OP_N;
  const ecgemmStatus_t status =
      batch.count == 1
          ? ecgemm_sgemm(ctx.handle, ta, tb, p.m, p.n, p.k, &p.alpha, a, lda, b, ldb, &p.beta, c,
                         ldc)
          : ecgemm_sgemm_strided_batched(ctx.handle, ta, tb, p.m, p.n, p.k, &p.alpha, a, lda,
                                         stride_a, b, ldb, stride_b, &p.beta, c, ldc, stride_c,
                                         batch.count);
  if (status != ECGEMM_STATUS_SUCCESS) return failure(status, "ecgemm_sgemm", where.c.on_device);

  for (int z = 0; !where.c.on_device && z < batch.count; ++z) {
    err = cudaMemcpy2DAsync(p.c + z * batch.stride_c, p.ldc * sizeof(float), c + z * stride_c,
                            ldc * sizeof(float), hc.row_bytes(), hc.cols, cudaMemcpyDeviceToHost,
                            kStream);
    if (err != cudaSuccess) return failure(status_of(err), "copying C back", true);
  }
  err = cudaStreamSynchronize(kStream);
  if (err != cudaSuccess) return failure(status_of(err), "synchronising", true);
  return GpuOutcome{};
}

}  // namespace ecgemm_blas
