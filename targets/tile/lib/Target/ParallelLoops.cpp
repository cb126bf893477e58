//===- ParallelLoops.cpp - A program's own parallel loops unrolled --------===//
//
// A program may spread its work itself: an scf.forall over slices of its
// tensors, mapped to the cores (#strata.grid<"core">) or not. Every tile
// program already spreads its op over the whole grid, so the loop's
// iterations run one after another, each as the programs of its own ops
// on its slices: the loop becomes a nest of scf.for (its iterations are
// independent, any order computes the same), each fully unrolled, and
// the offsets, now constants, fold into static subviews, which the
// strided-view lowering copies (StridedViews.cpp). A loop of more
// iterations than kMaxIterations (each a sequence of programs) is refused
// with a message that names it.
//
//===----------------------------------------------------------------------===//
#include "FunctionLowering.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace strata;
using namespace strata::tile;

namespace {
/// The most iterations one loop may unroll to: each runs as programs of
/// its own, launched one after another.
constexpr int64_t kMaxIterations = 64;
} // namespace

LogicalResult strata::tile::unrollParallelLoops(func::FuncOp fn) {
  SmallVector<scf::ForallOp> loops;
  fn.walk([&](scf::ForallOp loop) { loops.push_back(loop); });
  if (loops.empty())
    return success();
  IRRewriter rewriter(fn.getContext());
  for (scf::ForallOp loop : loops) {
    if (loop.getNumResults() != 0)
      return loop.emitError()
             << "the tile target runs an scf.forall once it is on buffers; "
                "this one still yields tensors";
    std::optional<SmallVector<int64_t>> lower =
        getConstantIntValues(loop.getMixedLowerBound());
    std::optional<SmallVector<int64_t>> upper =
        getConstantIntValues(loop.getMixedUpperBound());
    std::optional<SmallVector<int64_t>> step =
        getConstantIntValues(loop.getMixedStep());
    if (!lower || !upper || !step)
      return loop.emitError() << "the tile target unrolls an scf.forall into "
                                 "its iterations; this one's bounds are not "
                                 "constants";
    int64_t iterations = 1;
    for (auto [l, u, s] : llvm::zip(*lower, *upper, *step))
      iterations *= s > 0 && u > l ? (u - l + s - 1) / s : 0;
    if (iterations > kMaxIterations)
      return loop.emitError()
             << "the tile target runs each iteration of an scf.forall as "
                "programs of its own (every program spreads over all the "
                "cores); this loop has "
             << iterations << " iterations, at most " << kMaxIterations;
    rewriter.setInsertionPoint(loop);
    SmallVector<Operation *> nest;
    if (failed(scf::forallToForLoop(rewriter, loop, &nest)))
      return loop.emitError() << "internal error: the tile target could not "
                                 "turn this scf.forall into loops";
    // Innermost first: unrolling an outer loop clones the inner ones.
    for (Operation *op : llvm::reverse(nest))
      if (failed(loopUnrollFull(cast<scf::ForOp>(op))))
        return fn.emitError() << "internal error: the tile target could not "
                                 "unroll an scf.forall";
  }
  // The iterations' offsets are constants now: fold them into the
  // subviews (and the casts that folding leaves into the ops).
  RewritePatternSet patterns(fn.getContext());
  memref::SubViewOp::getCanonicalizationPatterns(patterns, fn.getContext());
  memref::CastOp::getCanonicalizationPatterns(patterns, fn.getContext());
  affine::AffineApplyOp::getCanonicalizationPatterns(patterns, fn.getContext());
  if (failed(applyPatternsGreedily(fn, std::move(patterns))))
    return fn.emitError() << "internal error: the tile target's unrolled "
                             "loops did not fold";
  return success();
}
