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

bool hierarchy::usedBetween(Value buffer, Operation *from, Operation *to,
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
  if (failed(dims) || dims->k.size() != 1)
    return failure();
  // C names the loops: batch loops (every leading one: a loop of C and of
  // one input only, whose other input is broadcast over it, counts as a
  // batch loop too), then m and n.
  Contraction c;
  c.op = op;
  c.k = dims->k[0];
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  c.c = op.getDpsInitOperand(0);
  AffineMap cMap = maps[2];
  if (cMap.getNumResults() < 2 || cMap.getNumResults() + 1 != op.getNumLoops())
    return failure();
  SmallVector<unsigned> cDims;
  for (AffineExpr e : cMap.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim || dim.getPosition() == c.k ||
        llvm::is_contained(cDims, dim.getPosition()))
      return failure();
    cDims.push_back(dim.getPosition());
  }
  c.m = cDims[cDims.size() - 2], c.n = cDims.back();
  c.batch.assign(cDims.begin(), cDims.end() - 2);
  // The loops an input indexes other than batch loops, when they are all
  // plain loops.
  auto matrixDims = [&](AffineMap map) -> std::optional<SmallVector<unsigned>> {
    SmallVector<unsigned> out;
    for (AffineExpr e : map.getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (!dim)
        return std::nullopt;
      if (!llvm::is_contained(c.batch, dim.getPosition()))
        out.push_back(dim.getPosition());
    }
    return out;
  };
  // Either input may be the m x k one.
  for (int i = 0; i < 2; ++i) {
    OpOperand *x = op.getDpsInputOperand(i), *y = op.getDpsInputOperand(1 - i);
    std::optional<SmallVector<unsigned>> dx = matrixDims(maps[i]),
                                         dy = matrixDims(maps[1 - i]);
    if (!dx || !dy)
      return failure();
    using D = SmallVector<unsigned>;
    if (*dx == D{c.m, c.k} && *dy == D{c.k, c.n})
      c.a = x, c.b = y;
    else if (*dx == D{c.m, c.k} && *dy == D{c.n, c.k})
      c.a = x, c.b = y; // B transposed: loads go through its map
    else if (*dx == D{c.k, c.m} && *dy == D{c.k, c.n})
      c.a = x, c.b = y;
  }
  if (!c.a)
    return failure();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  c.extentM = ranges[c.m], c.extentN = ranges[c.n], c.extentK = ranges[c.k];
  for (unsigned d : c.batch) {
    c.batchExtents.push_back(ranges[d]);
    c.extentBatch =
        ShapedType::isDynamic(ranges[d]) || ShapedType::isDynamic(c.extentBatch)
            ? ShapedType::kDynamic
            : c.extentBatch * ranges[d];
  }
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
  SmallVector<int64_t> cExtents(c.batchExtents);
  cExtents.append({c.extentM, c.extentN});
  if (consumer && allParallel(consumer) &&
      consumer.getNumLoops() == cExtents.size() &&
      consumer.getNumDpsInits() == 1 && consumer.hasPureBufferSemantics() &&
      consumer.getMatchingIndexingMap(consumer.getDpsInitOperand(0))
          .isIdentity() &&
      consumer.getStaticLoopRanges() == cExtents) {
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
