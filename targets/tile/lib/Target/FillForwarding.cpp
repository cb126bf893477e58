//===- FillForwarding.cpp - Fills next to the ops that accumulate ---------===//
//
// Bufferization shares one fill among the ops that accumulate into equal
// fills (CSE merged them) and copies the filled buffer where a second one
// is needed: `fill A; copy A -> B; matmul -> B; matmul -> A`. A tile
// program starts an accumulation from a fill right before it (the zero
// fill and its product; a row reduction's fill), so a copy of a buffer
// known to hold a fill becomes a fill of its own, every op that
// accumulates into a filled buffer gets a fill just before it, and a fill
// whose buffer is filled again before anything reads it goes. Views (a
// subview of an output) are tracked as well: a fill copied into a view
// and copied out again for an op that accumulates there (an iteration of
// a program's own parallel loop) is that fill, and a copy into a view
// that a later write replaces whole before anything reads it goes.
//
//===----------------------------------------------------------------------===//
#include "FunctionLowering.h"

using namespace mlir;
using namespace strata;
using namespace strata::tile;

namespace {
/// Whether `view` is all of its buffer (the buffer or a reshape of it).
bool isWhole(Value view) { return !isStridedView(view); }

/// The buffers `op` writes, or nullopt for an op whose writes are unknown.
std::optional<SmallVector<Value>> writesOf(Operation *op) {
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return SmallVector<Value>{bufferOf(copy.getTarget())};
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    SmallVector<Value> writes;
    for (Value init : linalgOp.getDpsInits())
      writes.push_back(bufferOf(init));
    return writes;
  }
  if (isViewOp(op) || isa<memref::AllocOp, memref::DeallocOp, arith::ConstantOp,
                          func::ReturnOp>(op))
    return SmallVector<Value>{};
  return std::nullopt;
}

/// Whether `op` (or an op nested in it) reads or writes buffer `buffer`
/// through any view.
bool touches(Operation *op, Value buffer) {
  WalkResult result = op->walk([&](Operation *inner) {
    bool uses = llvm::any_of(inner->getOperands(), [&](Value v) {
      return isa<MemRefType>(v.getType()) && bufferOf(v) == buffer;
    });
    return uses ? WalkResult::interrupt() : WalkResult::advance();
  });
  return result.wasInterrupted();
}
/// What `filled` is keyed by for `v`: its buffer when `v` is all of it,
/// else the view itself.
Value keyOf(Value v) { return isWhole(v) ? bufferOf(v) : v; }

/// Whether `op` writes every element of view `target` without reading its
/// buffer: a copy into exactly that view from another buffer, or a fill.
bool overwrites(Operation *op, Value target) {
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return copy.getTarget() == target &&
           bufferOf(copy.getSource()) != bufferOf(target);
  auto fill = dyn_cast<linalg::FillOp>(op);
  return fill && fill.hasPureBufferSemantics() &&
         keyOf(fill.getDpsInits()[0]) == keyOf(target);
}
} // namespace

void strata::tile::forwardFills(func::FuncOp fn) {
  Block &body = fn.getBody().front();
  // A buffer, or a view of one, -> the fill it holds.
  DenseMap<Value, linalg::FillOp> filled;
  SmallVector<linalg::FillOp> fills;
  OpBuilder builder(fn.getContext());
  auto forget = [&](Value buffer) {
    SmallVector<Value> keys;
    for (auto &entry : filled)
      if (bufferOf(entry.first) == buffer)
        keys.push_back(entry.first);
    for (Value key : keys)
      filled.erase(key);
  };
  for (Operation &op : llvm::make_early_inc_range(body)) {
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      auto it = filled.find(keyOf(copy.getSource()));
      if (it != filled.end()) {
        linalg::FillOp fill = it->second;
        Value target = copy.getTarget();
        forget(bufferOf(target));
        if (!isWhole(target)) {
          // A view of another buffer holds the fill now.
          filled[target] = fill;
          continue;
        }
        builder.setInsertionPoint(copy);
        auto copied = linalg::FillOp::create(builder, copy.getLoc(),
                                             fill.getInputs()[0], target);
        copy.erase();
        filled[bufferOf(target)] = copied;
        fills.push_back(copied);
        continue;
      }
    }
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (linalgOp && linalgOp.getNumReductionLoops() > 0 &&
        linalgOp.getNumDpsInits() == 1 && linalgOp.hasPureBufferSemantics() &&
        !isPaddingOp(&op)) {
      Value init = linalgOp.getDpsInits()[0];
      auto it = filled.find(bufferOf(init));
      auto before = dyn_cast_or_null<linalg::FillOp>(op.getPrevNode());
      bool adjacent = before && before.getDpsInits()[0] == init;
      if (it != filled.end() && isWhole(init) && !adjacent &&
          linalgOp.payloadUsesValueFromOperand(linalgOp.getDpsInitOperand(0))) {
        builder.setInsertionPoint(&op);
        fills.push_back(linalg::FillOp::create(
            builder, op.getLoc(), it->second.getInputs()[0], init));
      }
    }
    std::optional<SmallVector<Value>> writes = writesOf(&op);
    if (!writes) {
      filled.clear();
      continue;
    }
    for (Value buffer : *writes)
      forget(buffer);
    if (auto fill = dyn_cast<linalg::FillOp>(op);
        fill && fill.hasPureBufferSemantics() &&
        isWhole(fill.getDpsInits()[0])) {
      filled[bufferOf(fill.getDpsInits()[0])] = fill;
      fills.push_back(fill);
    }
  }
  // A write whose view is written whole again before any op reads its
  // buffer, or a fill that nothing reads at all (a temporary), has no
  // effect. Copies into views go first: a fill they copied may go then.
  SmallVector<memref::CopyOp> copies(body.getOps<memref::CopyOp>());
  for (memref::CopyOp copy : copies) {
    Value buffer = bufferOf(copy.getTarget());
    for (Operation *op = copy->getNextNode(); op; op = op->getNextNode()) {
      if (!touches(op, buffer) || isa<memref::DeallocOp>(op))
        continue;
      if (overwrites(op, copy.getTarget()))
        copy.erase();
      break;
    }
  }
  for (linalg::FillOp fill : fills) {
    Value buffer = bufferOf(fill.getDpsInits()[0]);
    bool dead = !isa<BlockArgument>(buffer);
    for (Operation *op = fill->getNextNode(); op; op = op->getNextNode()) {
      if (!touches(op, buffer) || isa<memref::DeallocOp>(op))
        continue;
      dead = overwrites(op, fill.getDpsInits()[0]);
      break;
    }
    if (dead)
      fill.erase();
  }
}
