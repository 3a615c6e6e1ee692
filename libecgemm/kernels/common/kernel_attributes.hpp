// Kernel attributes (the shared-memory opt-in) are set once per kernel and device, not on
// every call: cudaFuncSetAttribute costs host time, and it is not a call to make while a
// stream is being captured into a CUDA graph.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace ecgemm::detail {

// Runs `set` (which sets one kernel's attributes) the first time it is asked for on
// `device`; `done` is that kernel's own flag word (a static of the caller's template).
template <typename Set>
cudaError_t once_per_device(std::atomic<uint64_t>& done, int device, Set&& set) {
  const uint64_t bit = device >= 0 && device < 64 ? uint64_t(1) << device : 0;
  if (bit && (done.load(std::memory_order_relaxed) & bit)) return cudaSuccess;
  const cudaError_t err = set();
  if (err == cudaSuccess) done.fetch_or(bit, std::memory_order_relaxed);
  return err;
}

// Dynamic shared memory above the 48 KB default for `kernel`, and all of the unified
// L1/shared carveout as shared memory (else fewer CTAs than planned fit an SM).
template <typename Kernel>
cudaError_t opt_in_shared_memory(Kernel kernel, int bytes) {
  cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  if (e == cudaSuccess)
    e = cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                             cudaSharedmemCarveoutMaxShared);
  return e;
}

// ECGEMM_SERIAL_LAUNCHES=1: every kernel of a call launched in plain stream order, none
// as a programmatic dependent (dependent_launch.cuh): for measuring what those save, and
// for tools that do not follow them. Read per launch, like the route pins.
inline bool serial_launches() {
  const char* v = std::getenv("ECGEMM_SERIAL_LAUNCHES");
  return v != nullptr && std::strcmp(v, "1") == 0;
}

}  // namespace ecgemm::detail
