// Stand-alone A/B of the pre-split pass (tools/split_check.sh builds it once against each
// split_operands.cu to compare). Prints
//   hash <case> <FNV-1a of the whole workspace>  for many small calls: every method (also
//       given row exponents, which the plain kernel honours as AUTO's does) and AUTO's
//       three routes, all four transposes, tight / odd / padded ld, 16-byte aligned
//       and misaligned operands, special values (NaN payloads, Inf, FP16 overflow,
//       subnormals, -0) and row exponents that overflow and underflow;
//   time <method> <layout> <m> <n> <k> <us> <TB/s>  for both operands' split (median of
//       20), at the sizes given on the command line.
// nvcc -std=c++17 -arch=sm_90a --expt-relaxed-constexpr -I include -I libecgemm
//      -I libecgemm/kernels -DSPLIT_SRC='"path/split_operands.cu"' tools/split_bench.cu
#include SPLIT_SRC
#include "tc_plan.cpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace ecgemm::detail;

#define CHECK(x)                                                                  \
  do {                                                                            \
    cudaError_t e_ = (x);                                                         \
    if (e_ != cudaSuccess) {                                                      \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                               \
    }                                                                             \
  } while (0)

namespace split_bench {

constexpr int kScaled0 = 5;  // method m given row exponents: kScaled0 + m
constexpr int kAuto0 = 10;   // AUTO with route word 0, 1, 2: kAuto0 + route
const DeviceInfo kDev{0, 9, 0, 132, 232448};

const char* name(int method) {
  static const char* names[] = {"tf32tf32",        "halfhalf",        "tf32",
                                "fp16",            "markidis",        "tf32tf32-scaled",
                                "halfhalf-scaled", "tf32-scaled",     "fp16-scaled",
                                "markidis-scaled", "auto-scaled",     "auto-wide",
                                "auto-unscaled"};
  return names[method];
}

uint64_t rng_state = 0x9e3779b97f4a7c15ull;
uint32_t rnd() {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<uint32_t>(rng_state >> 33);
}

float bits_to_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Mostly ordinary values over a wide exponent range, with the split's special cases.
float test_value() {
  const uint32_t pick = rnd() % 64;
  switch (pick) {
    case 0: return bits_to_float(0x7f800000u | (1u + rnd() % 0x7fffffu));  // NaN, payload
    case 1: return bits_to_float(0xff800000u);                             // -Inf
    case 2: return 65519.0f + (rnd() % 4);                                 // FP16 rounding edge
    case 3: return bits_to_float(rnd() % 0x800000u);                      // FP32 subnormal
    case 4: return -0.0f;
    case 5: return bits_to_float(0x7f7fffffu - rnd() % 0x2000u);           // TF32 overflow edge
    case 6: return bits_to_float((rnd() & 0x80000000u) | (0x33000000u + rnd() % 0x1000000u));
    default: {
      const uint32_t exp = 127 - 20 + rnd() % 40;
      return bits_to_float((rnd() & 0x80000000u) | (exp << 23) | (rnd() & 0x7fffffu));
    }
  }
}

uint64_t fnv1a(const std::vector<unsigned char>& bytes) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  return h;
}

struct Call {
  GemmArgs args;
  TcWorkspace plan, tf32;  // tf32: AUTO's fallback plan
  int method;
  int* route = nullptr;
  size_t bytes = 0;
};

// Plans the workspace as the library does (AUTO: both plans share its start).
void plan(Call& c) {
  const int64_t m = c.args.m, n = c.args.n, k = c.args.k;
  if (c.method >= kAuto0) {
    c.plan = plan_tc_workspace(TcMethod::kHalfx3, m, n, k, kDev);
    c.tf32 = plan_tc_workspace(TcMethod::kTf32x3, m, n, k, kDev);
    c.bytes = std::max(c.plan.bytes, c.tf32.bytes);
  } else {
    c.plan = plan_tc_workspace(static_cast<TcMethod>(c.method % kScaled0), m, n, k, kDev);
    c.bytes = c.plan.bytes;
  }
}

void launch(const Call& c, char* ws) {
  if (c.method >= kAuto0) CHECK(launch_split_auto(c.args, c.plan, c.tf32, c.route, ws, 0));
  else CHECK(launch_split_operands(static_cast<TcMethod>(c.method % kScaled0), c.args, c.plan, ws, 0));
}

// A device copy of `count` floats (+ `offset` leading ones, so the operand can start
// misaligned) or exponents.
template <typename T>
T* upload(const std::vector<T>& host) {
  T* d;
  CHECK(cudaMalloc(&d, std::max<size_t>(host.size(), 1) * sizeof(T)));
  CHECK(cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

void hash_case(int method, bool ta, bool tb, int64_t m, int64_t n, int64_t k, int ld_extra,
               int offset) {
  Call c;
  c.method = method;
  GemmArgs& g = c.args;
  g.trans_a = ta, g.trans_b = tb, g.m = m, g.n = n, g.k = k;
  const int64_t a_rows = ta ? k : m, a_cols = ta ? m : k;
  const int64_t b_rows = tb ? n : k, b_cols = tb ? k : n;
  g.lda = a_rows + ld_extra, g.ldb = b_rows + ld_extra;
  std::vector<float> a(offset + g.lda * a_cols), b(offset + g.ldb * b_cols);
  for (float& x : a) x = test_value();
  for (float& x : b) x = test_value();
  float* da = upload(a);
  float* db = upload(b);
  g.a = da + offset, g.b = db + offset;
  std::vector<int> row_exp(m), col_exp(n);
  int* exps[2] = {nullptr, nullptr};
  if (method >= kScaled0) {
    // Mostly small shifts; a few that leave FP32's range either way (ldexpf's path).
    for (int& e : row_exp) e = rnd() % 16 == 0 ? static_cast<int>(rnd() % 400) - 200 : static_cast<int>(rnd() % 40) - 20;
    for (int& e : col_exp) e = rnd() % 16 == 0 ? static_cast<int>(rnd() % 400) - 200 : static_cast<int>(rnd() % 40) - 20;
    exps[0] = upload(row_exp), exps[1] = upload(col_exp);
    g.scale.row_exp = exps[0], g.scale.col_exp = exps[1];
  }
  if (method >= kAuto0) {
    c.route = upload(std::vector<int>{method - kAuto0});
    g.scale.route = c.route;
  }
  plan(c);
  char* ws;
  CHECK(cudaMalloc(&ws, c.bytes));
  CHECK(cudaMemset(ws, 0xA5, c.bytes));  // bytes the split leaves alone hash alike too
  launch(c, ws);
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned char> host(c.bytes);
  CHECK(cudaMemcpy(host.data(), ws, c.bytes, cudaMemcpyDeviceToHost));
  std::printf("hash %s %c%c m=%lld n=%lld k=%lld ld+%d off=%d %016llx\n", name(method),
              ta ? 'T' : 'N', tb ? 'T' : 'N', (long long)m, (long long)n, (long long)k, ld_extra,
              offset, (unsigned long long)fnv1a(host));
  CHECK(cudaFree(ws));
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  for (int* p : exps) if (p) CHECK(cudaFree(p));
  if (c.route) CHECK(cudaFree(c.route));
}

__global__ void fill(float* p, int64_t count) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x) {
    const uint32_t h = static_cast<uint32_t>(i) * 2654435761u ^ static_cast<uint32_t>(i >> 32);
    p[i] = static_cast<float>(h % 2000001u) / 1000000.0f - 1.0f;
  }
}

void time_case(int method, bool ta, bool tb, int64_t s, float* da, float* db, int* zeros) {
  Call c;
  c.method = method;
  GemmArgs& g = c.args;
  g.trans_a = ta, g.trans_b = tb, g.m = g.n = g.k = s, g.lda = g.ldb = s, g.a = da, g.b = db;
  if (method >= kAuto0) {
    g.scale.row_exp = g.scale.col_exp = zeros;  // type-1 data: no shift, but scaled
    c.route = zeros + s + (method - kAuto0);    // zeros[s..s+2] = 0, 1, 2
    g.scale.route = c.route;
  }
  plan(c);
  char* ws;
  CHECK(cudaMalloc(&ws, c.bytes));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> ms;
  for (int i = 0; i < 23; ++i) {
    CHECK(cudaEventRecord(start));
    launch(c, ws);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float t;
    CHECK(cudaEventElapsedTime(&t, start, stop));
    if (i >= 3) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  const double us = ms[ms.size() / 2] * 1e3;
  // Traffic: both operands read once, the planes of the route taken written once.
  const bool half = method == 1 || method == 3 || method == 4 || method == kAuto0;
  const bool lo = method != 2 && method != 3;
  const TcWorkspace& w = method > kAuto0 ? c.tf32 : c.plan;
  const double bytes = 8.0 * s * s + (w.m_pad + w.n_pad) * double(w.k_pad) * (half ? 2 : 4) * (lo ? 2 : 1);
  std::printf("time %-13s %c%c %lld^3 %8.1f us %5.2f TB/s\n", name(method), ta ? 'T' : 'N',
              tb ? 'T' : 'N', (long long)s, us, bytes / us * 1e-6);
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(ws));
}

}  // namespace split_bench

using namespace split_bench;

int main(int argc, char** argv) {
  const int methods[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, kAuto0, kAuto0 + 1, kAuto0 + 2};
  const int64_t shapes[][3] = {{300, 200, 333}, {128, 256, 64}, {1, 130, 7}, {257, 70, 1000},
                               {66, 64, 4099}, {1000, 515, 129}};
  for (int method : methods)
    for (const auto& sh : shapes)
      for (int t = 0; t < 4; ++t)
        for (int ld_extra : {0, 1, 4})
          for (int offset : {0, 1}) hash_case(method, t & 1, t & 2, sh[0], sh[1], sh[2], ld_extra, offset);
  for (int i = 1; i < argc; ++i) {
    const int64_t s = std::atoll(argv[i]);
    float *da, *db;
    int* zeros;
    CHECK(cudaMalloc(&da, s * s * sizeof(float)));
    CHECK(cudaMalloc(&db, s * s * sizeof(float)));
    CHECK(cudaMalloc(&zeros, (s + 3) * sizeof(int)));
    CHECK(cudaMemset(zeros, 0, s * sizeof(int)));
    const int routes[3] = {0, 1, 2};
    CHECK(cudaMemcpy(zeros + s, routes, sizeof routes, cudaMemcpyHostToDevice));
    fill<<<1024, 256>>>(da, s * s);
    fill<<<1024, 256>>>(db, s * s);
    // NN is torch's a @ b (op(A) turns, op(B) does not), TN turns neither, NT both.
    for (int method : {1, 0, kAuto0, kAuto0 + 1, kAuto0 + 2, 3, 2, 4})
      for (auto [ta, tb] : {std::pair{false, false}, std::pair{true, false}, std::pair{false, true}})
        time_case(method, ta, tb, s, da, db, zeros);
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(zeros));
  }
  return 0;
}
