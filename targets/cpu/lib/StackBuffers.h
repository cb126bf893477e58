//===- StackBuffers.h - Scratch buffers on the stack ------------*- C++ -*-===//
//
// The core's packing and tile buffers are heap allocations freed before the
// call returns. On the host, a call that mallocs and frees a few hundred
// KiB pays page faults every time: glibc gives the top of its heap back to
// the system when it is freed (above 128 KiB by default) and touches it
// anew on the next call (measured: 70 faults and 0.14 ms per call of a
// 513x257x129 GEMM that computes in 0.23 ms). Small buffers of static size
// live on the stack instead.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TARGETS_CPU_STACKBUFFERS_H
#define STRATA_TARGETS_CPU_STACKBUFFERS_H

#include "mlir/Pass/PassManager.h"

namespace strata::cpu {

/// Appends `strata-cpu-stack-buffers` (on each function): a `memref.alloc`
/// of static shape freed by a `memref.dealloc` in the same block becomes a
/// `memref.alloca` at the top of that block, if the block runs once per
/// call or once per thread (a function's body or a grid loop's body, which
/// the thread lowering gives to one thread), within a budget per block.
void addStackBuffersPass(mlir::OpPassManager &pm);

} // namespace strata::cpu

#endif // STRATA_TARGETS_CPU_STACKBUFFERS_H
