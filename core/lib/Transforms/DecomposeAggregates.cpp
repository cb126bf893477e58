//===- DecomposeAggregates.cpp - Aggregate linalg ops to generics ---------===//
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/PatternMatch.h"

namespace strata {
#define GEN_PASS_DEF_STRATADECOMPOSEAGGREGATES
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;
using namespace strata;

namespace {
struct DecomposeAggregates
    : strata::impl::StrataDecomposeAggregatesBase<DecomposeAggregates> {
  void runOnOperation() override {
    SmallVector<linalg::AggregatedOpInterface> aggregates;
    getOperation()->walk(
        [&](linalg::AggregatedOpInterface op) { aggregates.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface op : aggregates) {
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
      if (failed(results)) {
        op->emitError() << "cannot decompose '" << op->getName() << "'";
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *results);
    }
    // Packs and unpacks (a data layout change of their own, with a padding
    // value) as the ops the rest of the pipeline knows; their tile sizes
    // must be static by now (constants folded by the canonicalization
    // before).
    SmallVector<Operation *> packs;
    getOperation()->walk([&](Operation *op) {
      if (isa<linalg::PackOp, linalg::UnPackOp>(op))
        packs.push_back(op);
    });
    for (Operation *op : packs) {
      rewriter.setInsertionPoint(op);
      bool lowered =
          isa<linalg::PackOp>(op)
              ? succeeded(linalg::lowerPack(rewriter, cast<linalg::PackOp>(op)))
              : succeeded(
                    linalg::lowerUnPack(rewriter, cast<linalg::UnPackOp>(op)));
      if (!lowered) {
        op->emitError() << "cannot lower '" << op->getName()
                        << "' to a pad, a reshape and a transpose (its "
                           "tile sizes and shapes must be static)";
        return signalPassFailure();
      }
    }
  }
};
} // namespace
