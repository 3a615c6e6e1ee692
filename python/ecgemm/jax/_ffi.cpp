// XLA FFI handlers behind ecgemm.jax: the custom call "ecgemm_matmul".
//
// Operands are XLA's default (row-major) float32 buffers: a (m, k), or (k, m) when
// transpose_a; b (k, n), or (n, k) when transpose_b; either may lead with a batch
// dimension, which the result then has too (an operand without one is shared by every
// product: stride 0). A row-major matrix is the column-major ABI's transpose, so
// C = op(A)·op(B) runs as C^T = op(B)^T·op(A)^T with nothing moved (the identity
// python/ecgemm/_layout.py uses). Batches are one strided-batched call.
//
// Results: c, then the call's scratch as a uint8 buffer, sized at trace time by
// EcgemmMatmulWorkspaceBytes (the same plan, plus kWorkspaceAlign for alignment), as
// XLA's own cuBLAS GEMM takes its workspace. The handler therefore allocates nothing:
// its scratch is XLA's buffer, valid for every replay of a command buffer (CUDA graph)
// that recorded it, which is why it may declare ffi::Traits::kCmdBufferCompatible
// (XLA's rule for that trait: kernels only, no allocation, no stream queries). A
// smaller buffer, or an empty one, is a cap: ecgemm then plans within it (docs/memory.md,
// "Under a limit"), slower where it must be, equally accurate.
//
// One ecgemm handle per (device, thread), made on the first call: a handle serves one
// thread at a time, and its settings (stream, mode, workspace) are set for every call.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "ecgemm.h"
#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

// ecgemm_set_workspace wants 256-byte alignment; XLA promises less, so the buffer
// carries this much slack and the handler aligns its start.
constexpr size_t kWorkspaceAlign = 256;

// The arguments of one ecgemm_sgemm[_strided_batched]_64 call.
struct Call {
  ecgemmOperation_t transa, transb;
  int64_t m, n, k, lda, ldb, ldc;
  int64_t stride_a, stride_b, stride_c, count;
  const float* A;
  const float* B;
  float* C;
};

std::string shape(ffi::Span<const int64_t> dims) {
  std::string s = "(";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + (dims.size() == 1 ? ",)" : ")");
}

ffi::Error invalid(std::string what) {
  return ffi::Error::InvalidArgument("ecgemm_matmul: " + std::move(what));
}

// The call computing c = op(a)·op(b) from the buffers' dimensions (pointers left
// null), or why they do not describe one. ecgemm.jax only emits consistent shapes;
// this guards other callers of the target.
ffi::ErrorOr<Call> plan(ffi::Span<const int64_t> da, ffi::Span<const int64_t> db,
                        ffi::Span<const int64_t> dc, bool transpose_a, bool transpose_b) {
  const bool batched = da.size() == 3 || db.size() == 3;
  if (da.size() < 2 || da.size() > 3 || db.size() < 2 || db.size() > 3 ||
      dc.size() != (batched ? 3u : 2u)) {
    return ffi::Unexpected(invalid("a " + shape(da) + ", b " + shape(db) + " and c " +
                                   shape(dc) + " are not a product of matrices or of "
                                   "stacks of them"));
  }
  const int64_t ra = da[da.size() - 2], ca = da[da.size() - 1];
  const int64_t rb = db[db.size() - 2], cb = db[db.size() - 1];
  const int64_t m = transpose_a ? ca : ra, k = transpose_a ? ra : ca;
  const int64_t kb = transpose_b ? cb : rb, n = transpose_b ? rb : cb;
  const int64_t count = batched ? dc[0] : 1;
  if (k != kb || dc[dc.size() - 2] != m || dc[dc.size() - 1] != n ||
      (da.size() == 3 && da[0] != count) || (db.size() == 3 && db[0] != count)) {
    return ffi::Unexpected(invalid("a " + shape(da) + ", b " + shape(db) + " and c " +
                                   shape(dc) + " do not agree (transpose_a = " +
                                   std::to_string(transpose_a) + ", transpose_b = " +
                                   std::to_string(transpose_b) + ")"));
  }
  // C^T (n x m, column-major, ld n) = op(B)^T · op(A)^T. A row-major buffer of
  // r x cols is a column-major cols x r matrix with ld = cols: b's buffer is op(B)^T
  // as stored unless transpose_b, a's is op(A)^T unless transpose_a.
  Call call;
  call.transa = transpose_b ? ECGEMM_OP_T : ECGEMM_OP_N;
  call.transb = transpose_a ? ECGEMM_OP_T : ECGEMM_OP_N;
  call.m = n;
  call.n = m;
  call.k = k;
  call.lda = cb > 1 ? cb : 1;  // the ABI wants ld >= 1 even for empty matrices
  call.ldb = ca > 1 ? ca : 1;
  call.ldc = n > 1 ? n : 1;
  call.stride_a = db.size() == 3 ? rb * cb : 0;  // 0: shared by every product
  call.stride_b = da.size() == 3 ? ra * ca : 0;
  call.stride_c = m * n;
  call.count = count;
  call.A = call.B = nullptr;
  call.C = nullptr;
  return call;
}

// plan() for the buffers themselves, pointers included.
ffi::ErrorOr<Call> plan(ffi::Buffer<ffi::F32> a, ffi::Buffer<ffi::F32> b,
                        ffi::Result<ffi::Buffer<ffi::F32>> c, bool transpose_a,
                        bool transpose_b) {
  ffi::ErrorOr<Call> planned =
      plan(a.dimensions(), b.dimensions(), c->dimensions(), transpose_a, transpose_b);
  if (planned.has_error()) return planned;
  Call call = planned.value();
  call.A = b.typed_data();
  call.B = a.typed_data();
  call.C = c->typed_data();
  return call;
}

ffi::ErrorCode error_code(ecgemmStatus_t status) {
  switch (status) {
    case ECGEMM_STATUS_INVALID_VALUE: return ffi::ErrorCode::kInvalidArgument;
    case ECGEMM_STATUS_ALLOC_FAILED: return ffi::ErrorCode::kResourceExhausted;
    case ECGEMM_STATUS_ARCH_MISMATCH:
    case ECGEMM_STATUS_NOT_SUPPORTED: return ffi::ErrorCode::kUnimplemented;
    case ECGEMM_STATUS_NO_DEVICE: return ffi::ErrorCode::kUnavailable;
    default: return ffi::ErrorCode::kInternal;
  }
}

// ecgemm's own words for a failed call: the status's name, its message, and for a
// bad argument its netlib position.
ffi::Error failure(const char* entry, ecgemmStatus_t status) {
  std::string message = std::string("ecgemm: ") + entry + " returned " +
                        ecgemm_get_status_name(status) + ": " +
                        ecgemm_get_status_string(status);
  if (status == ECGEMM_STATUS_INVALID_VALUE) {
    message += " (argument " + std::to_string(ecgemm_get_last_error_arg()) + ")";
  }
  return ffi::Error(error_code(status), std::move(message));
}

// This thread's handles, one per device, destroyed when the thread ends.
class ThreadHandles {
 public:
  ThreadHandles() = default;
  ThreadHandles(const ThreadHandles&) = delete;
  ThreadHandles& operator=(const ThreadHandles&) = delete;
  ~ThreadHandles() {
    for (auto& entry : handles_) ecgemm_destroy(entry.handle);
  }

  struct Entry {
    int device;
    ecgemmHandle_t handle;
    size_t default_limit;  // ECGEMM_WORKSPACE_LIMIT's, restored after every call
  };

  // The handle for the current device (XLA makes the computation's device current).
  ffi::ErrorOr<Entry> current() {
    int device = 0;
    if (cudaError_t err = cudaGetDevice(&device); err != cudaSuccess) {
      return ffi::Unexpected(ffi::Error::Internal(std::string("ecgemm_matmul: cudaGetDevice: ") +
                                                  cudaGetErrorString(err)));
    }
    for (const Entry& entry : handles_) {
      if (entry.device == device) return entry;
    }
    Entry entry{device, nullptr, 0};
    if (ecgemmStatus_t s = ecgemm_create(&entry.handle); s != ECGEMM_STATUS_SUCCESS) {
      return ffi::Unexpected(failure("ecgemm_create", s));
    }
    ecgemm_get_workspace_limit(entry.handle, &entry.default_limit);
    handles_.push_back(entry);
    return entry;
  }

 private:
  std::vector<Entry> handles_;  // a thread sees few devices
};

thread_local ThreadHandles this_thread;

// The handle on `stream` in `mode`, its scratch confined to `workspace` for the next
// call; going out of scope puts the handle back as it was (no workspace, its own
// limit), so that the query below sees the handle's defaults.
class Configured {
 public:
  explicit Configured(const ThreadHandles::Entry& entry) : entry_(entry) {}
  Configured(const Configured&) = delete;
  Configured& operator=(const Configured&) = delete;
  ~Configured() {
    ecgemm_set_workspace(entry_.handle, nullptr, 0);
    ecgemm_set_workspace_limit(entry_.handle, entry_.default_limit);
  }

  ffi::Error set(cudaStream_t stream, int32_t mode, ffi::Result<ffi::Buffer<ffi::U8>> workspace) {
    ecgemmHandle_t h = entry_.handle;
    if (ecgemmStatus_t s = ecgemm_set_stream(h, stream); s != ECGEMM_STATUS_SUCCESS) {
      return failure("ecgemm_set_stream", s);
    }
    if (ecgemmStatus_t s = ecgemm_set_mode(h, static_cast<ecgemmMode_t>(mode));
        s != ECGEMM_STATUS_SUCCESS) {
      return failure("ecgemm_set_mode", s);
    }
    // The aligned part of XLA's buffer is the user workspace, and so the cap. With none,
    // a cap of one byte: a plan without scratch, never the pool (see the top).
    auto* base = static_cast<unsigned char*>(workspace->untyped_data());
    const size_t size = workspace->size_bytes();
    const size_t skip = base == nullptr ? 0 : (kWorkspaceAlign -
        reinterpret_cast<uintptr_t>(base) % kWorkspaceAlign) % kWorkspaceAlign;
    ecgemmStatus_t s = size > skip
        ? ecgemm_set_workspace(h, base + skip, size - skip)
        : ecgemm_set_workspace_limit(h, 1);
    if (s != ECGEMM_STATUS_SUCCESS) return failure("ecgemm_set_workspace", s);
    return ffi::Error::Success();
  }

 private:
  ThreadHandles::Entry entry_;
};

ffi::Error matmul_cuda(cudaStream_t stream, ffi::Buffer<ffi::F32> a, ffi::Buffer<ffi::F32> b,
                       ffi::Result<ffi::Buffer<ffi::F32>> c,
                       ffi::Result<ffi::Buffer<ffi::U8>> workspace, int32_t mode,
                       bool transpose_a, bool transpose_b) {
  ffi::ErrorOr<Call> planned = plan(a, b, c, transpose_a, transpose_b);
  if (planned.has_error()) return planned.error();
  const Call& p = planned.value();
  if (p.m == 0 || p.n == 0 || p.count == 0) return ffi::Error::Success();  // nothing to write

  ffi::ErrorOr<ThreadHandles::Entry> current = this_thread.current();
  if (current.has_error()) return current.error();
  Configured handle(current.value());
  if (ffi::Error e = handle.set(stream, mode, workspace); e.failure()) return e;
  ecgemmHandle_t h = current.value().handle;
  // k = 0 writes zeros: beta = 0 means C is not read.
  const float alpha = 1.0f, beta = 0.0f;
  ecgemmStatus_t s;
  if (p.count == 1) {  // a single product keeps the planner's full choice of families
    s = ecgemm_sgemm_64(h, p.transa, p.transb, p.m, p.n, p.k, &alpha, p.A, p.lda, p.B, p.ldb,
                        &beta, p.C, p.ldc);
    if (s != ECGEMM_STATUS_SUCCESS) return failure("ecgemm_sgemm_64", s);
  } else {
    s = ecgemm_sgemm_strided_batched_64(h, p.transa, p.transb, p.m, p.n, p.k, &alpha, p.A,
                                        p.lda, p.stride_a, p.B, p.ldb, p.stride_b, &beta, p.C,
                                        p.ldc, p.stride_c, p.count);
    if (s != ECGEMM_STATUS_SUCCESS) return failure("ecgemm_sgemm_strided_batched_64", s);
  }
  return ffi::Error::Success();
}

// On the host platform: the same binding and checks, then a clear error, rather than
// XLA's "no implementation registered" for a computation placed on the CPU.
ffi::Error matmul_host(ffi::Buffer<ffi::F32> a, ffi::Buffer<ffi::F32> b,
                       ffi::Result<ffi::Buffer<ffi::F32>> c,
                       ffi::Result<ffi::Buffer<ffi::U8>> workspace, int32_t mode,
                       bool transpose_a, bool transpose_b) {
  (void)workspace;
  (void)mode;
  ffi::ErrorOr<Call> planned = plan(a, b, c, transpose_a, transpose_b);
  if (planned.has_error()) return planned.error();
  return ffi::Error(ffi::ErrorCode::kUnimplemented,
                    "ecgemm_matmul: ecgemm computes on CUDA GPUs, but this computation was "
                    "placed on the CPU: put its operands on a GPU (jax.device_put), or use "
                    "jnp.matmul on CPU arrays");
}

}  // namespace

#define ECGEMM_JAX_EXPORT extern "C" __attribute__((visibility("default")))
ECGEMM_JAX_EXPORT XLA_FFI_Error* EcgemmMatmulCuda(XLA_FFI_CallFrame* call_frame);
ECGEMM_JAX_EXPORT XLA_FFI_Error* EcgemmMatmulHost(XLA_FFI_CallFrame* call_frame);

// The scratch bytes the custom call's second result needs on the current device:
// 0 when the call takes none, else the plan's bytes plus kWorkspaceAlign. Returns 0,
// an ecgemmStatus_t, or -1 when the shapes do not describe a product. Called by
// ecgemm.jax while tracing (ctypes), with the dimensions the call will have.
ECGEMM_JAX_EXPORT int EcgemmMatmulWorkspaceBytes(const int64_t* a, size_t a_rank,
                                                 const int64_t* b, size_t b_rank,
                                                 const int64_t* c, size_t c_rank, int32_t mode,
                                                 int transpose_a, int transpose_b,
                                                 uint64_t* bytes) {
  *bytes = 0;
  ffi::ErrorOr<Call> planned =
      plan(ffi::Span<const int64_t>(a, a_rank), ffi::Span<const int64_t>(b, b_rank),
           ffi::Span<const int64_t>(c, c_rank), transpose_a != 0, transpose_b != 0);
  if (planned.has_error()) return -1;
  const Call& p = planned.value();
  if (p.m == 0 || p.n == 0 || p.count == 0) return 0;
  ffi::ErrorOr<ThreadHandles::Entry> current = this_thread.current();
  if (current.has_error()) return static_cast<int>(ECGEMM_STATUS_NO_DEVICE);
  ecgemmHandle_t h = current.value().handle;
  if (ecgemmStatus_t s = ecgemm_set_mode(h, static_cast<ecgemmMode_t>(mode));
      s != ECGEMM_STATUS_SUCCESS) {
    return static_cast<int>(s);
  }
  size_t need = 0;
  ecgemmStatus_t s = ecgemm_get_workspace_size_64(h, p.transa, p.transb, p.m, p.n, p.k, p.lda,
                                                  p.ldb, p.ldc, p.count, 0, &need);
  if (s != ECGEMM_STATUS_SUCCESS) return static_cast<int>(s);
  *bytes = need == 0 ? 0 : need + kWorkspaceAlign;
  return 0;
}

// Command buffers: see the top of this file.
XLA_FFI_DEFINE_HANDLER_SYMBOL(EcgemmMatmulCuda, matmul_cuda,
                              ffi::Ffi::Bind()
                                  .Ctx<ffi::PlatformStream<cudaStream_t>>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::U8>>()
                                  .Attr<int32_t>("mode")
                                  .Attr<bool>("transpose_a")
                                  .Attr<bool>("transpose_b"),
                              {ffi::Traits::kCmdBufferCompatible});

XLA_FFI_DEFINE_HANDLER_SYMBOL(EcgemmMatmulHost, matmul_host,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::U8>>()
                                  .Attr<int32_t>("mode")
                                  .Attr<bool>("transpose_a")
                                  .Attr<bool>("transpose_b"));
