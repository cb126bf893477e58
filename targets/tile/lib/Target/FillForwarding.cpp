//===- FillForwarding.cpp - Fills next to the ops that accumulate ---------===//
//
// Bufferization shares one fill among the ops that accumulate into equal
// fills (CSE merged them) and copies the filled buffer where a second one
// is needed: `fill A; copy A -> B; matmul -> B; matmul -> A`. A tile
// program starts an accumulation from a fill right before it (the zero
// fill and its product; a row reduction's fill), so a copy of a buffer
// known to hold a fill becomes a fill of its own, every op that
// accumulates into a filled buffer gets a fill just before it, and a fill
// whose buffer is filled again before anything reads it goes.
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
  if (isa<memref::AllocOp, memref::DeallocOp, memref::SubViewOp,
          memref::ExpandShapeOp, memref::CollapseShapeOp, arith::ConstantOp,
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
} // namespace

void strata::tile::forwardFills(func::FuncOp fn) {
  Block &body = fn.getBody().front();
  DenseMap<Value, linalg::FillOp> filled; // buffer -> the fill it holds
  SmallVector<linalg::FillOp> fills;
  OpBuilder builder(fn.getContext());
  for (Operation &op : llvm::make_early_inc_range(body)) {
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      auto it = filled.find(bufferOf(copy.getSource()));
      if (it != filled.end() && isWhole(copy.getSource()) &&
          isWhole(copy.getTarget())) {
        builder.setInsertionPoint(copy);
        auto fill =
            linalg::FillOp::create(builder, copy.getLoc(),
                                   it->second.getInputs()[0], copy.getTarget());
        copy.erase();
        filled[bufferOf(fill.getDpsInits()[0])] = fill;
        fills.push_back(fill);
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
      filled.erase(buffer);
    if (auto fill = dyn_cast<linalg::FillOp>(op);
        fill && fill.hasPureBufferSemantics() &&
        isWhole(fill.getDpsInits()[0])) {
      filled[bufferOf(fill.getDpsInits()[0])] = fill;
      fills.push_back(fill);
    }
  }
  // A fill whose buffer is filled whole again before any op reads it, or
  // that nothing reads at all (a temporary), has no effect.
  for (linalg::FillOp fill : fills) {
    Value buffer = bufferOf(fill.getDpsInits()[0]);
    bool dead = !isa<BlockArgument>(buffer);
    for (Operation *op = fill->getNextNode(); op; op = op->getNextNode()) {
      if (!touches(op, buffer) || isa<memref::DeallocOp>(op))
        continue;
      auto again = dyn_cast<linalg::FillOp>(op);
      dead = again && isWhole(again.getDpsInits()[0]);
      break;
    }
    if (dead)
      fill.erase();
  }
}
