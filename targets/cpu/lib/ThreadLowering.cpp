//===- ThreadLowering.cpp - Compute grids to CPU threads ------------------===//
//
// An `scf.forall` mapped to `#strata.grid<"core">` has one iteration per core
// of the description and independent iterations (docs/architecture.md, "The mapped IR"). On the host
// it becomes
//
//   omp.parallel num_threads(<trip count>) {
//     omp.wsloop { omp.loop_nest (%i) = (lb) to (ub) step (s) { body } }
//   }
//
// so each core's iteration runs on its own thread; the static schedule of the
// work-sharing loop keeps the result right if the runtime grants fewer
// threads. Built directly rather than through scf-forall-to-parallel and
// convert-scf-to-openmp: that pass converts every scf.parallel in the module
// with one thread count for all of them, and wraps bodies in
// memref.alloca_scope, which the host lowering's scf-to-cf (before the memref
// lowering) turns into an invalid multi-block scope.
//
//===----------------------------------------------------------------------===//
#include "ThreadLowering.h"

#include "strata/Dialect/Strata/IR/StrataDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace mlir;

namespace {

/// A forall on buffers (no results) over grid levels.
bool isGridLoopOnBuffers(scf::ForallOp forall) {
  return forall.getNumResults() == 0 && strata::cpu::isGridLoop(forall);
}

/// The number of iterations of `forall` (at least 1), as an i32 for the
/// num_threads clause; a constant when the bounds are.
Value buildThreadCount(OpBuilder &b, Location loc, scf::ForallOp forall) {
  int64_t staticCount = 1;
  Value dynamicCount;
  for (auto [lb, ub, step] :
       llvm::zip_equal(forall.getMixedLowerBound(), forall.getMixedUpperBound(),
                       forall.getMixedStep())) {
    std::optional<int64_t> l = getConstantIntValue(lb);
    std::optional<int64_t> u = getConstantIntValue(ub);
    std::optional<int64_t> s = getConstantIntValue(step);
    if (l && u && s && *s > 0) {
      staticCount *= std::max<int64_t>((*u - *l + *s - 1) / *s, 0);
      continue;
    }
    Value extent = arith::SubIOp::create(
        b, loc, getValueOrCreateConstantIndexOp(b, loc, ub),
        getValueOrCreateConstantIndexOp(b, loc, lb));
    Value count = arith::CeilDivSIOp::create(
        b, loc, extent, getValueOrCreateConstantIndexOp(b, loc, step));
    dynamicCount = dynamicCount
                       ? arith::MulIOp::create(b, loc, dynamicCount, count)
                       : count;
  }
  if (!dynamicCount)
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                        std::max<int64_t>(staticCount, 1));
  if (staticCount != 1)
    dynamicCount = arith::MulIOp::create(
        b, loc, dynamicCount,
        arith::ConstantIndexOp::create(b, loc, staticCount));
  dynamicCount = arith::MaxSIOp::create(
      b, loc, dynamicCount, arith::ConstantIndexOp::create(b, loc, 1));
  return arith::IndexCastOp::create(b, loc, b.getI32Type(), dynamicCount);
}

/// Replaces `forall` by a parallel region running its iterations on threads.
void convertToThreads(IRRewriter &rewriter, scf::ForallOp forall) {
  Location loc = forall.getLoc();
  rewriter.setInsertionPoint(forall);
  omp::ParallelOperands parallelClauses;
  parallelClauses.numThreads = buildThreadCount(rewriter, loc, forall);
  omp::LoopNestOperands nestClauses;
  nestClauses.loopLowerBounds = forall.getLowerBound(rewriter);
  nestClauses.loopUpperBounds = forall.getUpperBound(rewriter);
  nestClauses.loopSteps = forall.getStep(rewriter);
  // A multi-dimensional grid is one iteration space shared by the team.
  if (forall.getRank() > 1)
    nestClauses.collapseNumLoops = rewriter.getI64IntegerAttr(forall.getRank());

  auto parallel = omp::ParallelOp::create(rewriter, loc, parallelClauses);
  rewriter.createBlock(&parallel.getRegion());
  // Stack buffers of static size at the top of the body (StackBuffers.h)
  // are made once per thread, before the work-sharing loop: a thread given
  // several iterations reuses them instead of growing its stack each time.
  while (auto alloca = dyn_cast<memref::AllocaOp>(forall.getBody()->front())) {
    if (alloca->getNumOperands() != 0)
      break;
    rewriter.moveOpBefore(alloca, rewriter.getInsertionBlock(),
                          rewriter.getInsertionPoint());
  }
  auto wsloop = omp::WsloopOp::create(rewriter, loc, omp::WsloopOperands());
  omp::TerminatorOp::create(rewriter, loc);
  rewriter.createBlock(&wsloop.getRegion());
  auto nest = omp::LoopNestOp::create(rewriter, loc, nestClauses);
  SmallVector<Type> ivTypes(forall.getRank(), rewriter.getIndexType());
  SmallVector<Location> ivLocs(forall.getRank(), loc);
  Block *body = rewriter.createBlock(&nest.getRegion(), {}, ivTypes, ivLocs);

  // On buffers the body's terminator (scf.forall.in_parallel) is empty.
  rewriter.eraseOp(forall.getTerminator());
  rewriter.mergeBlocks(forall.getBody(), body, body->getArguments());
  rewriter.setInsertionPointToEnd(body);
  omp::YieldOp::create(rewriter, loc);
  rewriter.eraseOp(forall);
}

struct GridToThreadsPass
    : PassWrapper<GridToThreadsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(GridToThreadsPass)

  StringRef getArgument() const final { return "strata-cpu-grid-to-threads"; }
  StringRef getDescription() const final {
    return "scf.forall mapped to #strata.grid levels to OpenMP threads, one "
           "thread per iteration";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, omp::OpenMPDialect>();
  }

  void runOnOperation() override {
    // Outermost grid loops only: a grid loop nested in a threaded one runs
    // sequentially on its thread (the host lowering turns it into loops).
    SmallVector<scf::ForallOp> threaded;
    getOperation()->walk<WalkOrder::PreOrder>([&](scf::ForallOp forall) {
      if (!isGridLoopOnBuffers(forall))
        return WalkResult::advance();
      threaded.push_back(forall);
      return WalkResult::skip();
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp forall : threaded)
      convertToThreads(rewriter, forall);
  }
};

} // namespace

bool strata::cpu::isGridLoop(scf::ForallOp forall) {
  std::optional<ArrayAttr> mapping = forall.getMapping();
  return mapping && !mapping->empty() &&
         llvm::all_of(*mapping, [](Attribute attr) {
           return isa<strata::GridAttr>(attr);
         });
}

void strata::cpu::buildThreadLoweringPipeline(OpPassManager &pm) {
  pm.addPass(std::make_unique<GridToThreadsPass>());
}

// strata-opt finds the pass and the pipeline in this (static) plugin's
// registry entries. A loadable build of the plugin registers nothing: its
// tools call buildLoweringPipeline directly.
#ifndef STRATA_PLUGIN_MODULE
static PassRegistration<GridToThreadsPass> gridToThreadsPass;
static PassPipelineRegistration<> threadsPipeline(
    "strata-cpu-threads",
    "The cpu plugin's thread lowering: scf.forall loops mapped to "
    "#strata.grid levels to omp.parallel + omp.wsloop",
    strata::cpu::buildThreadLoweringPipeline);
#endif
