// The planes family's entry: split the operands once (the split pass), then run the
// mainloop built for this GPU: wgmma (sm_90a) or mma.sync (sm_80 and newer).
#include <algorithm>

#include "kernels/planes/parts.hpp"

namespace ecgemm::detail {
namespace {

cudaError_t launch_mainloop(TcMethod method, const GemmArgs& args, const PlanesPlan& plan,
                            char* ws, const DeviceInfo& dev, cudaStream_t stream) {
  if (planes_wgmma_usable(method, plan, dev))
    return launch_planes_wgmma(method, args, plan, ws, dev, stream);
  return launch_planes_mma(method, args, plan, ws, dev, stream);
}

}  // namespace

cudaError_t launch_planes(TcMethod method, const GemmArgs& args, const PlanesPlan& plan,
                           void* workspace, const DeviceInfo& dev, cudaStream_t stream) {
  char* ws = static_cast<char*>(workspace);
  const cudaError_t err = launch_split_pass(method, args, plan, ws, stream);
  if (err != cudaSuccess) return err;
  return launch_mainloop(method, args, plan, ws, dev, stream);
}

PlanesAutoPlan plan_planes_auto(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev,
                        size_t max_bytes, int splits) {
  PlanesAutoPlan p;
  // The scale data follow the planes (at most one alignment step more than at offset 0).
  const AutoScaleLayout alone = plan_auto_scale(m, n, 0);
  const size_t scale_room = alone.bytes + 256;
  const size_t room = max_bytes > scale_room ? max_bytes - scale_room : 0;
  p.half = plan_planes(TcMethod::kHalfHalf, m, n, k, dev, room, splits);
  p.tf32 = plan_planes(TcMethod::kTf32Tf32, m, n, k, dev, room, splits);
  p.scale = plan_auto_scale(m, n, std::max(p.half.bytes, p.tf32.bytes));
  p.bytes = p.scale.begin + p.scale.bytes;
  return p;
}

GridShape planes_auto_grid(const PlanesAutoPlan& plan, int64_t m, int64_t n, int64_t k,
                           const DeviceInfo& dev) {
  GridShape g = planes_grid(TcMethod::kHalfHalf, plan.half, dev);
  g.kernels += 3;  // statistics, scale choice, the other route's mainloop (returns at once)
  g.extra_bytes += (static_cast<double>(m) + static_cast<double>(n)) * static_cast<double>(k) * 4.0;
  return g;
}

// halfhalf's products of the scaled operands; or tf32tf32's where FP16's window is too
// narrow, also scaled (which keeps its low parts and correction products away from
// FP32's underflow, where the Tensor Core would lose them), or unscaled with NaN/Inf.
cudaError_t launch_planes_auto(const GemmArgs& args, const PlanesAutoPlan& plan, void* workspace,
                           const DeviceInfo& dev, cudaStream_t stream) {
  char* ws = static_cast<char*>(workspace);
  cudaError_t err = launch_auto_scale(args, plan.scale, ws, dev, stream);
  if (err != cudaSuccess) return err;
  const auto* route = reinterpret_cast<const int*>(ws + plan.scale.route);
  GemmArgs scaled = args;
  scaled.scale = {reinterpret_cast<const int*>(ws + plan.scale.row_exp),
                  reinterpret_cast<const int*>(ws + plan.scale.col_exp), route, false};
  GemmArgs fallback = scaled;
  fallback.scale.on_fallback = true;
  err = launch_split_pass_auto(scaled, plan.half, plan.tf32, route, ws, stream);
  if (err != cudaSuccess) return err;
  if (planes_wgmma_usable(TcMethod::kHalfHalf, plan.half, dev) &&
      planes_wgmma_usable(TcMethod::kTf32Tf32, plan.tf32, dev))
    return launch_planes_wgmma_auto(scaled, plan.half, fallback, plan.tf32, ws, dev, stream);
  // mma.sync: the mainloop (and split-K reduction) of the route not taken returns at once.
  err = launch_mainloop(TcMethod::kHalfHalf, scaled, plan.half, ws, dev, stream);
  if (err != cudaSuccess) return err;
  return launch_mainloop(TcMethod::kTf32Tf32, fallback, plan.tf32, ws, dev, stream);
}

}  // namespace ecgemm::detail
