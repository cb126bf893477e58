//===- HostAllocator.h - Temporaries kept between calls --------*- C++ -*-===//
//
// The allocator the host device installs in the libraries it loads
// (`strata_set_host_allocator`, from the strata-host-allocator pass): large
// temporaries freed by one call are kept and handed to the next, which asks
// for the same sizes, instead of going back to the system and page-faulting
// in again.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_RUNTIME_HOSTALLOCATOR_H
#define STRATA_RUNTIME_HOSTALLOCATOR_H

#include <cstddef>
#include <cstdint>

namespace strata::rt {

/// `bytes` (rounded up to `alignment`, a power of two) of host memory
/// aligned to `alignment`, free()d by the caller; null when the system has
/// none. Blocks of 2 MiB and more ask for transparent huge pages: first
/// touch of 4 KiB pages is slow enough to distort timings.
void *allocateHostMemory(size_t alignment, size_t bytes);

/// Memory for a host library's temporary: malloc'd (at least 16-byte
/// aligned), null when the system has none.
void *hostTemporaryAlloc(uint64_t bytes);
/// Frees what hostTemporaryAlloc returned (or any malloc'd pointer).
void hostTemporaryFree(void *pointer);
/// Bytes of freed blocks kept for reuse now.
size_t hostTemporaryCachedBytes();

} // namespace strata::rt

#endif // STRATA_RUNTIME_HOSTALLOCATOR_H
