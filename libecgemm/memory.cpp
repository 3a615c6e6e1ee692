// Stream-ordered scratch memory (memory.hpp, docs/memory.md).
#include "memory.hpp"

#include <atomic>
#include <cstdint>
#include <mutex>

namespace ecgemm::detail {
namespace {

// One pool per device, shared by every handle on it: a block freed by one call serves
// the next call of any handle, so memory follows what is in flight, not the number of
// handles. Created on first use, never destroyed (a call may still be queued while the
// process exits); its idle memory goes back when the device's last handle does.
constexpr int kMaxDevices = 64;

struct DevicePool {
  std::once_flag once;
  cudaMemPool_t pool = nullptr;  // null: the driver has no memory pools here
  std::atomic<int> handles{0};
};

DevicePool g_pools[kMaxDevices];

cudaMemPool_t make_pool(int device) {
  int supported = 0;
  if (cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device) != cudaSuccess ||
      !supported) {
    cudaGetLastError();
    return nullptr;
  }
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t pool = nullptr;
  if (cudaMemPoolCreate(&pool, &props) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  // Keep freed blocks for the next call: giving them back at every synchronisation
  // would map and unmap memory on the hot path. ecgemm_release_workspace trims.
  uint64_t keep = UINT64_MAX;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
  // Reuse a block freed on another stream only once that stream's work on it is done
  // (opportunistic) or already ordered before us: never by making this call's stream
  // wait for another's, which would serialise streams the caller meant to overlap.
  int off = 0;
  cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowInternalDependencies, &off);
  return pool;
}

DevicePool* device_pool(int device) {
  if (device < 0 || device >= kMaxDevices) return nullptr;
  DevicePool& p = g_pools[device];
  std::call_once(p.once, [&] { p.pool = make_pool(device); });
  return &p;
}

}  // namespace

bool capturing(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &status) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return status != cudaStreamCaptureStatusNone;
}

size_t scratch_cap(const ecgemmContext& ctx) {
  size_t cap = ctx.user_workspace != nullptr ? ctx.user_workspace_bytes : SIZE_MAX;
  if (ctx.workspace_limit != 0 && ctx.workspace_limit < cap) cap = ctx.workspace_limit;
  return cap;
}

ecgemmStatus_t Scratch::acquire(size_t bytes) {
  if (bytes == 0) return ECGEMM_STATUS_SUCCESS;
  if (bytes > scratch_cap(ctx_)) return ECGEMM_STATUS_INTERNAL_ERROR;  // the planner's job
  if (ctx_.user_workspace != nullptr) {
    data_ = ctx_.user_workspace;
    source_ = Source::kUser;
    return ECGEMM_STATUS_SUCCESS;
  }
  if (ctx_.has_mem_handler) {
    const ecgemmDeviceMemHandler_t& h = ctx_.mem_handler;
    void* ptr = nullptr;
    if (h.device_alloc(h.ctx, &ptr, bytes, reinterpret_cast<ecgemmStream_t>(ctx_.stream)) != 0 ||
        ptr == nullptr)
      return ECGEMM_STATUS_ALLOC_FAILED;
    data_ = ptr;
    bytes_ = bytes;
    source_ = Source::kHandler;
    return ECGEMM_STATUS_SUCCESS;
  }
  DevicePool* p = device_pool(ctx_.dev.ordinal);
  if (p != nullptr && p->pool != nullptr) {
    cudaError_t err = cudaMallocFromPoolAsync(&data_, bytes, p->pool, ctx_.stream);
    if (err == cudaErrorMemoryAllocation) {
      // Idle blocks too small or too scattered for this one: give them back and retry.
      cudaGetLastError();
      cudaMemPoolTrimTo(p->pool, 0);
      err = cudaMallocFromPoolAsync(&data_, bytes, p->pool, ctx_.stream);
    }
    if (err != cudaSuccess) {
      cudaGetLastError();
      data_ = nullptr;
      return err == cudaErrorMemoryAllocation ? ECGEMM_STATUS_ALLOC_FAILED
                                              : ECGEMM_STATUS_EXECUTION_FAILED;
    }
    bytes_ = bytes;
    source_ = Source::kPool;
    return ECGEMM_STATUS_SUCCESS;
  }
  // No memory pools on this driver: a private block, freed once the call has finished
  // (correct on any stream, at the price of a host wait). A capture cannot hold that.
  if (capturing(ctx_.stream)) return ECGEMM_STATUS_NOT_SUPPORTED;
  if (cudaMalloc(&data_, bytes) != cudaSuccess) {
    cudaGetLastError();
    data_ = nullptr;
    return ECGEMM_STATUS_ALLOC_FAILED;
  }
  bytes_ = bytes;
  source_ = Source::kBlocking;
  return ECGEMM_STATUS_SUCCESS;
}

void Scratch::release() {
  switch (source_) {
    case Source::kNone:
    case Source::kUser: break;
    case Source::kHandler:
      ctx_.mem_handler.device_free(ctx_.mem_handler.ctx, data_, bytes_,
                                   reinterpret_cast<ecgemmStream_t>(ctx_.stream));
      break;
    case Source::kPool:
      if (cudaFreeAsync(data_, ctx_.stream) != cudaSuccess) cudaGetLastError();
      break;
    case Source::kBlocking:
      cudaStreamSynchronize(ctx_.stream);
      cudaFree(data_);
      cudaGetLastError();
      break;
  }
  data_ = nullptr;
  bytes_ = 0;
  source_ = Source::kNone;
}

void attach_device(int device) {
  if (DevicePool* p = device_pool(device)) p->handles.fetch_add(1);
}

void detach_device(int device) {
  DevicePool* p = device_pool(device);
  if (p != nullptr && p->handles.fetch_sub(1) == 1) release_idle(device);
}

ecgemmStatus_t release_idle(int device) {
  DevicePool* p = device_pool(device);
  if (p == nullptr || p->pool == nullptr) return ECGEMM_STATUS_SUCCESS;
  if (cudaMemPoolTrimTo(p->pool, 0) != cudaSuccess) {
    cudaGetLastError();
    return ECGEMM_STATUS_EXECUTION_FAILED;
  }
  return ECGEMM_STATUS_SUCCESS;
}

ecgemmStatus_t pool_usage(int device, bool reset_high, PoolUsage* usage) {
  *usage = {};
  DevicePool* p = device_pool(device);
  if (p == nullptr) return ECGEMM_STATUS_INVALID_VALUE;
  if (p->pool == nullptr) return ECGEMM_STATUS_SUCCESS;
  uint64_t v[4] = {};
  const cudaMemPoolAttr attrs[4] = {cudaMemPoolAttrUsedMemCurrent, cudaMemPoolAttrUsedMemHigh,
                                    cudaMemPoolAttrReservedMemCurrent,
                                    cudaMemPoolAttrReservedMemHigh};
  for (int i = 0; i < 4; ++i)
    if (cudaMemPoolGetAttribute(p->pool, attrs[i], &v[i]) != cudaSuccess) {
      cudaGetLastError();
      return ECGEMM_STATUS_EXECUTION_FAILED;
    }
  *usage = {static_cast<size_t>(v[0]), static_cast<size_t>(v[1]), static_cast<size_t>(v[2]),
            static_cast<size_t>(v[3])};
  if (reset_high) {
    uint64_t zero = 0;
    cudaMemPoolSetAttribute(p->pool, cudaMemPoolAttrUsedMemHigh, &zero);
    cudaMemPoolSetAttribute(p->pool, cudaMemPoolAttrReservedMemHigh, &zero);
  }
  return ECGEMM_STATUS_SUCCESS;
}

}  // namespace ecgemm::detail
