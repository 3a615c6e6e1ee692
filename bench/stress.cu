// The memory and stream contract under load (docs/memory.md): `threads` host threads, each
// with its own handle and `streams` streams. Every call goes to a random stream of its
// thread — the handle switches streams at every call, as PyTorch's per-thread cuBLAS
// handle does — with calls in flight on all of them; shapes, modes, transposes and batch
// forms are mixed so that every kernel family and scratch size is in play, and a quarter
// of the calls replay a CUDA graph captured at the start. Every result is compared bit
// for bit, on the device, with the same call made alone beforehand.
//
// Built and run by bench/stress.py; prints one JSON object (calls, mismatches, graph
// replays, the pool's high-water marks, per case: family and count).
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "ecgemm.h"
#include "internal.h"

namespace {

#define CHECK_CUDA(x)                                                                       \
  do {                                                                                      \
    const cudaError_t err_ = (x);                                                           \
    if (err_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err_)); \
      std::exit(2);                                                                         \
    }                                                                                       \
  } while (0)
#define CHECK_ECGEMM(x)                                                                     \
  do {                                                                                      \
    const ecgemmStatus_t s_ = (x);                                                          \
    if (s_ != ECGEMM_STATUS_SUCCESS) {                                                      \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, ecgemm_get_status_name(s_)); \
      std::exit(2);                                                                         \
    }                                                                                       \
  } while (0)

struct Case {
  const char* name;
  ecgemmMode_t mode;
  ecgemmOperation_t ta, tb;
  int64_t m, n, k, batch;
  bool arrays;  // pointer-array form (else strided; batch 1 = ecgemm_sgemm_64)
  float beta;
  float spike = 0.0f;  // if set, A's every kSpikeStride-th element: AUTO's FP32 stages in some tiles
};
constexpr size_t kSpikeStride = 30011;

// Chosen so that every family appears (planes with and without split-K, both fused
// families, SIMT, GEMV with split-K, AUTO (with FP32 stages on fused_wgmma), batches of both
// forms), with scratch sizes from none to tens of MiB.
const Case kCases[] = {
    {"planes 2048^3 tf32tf32", ECGEMM_MODE_TF32TF32, ECGEMM_OP_N, ECGEMM_OP_N, 2048, 2048, 2048, 1, false, 0.0f},
    {"planes 1536^3 halfhalf TN", ECGEMM_MODE_HALFHALF, ECGEMM_OP_T, ECGEMM_OP_N, 1536, 1536, 1536, 1, false, 0.0f},
    {"planes 1024^3 auto", ECGEMM_MODE_AUTO, ECGEMM_OP_N, ECGEMM_OP_T, 1024, 1024, 1024, 1, false, 0.0f},
    {"planes 768x1280x1024 fp16 beta", ECGEMM_MODE_FP16, ECGEMM_OP_N, ECGEMM_OP_N, 768, 1280, 1024, 1, false, 0.5f},
    {"planes 1024x256x4096 markidis", ECGEMM_MODE_MARKIDIS, ECGEMM_OP_T, ECGEMM_OP_T, 1024, 256, 4096, 1, false, 0.0f},
    {"fused_wgmma 64x4096x8192 tf32tf32", ECGEMM_MODE_TF32TF32, ECGEMM_OP_N, ECGEMM_OP_N, 64, 4096, 8192, 1, false, 0.0f},
    {"fused_wgmma 64x4096x2048 auto spikes", ECGEMM_MODE_AUTO, ECGEMM_OP_N, ECGEMM_OP_N, 64, 2048, 4096, 1, false, 0.0f, 0x1p40f},
    {"fused_mma 4096x48x4096 halfhalf", ECGEMM_MODE_HALFHALF, ECGEMM_OP_T, ECGEMM_OP_N, 4096, 48, 4096, 1, false, 0.0f},
    {"fused_mma 256^3 halfhalf", ECGEMM_MODE_HALFHALF, ECGEMM_OP_N, ECGEMM_OP_N, 256, 256, 256, 1, false, 0.0f},
    {"fused_mma 128x128x16384 tf32tf32", ECGEMM_MODE_TF32TF32, ECGEMM_OP_T, ECGEMM_OP_N, 128, 128, 16384, 1, false, 0.0f},
    {"fused_mma 64x64x65536 halfhalf", ECGEMM_MODE_HALFHALF, ECGEMM_OP_N, ECGEMM_OP_T, 64, 64, 65536, 1, false, 0.25f},
    {"simt 1024^3 fp32", ECGEMM_MODE_FP32, ECGEMM_OP_N, ECGEMM_OP_N, 1024, 1024, 1024, 1, false, 0.0f},
    {"simt 64x64x8192 fp32", ECGEMM_MODE_FP32, ECGEMM_OP_T, ECGEMM_OP_N, 64, 64, 8192, 1, false, 0.0f},
    {"gemv 1x8192x8192 tf32tf32", ECGEMM_MODE_TF32TF32, ECGEMM_OP_N, ECGEMM_OP_N, 1, 8192, 8192, 1, false, 0.0f},
    {"gemv 4096x2x4096 auto", ECGEMM_MODE_AUTO, ECGEMM_OP_T, ECGEMM_OP_N, 4096, 2, 4096, 1, false, 0.0f},
    {"batch 512 x 64^3 tf32tf32", ECGEMM_MODE_TF32TF32, ECGEMM_OP_N, ECGEMM_OP_N, 64, 64, 64, 512, false, 0.0f},
    {"batch 32 x 256^3 halfhalf", ECGEMM_MODE_HALFHALF, ECGEMM_OP_T, ECGEMM_OP_N, 256, 256, 256, 32, false, 0.0f},
    {"batch 96 x 96x80x128 arrays auto", ECGEMM_MODE_AUTO, ECGEMM_OP_N, ECGEMM_OP_T, 96, 80, 128, 96, true, 0.0f},
    {"batch 8 x 512^3 fp16", ECGEMM_MODE_FP16, ECGEMM_OP_N, ECGEMM_OP_N, 512, 512, 512, 8, false, 0.0f},
};
constexpr int kCaseCount = sizeof kCases / sizeof kCases[0];

// Operands of one case on the device: A, B, the initial C (for beta != 0) and the
// reference result of the call made alone. Column-major, packed (ld = rows).
struct Data {
  float *a = nullptr, *b = nullptr, *c0 = nullptr, *ref = nullptr;
  int64_t lda = 0, ldb = 0, ldc = 0, a_items = 0, b_items = 0, c_items = 0;  // elements per item
  std::string family;
};

__global__ void fill_kernel(float* x, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    uint64_t z = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    x[i] = static_cast<float>(z >> 40) * (2.0f / 16777216.0f) - 1.0f;  // uniform(-1, 1)
  }
}

__global__ void spike_kernel(float* x, size_t n, float value) {
  for (size_t i = (blockIdx.x * blockDim.x + threadIdx.x) * kSpikeStride; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x * kSpikeStride)
    x[i] = value;
}

// Counts the 32-bit words of `out` that differ from `ref` (NaN patterns included).
__global__ void compare_kernel(const uint32_t* out, const uint32_t* ref, size_t n,
                               unsigned long long* mismatches) {
  unsigned count = 0;
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    count += out[i] != ref[i];
  for (int offset = 16; offset > 0; offset >>= 1) count += __shfl_down_sync(~0u, count, offset);
  if ((threadIdx.x & 31) == 0 && count) atomicAdd(mismatches, count);
}

float* device_floats(size_t n) {
  float* p = nullptr;
  CHECK_CUDA(cudaMalloc(&p, n * sizeof(float)));
  return p;
}

void fill(float* x, size_t n, uint64_t seed) {
  fill_kernel<<<256, 256>>>(x, n, seed);
  CHECK_CUDA(cudaGetLastError());
}

// One slot: the output buffer (and pointer arrays) of one (thread, stream).
struct Slot {
  cudaStream_t stream = nullptr;
  float* out = nullptr;
  std::vector<float**> arrays;  // per case: A's, B's, C's item pointers (device)
  cudaGraphExec_t graph = nullptr;
  int graph_case = -1;
};

ecgemmStatus_t call(ecgemmHandle_t h, const Case& c, const Data& d, float* out,
                    float** arrays) {
  const float one = 1.0f;
  if (c.arrays)
    return ecgemm_sgemm_batched_64(h, c.ta, c.tb, c.m, c.n, c.k, &one, arrays, d.lda,
                                   arrays + c.batch, d.ldb, &c.beta,
                                   arrays + 2 * c.batch, d.ldc,
                                   c.batch);
  if (c.batch > 1)
    return ecgemm_sgemm_strided_batched_64(h, c.ta, c.tb, c.m, c.n, c.k, &one, d.a, d.lda,
                                           d.a_items, d.b, d.ldb, d.b_items, &c.beta, out, d.ldc,
                                           d.c_items, c.batch);
  return ecgemm_sgemm_64(h, c.ta, c.tb, c.m, c.n, c.k, &one, d.a, d.lda, d.b, d.ldb, &c.beta, out,
                         d.ldc);
}

// C poisoned with NaN (beta = 0: it must be written without being read) or set to its
// initial values, then the call.
ecgemmStatus_t poisoned_call(ecgemmHandle_t h, const Case& c, const Data& d, float* out,
                             float** arrays, cudaStream_t stream) {
  const size_t bytes = static_cast<size_t>(d.c_items * c.batch) * sizeof(float);
  const cudaError_t err = c.beta == 0.0f
                              ? cudaMemsetAsync(out, 0xFF, bytes, stream)
                              : cudaMemcpyAsync(out, d.c0, bytes, cudaMemcpyDeviceToDevice, stream);
  if (err != cudaSuccess) return ECGEMM_STATUS_EXECUTION_FAILED;
  return call(h, c, d, out, arrays);
}

float** upload_arrays(const Case& c, const Data& d, float* out) {
  std::vector<float*> host(3 * c.batch);
  for (int64_t z = 0; z < c.batch; ++z) {
    host[z] = d.a + z * d.a_items;
    host[c.batch + z] = d.b + z * d.b_items;
    host[2 * c.batch + z] = out + z * d.c_items;
  }
  float** dev = nullptr;
  CHECK_CUDA(cudaMalloc(&dev, host.size() * sizeof(float*)));
  CHECK_CUDA(cudaMemcpy(dev, host.data(), host.size() * sizeof(float*), cudaMemcpyHostToDevice));
  return dev;
}

struct ThreadResult {
  uint64_t calls = 0, replays = 0;
  std::vector<uint64_t> per_case = std::vector<uint64_t>(kCaseCount, 0);
  unsigned long long* mismatches = nullptr;  // device counter
  int failures = 0;                          // calls that returned an error
};

}  // namespace

int main(int argc, char** argv) {
  int threads = 16, streams = 4;
  double seconds = 60.0;
  uint64_t seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--threads")) threads = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--streams")) streams = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--seconds")) seconds = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[i + 1], nullptr, 10);
    else {
      std::fprintf(stderr, "usage: stress [--threads T] [--streams S] [--seconds X] [--seed N]\n");
      return 2;
    }
  }

  // Operands and the results of each call made alone (one handle, one stream, waited for).
  std::vector<Data> data(kCaseCount);
  size_t max_c = 0;
  ecgemmHandle_t alone = nullptr;
  CHECK_ECGEMM(ecgemm_create(&alone));
  for (int i = 0; i < kCaseCount; ++i) {
    const Case& c = kCases[i];
    Data& d = data[i];
    const int64_t a_rows = c.ta == ECGEMM_OP_N ? c.m : c.k, a_cols = c.ta == ECGEMM_OP_N ? c.k : c.m;
    const int64_t b_rows = c.tb == ECGEMM_OP_N ? c.k : c.n, b_cols = c.tb == ECGEMM_OP_N ? c.n : c.k;
    d.lda = a_rows, d.ldb = b_rows, d.ldc = c.m;
    d.a_items = a_rows * a_cols, d.b_items = b_rows * b_cols, d.c_items = c.m * c.n;
    d.a = device_floats(d.a_items * c.batch);
    d.b = device_floats(d.b_items * c.batch);
    d.c0 = device_floats(d.c_items * c.batch);
    d.ref = device_floats(d.c_items * c.batch);
    fill(d.a, d.a_items * c.batch, seed * 3 + i);
    fill(d.b, d.b_items * c.batch, seed * 5 + i);
    fill(d.c0, d.c_items * c.batch, seed * 7 + i);
    if (c.spike != 0.0f) {
      spike_kernel<<<32, 256>>>(d.a, d.a_items * c.batch, c.spike);
      CHECK_CUDA(cudaGetLastError());
    }
    max_c = std::max<size_t>(max_c, d.c_items * c.batch);
    CHECK_ECGEMM(ecgemm_set_mode(alone, c.mode));
    char plan[256];
    CHECK_ECGEMM(ecgemm_internal_plan_string(alone, c.ta, c.tb, c.m, c.n, c.k, d.lda, d.ldb, d.ldc,
                                             c.batch, c.arrays, plan, sizeof plan));
    d.family = plan;
    float** arrays = c.arrays ? upload_arrays(c, d, d.ref) : nullptr;
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_ECGEMM(poisoned_call(alone, c, d, d.ref, arrays, nullptr));
    CHECK_CUDA(cudaDeviceSynchronize());
    if (arrays) CHECK_CUDA(cudaFree(arrays));
  }
  CHECK_ECGEMM(ecgemm_destroy(alone));

  // Slots, handles and graphs; then the pool's high-water marks start from here.
  std::vector<std::vector<Slot>> slots(threads, std::vector<Slot>(streams));
  std::vector<ecgemmHandle_t> handles(threads);
  std::vector<ThreadResult> results(threads);
  std::mt19937_64 setup_rng(seed);
  for (int t = 0; t < threads; ++t) {
    CHECK_ECGEMM(ecgemm_create(&handles[t]));
    CHECK_CUDA(cudaMalloc(&results[t].mismatches, sizeof(unsigned long long)));
    CHECK_CUDA(cudaMemset(results[t].mismatches, 0, sizeof(unsigned long long)));
    for (Slot& s : slots[t]) {
      CHECK_CUDA(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
      s.out = device_floats(max_c);
      s.arrays.assign(kCaseCount, nullptr);
      for (int i = 0; i < kCaseCount; ++i)
        if (kCases[i].arrays) s.arrays[i] = upload_arrays(kCases[i], data[i], s.out);
      // A captured call: its scratch is the graph's own memory (docs/memory.md).
      s.graph_case = static_cast<int>(setup_rng() % kCaseCount);
      const Case& c = kCases[s.graph_case];
      cudaGraph_t graph = nullptr;
      CHECK_ECGEMM(ecgemm_set_stream(handles[t], s.stream));
      CHECK_ECGEMM(ecgemm_set_mode(handles[t], c.mode));
      CHECK_CUDA(cudaStreamBeginCapture(s.stream, cudaStreamCaptureModeThreadLocal));
      CHECK_ECGEMM(poisoned_call(handles[t], c, data[s.graph_case], s.out,
                                 s.arrays[s.graph_case], s.stream));
      CHECK_CUDA(cudaStreamEndCapture(s.stream, &graph));
      CHECK_CUDA(cudaGraphInstantiate(&s.graph, graph, 0));
      CHECK_CUDA(cudaGraphDestroy(graph));
    }
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  size_t used = 0, used_high = 0, reserved = 0, reserved_high = 0;
  CHECK_ECGEMM(ecgemm_internal_workspace_usage(0, 1, &used, &used_high, &reserved, &reserved_high));

  std::atomic<bool> go{false};
  const auto deadline_of = [&] {
    return std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  };
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      while (!go.load()) std::this_thread::yield();
      std::mt19937_64 rng(seed * 1000003 + t);
      ThreadResult& r = results[t];
      const auto deadline = deadline_of();
      while (std::chrono::steady_clock::now() < deadline) {
        Slot& s = slots[t][rng() % streams];
        const bool replay = rng() % 4 == 0;
        const int i = replay ? s.graph_case : static_cast<int>(rng() % kCaseCount);
        const Case& c = kCases[i];
        if (replay) {
          if (cudaGraphLaunch(s.graph, s.stream) != cudaSuccess) ++r.failures;
          ++r.replays;
        } else {
          if (ecgemm_set_stream(handles[t], s.stream) != ECGEMM_STATUS_SUCCESS ||
              ecgemm_set_mode(handles[t], c.mode) != ECGEMM_STATUS_SUCCESS ||
              poisoned_call(handles[t], c, data[i], s.out, s.arrays[i], s.stream) !=
                  ECGEMM_STATUS_SUCCESS)
            ++r.failures;
        }
        const size_t words = static_cast<size_t>(data[i].c_items * c.batch);
        compare_kernel<<<std::min<size_t>(256, (words + 255) / 256), 256, 0, s.stream>>>(
            reinterpret_cast<const uint32_t*>(s.out), reinterpret_cast<const uint32_t*>(data[i].ref),
            words, r.mismatches);
        ++r.calls;
        ++r.per_case[i];
      }
    });
  }
  const auto start = std::chrono::steady_clock::now();
  go = true;
  for (std::thread& w : workers) w.join();
  CHECK_CUDA(cudaDeviceSynchronize());
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK_ECGEMM(ecgemm_internal_workspace_usage(0, 0, &used, &used_high, &reserved, &reserved_high));

  uint64_t calls = 0, replays = 0, mismatches = 0;
  int failures = 0;
  std::vector<uint64_t> per_case(kCaseCount, 0);
  for (ThreadResult& r : results) {
    unsigned long long m = 0;
    CHECK_CUDA(cudaMemcpy(&m, r.mismatches, sizeof m, cudaMemcpyDeviceToHost));
    calls += r.calls, replays += r.replays, mismatches += m, failures += r.failures;
    for (int i = 0; i < kCaseCount; ++i) per_case[i] += r.per_case[i];
  }
  size_t limit = 0;
  ecgemm_get_workspace_limit(handles[0], &limit);
  std::printf("{\"threads\": %d, \"streams_per_thread\": %d, \"seconds\": %.1f, \"seed\": %" PRIu64
              ", \"workspace_limit\": %zu, \"calls\": %" PRIu64 ", \"graph_replays\": %" PRIu64
              ", \"failed_calls\": %d, \"mismatched_words\": %" PRIu64
              ", \"pool_used_high_bytes\": %zu, \"pool_reserved_high_bytes\": %zu, \"cases\": [",
              threads, streams, elapsed, seed, limit, calls, replays, failures, mismatches, used_high,
              reserved_high);
  for (int i = 0; i < kCaseCount; ++i)
    std::printf("%s{\"name\": \"%s\", \"plan\": \"%s\", \"calls\": %" PRIu64 "}", i ? ", " : "",
                kCases[i].name, data[i].family.c_str(), per_case[i]);
  std::printf("]}\n");
  for (int t = 0; t < threads; ++t) ecgemm_destroy(handles[t]);
  return mismatches == 0 && failures == 0 ? 0 : 1;
}
