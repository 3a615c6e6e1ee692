#include "kernels/sm90/tensor_map.hpp"

#include <cuda_runtime.h>

namespace ecgemm::detail {

PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 encoder = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault,
                                         &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess)
      fn = nullptr;
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }();
  return encoder;
}

bool wgmma_usable(const DeviceInfo& dev, int smem_bytes) {
#if defined(ECGEMM_HAS_SM90A)
  return dev.cc_major == 9 && dev.cc_minor == 0 && (dev.described || tensor_map_encoder() != nullptr) &&
         smem_bytes <= dev.max_smem_per_block;
#else
  (void)dev, (void)smem_bytes;
  return false;
#endif
}

}  // namespace ecgemm::detail
