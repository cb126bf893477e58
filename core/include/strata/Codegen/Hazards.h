//===- Hazards.h - Ordering asynchronous ops on shared buffers --*- C++ -*-===//
//
// For plugins whose engines (DMA, matrix unit, vector unit) run
// asynchronously and signal completion with tokens: an op must wait for the
// last writer of every buffer it touches and, for a buffer it writes, for
// the ops that read it since that write (read-after-write, write-after-write
// and write-after-read). Dependencies come out in program order.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_CODEGEN_HAZARDS_H
#define STRATA_CODEGEN_HAZARDS_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace strata::codegen {

class Hazards {
public:
  /// The tokens an op reading `reads` and writing `writes` must wait for.
  llvm::SmallVector<mlir::Value> after(llvm::ArrayRef<mlir::Value> reads,
                                       llvm::ArrayRef<mlir::Value> writes);
  /// Records the op whose completion is `token`.
  void record(mlir::Value token, llvm::ArrayRef<mlir::Value> reads,
              llvm::ArrayRef<mlir::Value> writes);

private:
  llvm::DenseMap<mlir::Value, mlir::Value> writer;
  llvm::DenseMap<mlir::Value, llvm::SmallVector<mlir::Value>> readers;
  llvm::DenseMap<mlir::Value, int64_t> order;
};

} // namespace strata::codegen

#endif // STRATA_CODEGEN_HAZARDS_H
