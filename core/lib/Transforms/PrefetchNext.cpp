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
#include "strata/Dialect/Strata/IR/StrataDialect.h"
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

/// Whether the slice of the buffer that `loop`'s iteration reads (the first
/// view in `chain` that moves with `iv`) has a static size of at most
/// `limit` bytes.
bool fitsHalf(ArrayRef<Operation *> chain, Value iv, scf::ForOp loop,
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

/// The loads of one buffer in one multi-pass loop.
struct Reads {
  SmallVector<vector::LoadOp> loads;
};

struct PrefetchNext : strata::impl::StrataPrefetchNextBase<PrefetchNext> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!getHardwareAttr(module))
      return; // no chip (the reference lowering): nothing to decide from
    FailureOr<hw::Description> chip = descriptionOf(module);
    if (failed(chip))
      return signalPassFailure();
    int64_t largestCache = chip->largestCacheBytes();
    // The line is the alignment of the smallest cache.
    int64_t lineBytes = 0, smallest = 0;
    for (const hw::MemoryLevel &level : chip->memory)
      if (level.kind == "cache" &&
          (smallest == 0 || level.capacityBytes < smallest)) {
        smallest = level.capacityBytes;
        lineBytes = level.alignmentBytes;
      }
    // Prefetches go to the cache after the first (locality 2), and the next
    // slice must fit half of it next to the current one.
    SmallVector<int64_t> caches;
    for (const hw::MemoryLevel &level : chip->memory)
      if (level.kind == "cache")
        caches.push_back(level.capacityBytes);
    llvm::sort(caches);
    if (largestCache == 0 || lineBytes <= 0)
      return;
    sliceLimit = caches[std::min<size_t>(1, caches.size() - 1)] / 2;
    module.walk([&](func::FuncOp fn) {
      if (!fn.isExternal())
        prefetchIn(fn, largestCache, lineBytes);
    });
  }

  void prefetchIn(func::FuncOp fn, int64_t largestCache, int64_t lineBytes) {
    // (multi-pass loop, buffer) -> loads in the last pass that reads it.
    llvm::MapVector<std::pair<Operation *, Value>, Reads> plans;
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
          Value iv = loop.getInductionVar();
          bool moves = llvm::any_of(*chain, [&](Operation *view) {
            return movesWith(view, iv, loop);
          });
          if (!moves || !fitsHalf(*chain, iv, loop, sliceLimit))
            return;
          Reads &reads = plans[{loop.getOperation(), arg}];
          // Keep the loads of the last pass only.
          if (!reads.loads.empty() &&
              childOf(loop, reads.loads.front())
                  ->isBeforeInBlock(childOf(loop, load)))
            reads.loads.clear();
          if (reads.loads.empty() ||
              childOf(loop, reads.loads.front()) == childOf(loop, load))
            reads.loads.push_back(load);
          return;
        }
      });
    }
    DenseMap<Operation *, Value> nextOf;
    for (auto &[key, reads] : plans) {
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
      for (vector::LoadOp load : reads.loads)
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
