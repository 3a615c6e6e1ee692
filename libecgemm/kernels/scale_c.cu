#include <algorithm>

#include "scale_c.hpp"

namespace ecgemm::detail {
namespace {

__global__ void scale_c_kernel(GemmArgs args) {
  const float beta = resolve_beta(args.scalars);
  const int64_t total = args.m * args.n;
  for (int64_t idx = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; idx < total;
       idx += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    float* c = args.c + (idx / args.m) * args.ldc + idx % args.m;
    *c = beta == 0.0f ? 0.0f : beta * *c;
  }
}

}  // namespace

cudaError_t launch_scale_c(const GemmArgs& args, int sm_count, cudaStream_t stream) {
  const int64_t total = args.m * args.n;
  const int blocks = static_cast<int>(std::min<int64_t>((total + 255) / 256, 32LL * sm_count));
  scale_c_kernel<<<blocks, 256, 0, stream>>>(args);
  return cudaGetLastError();
}

}  // namespace ecgemm::detail
