// The planes family: a split pass writes the operands' hi/lo planes to the workspace,
// then a Tensor Core mainloop reads them. Its tile shape, its workspace plan, and its
// entry points (planes/parts.hpp holds its parts' declarations).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/grid_shape.hpp"
#include "kernels/common/method.hpp"
#include "kernels/gemm_args.hpp"
#include "kernels/planes/auto_scale.hpp"

namespace ecgemm::detail {

// Output tile of both mainloops. K is counted in bytes of the stored operand so that
// FP16 and TF32 share one shared-memory layout and one ldmatrix / wgmma pattern;
// split-K is planned in units of kTileKBytes (the narrowest K stage a mainloop uses).
constexpr int kTileM = 128;
constexpr int kTileN = 128;
constexpr int kTileKBytes = 64;
// One 128-byte row segment is the widest K step a mainloop takes (sm_90's 128-byte
// swizzle): K is padded to it (32 TF32 or 64 FP16 values; the split pass writes the
// padding's zeros).
constexpr int kPadKBytes = 128;

// Offsets into the workspace, all 256-byte aligned.
struct PlanesPlan {
  int64_t m_pad = 0, n_pad = 0, k_pad = 0;  // operand extents after zero padding
  int splits = 1;                           // split-K factor
  bool walk = false;  // the wgmma mainloop as persistent CTAs walking the tiles (plan.cpp: the rule)
  size_t a_hi = 0, a_lo = 0, b_hi = 0, b_lo = 0, partials = 0;
  size_t bytes = 0;
};

// Output tiles of the mainloop's grid (one split).
inline int64_t planes_tiles(const PlanesPlan& w) { return (w.m_pad / kTileM) * (w.n_pad / kTileN); }

// `max_bytes` caps the split-K partials; the planes themselves are always planned
// (the planner checks `bytes` against its cap). `splits` > 0: that many K splits (at most
// one per 8 k-tiles, and as the cap allows) in place of the family's own count.
PlanesPlan plan_planes(TcMethod method, int64_t m, int64_t n, int64_t k, const DeviceInfo& dev,
                              size_t max_bytes = SIZE_MAX, int splits = 0);

// Whether this GPU and build run `plan` on the wgmma mainloop, which alone walks (PlanesPlan::walk).
bool planes_can_walk(TcMethod method, const PlanesPlan& plan, const DeviceInfo& dev);

// The mainloop's grid and the planes' traffic (written by the split pass, read back).
GridShape planes_grid(TcMethod method, const PlanesPlan& plan, const DeviceInfo& dev);

// The full family: split, Tensor Core mainloop, split-K reduction when planned.
cudaError_t launch_planes(TcMethod method, const GemmArgs& args, const PlanesPlan& plan,
                           void* workspace, const DeviceInfo& dev, cudaStream_t stream);

// ECGEMM_MODE_AUTO on this family (auto_scale.hpp): halfhalf's planes of the scaled
// operands and tf32tf32's planes share the workspace's start (one of them is written per
// call), the scale data follow.
struct PlanesAutoPlan {
  PlanesPlan half, tf32;
  AutoScaleLayout scale;
  size_t bytes = 0;
};
PlanesAutoPlan plan_planes_auto(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev,
                        size_t max_bytes = SIZE_MAX, int splits = 0);

// halfhalf's grid, plus the statistics pass and the scale choice (which read both operands).
GridShape planes_auto_grid(const PlanesAutoPlan& plan, int64_t m, int64_t n, int64_t k,
                           const DeviceInfo& dev);

// Statistics and scale choice, then both routes' split, mainloop and reduction; the
// kernels of the route the device did not choose return at once.
cudaError_t launch_planes_auto(const GemmArgs& args, const PlanesAutoPlan& plan, void* workspace,
                           const DeviceInfo& dev, cudaStream_t stream);

}  // namespace ecgemm::detail
