//===- HierarchyKernel.h - Building the loops of one kernel ----*- C++ -*-===//
//
// What every emitter of strata-map-hierarchy shares: foralls over the
// description's levels, k loops carrying accumulators, guarded loads, the
// cloned body of an elementwise op, and the schedule recorded on a kernel.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TRANSFORMS_HIERARCHYKERNEL_H
#define STRATA_TRANSFORMS_HIERARCHYKERNEL_H

#include "strata/Schedule/HierarchyModel.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <nlohmann/json.hpp>

namespace strata::hierarchy {

/// The description's spelling of a scalar type ("f16", "bf16", "f32").
std::string typeName(mlir::Type type);

/// Records the model's decisions on the block loop (for --emit=mlir).
void setHierarchySchedule(mlir::Operation *kernel, const nlohmann::json &doc);

/// Emits the loops of one kernel.
class KernelBuilder {
public:
  KernelBuilder(mlir::ImplicitLocOpBuilder &b, const HierarchySchedule &s)
      : b(b), s(s) {}

  mlir::Value idx(int64_t v);

  /// The mapping attribute of a forall of `rank` dims over `level`.
  mlir::ArrayAttr mapping(llvm::StringRef level, int rank);

  /// scf.forall over `counts` instances of `level`; the body gets the ids.
  mlir::scf::ForallOp forall(llvm::StringRef level,
                             llvm::ArrayRef<int64_t> counts,
                             llvm::function_ref<void(mlir::ValueRange)> body);

  /// scf.for over `steps` k steps carrying `count` zero f32 accumulators
  /// of `type`.
  mlir::scf::ForOp kLoop(mlir::VectorType type, int64_t count, int64_t steps);

  /// for (e = first; e < total; e += stride) body(e).
  void strided(mlir::Value first, int64_t total, int64_t stride,
               llvm::function_ref<void(mlir::Value)> body);

  mlir::Value lt(mlir::Value a, mlir::Value c);
  mlir::Value add(mlir::Value x, mlir::Value y);
  mlir::Value mul(mlir::Value x, int64_t y);
  mlir::Value div(mlir::Value x, int64_t y);
  mlir::Value rem(mlir::Value x, int64_t y);

  /// `operand`'s element at loop values `loops` through its indexing map, or
  /// `zero` where `inBounds` is false.
  mlir::Value loadOr(mlir::linalg::LinalgOp op, mlir::OpOperand *operand,
                     llvm::ArrayRef<mlir::Value> loops, mlir::Value inBounds,
                     mlir::Value zero);

  /// `operand`'s element at loop values `loops` (a scalar operand as is).
  mlir::Value load(mlir::linalg::LinalgOp op, mlir::OpOperand *operand,
                   llvm::ArrayRef<mlir::Value> loops);

  /// The indices `map` gives at loop values `loops` (any affine results).
  llvm::SmallVector<mlir::Value> indices(mlir::AffineMap map,
                                         llvm::ArrayRef<mlir::Value> loops);

  /// Clones the body of elementwise `op` at loop values `loops`, with
  /// `given` as the value of every operand on buffer `givenBuffer`; stores
  /// the results.
  void applyBody(mlir::linalg::LinalgOp op, llvm::ArrayRef<mlir::Value> loops,
                 mlir::Value givenBuffer, mlir::Value given);

  mlir::ImplicitLocOpBuilder &b;
  const HierarchySchedule &s;
};

/// Maps the elementwise (all-parallel) `op` to the levels: one element per
/// lane, blocks of all the groups.
mlir::LogicalResult emitElementwise(mlir::ImplicitLocOpBuilder &b,
                                    mlir::linalg::LinalgOp op,
                                    const HierarchyLevels &levels);

} // namespace strata::hierarchy

#endif // STRATA_TRANSFORMS_HIERARCHYKERNEL_H
