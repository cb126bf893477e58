//===- HostAllocator.cpp - Temporaries kept between calls -----------------===//
//
// Blocks of kMinCachedBytes and more are sized in whole pages and, when
// freed, kept in a list per size, up to a cap on the bytes kept (1 GiB, or
// $STRATA_HOST_CACHE_BYTES; 0 keeps nothing). Smaller blocks go straight to
// malloc/free, which reuses them without system calls. The state is one
// process-wide pool behind a mutex: allocations are a handful per call.
//
//===----------------------------------------------------------------------===//
#include "strata/rt/HostAllocator.h"

#include <cstdlib>
#include <mutex>
#include <sys/mman.h>
#include <unordered_map>
#include <vector>

namespace {

constexpr size_t kMinCachedBytes = size_t(64) << 10;
constexpr size_t kPageBytes = 4096;
constexpr size_t kHugePageBytes = size_t(2) << 20;

size_t cacheCap() {
  const char *text = std::getenv("STRATA_HOST_CACHE_BYTES");
  if (!text || !*text)
    return size_t(1) << 30;
  char *end = nullptr;
  unsigned long long value = std::strtoull(text, &end, 10);
  return end && *end == '\0' ? size_t(value) : size_t(1) << 30;
}

struct Pool {
  std::mutex mutex;
  size_t cap = cacheCap();
  size_t cached = 0;
  /// Freed blocks by size.
  std::unordered_map<size_t, std::vector<void *>> idle;
  /// The size of every live block of this pool.
  std::unordered_map<void *, size_t> live;
};

Pool &pool() {
  // Never destroyed: libraries may free temporaries while the process
  // exits.
  static Pool *instance = new Pool;
  return *instance;
}

} // namespace

void *strata::rt::allocateHostMemory(size_t alignment, size_t bytes) {
  size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  void *block =
      std::aligned_alloc(alignment, rounded == 0 ? alignment : rounded);
  if (block && rounded >= kHugePageBytes)
    madvise(block, rounded, MADV_HUGEPAGE);
  return block;
}

void *strata::rt::hostTemporaryAlloc(uint64_t bytes) {
  if (bytes < kMinCachedBytes)
    return std::malloc(bytes);
  size_t size = (size_t(bytes) + kPageBytes - 1) / kPageBytes * kPageBytes;
  Pool &p = pool();
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    auto it = p.idle.find(size);
    if (it != p.idle.end() && !it->second.empty()) {
      void *block = it->second.back();
      it->second.pop_back();
      p.cached -= size;
      p.live.emplace(block, size);
      return block;
    }
  }
  void *block = allocateHostMemory(kPageBytes, size);
  if (!block)
    return nullptr;
  std::lock_guard<std::mutex> lock(p.mutex);
  p.live.emplace(block, size);
  return block;
}

void strata::rt::hostTemporaryFree(void *pointer) {
  if (!pointer)
    return;
  Pool &p = pool();
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    auto it = p.live.find(pointer);
    if (it != p.live.end()) {
      size_t size = it->second;
      p.live.erase(it);
      if (p.cached + size <= p.cap) {
        p.idle[size].push_back(pointer);
        p.cached += size;
        return;
      }
    }
  }
  std::free(pointer);
}

size_t strata::rt::hostTemporaryCachedBytes() {
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  return p.cached;
}
