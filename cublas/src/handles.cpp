#include "handles.hpp"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <new>
#include <unordered_map>
#include <utility>
#include <vector>

#include "device.hpp"
#include "settings.hpp"

namespace ecgemm_cublas {
namespace {

// A cuBLAS handle made by our cublasCreate_v2.
struct Record {
  Library* library;
  int device;       // current at creation; -1 when CUDA could not tell
  uint64_t serial;  // tells it from a later handle at the same address
};

// The cuBLAS handles one thread holds ecgemm handles for; its address identifies the
// thread. Made at the thread's first ecgemm handle, freed when the thread exits.
struct ThreadHandles {
  std::vector<const void*> cublas;
};

struct Key {
  const void* cublas;
  const ThreadHandles* thread;
  bool operator==(const Key& other) const {
    return cublas == other.cublas && thread == other.thread;
  }
};

struct KeyHash {
  size_t operator()(const Key& key) const {
    return std::hash<const void*>()(key.cublas) * 31 + std::hash<const void*>()(key.thread);
  }
};

struct Entry {
  EcgemmHandle ecgemm;
  ThreadHandles* thread;
};

// Everything below, the ThreadHandles' lists included, is guarded by g_mutex. Never
// destroyed: a GEMM or cublasDestroy_v2 may run from another library's exit handler.
std::mutex g_mutex;
uint64_t g_serial = 0;
std::unordered_map<const void*, Record>& records() {
  static auto* map = new std::unordered_map<const void*, Record>;
  return *map;
}
std::unordered_map<Key, Entry, KeyHash>& entries() {
  static auto* map = new std::unordered_map<Key, Entry, KeyHash>;
  return *map;
}

using Doomed = std::vector<std::pair<const void*, ecgemmHandle_t>>;

// Destroys `doomed`'s ecgemm handles; no lock held (ecgemm_destroy waits for the device).
void destroy(const Doomed& doomed, const char* why) {
  for (const auto& [cublas, ecgemm] : doomed) {
    ecgemm_destroy(ecgemm);
    if (settings().verbose) {
      std::fprintf(stderr, "ecgemm_cublas: handle %p: ecgemm handle destroyed (%s)\n", cublas, why);
    }
  }
}

// Erases every ecgemm entry of `cublas` (g_mutex held), keeping the handles to destroy.
void take_entries(const void* cublas, Doomed* doomed) {
  for (auto it = entries().begin(); it != entries().end();) {
    if (it->first.cublas != cublas) {
      ++it;
      continue;
    }
    if (it->second.ecgemm.handle != nullptr) doomed->emplace_back(cublas, it->second.ecgemm.handle);
    std::vector<const void*>& held = it->second.thread->cublas;
    held.erase(std::remove(held.begin(), held.end(), cublas), held.end());
    it = entries().erase(it);
  }
}

// Thread exit (pthread key destructor; not run for the thread that ends the process,
// whose handles live until then): the thread's ecgemm handles go. A concurrent
// cublasDestroy_v2 takes an entry out under the same lock, so each handle is destroyed
// exactly once, by whichever of the two took its entry.
void thread_exit(void* value) {
  auto* mine = static_cast<ThreadHandles*>(value);
  Doomed doomed;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    for (const void* cublas : mine->cublas) {
      const auto found = entries().find(Key{cublas, mine});
      if (found == entries().end()) continue;
      const ecgemmHandle_t ecgemm = found->second.ecgemm.handle;
      entries().erase(found);  // every entry goes: none may outlive `mine`
      if (ecgemm == nullptr) continue;
      try {
        doomed.emplace_back(cublas, ecgemm);
      } catch (const std::bad_alloc&) {
        // Out of host memory: this ecgemm handle is leaked, the others still go.
      }
    }
    mine->cublas.clear();
  }
  destroy(doomed, "thread exit");
  delete mine;
}

struct ThreadKey {
  pthread_key_t key;
  bool ok;
  ThreadKey() : key(), ok(pthread_key_create(&key, thread_exit) == 0) {}
};

// This thread's list, made on first use; nullptr when no thread-specific key or memory.
ThreadHandles* this_thread_handles() {
  static const ThreadKey* const key = new (std::nothrow) ThreadKey;
  if (key == nullptr || !key->ok) return nullptr;
  if (void* mine = pthread_getspecific(key->key)) return static_cast<ThreadHandles*>(mine);
  auto* made = new (std::nothrow) ThreadHandles;
  if (made != nullptr && pthread_setspecific(key->key, made) != 0) {
    delete made;
    made = nullptr;
  }
  return made;
}

EcgemmHandle create_on(int device) {
  EcgemmHandle made{nullptr, ECGEMM_STATUS_NOT_INITIALIZED};
  DeviceScope scope(device);  // ecgemm_create binds to the current device
  if (!scope.ok()) return made;
  made.status = ecgemm_create(&made.handle);
  if (made.status != ECGEMM_STATUS_SUCCESS) made.handle = nullptr;
  return made;
}

}  // namespace

void register_handle(cublasHandle_t cublas, Library* library, int device) {
  Doomed stale;
  try {
    std::lock_guard<std::mutex> lock(g_mutex);
    take_entries(cublas, &stale);
    records()[cublas] = Record{library, device, ++g_serial};
  } catch (const std::bad_alloc&) {
    // Unrecorded, the handle is served as one created unseen (default_library()).
  }
  destroy(stale, "its cuBLAS handle was destroyed unseen");
  if (settings().verbose) {
    char where[32] = "no CUDA device";
    if (device >= 0) std::snprintf(where, sizeof where, "device %d", device);
    std::fprintf(stderr, "ecgemm_cublas: handle %p: created by %s on %s\n",
                 static_cast<const void*>(cublas), library->path(), where);
  }
}

Library* library_of(cublasHandle_t cublas) {
  if (Library* inside = current_real_library()) return inside;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    const auto found = records().find(cublas);
    if (found != records().end()) return found->second.library;
  }
  return default_library();
}

EcgemmHandle ecgemm_handle_for(cublasHandle_t cublas) {
  ThreadHandles* const mine = this_thread_handles();
  if (mine == nullptr) return {nullptr, ECGEMM_STATUS_ALLOC_FAILED};
  const Key key{cublas, mine};
  int device = -1;
  uint64_t serial = 0;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    const auto found = entries().find(key);
    if (found != entries().end()) return found->second.ecgemm;
    const auto record = records().find(cublas);
    if (record != records().end()) {
      device = record->second.device;
      serial = record->second.serial;
    }
  }
  // Created outside the lock (it asks the driver); no other thread can create this key.
  const EcgemmHandle made = create_on(device);
  if (made.handle != nullptr && settings().verbose) {
    int on = -1;
    ecgemm_get_device(made.handle, &on);
    std::fprintf(stderr,
                 "ecgemm_cublas: handle %p: ecgemm handle made for thread %ld on device %d\n",
                 static_cast<const void*>(cublas), static_cast<long>(syscall(SYS_gettid)), on);
  }
  ecgemmStatus_t refused = ECGEMM_STATUS_NOT_INITIALIZED;
  try {
    std::lock_guard<std::mutex> lock(g_mutex);
    const auto record = records().find(cublas);
    // Otherwise the handle was destroyed (and perhaps another made at its address)
    // meanwhile: the caller raced its own cublasDestroy_v2, and nothing is kept for it.
    if ((record != records().end() ? record->second.serial : 0) == serial) {
      mine->cublas.reserve(mine->cublas.size() + 1);
      entries().emplace(key, Entry{made, mine});
      mine->cublas.push_back(cublas);
      return made;
    }
  } catch (const std::bad_alloc&) {
    refused = ECGEMM_STATUS_ALLOC_FAILED;
  }
  if (made.handle != nullptr) ecgemm_destroy(made.handle);
  return {nullptr, refused};
}

void forget_handle(cublasHandle_t cublas) {
  Doomed doomed;
  try {
    std::lock_guard<std::mutex> lock(g_mutex);
    records().erase(cublas);
    take_entries(cublas, &doomed);
  } catch (const std::bad_alloc&) {
    // Out of host memory: the entries not yet collected stay behind (a leak), and the
    // exception must not cross the C interface.
  }
  destroy(doomed, "cublasDestroy_v2");
}

}  // namespace ecgemm_cublas
