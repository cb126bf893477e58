//===- Multicast.h - One core reads, the others receive ---------*- C++ -*-===//
//
// The handshake of a block that one core reads from DRAM and multicasts to
// the cores that share it (the matmul's A and B, the attention's K and V).
// Every core reserved the same slots, so the block lands at the sender's
// address. Receivers clear their @<p>_valid, tell the sender they are
// ready (sem_inc of its @<p>_ready) and wait for @<p>_valid; the sender,
// once all are ready, clears @<p>_ready, multicasts the block and then its
// own @<p>_valid (set to 1 at the kernel's start).
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TARGETS_TILE_MULTICAST_H
#define STRATA_TARGETS_TILE_MULTICAST_H

#include "KernelText.h"

namespace strata::tile {

/// Closes the sender's branch (after its reads and barrier) with the
/// sender's side, writes the receivers' side in the else branch and closes
/// the `scf.if`. `cores` is the receivers' rectangle ("cores [..]-[..]"),
/// `sender` the sender's coordinates ("[r, c]").
inline void multicastHandshake(KernelText &k, const std::string &prefix,
                               const std::string &ptr, const std::string &cores,
                               const std::string &sender, int64_t receivers,
                               int64_t bytes) {
  k.line(
      llvm::formatv("tile.sem_wait @{0}_ready, {1}", prefix, k.c(receivers)));
  k.line(llvm::formatv("tile.sem_set @{0}_ready, {1}", prefix, k.c(0)));
  k.line(llvm::formatv("tile.noc_write_multicast {0} -> {1} {0} size {2}", ptr,
                       cores, k.c(bytes)));
  k.line(
      llvm::formatv("tile.sem_set_multicast @{0}_valid -> {1}", prefix, cores));
  k.line("tile.noc_write_barrier");
  k.orElse();
  k.line(llvm::formatv("tile.sem_set @{0}_valid, {1}", prefix, k.c(0)));
  k.line(llvm::formatv("tile.sem_inc @{0}_ready core {1}, {2}", prefix, sender,
                       k.c(1)));
  k.line(llvm::formatv("tile.sem_wait @{0}_valid, {1}", prefix, k.c(1)));
  k.end();
}

} // namespace strata::tile

#endif // STRATA_TARGETS_TILE_MULTICAST_H
