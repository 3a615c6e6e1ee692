// How every kernel is launched: one helper for the launch itself (grid, block, shared
// memory, stream and the attributes a family asks for), the kernel attributes that are
// set once per device, and programmatic dependent launch between the kernels of one call
// and, for a call's first kernel, on whatever kernel the stream ran before it.
//
// Programmatic dependent launch (sm_90+): a kernel launched `dependent` may be scheduled
// while the stream's previous kernel is still running (once every CTA of that kernel
// called allow_dependents() or exited), so its launch and prologue hide behind that
// kernel's tail instead of following it: a small call's route is two or three short
// kernels, and each boundary cost ~1 us of idle GPU. The first kernel of every family
// (first_kernel(): fused_mma, fused_wgmma, simt, gemv and the split pass) is a dependent
// of the stream's previous kernel even when that is another call's or another library's.
// Held-out shapes back to back: fused_mma 1.05-1.22x, gemv 1.31x, simt 1.20x; behind a torch
// kernel that signals nothing early, fused_mma 1.16x, gemv 1.26x, simt 1.16x (x cuBLAS in each
// tree's process; bench/results/README.md#cluster, #pdl).
//
// The contract, which keeps every hazard of the stream order covered: a kernel that can
// be launched `dependent` calls wait_for_prior_grids() before it reads or writes any
// global memory (the call waits for the previous grid to complete and its writes to be
// visible), and a kernel calls allow_dependents() only after its own wait; so when a
// dependent passes its wait, everything queued before it has finished. Launched
// without the attribute (other GPUs, other callers) both are no-ops.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace ecgemm::detail {

__device__ __forceinline__ void wait_for_prior_grids() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

__device__ __forceinline__ void allow_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// ECGEMM_SERIAL_LAUNCHES=1: every kernel of a call launched in plain stream order, none
// as a programmatic dependent: for measuring what those save, and for tools that do not
// follow them. Read per launch, like the route pins.
inline bool serial_launches() {
  const char* v = std::getenv("ECGEMM_SERIAL_LAUNCHES");
  return v != nullptr && std::strcmp(v, "1") == 0;
}

// One launch: its shape, and the attributes the family asks for.
struct Launch {
  dim3 grid, block;
  size_t smem = 0;  // dynamic shared memory, bytes
  cudaStream_t stream = nullptr;
  bool dependent = false;  // a programmatic dependent of the stream's previous kernel (ours, cc >= 9.0)
  unsigned cluster_z = 0;  // thread-block clusters of this many CTAs along z (sm_90); 0: none
  // A call's first kernel that waits for prior grids at entry: dependent wherever the device
  // runs programmatic launches, whatever kernel the stream ran before it.
  bool first_waits = false;
};

// `l` as a call's first kernel that waits at entry (Launch::first_waits).
inline Launch first_kernel(Launch l) {
  l.first_waits = true;
  return l;
}

// Whether the current device runs programmatic dependent launches (sm_90+), asked once a device.
inline bool programmatic_launches() {
  static std::atomic<uint64_t> known{0}, supported{0};
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= 64) return false;
  const uint64_t bit = uint64_t(1) << device;
  if (known.load(std::memory_order_relaxed) & bit)
    return (supported.load(std::memory_order_relaxed) & bit) != 0;
  int major = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess)
    return false;
  if (major >= 9) supported.fetch_or(bit, std::memory_order_relaxed);
  known.fetch_or(bit, std::memory_order_relaxed);
  return major >= 9;
}

// kernel<<<...>>>(args...) with `l`'s attributes. A failed launch's error is returned and
// cleared, so that no later call finds it.
template <typename... Params, typename... Args>
cudaError_t launch(const Launch& l, void (*kernel)(Params...), Args&&... args) {
  cudaLaunchAttribute attributes[2] = {};
  unsigned count = 0;
  if ((l.dependent || (l.first_waits && programmatic_launches())) && !serial_launches()) {
    attributes[count].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attributes[count++].val.programmaticStreamSerializationAllowed = 1;
  }
  if (l.cluster_z > 0) {
    attributes[count].id = cudaLaunchAttributeClusterDimension;
    attributes[count].val.clusterDim.x = 1;
    attributes[count].val.clusterDim.y = 1;
    attributes[count++].val.clusterDim.z = l.cluster_z;
  }
  cudaLaunchConfig_t config{};
  config.gridDim = l.grid;
  config.blockDim = l.block;
  config.dynamicSmemBytes = l.smem;
  config.stream = l.stream;
  config.attrs = count > 0 ? attributes : nullptr;
  config.numAttrs = count;
  const cudaError_t err = cudaLaunchKernelEx(&config, kernel, static_cast<Args&&>(args)...);
  if (err != cudaSuccess) cudaGetLastError();
  return err;
}

// Kernel attributes are set once per kernel and device, not on every call:
// cudaFuncSetAttribute costs host time, and it is not a call to make while a stream is
// being captured into a CUDA graph. Runs `set` the first time it is asked for on
// `device`; `done` is that kernel's own flag word.
template <typename Set>
cudaError_t once_per_device(std::atomic<uint64_t>& done, int device, Set&& set) {
  const uint64_t bit = device >= 0 && device < 64 ? uint64_t(1) << device : 0;
  if (bit && (done.load(std::memory_order_relaxed) & bit)) return cudaSuccess;
  const cudaError_t err = set();
  if (err == cudaSuccess) done.fetch_or(bit, std::memory_order_relaxed);
  return err;
}

// `bytes` of dynamic shared memory (above the 48 KB default) for kKernel, and all of the
// unified L1/shared carveout as shared memory (else fewer CTAs than planned fit an SM);
// once per device. A kernel always asks for the same `bytes`.
template <auto kKernel>
cudaError_t opt_in_shared_memory(int device, int bytes) {
  static std::atomic<uint64_t> done{0};
  return once_per_device(done, device, [bytes] {
    cudaError_t e =
        cudaFuncSetAttribute(kKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
    if (e == cudaSuccess)
      e = cudaFuncSetAttribute(kKernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                               cudaSharedmemCarveoutMaxShared);
    return e;
  });
}

}  // namespace ecgemm::detail
