#include <algorithm>

#include "kernels/common/epilogue.cuh"
#include "kernels/common/launch.cuh"
#include "kernels/common/tile_scheduler.cuh"
#include "kernels/scale_c.hpp"

namespace ecgemm::detail {
namespace {

// grid.y walks the products of a batch.
__global__ void scale_c_kernel(GemmArgs args) {
  const float beta = resolve_beta(args.scalars);
  const int64_t total = args.m * args.n;
  float* const c0 = batch_c(args, batch_product(args.batch.first));
  for (int64_t idx = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; idx < total;
       idx += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    float* c = c0 + (idx / args.m) * args.ldc + idx % args.m;
    *c = beta == 0.0f ? 0.0f : beta * *c;
  }
}

}  // namespace

cudaError_t launch_scale_c(const GemmArgs& args, int sm_count, cudaStream_t stream) {
  const int64_t total = args.m * args.n;
  const int blocks = static_cast<int>(std::min<int64_t>((total + 255) / 256, 32LL * sm_count));
  return for_each_batch_launch(args, [&](const GemmArgs& part, unsigned products) {
    return launch({dim3(blocks, products), 256, 0, stream}, scale_c_kernel, part);
  });
}

}  // namespace ecgemm::detail
