//===- PackingPads.h - Packing pads as a fill and a copy --------*- C++ -*-===//
//
// S4 packs an op's operands by padding them to its tiles
// (linalg::rewriteAsPaddedOp). Each resulting tensor.pad becomes a fill of
// the padded tile and a copy of the data into it: linalg ops the leftover
// step vectorizes (a pad would bufferize to a strided memref.copy, which
// needs a runtime library).
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TRANSFORMS_PACKINGPADS_H
#define STRATA_TRANSFORMS_PACKINGPADS_H

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace strata {

/// Rewrites each of `pads` as a fill with its padding value, a copy of its
/// source at its low padding's offsets and an insert_slice marked with
/// `packedAttr`. The pads include the program's own where an operand
/// already had the padded shape (a convolution's input padded low and
/// high). A pad whose value is computed per element stays a pad.
void rewritePadsAsFillAndCopy(mlir::RewriterBase &rw,
                              llvm::ArrayRef<mlir::tensor::PadOp> pads,
                              llvm::StringRef packedAttr);

/// Drops the copy-back of a packed tile (bufferization.materialize_in_
/// destination) whose destination is not carried by the loop around it but
/// read from outside: a contraction whose epilogue was fused into its tile
/// loop, whose own result only the epilogue reads. Writing the tile into
/// that captured tensor forces an in-place write to a buffer the loop's
/// output may share (a `tensor.empty` merged by CSE), which one-shot
/// bufferization rejects ("cannot avoid RaW conflict"); the epilogue reads
/// the packed tile itself instead.
void dropCopyBacksIntoCapturedValues(mlir::RewriterBase &rw,
                                     mlir::Operation *root);

} // namespace strata

#endif // STRATA_TRANSFORMS_PACKINGPADS_H
