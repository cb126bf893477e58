//===- BlockGrid.h - A linalg op cut into its scheduled blocks --*- C++ -*-===//
//
// For plugins that emit straight-line code for a scratchpad chip, where a
// DMA engine stages each block's operands: the blocks a linalg op's schedule
// chose (its first tile level; 0 or no schedule means the whole loop), the
// box of each operand a block touches, and the strides that walk such a box
// stored row-major in a flat buffer (docs/architecture.md, "Straight-line
// code for scratchpad chips").
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_CODEGEN_BLOCKGRID_H
#define STRATA_CODEGEN_BLOCKGRID_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace strata::codegen {

using Ints = llvm::SmallVector<int64_t>;

/// Row-major strides of a shape.
Ints rowMajorStrides(llvm::ArrayRef<int64_t> shape);

/// The buffer whose elements a memref names in place: through collapse,
/// expand and cast of contiguous buffers.
mlir::Value rootBuffer(mlir::Value memref);

/// The part of an operand a block touches: start and size per dimension.
struct Box {
  Ints start, size;
};

/// [offset, stride per dimension] in elements of `box` inside a row-major
/// array of `shape`.
Ints boxView(llvm::ArrayRef<int64_t> shape, const Box &box);

/// The loops and operands of a matrix product C[.., m, n] (+)= A[.., m, k] *
/// B[.., k, n], batch loops allowed.
struct ProductRoles {
  int64_t m, n, k;
  mlir::OpOperand *a, *b;
};
/// Fails, without an error, unless `op` has two inputs, one output whose
/// last two dimensions are loops, one reduction loop and exactly one input
/// indexed by the output's row loop.
mlir::FailureOr<ProductRoles> productRoles(mlir::linalg::LinalgOp op);

class BlockGrid {
public:
  /// The grid of `op` from its schedule. Fails with an error on `op` when a
  /// loop range is dynamic or an operand is not indexed by a projected
  /// permutation of the loops.
  static mlir::FailureOr<BlockGrid> of(mlir::linalg::LinalgOp op);

  /// Blocks along the parallel loops; steps along the reduction loops of
  /// one block.
  int64_t numBlocks() const;
  int64_t numSteps() const;
  /// Loop starts of step `step` of block `block`, row-major over the blocks.
  Ints start(int64_t block, int64_t step) const;
  /// Block sizes at loop starts `at`, clipped at the loop ends.
  Ints sizesAt(llvm::ArrayRef<int64_t> at) const;
  /// The box of `operand` at loop starts `at`.
  Box box(mlir::OpOperand *operand, llvm::ArrayRef<int64_t> at) const;
  /// Elements of an operand's box in a whole block.
  int64_t boxElements(mlir::OpOperand *operand) const;
  /// Iteration points of a whole block.
  int64_t points() const;
  /// Per loop, the stride in elements of a row-major box of `size` of
  /// `operand` (0 for a loop that does not index it: a broadcast).
  Ints loopStrides(mlir::OpOperand *operand,
                   llvm::ArrayRef<int64_t> size) const;
  /// Halves the largest parallel block size until `fits` holds or no
  /// parallel loop can shrink; returns whether it fits.
  bool shrinkUntil(llvm::function_ref<bool(const BlockGrid &)> fits);

  mutable mlir::linalg::LinalgOp op; ///< the op (its accessors are not const)
  Ints extents, block;               ///< loop ranges, block sizes
  Ints parallel, reductions;         ///< loop indices of each kind
};

} // namespace strata::codegen

#endif // STRATA_CODEGEN_BLOCKGRID_H
