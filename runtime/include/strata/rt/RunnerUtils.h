//===- RunnerUtils.h - The print and check functions of MLIR tests -*- C++ -*-//
//
// libStrataRunnerUtils: the functions MLIR's execution tests call by name
// (printMemrefF32, printF32, printNewline, verifyMemRefF32, rtclock, ...),
// written for strata-mlir-runner so that those tests run on code Strata
// generated. Same names, descriptor layouts and printed text as MLIR's
// runner utils (checked against them by integration/lit/Tools/
// mlir-runner-print-formats.test), no LLVM.
//
// A memref crosses as a descriptor: {allocated, aligned, offset, sizes[R],
// strides[R]} (element pointers, then int64 fields). An unranked memref is
// {rank, pointer to the ranked descriptor}; functions with the
// `_mlir_ciface_` prefix take a pointer to it, the others take its two
// fields as arguments (docs/abi.md, "memref descriptors").
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_RT_RUNNERUTILS_H
#define STRATA_RT_RUNNERUTILS_H

#include <cstdint>
#include <ostream>

namespace strata::rt {

/// An unranked memref: the rank and the ranked descriptor it points to.
struct UnrankedMemRef {
  int64_t rank;
  void *descriptor;
};

/// A ranked descriptor read through its rank: element pointers, offset,
/// sizes and strides (in elements).
struct MemRefView {
  int64_t rank = 0;
  char *data = nullptr; // the aligned pointer
  int64_t offset = 0;
  const int64_t *sizes = nullptr;
  const int64_t *strides = nullptr;

  static MemRefView of(int64_t rank, void *descriptor);
  int64_t numElements() const;
};

/// What printMemref<T> prints: "Unranked Memref base@ = 0x... rank = R
/// offset = O sizes = [...] strides = [...] data = " and the elements,
/// nested brackets a row per line, with `print(os, element pointer)`.
void printMemRef(std::ostream &os, const char *prefix, const MemRefView &view,
                 int64_t elementBytes,
                 void (*print)(std::ostream &, const char *));

} // namespace strata::rt

#endif // STRATA_RT_RUNNERUTILS_H
