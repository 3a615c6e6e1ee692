// Scratch memory for one call, ordered on the call's stream (docs/memory.md).
//
// A call takes at most one block, before its first kernel, and gives it back after its
// last, both on its own stream. Where the block comes from, first that applies:
//   1. the user's workspace (ecgemm_set_workspace): used as it is, by every call;
//   2. the user's stream-ordered allocator (ecgemm_set_device_mem_handler);
//   3. the library's pool for the device (cudaMallocFromPoolAsync / cudaFreeAsync).
// With 2 and 3 a block is never shared by calls that the stream order does not already
// serialise, so a handle may have calls in flight on any number of streams; under
// CUDA-graph capture a pool block becomes the graph's own memory (a memory node), valid
// for every replay whatever the handle does meanwhile.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "handle.hpp"

namespace ecgemm::detail {

// The most scratch a plan of this handle may ask for: the user workspace's size, the
// handle's limit (ecgemm_set_workspace_limit), or SIZE_MAX.
size_t scratch_cap(const ecgemmContext& ctx);

// Whether `stream` is being captured into a CUDA graph (false when the query fails).
bool capturing(cudaStream_t stream);

class Scratch {
 public:
  explicit Scratch(const ecgemmContext& ctx) : ctx_(ctx) {}
  ~Scratch() { release(); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  // Takes `bytes` (none when 0) on the handle's stream. On failure nothing is held and
  // nothing was queued that touches the caller's data.
  ecgemmStatus_t acquire(size_t bytes);
  void* data() const { return data_; }
  // Gives the block back on the handle's stream (stream-ordered: kernels queued before
  // still read it; work queued after may reuse it). Called by the destructor.
  void release();

 private:
  enum class Source { kNone, kUser, kHandler, kPool, kBlocking };
  const ecgemmContext& ctx_;
  void* data_ = nullptr;
  size_t bytes_ = 0;
  Source source_ = Source::kNone;
};

// Registers a handle on its device (the pool is created on first use) and unregisters
// it; the device's last handle going away returns the pool's idle memory.
void attach_device(int device);
void detach_device(int device);

// Returns the idle blocks of the device's pool to the driver (blocks of calls still in
// flight stay until they finish).
ecgemmStatus_t release_idle(int device);

// The pool's bytes in use now, the most in use since the last reset, and reserved now.
struct PoolUsage {
  size_t used = 0, used_high = 0, reserved = 0, reserved_high = 0;
};
ecgemmStatus_t pool_usage(int device, bool reset_high, PoolUsage* usage);

}  // namespace ecgemm::detail
