//===- MaskedKeyTiles.h - Row groups skip the keys a mask hides -*- C++ -*-===//
//
// A row-block attention group (ApplySchedule.cpp's fuseGroups) computes,
// per block of queries, the scores of every key, masks, softmax and P*V.
// Where the mask hides every key past its query plus c (a causal mask:
// AttentionMask.h), a block of queries [q0, q0 + rows) needs only the keys
// [0, q0 + rows + c). Here the group's ops that run along the keys are
// tiled into key tiles of a static size whose loops stop at the block's
// last needed tile: the scores, softmax and P*V of the hidden keys are
// never computed, and nothing reads them (about half the work of a causal
// attention).
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TRANSFORMS_MASKEDKEYTILES_H
#define STRATA_TRANSFORMS_MASKEDKEYTILES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace strata {

/// c such that every score the softmax feeding `root` reads is -inf where
/// key - query > c, on the untiled ops: `root` reads P, made from the
/// scores of the contraction `isContraction` accepts among its producers,
/// through scale ops whose loops are the scores' (query and key the last
/// two). Nullopt when no such c is proven.
std::optional<int64_t>
maskedKeysAfter(mlir::linalg::LinalgOp root,
                llvm::function_ref<bool(mlir::Operation *)> isContraction);

/// Tiles `op` along loop `dim` by `size` (one scf.for; fills of its outputs
/// fused when `dim` is parallel) and returns the loop.
using KeyTiler = llvm::function_ref<mlir::FailureOr<mlir::scf::ForOp>(
    mlir::Operation *op, unsigned dim, int64_t size)>;

/// In the body of `rows`, the innermost loop of a group whose `queries`
/// loop steps over blocks of queries (from `queryOffset`, the first query
/// of the grid part, when the grid splits the queries; null: 0): tiles the
/// ops that run along the keys
/// of the scores (from the contraction `isContraction` accepts there other
/// than `root`) into key tiles of `keyTile`, their loops ending at the
/// block's last key tile that `keysAfter` leaves visible. Returns false,
/// changing nothing, when the group does not have that shape (the scores'
/// key extent is no multiple of `keyTile`, a value along the keys is read
/// outside the group, ...).
mlir::FailureOr<bool>
skipMaskedKeyTiles(mlir::RewriterBase &rw, mlir::scf::ForOp queries,
                   mlir::Value queryOffset, mlir::scf::ForOp rows,
                   mlir::Operation *root, int64_t keysAfter, int64_t keyTile,
                   llvm::function_ref<bool(mlir::Operation *)> isContraction,
                   KeyTiler tileKeys);

} // namespace strata

#endif // STRATA_TRANSFORMS_MASKEDKEYTILES_H
