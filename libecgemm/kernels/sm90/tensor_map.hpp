// The driver's tensor-map encoder for the Hopper kernels' copy-engine (TMA) loads.
#pragma once

#include <cuda.h>  // CUtensorMap and its enums only: the encoder comes from the runtime
#include <cudaTypedefs.h>

namespace ecgemm::detail {

// cuTensorMapEncodeTiled through the runtime's driver entry point (no -lcuda), looked
// up once; null where the driver does not give it out.
PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder();

}  // namespace ecgemm::detail
