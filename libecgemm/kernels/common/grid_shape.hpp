// What a family's plan asks of the GPU, as the planner's cost model sees it
// (libecgemm/cost_model.hpp, docs/architecture.md: the planner). Each family fills it from
// its own plan, so that its tiles, residency and extra traffic are stated in one place.
#pragma once

#include <cstdint>

namespace ecgemm::detail {

struct GridShape {
  int64_t ctas = 0;          // CTAs of the main kernel: tiles x splits x products
  int64_t resident = 1;      // how many of them the device holds at once
  int64_t tile_outputs = 0;  // outputs of C one CTA computes
  int64_t k_per_cta = 0;     // k one CTA accumulates
  int64_t walk_k = 0;        // k one of its groups walks in turn, where they split it (0: k_per_cta)
  int kernels = 1;           // launches in stream order (split pass, mainloop, reduction)
  bool cluster = false;      // its k splits add their sums in a thread-block cluster
  double extra_bytes = 0;    // DRAM traffic beyond one read of A and B and one write of C
};

// Split-K partials: each split writes an m x n plane, the reducer reads them all (FP32 partials,
// or FP64 where a family keeps its sums so).
inline double partials_traffic(int splits, int64_t m, int64_t n, double bytes_each = 4.0) {
  return splits > 1 ? 2.0 * splits * static_cast<double>(m) * static_cast<double>(n) * bytes_each : 0.0;
}

}  // namespace ecgemm::detail
