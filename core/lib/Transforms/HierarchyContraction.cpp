//===- HierarchyContraction.cpp - Contractions the hierarchy path maps ----===//
#include "HierarchyContraction.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace strata;
using namespace strata::hierarchy;

bool hierarchy::allParallel(linalg::LinalgOp op) {
  return llvm::all_of(op.getIteratorTypesArray(), [](utils::IteratorType t) {
    return t == utils::IteratorType::parallel;
  });
}

bool hierarchy::indexes(AffineMap map, ArrayRef<unsigned> dims) {
  if (map.getNumResults() != dims.size())
    return false;
  for (auto [expr, d] : llvm::zip(map.getResults(), dims)) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || dim.getPosition() != d)
      return false;
  }
  return true;
}

/// Users of `buffer` other than `except` between `from` and `to` (same
/// block), or after `from` when `to` is null.
static bool usedBetween(Value buffer, Operation *from, Operation *to,
                        ArrayRef<Operation *> except) {
  for (Operation *user : buffer.getUsers()) {
    if (llvm::is_contained(except, user) || user == from || user == to)
      continue;
    if (user->getBlock() != from->getBlock())
      return true;
    if (from->isBeforeInBlock(user) && (!to || user->isBeforeInBlock(to)))
      return true;
  }
  return false;
}

FailureOr<Contraction> hierarchy::matchContraction(linalg::LinalgOp op) {
  if (!linalg::isaContractionOpInterface(op) || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !op.hasPureBufferSemantics())
    return failure();
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || !dims->batch.empty() || dims->m.size() != 1 ||
      dims->n.size() != 1 || dims->k.size() != 1)
    return failure();
  Contraction c{op,      dims->m[0], dims->n[0], dims->k[0], nullptr, nullptr,
                nullptr, nullptr,    nullptr,    0,          0,       0};
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  c.c = op.getDpsInitOperand(0);
  if (!indexes(maps[2], {c.m, c.n}))
    return failure();
  // Either input may be the m x k one.
  for (int i = 0; i < 2; ++i) {
    OpOperand *x = op.getDpsInputOperand(i), *y = op.getDpsInputOperand(1 - i);
    if (indexes(maps[i], {c.m, c.k}) && indexes(maps[1 - i], {c.k, c.n}))
      c.a = x, c.b = y;
    else if (indexes(maps[i], {c.m, c.k}) && indexes(maps[1 - i], {c.n, c.k}))
      c.a = x, c.b = y; // B transposed: loads go through its map
    else if (indexes(maps[i], {c.k, c.m}) && indexes(maps[1 - i], {c.k, c.n}))
      c.a = x, c.b = y;
  }
  if (!c.a)
    return failure();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  c.extentM = ranges[c.m], c.extentN = ranges[c.n], c.extentK = ranges[c.k];
  Value out = c.c->get();
  // A zero fill right before, with no reader in between.
  for (Operation *user : out.getUsers()) {
    auto fill = dyn_cast<linalg::FillOp>(user);
    if (!fill || fill->getBlock() != op->getBlock() ||
        !fill->isBeforeInBlock(op) ||
        !matchPattern(fill.getInputs()[0], m_AnyZeroFloat()) ||
        usedBetween(out, fill, op, {}))
      continue;
    c.fill = fill;
  }
  // The next op that touches C, when it is elementwise over C and reads C
  // at the same element: its body runs on the accumulators before the store.
  // C itself is then never written, so it must be a temporary nothing else
  // reads, or the consumer's own output (an in-place epilogue).
  linalg::LinalgOp consumer;
  for (Operation *user : out.getUsers())
    if (user != op && user->getBlock() == op->getBlock() &&
        op->isBeforeInBlock(user) &&
        (!consumer || user->isBeforeInBlock(consumer)))
      consumer = dyn_cast<linalg::LinalgOp>(user);
  if (consumer && allParallel(consumer) && consumer.getNumLoops() == 2 &&
      consumer.getNumDpsInits() == 1 && consumer.hasPureBufferSemantics() &&
      consumer.getMatchingIndexingMap(consumer.getDpsInitOperand(0))
          .isIdentity() &&
      consumer.getStaticLoopRanges() ==
          SmallVector<int64_t>{c.extentM, c.extentN}) {
    bool ok = true, inPlace = consumer.getDpsInitOperand(0)->get() == out;
    for (OpOperand &use : out.getUses())
      if (use.getOwner() == consumer &&
          !consumer.getMatchingIndexingMap(&use).isIdentity())
        ok = false;
    if (!inPlace) {
      bool temporary = out.getDefiningOp<memref::AllocOp>() != nullptr;
      SmallVector<Operation *> known = {op, consumer};
      if (c.fill)
        known.push_back(c.fill);
      for (Operation *user : out.getUsers())
        if (!llvm::is_contained(known, user) && !isa<memref::DeallocOp>(user))
          temporary = false;
      ok &= temporary;
    }
    if (ok)
      c.epilogue = consumer;
  }
  return c;
}
