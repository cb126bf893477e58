//===- PrefetchNext.cpp - Fetch the next slice while this one computes ----===//
//
// A sequential loop whose body makes several passes over one slice of a
// buffer (a row of a softmax or a layernorm: a reduction pass, then passes
// that use its result) reads the slice from memory in its first pass and
// from the caches afterwards. The hardware prefetcher follows the reads, so
// it stops when the passes that only compute begin: memory idles while the
// core computes, then the core waits for the next slice. When the buffer is
// larger than the chip's largest cache (so its slices come from memory), the
// last pass that reads the slice also prefetches the next iteration's slice
// into the caches, one prefetch per cache line it reads, and the transfer
// overlaps the computation. On the last iteration the current slice is
// prefetched again (harmless) so that no address leaves the buffer.
//
//===----------------------------------------------------------------------===//
#include "strata/Schedule/Attributes.h"
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"

namespace strata {
#define GEN_PASS_DEF_STRATAPREFETCHNEXT
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;
using namespace strata;

namespace {
/// The views from `root` to `value` (outermost first) when `value` is a view
/// of `root` built by view ops only; nullopt otherwise.
std::optional<SmallVector<Operation *>> viewChain(Value value, Value root) {
  SmallVector<Operation *> chain;
  while (value != root) {
    auto view = value.getDefiningOp<ViewLikeOpInterface>();
    if (!view)
      return std::nullopt;
    chain.push_back(view);
    value = view.getViewSource();
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

/// Whether `value` is computed from `iv` by ops inside `loop`.
bool dependsOn(Value value, Value iv, scf::ForOp loop, int depth = 0) {
  if (value == iv)
    return true;
  Operation *op = value.getDefiningOp();
  if (!op || depth > 16 || !loop->isProperAncestor(op))
    return false;
  return llvm::any_of(op->getOperands(), [&](Value operand) {
    return dependsOn(operand, iv, loop, depth + 1);
  });
}

/// Whether an operand of `view` is computed from `iv` inside `loop`.
bool movesWith(Operation *view, Value iv, scf::ForOp loop) {
  return llvm::any_of(view->getOperands(), [&](Value operand) {
    return dependsOn(operand, iv, loop);
  });
}

/// Whether the iterations of `loop` read different slices of the buffer
/// through `chain` (a view in it moves with `iv`), and the slice (the first
/// such view) has a static size of at most `limit` bytes.
bool movingSliceFits(ArrayRef<Operation *> chain, Value iv, scf::ForOp loop,
                     int64_t limit) {
  for (Operation *view : chain) {
    if (!movesWith(view, iv, loop))
      continue;
    auto type = dyn_cast<MemRefType>(view->getResult(0).getType());
    return type && type.hasStaticShape() &&
           type.getNumElements() * type.getElementTypeBitWidth() / 8 <= limit;
  }
  return false;
}

/// The direct child of `loop`'s body that contains `op`.
Operation *childOf(scf::ForOp loop, Operation *op) {
  while (op && op->getParentOp() != loop.getOperation())
    op = op->getParentOp();
  return op;
}

struct PrefetchNext : strata::impl::StrataPrefetchNextBase<PrefetchNext> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<std::optional<hw::Description>> chip =
        attachedDescription(module);
    if (failed(chip))
      return signalPassFailure();
    if (!*chip)
      return;
    // The caches, smallest first: the line is the first's alignment, the
    // prefetches go to the second (locality 2), where the next slice must
    // fit in half next to the current one.
    SmallVector<const hw::MemoryLevel *> caches;
    for (const hw::MemoryLevel &level : (*chip)->memory)
      if (level.kind == "cache")
        caches.push_back(&level);
    llvm::sort(caches, [](const hw::MemoryLevel *a, const hw::MemoryLevel *b) {
      return a->capacityBytes < b->capacityBytes;
    });
    if (caches.empty() || caches.front()->alignmentBytes <= 0)
      return;
    int64_t lineBytes = caches.front()->alignmentBytes;
    int64_t largestCache = caches.back()->capacityBytes;
    sliceLimit =
        caches[std::min<size_t>(1, caches.size() - 1)]->capacityBytes / 2;
    module.walk([&](func::FuncOp fn) {
      if (!fn.isExternal())
        prefetchIn(fn, largestCache, lineBytes);
    });
  }

  void prefetchIn(func::FuncOp fn, int64_t largestCache, int64_t lineBytes) {
    // (multi-pass loop, buffer) -> loads in the last pass that reads it.
    llvm::MapVector<std::pair<Operation *, Value>, SmallVector<vector::LoadOp>>
        plans;
    for (BlockArgument arg : fn.getArguments()) {
      auto type = dyn_cast<MemRefType>(arg.getType());
      if (!type || !type.hasStaticShape() ||
          !type.getElementType().isIntOrFloat() ||
          type.getNumElements() * type.getElementTypeBitWidth() / 8 <=
              largestCache)
        continue;
      fn.walk([&](vector::LoadOp load) {
        std::optional<SmallVector<Operation *>> chain =
            viewChain(load.getBase(), arg);
        if (!chain)
          return;
        // The innermost loop around the load whose body holds several
        // loops (passes) and whose iterations read different slices.
        for (auto loop = load->getParentOfType<scf::ForOp>(); loop;
             loop = loop->getParentOfType<scf::ForOp>()) {
          auto passes = loop.getBody()->getOps<scf::ForOp>();
          if (std::distance(passes.begin(), passes.end()) < 2)
            continue;
          if (!movingSliceFits(*chain, loop.getInductionVar(), loop,
                               sliceLimit))
            return;
          SmallVector<vector::LoadOp> &loads =
              plans[{loop.getOperation(), arg}];
          // Keep the loads of the last pass only.
          if (!loads.empty() && childOf(loop, loads.front())
                                    ->isBeforeInBlock(childOf(loop, load)))
            loads.clear();
          if (loads.empty() ||
              childOf(loop, loads.front()) == childOf(loop, load))
            loads.push_back(load);
          return;
        }
      });
    }
    DenseMap<Operation *, Value> nextOf;
    for (auto &[key, loads] : plans) {
      auto loop = cast<scf::ForOp>(key.first);
      Value &next = nextOf[loop];
      if (!next) {
        // next = iv + step < ub ? iv + step : iv
        OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
        Location loc = loop.getLoc();
        Value iv = loop.getInductionVar();
        Value ahead = arith::AddIOp::create(b, loc, iv, loop.getStep());
        Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                             ahead, loop.getUpperBound());
        next = arith::SelectOp::create(b, loc, inside, ahead, iv);
      }
      for (vector::LoadOp load : loads)
        prefetchNext(load, loop, next, lineBytes);
    }
  }

  /// Prefetches the lines `load` reads, in the slice of `loop`'s next
  /// iteration (`next`): the views made inside `loop` are
  /// rebuilt with `next` for the induction variable.
  void prefetchNext(vector::LoadOp load, scf::ForOp loop, Value next,
                    int64_t lineBytes) {
    MemRefType type = load.getMemRefType();
    SmallVector<int64_t> strides;
    int64_t offset;
    VectorType vector = load.getVectorType();
    if (failed(type.getStridesAndOffset(strides, offset)) || strides.empty() ||
        strides.back() != 1 || vector.getRank() != 1)
      return;
    int64_t elementBytes = type.getElementTypeBitWidth() / 8;
    int64_t lineElements = std::max<int64_t>(1, lineBytes / elementBytes);
    OpBuilder b(load);
    Location loc = load.getLoc();
    IRMapping map;
    map.map(loop.getInductionVar(), next);
    // Rebuild every op inside the loop that the views use, in order.
    SmallVector<Operation *> toClone;
    std::function<void(Value)> collect = [&](Value value) {
      Operation *op = value.getDefiningOp();
      if (!op || !loop->isProperAncestor(op) || llvm::is_contained(toClone, op))
        return;
      if (!isa<ViewLikeOpInterface>(op) &&
          !dependsOn(value, loop.getInductionVar(), loop))
        return;
      for (Value operand : op->getOperands())
        collect(operand);
      toClone.push_back(op);
    };
    collect(load.getBase());
    for (Operation *op : toClone)
      b.clone(*op, map);
    Value base = map.lookupOrDefault(load.getBase());
    SmallVector<Value> indices(load.getIndices());
    for (int64_t at = 0; at < vector.getNumElements(); at += lineElements) {
      SmallVector<Value> lineIndices = indices;
      if (at > 0)
        lineIndices.back() = arith::AddIOp::create(
            b, loc, indices.back(), arith::ConstantIndexOp::create(b, loc, at));
      memref::PrefetchOp::create(b, loc, base, lineIndices, /*isWrite=*/false,
                                 /*localityHint=*/prefetchLocality,
                                 /*isDataCache=*/true);
    }
  }

  static constexpr uint32_t prefetchLocality = 2;
  int64_t sliceLimit = 0;
};
} // namespace
