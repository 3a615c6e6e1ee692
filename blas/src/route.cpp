// Where each SGEMM runs: the netlib quick returns first, then the host for tiny
// problems, C = beta*C on host arrays, and machines without a usable GPU;
// everything else on the GPU, falling back to the host if the GPU fails before
// C was written.
#include <chrono>
#include <cstdint>
#include <cstdio>

#include "gemm_problem.h"
#include "gpu_path.hpp"
#include "settings.hpp"

namespace ecgemm_blas {
namespace {

const char* where_name(const Residence& r) { return r.on_device ? "device" : "host"; }

void trace(const ecgemm_blas_problem& p, const ecgemm_blas_batch& batch, const Placement& where,
           const char* route, double milliseconds) {
  std::fprintf(stderr,
               "ecgemm_blas: sgemm %c%c m=%d n=%d k=%d batch=%d route=%s mode=%s A=%s B=%s C=%s "
               "%.3f ms\n",
               p.trans_a ? 'T' : 'N', p.trans_b ? 'T' : 'N', p.m, p.n, p.k, batch.count, route,
               settings().mode_name, where_name(where.a), where_name(where.b),
               where_name(where.c), milliseconds);
}

// The batch on the host, one netlib-semantics SGEMM per product.
void host_batch(const ecgemm_blas_problem& p, const ecgemm_blas_batch& batch) {
  for (int z = 0; z < batch.count; ++z) {
    ecgemm_blas_problem product = p;
    product.a = p.a ? p.a + z * batch.stride_a : nullptr;
    product.b = p.b ? p.b + z * batch.stride_b : nullptr;
    product.c = p.c + z * batch.stride_c;
    ecgemm_blas_host_sgemm(&product);
  }
}

// Returns the route taken ("host" or "gpu"), or nullptr when the call failed.
const char* execute(const ecgemm_blas_problem& p, const ecgemm_blas_batch& batch,
                    Placement& where) {
  if (!gpu_present()) {
    notice_once(Notice::kNoGpu,
                "ecgemm_blas: no usable CUDA GPU; SGEMM runs on the host in plain FP32");
    host_batch(p, batch);
    return "host";
  }
  // A and B are not referenced when alpha = 0 or k = 0 (netlib).
  const bool product = p.alpha != 0.0f && p.k > 0;
  where.c = locate(p.c);
  if (product) {
    where.a = locate(p.a);
    where.b = locate(p.b);
  }
  const int64_t mnk = static_cast<int64_t>(p.m) * p.n * p.k * batch.count;
  if (!where.any_on_device() && (!product || mnk <= settings().host_threshold)) {
    host_batch(p, batch);
    return "host";
  }
  const GpuOutcome out = gpu_sgemm(p, batch, where);
  if (out.status == ECGEMM_STATUS_SUCCESS) return "gpu";
  if (!where.any_on_device() && !out.c_modified) {
    char message[256];
    std::snprintf(message, sizeof message,
                  "ecgemm_blas: GPU SGEMM failed (%s: %s); such calls run on the host in plain "
                  "FP32 (shown once)",
                  out.failed_step, ecgemm_get_status_name(out.status));
    notice_once(Notice::kGpuFailedHostFallback, message);
    host_batch(p, batch);
    return "host";
  }
  // Device operands cannot be rescued on the host; BLAS has no error return.
  std::fprintf(stderr, "ecgemm_blas: SGEMM on device arrays failed (%s: %s); C is undefined\n",
               out.failed_step, ecgemm_get_status_name(out.status));
  return nullptr;
}

}  // namespace
}  // namespace ecgemm_blas

extern "C" void ecgemm_blas_run_batch(const ecgemm_blas_problem* p, const ecgemm_blas_batch* batch) {
  using namespace ecgemm_blas;
  if (batch->count == 0 || ecgemm_blas_is_noop(p)) return;
  const auto start = std::chrono::steady_clock::now();
  Placement where;
  const char* route = execute(*p, *batch, where);
  if (settings().verbose) {
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    trace(*p, *batch, where, route != nullptr ? route : "failed", took.count());
  }
}

extern "C" void ecgemm_blas_run(const ecgemm_blas_problem* p) {
  const ecgemm_blas_batch one = {1, 0, 0, 0};
  ecgemm_blas_run_batch(p, &one);
}
