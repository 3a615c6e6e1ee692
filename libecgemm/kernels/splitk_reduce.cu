// Split-K epilogue shared by the Tensor Core mainloops: each split wrote its raw sum
// to its own m_pad x n_pad partials plane (column-major); this adds the planes in a
// fixed order (deterministic) and applies alpha and beta.
#include <algorithm>

#include "tc_config.hpp"

namespace ecgemm::detail {
namespace {

__global__ void reduce_splits_kernel(const float* __restrict__ partials, int splits, int64_t m_pad,
                                     int64_t n_pad, GemmArgs args) {
  if (route_skipped(args.scale)) return;  // AUTO: the other route runs
  const float alpha = resolve_alpha(args.scalars), beta = resolve_beta(args.scalars);
  const int64_t total = args.m * args.n;
  for (int64_t idx = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; idx < total;
       idx += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t row = idx % args.m, col = idx / args.m;
    float sum = 0.0f;
    for (int s = 0; s < splits; ++s) sum += partials[s * m_pad * n_pad + col * m_pad + row];
    store_epilogue(args.c + col * args.ldc + row, unscale(args.scale, row, col, sum), alpha, beta);
  }
}

}  // namespace

cudaError_t launch_splitk_reduce(const GemmArgs& args, const TcWorkspace& w, const char* ws,
                                 const DeviceInfo& dev, cudaStream_t stream) {
  const int64_t total = args.m * args.n;
  const int blocks = static_cast<int>(std::min<int64_t>((total + 255) / 256, 32LL * dev.sm_count));
  reduce_splits_kernel<<<blocks, 256, 0, stream>>>(reinterpret_cast<const float*>(ws + w.partials),
                                                   w.splits, w.m_pad, w.n_pad, args);
  return cudaGetLastError();
}

}  // namespace ecgemm::detail
