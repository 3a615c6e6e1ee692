// What the wgmma kernels (sm_90a) need of the build, the GPU and the driver: the
// driver's tensor-map encoder for their copy-engine (TMA) loads, among other things.
#pragma once

#include <cuda.h>  // CUtensorMap and its enums only: the encoder comes from the runtime
#include <cudaTypedefs.h>

#include "kernels/gemm_args.hpp"

namespace ecgemm::detail {

// Whether a wgmma kernel taking `smem_bytes` of dynamic shared memory can run on `dev`:
// the sm_90a image was built, the GPU is cc 9.0 (sm_90a code runs nowhere else), the
// driver gives out the tensor-map encoder, and the shared memory fits.
bool wgmma_usable(const DeviceInfo& dev, int smem_bytes);

// cuTensorMapEncodeTiled through the runtime's driver entry point (no -lcuda), looked
// up once; null where the driver does not give it out.
PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder();

}  // namespace ecgemm::detail
