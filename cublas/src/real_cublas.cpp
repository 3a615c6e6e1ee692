#include "real_cublas.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

namespace ecgemm_cublas {

static_assert(sizeof(static_cast<Prototype<Fn::cublasGemmEx>::type*>(&cublasGemmEx)) != 0,
              "cublasGemmEx prototype");
static_assert(sizeof(static_cast<Prototype<Fn::cublasGemmStridedBatchedEx>::type*>(
                  &cublasGemmStridedBatchedEx)) != 0,
              "cublasGemmStridedBatchedEx prototype");
static_assert(sizeof(static_cast<Prototype<Fn::cublasGemmBatchedEx>::type*>(
                  &cublasGemmBatchedEx)) != 0,
              "cublasGemmBatchedEx prototype");

namespace {

constexpr const char* kNames[] = {
#define ECGEMM_CUBLAS_NAME(name) #name,
    ECGEMM_CUBLAS_DECLTYPE_FUNCTIONS(ECGEMM_CUBLAS_NAME)
    ECGEMM_CUBLAS_OVERLOADED_FUNCTIONS(ECGEMM_CUBLAS_NAME)
#undef ECGEMM_CUBLAS_NAME
};
static_assert(sizeof kNames / sizeof kNames[0] == static_cast<size_t>(Fn::kCount), "one name each");

// Where an application's libcublas sits outside the global symbol scope (a Python
// extension module loaded RTLD_LOCAL that depends on it, as CuPy's do), RTLD_NEXT does
// not see it; an already loaded copy is still found by its soname.
constexpr const char* kCublasSonames[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so"};

thread_local Library* t_real_library = nullptr;
std::atomic<bool> g_reported_missing{false};

// Our own object: a "real" function found there would call us back forever.
const void* own_base() {
  static const void* const base = [] {
    Dl_info info{};
    return dladdr(reinterpret_cast<const void*>(&own_base), &info) != 0 ? info.dli_fbase : nullptr;
  }();
  return base;
}

// Every Library ever made, one per loaded libcublas; never freed (a call may come from
// another library's exit handler).
std::mutex g_libraries_mutex;
std::vector<Library*>& libraries() {
  static auto* list = new std::vector<Library*>;
  return *list;
}

// The Library for `dl` (a handle dlopen(RTLD_NOLOAD) just gave, whose reference it
// takes over), or nullptr when `dl` is null or out of memory.
Library* library_for(void* dl) {
  if (dl == nullptr) return nullptr;
  try {
    std::lock_guard<std::mutex> lock(g_libraries_mutex);
    for (Library* known : libraries()) {
      if (known->dl() == dl) {
        dlclose(dl);  // the extra reference this lookup took; the first one is kept
        return known;
      }
    }
    struct link_map* map = nullptr;
    const char* path = dlinfo(dl, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr ? map->l_name : "";
    libraries().reserve(libraries().size() + 1);
    Library* made = new Library(dl, path);
    libraries().push_back(made);
    return made;
  } catch (const std::bad_alloc&) {
    dlclose(dl);
    return nullptr;
  }
}

Library* loaded(const char* soname) { return library_for(dlopen(soname, RTLD_LAZY | RTLD_NOLOAD)); }

bool is_cublas_soname(const char* name) {
  static constexpr char kPrefix[] = "libcublas.so";  // not libcublasLt.so
  return std::strncmp(name, kPrefix, sizeof kPrefix - 1) == 0;
}

// The object whose code holds `address`, and the libcublas soname among its DT_NEEDED
// entries (empty when it has none).
struct NeededSearch {
  uintptr_t address;
  char soname[64];
};

bool in_segment(const dl_phdr_info* info, const ElfW(Phdr) & segment, uintptr_t address) {
  const uintptr_t start = info->dlpi_addr + segment.p_vaddr;
  return segment.p_type == PT_LOAD && address >= start && address - start < segment.p_memsz;
}

bool mapped(const dl_phdr_info* info, uintptr_t address) {
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    if (in_segment(info, info->dlpi_phdr[i], address)) return true;
  }
  return false;
}

int find_needed_cublas(dl_phdr_info* info, size_t, void* data) {
  auto* search = static_cast<NeededSearch*>(data);
  if (!mapped(info, search->address)) return 0;  // not this object: go on
  const ElfW(Dyn)* dynamic = nullptr;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC) {
      dynamic = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    }
  }
  if (dynamic == nullptr) return 1;
  uintptr_t strtab = 0;
  size_t strsz = 0;
  for (const ElfW(Dyn)* d = dynamic; d->d_tag != DT_NULL; ++d) {
    if (d->d_tag == DT_STRTAB) strtab = d->d_un.d_ptr;
    if (d->d_tag == DT_STRSZ) strsz = d->d_un.d_val;
  }
  // glibc relocates DT_STRTAB in place where the dynamic section is writable; where it
  // is not, the entry keeps its link-time address.
  if (strtab == 0) return 1;
  if (!mapped(info, strtab)) strtab += info->dlpi_addr;
  if (!mapped(info, strtab)) return 1;
  const char* strings = reinterpret_cast<const char*>(strtab);
  for (const ElfW(Dyn)* d = dynamic; d->d_tag != DT_NULL; ++d) {
    if (d->d_tag != DT_NEEDED || d->d_un.d_val >= strsz) continue;
    const char* needed = strings + d->d_un.d_val;
    if (is_cublas_soname(needed) && std::strlen(needed) < sizeof search->soname) {
      std::strcpy(search->soname, needed);
      break;
    }
  }
  return 1;
}

}  // namespace

const char* name_of(Fn fn) { return kNames[static_cast<int>(fn)]; }

Library::Library(void* dl, const char* path) : dl_(dl), path_(path) {}

void* Library::function(Fn fn) {
  std::atomic<void*>& slot = functions_[static_cast<int>(fn)];
  if (void* known = slot.load(std::memory_order_acquire)) return known;
  void* found = dlsym(dl_, name_of(fn));
  Dl_info info{};
  if (found == nullptr || (dladdr(found, &info) != 0 && info.dli_fbase == own_base())) {
    return nullptr;
  }
  slot.store(found, std::memory_order_release);
  return found;
}

Library* library_of_caller(const void* code) {
  // code - 1: the call instruction itself, in case the call was the object's last bytes.
  NeededSearch search{reinterpret_cast<uintptr_t>(code) - 1, {}};
  dl_iterate_phdr(find_needed_cublas, &search);
  if (search.soname[0] != '\0') {
    if (Library* linked = loaded(search.soname)) return linked;
  }
  return default_library();
}

Library* default_library() {
  static std::atomic<Library*> found{nullptr};
  if (Library* known = found.load(std::memory_order_acquire)) return known;
  Library* library = nullptr;
  Dl_info info{};
  if (void* create = dlsym(RTLD_NEXT, "cublasCreate_v2");
      create != nullptr && dladdr(create, &info) != 0 && info.dli_fname != nullptr &&
      info.dli_fname[0] != '\0') {
    library = loaded(info.dli_fname);
  }
  for (const char* soname : kCublasSonames) {
    if (library != nullptr) break;
    library = loaded(soname);
  }
  if (library != nullptr) found.store(library, std::memory_order_release);
  return library;
}

Library* current_real_library() { return t_real_library; }

RealCallScope::RealCallScope(Library* library) : outer_(t_real_library) {
  t_real_library = library;
}
RealCallScope::~RealCallScope() { t_real_library = outer_; }

cublasStatus_t report_missing(const Library* library, Fn fn) {
  if (!g_reported_missing.exchange(true)) {
    if (library == nullptr) {
      std::fprintf(stderr,
                   "ecgemm_cublas: %s: no libcublas is loaded in this process to pass the call "
                   "to (returning CUBLAS_STATUS_NOT_INITIALIZED)\n",
                   name_of(fn));
    } else {
      std::fprintf(stderr, "ecgemm_cublas: %s has no %s (returning CUBLAS_STATUS_NOT_SUPPORTED)\n",
                   library->path(), name_of(fn));
    }
  }
  return library == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : CUBLAS_STATUS_NOT_SUPPORTED;
}

cublasStatus_t read_handle_state(Library* library, cublasHandle_t handle, HandleState* state) {
  const auto get_stream = real_function<Fn::cublasGetStream_v2>(library);
  const auto get_pointer_mode = real_function<Fn::cublasGetPointerMode_v2>(library);
  const auto get_math_mode = real_function<Fn::cublasGetMathMode>(library);
  if (get_stream == nullptr || get_pointer_mode == nullptr || get_math_mode == nullptr) {
    return CUBLAS_STATUS_NOT_INITIALIZED;
  }
  RealCallScope scope(library);
  cublasStatus_t status = get_stream(handle, &state->stream);
  if (status == CUBLAS_STATUS_SUCCESS) status = get_pointer_mode(handle, &state->pointer_mode);
  if (status == CUBLAS_STATUS_SUCCESS) status = get_math_mode(handle, &state->math_mode);
  return status;
}

}  // namespace ecgemm_cublas
