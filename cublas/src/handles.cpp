#include "handles.hpp"

#include <functional>
#include <mutex>
#include <new>
#include <thread>
#include <unordered_map>
#include <vector>

namespace ecgemm_cublas {
namespace {

struct Key {
  const void* cublas;
  std::thread::id thread;
  bool operator==(const Key& other) const {
    return cublas == other.cublas && thread == other.thread;
  }
};

struct KeyHash {
  size_t operator()(const Key& key) const {
    return std::hash<const void*>()(key.cublas) * 31 + std::hash<std::thread::id>()(key.thread);
  }
};

using Table = std::unordered_map<Key, EcgemmHandle, KeyHash>;

std::mutex g_mutex;
// Never destroyed: a GEMM or cublasDestroy_v2 may run from another library's exit handler.
Table& table() {
  static Table* t = new Table;
  return *t;
}

}  // namespace

EcgemmHandle ecgemm_handle_for(cublasHandle_t cublas) {
  const Key key{cublas, std::this_thread::get_id()};
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    const auto found = table().find(key);
    if (found != table().end()) return found->second;
  }
  // Created outside the lock (it asks the driver); no other thread can create this key.
  EcgemmHandle created{nullptr, ECGEMM_STATUS_SUCCESS};
  created.status = ecgemm_create(&created.handle);
  if (created.status != ECGEMM_STATUS_SUCCESS) created.handle = nullptr;
  try {
    std::lock_guard<std::mutex> lock(g_mutex);
    table().emplace(key, created);
  } catch (const std::bad_alloc&) {
    if (created.handle != nullptr) ecgemm_destroy(created.handle);
    return {nullptr, ECGEMM_STATUS_ALLOC_FAILED};
  }
  return created;
}

void release_ecgemm_handles(cublasHandle_t cublas) {
  std::vector<ecgemmHandle_t> doomed;
  try {
    std::lock_guard<std::mutex> lock(g_mutex);
    for (auto it = table().begin(); it != table().end();) {
      if (it->first.cublas == cublas) {
        if (it->second.handle != nullptr) doomed.push_back(it->second.handle);
        it = table().erase(it);
      } else {
        ++it;
      }
    }
  } catch (const std::bad_alloc&) {
    // Out of host memory: the entries not yet collected stay behind (a leak), and the
    // exception must not cross the C interface.
  }
  // Outside the lock: ecgemm_destroy frees device memory, which waits for the device.
  for (ecgemmHandle_t handle : doomed) ecgemm_destroy(handle);
}

}  // namespace ecgemm_cublas
