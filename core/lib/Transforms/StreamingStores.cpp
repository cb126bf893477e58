//===- StreamingStores.cpp - Stores that bypass the caches ----------------===//
//
// A function that only writes a buffer, and whose buffer is larger than the
// largest cache of its chip, gains nothing from the caches on those stores:
// nothing reads the data back while it could still be there. A normal store
// first reads each line it writes (to own it), one extra pass over memory;
// a non-temporal store writes whole lines without reading them. Vector
// stores into such a buffer are marked `nontemporal`, which the target's
// backend lowers to its streaming store where it has one (and to a plain
// store otherwise, e.g. when the address is not aligned).
//
// Streaming stores are weakly ordered: another thread (the one that joins a
// parallel loop) may not see them until a full fence. One follows each
// outermost sequential loop nest that contains such stores, so the fence
// runs once per nest and before any synchronization after it.
//
// The calling convention does not promise aligned buffers, and a backend
// lowers a streaming store it cannot prove aligned element by element
// (x86: scalar `movntsd` and shuffles, slower than the read it saves). So
// each such nest runs in two versions: when the buffers it streams into are
// aligned to the vector width (the runtime's allocations are), a copy whose
// stores carry the alignment their offsets prove (a divisibility analysis of
// indices, loop steps and view offsets); the original, with plain stores,
// otherwise. A nest none of whose stores can be proven aligned keeps one
// version.
//
//===----------------------------------------------------------------------===//
#include "strata/Schedule/Attributes.h"
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <numeric>

namespace strata {
#define GEN_PASS_DEF_STRATASTREAMINGSTORES
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;
using namespace strata;

namespace {
/// The vector stores into `buffer` (through views of it), if the function
/// does nothing else with it than store; nullopt otherwise.
std::optional<SmallVector<vector::StoreOp>> onlyStoredTo(Value buffer) {
  SmallVector<vector::StoreOp> stores;
  SmallVector<Value> worklist{buffer};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto store = dyn_cast<vector::StoreOp>(user);
          store && use.get() == store.getBase()) {
        stores.push_back(store);
        continue;
      }
      if (auto store = dyn_cast<memref::StoreOp>(user);
          store && use.get() == store.getMemRef())
        continue;
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == value) {
        for (Value result : user->getResults())
          worklist.push_back(result);
        continue;
      }
      return std::nullopt;
    }
  }
  return stores;
}

/// The outermost op around `op` reached through sequential loops and
/// conditionals only (stopping below a parallel loop, a function...).
Operation *outermostSequential(Operation *op) {
  while (
      isa_and_nonnull<scf::ForOp, scf::IfOp, scf::WhileOp>(op->getParentOp()))
    op = op->getParentOp();
  return op;
}

constexpr uint64_t kAnyMultiple = uint64_t(1) << 40;

/// What a constant index is a multiple of (zero: of everything).
uint64_t multipleOf(int64_t constant) {
  return constant == 0 ? kAnyMultiple
                       : static_cast<uint64_t>(std::abs(constant));
}

uint64_t times(uint64_t a, uint64_t b) {
  return a >= kAnyMultiple / std::max<uint64_t>(b, 1) ? kAnyMultiple : a * b;
}

/// A number that the index `value` is always a multiple of (kAnyMultiple for
/// zero), from constants, loop bounds and steps, and integer arithmetic.
uint64_t knownMultiple(Value value, int depth = 0) {
  if (depth > 16)
    return 1;
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return multipleOf(*constant);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg != loop.getInductionVar())
      return 1;
    return std::gcd(knownMultiple(loop.getLowerBound(), depth + 1),
                    knownMultiple(loop.getStep(), depth + 1));
  }
  Operation *op = value.getDefiningOp();
  if (isa<arith::AddIOp, arith::SubIOp>(op))
    return std::gcd(knownMultiple(op->getOperand(0), depth + 1),
                    knownMultiple(op->getOperand(1), depth + 1));
  if (isa<arith::MulIOp>(op))
    return times(knownMultiple(op->getOperand(0), depth + 1),
                 knownMultiple(op->getOperand(1), depth + 1));
  if (isa<arith::IndexCastOp>(op))
    return knownMultiple(op->getOperand(0), depth + 1);
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
    AffineMap map = apply.getAffineMap();
    std::function<uint64_t(AffineExpr)> of = [&](AffineExpr expr) -> uint64_t {
      if (auto c = dyn_cast<AffineConstantExpr>(expr))
        return multipleOf(c.getValue());
      if (auto d = dyn_cast<AffineDimExpr>(expr))
        return knownMultiple(apply.getMapOperands()[d.getPosition()],
                             depth + 1);
      if (auto s = dyn_cast<AffineSymbolExpr>(expr))
        return knownMultiple(
            apply.getMapOperands()[map.getNumDims() + s.getPosition()],
            depth + 1);
      auto binary = cast<AffineBinaryOpExpr>(expr);
      if (expr.getKind() == AffineExprKind::Add)
        return std::gcd(of(binary.getLHS()), of(binary.getRHS()));
      if (expr.getKind() == AffineExprKind::Mul)
        return times(of(binary.getLHS()), of(binary.getRHS()));
      return 1;
    };
    return map.getNumResults() == 1 ? of(map.getResult(0)) : 1;
  }
  return 1;
}

uint64_t indexMultiple(OpFoldResult index) {
  if (std::optional<int64_t> constant = getConstantIntValue(index))
    return multipleOf(*constant);
  return knownMultiple(cast<Value>(index));
}

/// A number of elements that the offset of `view` from the start of one of
/// `buffers` is always a multiple of; 1 when unknown.
uint64_t offsetMultiple(Value view, ArrayRef<Value> buffers) {
  if (llvm::is_contained(buffers, view))
    return kAnyMultiple;
  Operation *op = view.getDefiningOp();
  if (isa_and_nonnull<memref::CollapseShapeOp, memref::ExpandShapeOp,
                      memref::CastOp>(op))
    return offsetMultiple(op->getOperand(0), buffers);
  auto subview = dyn_cast_or_null<memref::SubViewOp>(op);
  if (!subview)
    return 1;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(subview.getSourceType().getStridesAndOffset(strides, offset)))
    return 1;
  uint64_t multiple = offsetMultiple(subview.getSource(), buffers);
  for (auto [first, stride] :
       llvm::zip_equal(subview.getMixedOffsets(), strides)) {
    if (ShapedType::isDynamic(stride))
      return 1;
    multiple =
        std::gcd(multiple, times(indexMultiple(first),
                                 static_cast<uint64_t>(std::abs(stride))));
  }
  return multiple;
}

/// The alignment in bytes (at most `align`) that `store` is proven to have
/// when each of `buffers` starts at an `align`-byte boundary.
int64_t provenAlignment(vector::StoreOp store, ArrayRef<Value> buffers,
                        int64_t align) {
  MemRefType type = store.getMemRefType();
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return 1;
  uint64_t multiple = offsetMultiple(store.getBase(), buffers);
  for (auto [index, stride] : llvm::zip_equal(store.getIndices(), strides)) {
    if (ShapedType::isDynamic(stride))
      return 1;
    multiple =
        std::gcd(multiple, times(knownMultiple(index),
                                 static_cast<uint64_t>(std::abs(stride))));
  }
  uint64_t bytes =
      times(multiple, type.getElementType().getIntOrFloatBitWidth() / 8);
  return static_cast<int64_t>(
      std::min<uint64_t>(align, bytes & (~bytes + 1))); // lowest set bit
}

/// Runs `nest` in two versions (see the file comment) when `buffers`
/// being `align`-byte aligned proves some of its streaming stores aligned
/// to `align`: that copy when they are, the original with plain stores
/// otherwise. Returns the op the nest now is.
Operation *versionOnAlignment(Operation *nest, ArrayRef<Value> buffers,
                              int64_t align) {
  // The proven alignment of each store, in walk order (the copy's stores
  // are walked in the same order).
  SmallVector<int64_t> proven;
  nest->walk([&](vector::StoreOp store) {
    proven.push_back(
        store.getNontemporal() ? provenAlignment(store, buffers, align) : 0);
  });
  if (!llvm::is_contained(proven, align))
    return nest;
  OpBuilder b(nest);
  Location loc = nest->getLoc();
  Value mask = arith::ConstantIndexOp::create(b, loc, align - 1);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value aligned;
  for (Value buffer : buffers) {
    Value address =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
    Value low = arith::AndIOp::create(b, loc, address, mask);
    Value isAligned =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, low, zero);
    aligned =
        aligned ? arith::AndIOp::create(b, loc, aligned, isAligned) : isAligned;
  }
  auto versions = scf::IfOp::create(
      b, loc, aligned,
      [&](OpBuilder &then, Location loc) {
        Operation *copy = then.clone(*nest);
        unsigned next = 0;
        copy->walk([&](vector::StoreOp store) {
          if (int64_t alignment = proven[next++]; alignment > 1)
            store.setAlignment(static_cast<uint64_t>(alignment));
        });
        scf::YieldOp::create(then, loc, copy->getResults());
      },
      [&](OpBuilder &otherwise, Location loc) {
        Operation *copy = otherwise.clone(*nest);
        copy->walk([](vector::StoreOp store) { store.setNontemporal(false); });
        scf::YieldOp::create(otherwise, loc, copy->getResults());
      });
  nest->replaceAllUsesWith(versions.getResults());
  nest->erase();
  return versions;
}

struct StreamingStores
    : strata::impl::StrataStreamingStoresBase<StreamingStores> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<std::optional<hw::Description>> chip =
        attachedDescription(module);
    if (failed(chip))
      return signalPassFailure();
    if (!*chip)
      return;
    int64_t largestCache = (*chip)->largestCacheBytes();
    if (largestCache == 0)
      return;
    int64_t vectorBytes = (*chip)->vector ? (*chip)->vector->widthBits / 8 : 0;
    // The nests holding streaming stores, in order, with the buffers they
    // stream into.
    llvm::MapVector<Operation *, llvm::SetVector<Value>> nests;
    module.walk([&](func::FuncOp fn) {
      if (fn.isExternal())
        return;
      for (BlockArgument arg : fn.getArguments()) {
        auto type = dyn_cast<MemRefType>(arg.getType());
        if (!type || !type.hasStaticShape() ||
            !type.getElementType().isIntOrFloat())
          continue;
        int64_t bytes = type.getNumElements() *
                        type.getElementType().getIntOrFloatBitWidth() / 8;
        if (bytes <= largestCache)
          continue;
        std::optional<SmallVector<vector::StoreOp>> stores = onlyStoredTo(arg);
        if (!stores)
          continue;
        for (vector::StoreOp store : *stores) {
          store.setNontemporal(true);
          nests[outermostSequential(store)].insert(arg);
        }
      }
    });
    for (auto &[nest, buffers] : nests) {
      Operation *streaming = nest;
      if (vectorBytes > 1)
        streaming =
            versionOnAlignment(nest, buffers.getArrayRef(), vectorBytes);
      OpBuilder b(streaming->getContext());
      b.setInsertionPointAfter(streaming);
      LLVM::FenceOp::create(b, streaming->getLoc(),
                            LLVM::AtomicOrdering::seq_cst);
    }
  }
};
} // namespace
