//===- Attributes.h - Schedules in the IR -----------------------*- C++ -*-===//
//
// Reading and writing `strata.schedule` on ops, the loop nest the model sees
// for a linalg op, and the description a module carries.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_SCHEDULE_ATTRIBUTES_H
#define STRATA_SCHEDULE_ATTRIBUTES_H

#include "strata/HW/Description.h"
#include "strata/Schedule/Model.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"

namespace strata {

/// The name of the attribute that holds an op's schedule.
constexpr llvm::StringLiteral kScheduleAttrName = "strata.schedule";

/// On a lane loop of the mapped IR: its copies into the scratchpad (a vector
/// load stored into a scratchpad buffer) are asynchronous, and each lane
/// commits them as one group at the end of the loop's body.
constexpr llvm::StringLiteral kAsyncCopyAttrName = "strata.async_copy";
/// On a gpu.barrier: before it, each lane waits until at most this many of
/// its newest committed copy groups are still in flight.
constexpr llvm::StringLiteral kPendingCopyGroupsAttrName =
    "strata.pending_copy_groups";
/// On a memref.copy of a whole operand tile into a scratchpad buffer, in a
/// group body: a bulk copy, issued once for the whole block (by any one
/// lane) and asynchronous; the value is the pipeline stage S of the buffer.
/// The n-th bulk fill of stage S completes phase n of that stage.
constexpr llvm::StringLiteral kBulkCopyStageAttrName = "strata.bulk_copy_stage";
/// On a gpu.barrier inside the k loop: before it, each lane waits for the
/// bulk copies of this stage issued for iteration `it` of the loop (phase
/// `it` of the stage: the loop visits every stage once per iteration).
constexpr llvm::StringLiteral kAwaitStageAttrName = "strata.await_stage";

/// The validated description attached to `module` (its `strata.hw`), or an
/// error at the module that says what is wrong.
mlir::FailureOr<hw::Description> descriptionOf(mlir::ModuleOp module);
/// The same for passes that have nothing to decide without a chip (the
/// reference lowering): nullopt when `module` carries no description.
mlir::FailureOr<std::optional<hw::Description>>
attachedDescription(mlir::ModuleOp module);

/// The loop nest of `op` as the model sees it.
LoopNest loopNestOf(mlir::linalg::LinalgOp op);

void setSchedule(mlir::Operation *op, const Schedule &schedule);
/// The schedule on `op`; std::nullopt if it has none; an error (emitted at
/// the op) if it has a malformed one.
mlir::FailureOr<std::optional<Schedule>> getSchedule(mlir::Operation *op,
                                                     size_t loops);

} // namespace strata

#endif // STRATA_SCHEDULE_ATTRIBUTES_H
