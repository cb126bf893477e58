//===- HierarchyAttentionChain.cpp - The attention chain on buffers -------===//
//
// Matching of HierarchyAttentionChain.h: from a batched contraction, the ops
// that follow it in its block must be, in order, elementwise ops of the
// scores alone (the scale), the softmax as strata-decompose-aggregates
// writes it, and the second batched contraction, with allocations,
// deallocations and fills in between; every intermediate buffer must be a
// temporary only the chain uses.
//
//===----------------------------------------------------------------------===//
#include "HierarchyAttentionChain.h"
#include "HierarchyContraction.h"
#include "HierarchyKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace strata;
using namespace strata::hierarchy;

FailureOr<Batched> hierarchy::matchBatched(linalg::LinalgOp op) {
  if (!op || !linalg::isaContractionOpInterface(op) ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasPureBufferSemantics())
    return failure();
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->batch.size() != 1 || dims->m.size() != 1 ||
      dims->n.size() != 1 || dims->k.size() != 1)
    return failure();
  Batched c;
  c.op = op;
  c.batch = dims->batch[0], c.m = dims->m[0], c.n = dims->n[0],
  c.k = dims->k[0];
  c.c = op.getDpsInitOperand(0);
  if (!indexes(op.getMatchingIndexingMap(c.c), {c.batch, c.m, c.n}))
    return failure();
  for (int i = 0; i < 2; ++i) {
    OpOperand *x = op.getDpsInputOperand(i);
    AffineMap map = op.getMatchingIndexingMap(x);
    if (indexes(map, {c.batch, c.m, c.k}))
      c.a = x;
    else if (indexes(map, {c.batch, c.k, c.n}) ||
             indexes(map, {c.batch, c.n, c.k}))
      c.b = x;
  }
  if (!c.a || !c.b)
    return failure();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return failure();
  c.extentBatch = ranges[c.batch], c.extentM = ranges[c.m],
  c.extentN = ranges[c.n], c.extentK = ranges[c.k];
  return c;
}

/// The ops of `op`'s body, without the terminator.
static SmallVector<Operation *> bodyOps(linalg::LinalgOp op) {
  SmallVector<Operation *> ops;
  for (Operation &inner : op.getBlock()->without_terminator())
    ops.push_back(&inner);
  return ops;
}

Value hierarchy::yielded(linalg::LinalgOp op) {
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  return yield.getValues().size() == 1 ? yield.getValues()[0] : Value();
}

Value hierarchy::arg(linalg::LinalgOp op, unsigned i) {
  return op.getBlock()->getArgument(i);
}

static bool isIdentity(linalg::LinalgOp op, OpOperand *operand) {
  return op.getMatchingIndexingMap(operand).isIdentity();
}

/// Whether `op` is a generic of `rank` loops, the last a reduction when
/// `reduction`, the others parallel.
static bool loopsAre(linalg::LinalgOp op, unsigned rank, bool reduction) {
  SmallVector<utils::IteratorType> its = op.getIteratorTypesArray();
  if (its.size() != rank)
    return false;
  for (unsigned i = 0; i < rank; ++i)
    if (its[i] != ((reduction && i + 1 == rank)
                       ? utils::IteratorType::reduction
                       : utils::IteratorType::parallel))
      return false;
  return true;
}

/// A row reduction over the keys: S (identity) into R[batch, row], body
/// `combine(in, out)`.
template <typename... Combine>
static bool rowReduction(linalg::LinalgOp op, Value scores) {
  if (!isa<linalg::GenericOp>(op) || !loopsAre(op, 3, true) ||
      op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getDpsInputOperand(0)->get() != scores ||
      !isIdentity(op, op.getDpsInputOperand(0)) ||
      !indexes(op.getMatchingIndexingMap(op.getDpsInitOperand(0)), {0, 1}))
    return false;
  SmallVector<Operation *> ops = bodyOps(op);
  if (ops.size() != 1 || !isa<Combine...>(ops[0]) ||
      yielded(op) != ops[0]->getResult(0))
    return false;
  Value x = ops[0]->getOperand(0), y = ops[0]->getOperand(1);
  return (x == arg(op, 0) && y == arg(op, 1)) ||
         (x == arg(op, 1) && y == arg(op, 0));
}

/// An elementwise op of S (identity) and a row value R[batch, row] (its
/// second input) into a buffer like S.
static bool withRows(linalg::LinalgOp op, Value scores, Value rows) {
  return isa<linalg::GenericOp>(op) && loopsAre(op, 3, false) &&
         op.getNumDpsInputs() == 2 && op.getNumDpsInits() == 1 &&
         op.getDpsInputOperand(0)->get() == scores &&
         op.getDpsInputOperand(1)->get() == rows &&
         isIdentity(op, op.getDpsInputOperand(0)) &&
         isIdentity(op, op.getDpsInitOperand(0)) &&
         indexes(op.getMatchingIndexingMap(op.getDpsInputOperand(1)), {0, 1});
}

/// The zero fill of `buffer` right before `op` in its block, if any.
static linalg::FillOp zeroFillBefore(Operation *op, Value buffer) {
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(prev))
      if (fill.getDpsInitOperand(0)->get() == buffer)
        return matchPattern(fill.getInputs()[0], m_AnyZeroFloat()) ? fill
                                                                   : nullptr;
    if (isa<memref::AllocOp, memref::DeallocOp>(prev))
      continue;
    if (llvm::is_contained(prev->getOperands(), buffer))
      return nullptr;
  }
  return nullptr;
}

FailureOr<Chain> hierarchy::matchChain(linalg::LinalgOp qkOp) {
  Chain ch;
  FailureOr<Batched> qk = matchBatched(qkOp);
  if (failed(qk))
    return failure();
  ch.qk = *qk;
  ch.qkFill = zeroFillBefore(qkOp, qk->c->get());
  if (!ch.qkFill)
    return failure();
  Value cur = qk->c->get();
  ch.temporaries.push_back(cur);
  ch.ops = {ch.qkFill, qkOp};
  // The ops after the product, in order; allocations, deallocations and
  // fills in between are passed over (fills are checked where used).
  SmallVector<linalg::FillOp> fills;
  Operation *next = qkOp->getNextNode();
  auto nextLinalg = [&]() -> linalg::LinalgOp {
    for (; next; next = next->getNextNode()) {
      if (isa<memref::AllocOp, memref::DeallocOp>(next))
        continue;
      if (auto fill = dyn_cast<linalg::FillOp>(next)) {
        fills.push_back(fill);
        continue;
      }
      auto op = dyn_cast<linalg::LinalgOp>(next);
      next = next ? next->getNextNode() : nullptr;
      return op;
    }
    return nullptr;
  };
  auto fillOf = [&](Value buffer) -> linalg::FillOp {
    for (linalg::FillOp f : llvm::reverse(fills))
      if (f.getDpsInitOperand(0)->get() == buffer)
        return f;
    return nullptr;
  };
  linalg::LinalgOp op = nextLinalg();
  // Elementwise ops of the scores alone (the scale).
  while (op && isa<linalg::GenericOp>(op) && loopsAre(op, 3, false) &&
         op.getNumDpsInputs() == 1 && op.getNumDpsInits() == 1 &&
         op.getDpsInputOperand(0)->get() == cur &&
         isIdentity(op, op.getDpsInputOperand(0)) &&
         isIdentity(op, op.getDpsInitOperand(0)) && arg(op, 1).use_empty() &&
         yielded(op) && op.getBlock()->getOps<linalg::IndexOp>().empty()) {
    ch.scales.push_back(op);
    ch.ops.push_back(op);
    cur = op.getDpsInitOperand(0)->get();
    ch.temporaries.push_back(cur);
    op = nextLinalg();
  }
  // M = max over the keys.
  if (!op || !rowReduction<arith::MaxNumFOp, arith::MaximumFOp>(op, cur))
    return failure();
  Value rowMax = op.getDpsInitOperand(0)->get();
  linalg::FillOp maxFill = fillOf(rowMax);
  if (!maxFill)
    return failure();
  ch.ops.append({maxFill, op});
  ch.temporaries.push_back(rowMax);
  // E = exp(S - M).
  op = nextLinalg();
  if (!op || !withRows(op, cur, rowMax))
    return failure();
  {
    SmallVector<Operation *> ops = bodyOps(op);
    auto sub = ops.size() == 2 ? dyn_cast<arith::SubFOp>(ops[0]) : nullptr;
    auto exp = ops.size() == 2 ? dyn_cast<math::ExpOp>(ops[1]) : nullptr;
    if (!sub || !exp || sub.getLhs() != arg(op, 0) ||
        sub.getRhs() != arg(op, 1) || exp.getOperand() != sub ||
        yielded(op) != exp)
      return failure();
  }
  ch.ops.push_back(op);
  cur = op.getDpsInitOperand(0)->get();
  ch.temporaries.push_back(cur);
  // L = sum over the keys, from zero.
  op = nextLinalg();
  if (!op || !rowReduction<arith::AddFOp>(op, cur))
    return failure();
  Value rowSum = op.getDpsInitOperand(0)->get();
  linalg::FillOp sumFill = fillOf(rowSum);
  if (!sumFill || !matchPattern(sumFill.getInputs()[0], m_AnyZeroFloat()))
    return failure();
  ch.ops.append({sumFill, op});
  ch.temporaries.push_back(rowSum);
  // P = E * (1 / L) or E / L.
  op = nextLinalg();
  if (!op)
    return failure();
  Value divisor = rowSum;
  if (isa<linalg::GenericOp>(op) && loopsAre(op, 2, false) &&
      op.getNumDpsInputs() == 1 && op.getNumDpsInits() == 1 &&
      op.getDpsInputOperand(0)->get() == rowSum &&
      isIdentity(op, op.getDpsInputOperand(0)) &&
      isIdentity(op, op.getDpsInitOperand(0))) {
    SmallVector<Operation *> ops = bodyOps(op);
    auto div = ops.size() == 1 ? dyn_cast<arith::DivFOp>(ops[0]) : nullptr;
    if (!div || div.getRhs() != arg(op, 0) || yielded(op) != div ||
        !matchPattern(div.getLhs(), m_OneFloat()))
      return failure();
    ch.ops.push_back(op);
    divisor = op.getDpsInitOperand(0)->get();
    ch.temporaries.push_back(divisor);
    op = nextLinalg();
    if (!op || !withRows(op, cur, divisor))
      return failure();
    SmallVector<Operation *> mul = bodyOps(op);
    auto m = mul.size() == 1 ? dyn_cast<arith::MulFOp>(mul[0]) : nullptr;
    if (!m || yielded(op) != m ||
        !((m.getLhs() == arg(op, 0) && m.getRhs() == arg(op, 1)) ||
          (m.getLhs() == arg(op, 1) && m.getRhs() == arg(op, 0))))
      return failure();
  } else {
    if (!withRows(op, cur, rowSum))
      return failure();
    SmallVector<Operation *> ops = bodyOps(op);
    auto div = ops.size() == 1 ? dyn_cast<arith::DivFOp>(ops[0]) : nullptr;
    if (!div || yielded(op) != div || div.getLhs() != arg(op, 0) ||
        div.getRhs() != arg(op, 1))
      return failure();
  }
  ch.ops.push_back(op);
  cur = op.getDpsInitOperand(0)->get();
  ch.temporaries.push_back(cur);
  // O = 0; O += P V.
  op = nextLinalg();
  FailureOr<Batched> pv = matchBatched(op);
  if (failed(pv) || pv->a->get() != cur)
    return failure();
  ch.pv = *pv;
  ch.pvFill = fillOf(pv->c->get());
  if (!ch.pvFill || !matchPattern(ch.pvFill.getInputs()[0], m_AnyZeroFloat()))
    return failure();
  ch.ops.append({ch.pvFill, op});
  // Extents and types.
  if (pv->extentBatch != qk->extentBatch || pv->extentM != qk->extentM ||
      pv->extentK != qk->extentN)
    return failure();
  ch.inputType = getElementTypeOrSelf(qk->a->get().getType());
  ch.scoreType = getElementTypeOrSelf(qk->c->get().getType());
  if (!ch.inputType.isFloat() || !ch.scoreType.isFloat() ||
      getElementTypeOrSelf(pv->b->get().getType()) != ch.inputType ||
      getElementTypeOrSelf(cur.getType()) != ch.inputType ||
      !getElementTypeOrSelf(pv->c->get().getType()).isFloat())
    return failure();
  // Kᵀ written by a transpose (a copy through a permutation) of K.
  Value keys = qk->b->get();
  if (keys.getDefiningOp<memref::AllocOp>()) {
    for (Operation *user : keys.getUsers()) {
      auto t = dyn_cast<linalg::LinalgOp>(user);
      if (!t || t == qkOp || t.getNumDpsInits() != 1 ||
          t.getDpsInitOperand(0)->get() != keys)
        continue;
      if (t->getBlock() != qkOp->getBlock() || !t->isBeforeInBlock(qkOp) ||
          !allParallel(t) || t.getNumDpsInputs() != 1 ||
          !t.getMatchingIndexingMap(t.getDpsInitOperand(0)).isPermutation() ||
          !t.getMatchingIndexingMap(t.getDpsInputOperand(0))
               .isProjectedPermutation() ||
          yielded(t) != arg(t, 0) ||
          getElementTypeOrSelf(t.getDpsInputOperand(0)->get().getType()) !=
              ch.inputType)
        return failure();
      ch.transpose = t;
    }
    if (ch.transpose) {
      ch.ops.insert(ch.ops.begin(), ch.transpose);
      ch.temporaries.push_back(keys);
    }
  }
  if (getElementTypeOrSelf(keys.getType()) != ch.inputType)
    return failure();
  // Every temporary is an allocation only the chain uses.
  for (Value t : ch.temporaries) {
    if (!t.getDefiningOp<memref::AllocOp>())
      return failure();
    for (Operation *user : t.getUsers())
      if (!isa<memref::DeallocOp>(user) && !llvm::is_contained(ch.ops, user))
        return failure();
  }
  for (Value t : {rowMax, rowSum, divisor})
    for (Operation *user : t.getUsers())
      if (auto f = dyn_cast<linalg::FillOp>(user))
        if (!llvm::is_contained(ch.ops, user))
          return failure();
  // Q, K, V and the output are not the chain's temporaries.
  for (Value v : {qk->a->get(), pv->b->get(), pv->c->get()})
    if (llvm::is_contained(ch.temporaries, v))
      return failure();
  ch.shape.batch = qk->extentBatch;
  ch.shape.queries = qk->extentM;
  ch.shape.keys = qk->extentN;
  ch.shape.headDim = qk->extentK;
  ch.shape.valueDim = pv->extentN;
  ch.shape.inputType = typeName(ch.inputType);
  return ch;
}

/// The buffer `v` is a view of.
static Value rootOf(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

bool hierarchy::makeRoomAtSecondProduct(Chain &ch) {
  Value keys =
      ch.transpose ? ch.transpose.getDpsInputOperand(0)->get() : ch.qk.b->get();
  // The output is written while other blocks still read K and V: it may
  // not be either. It may be Q's buffer (bufferization reuses it) when each
  // block writes exactly the rows of Q it read, all before any write.
  Value out = rootOf(ch.pv.c->get());
  if (out == rootOf(keys) || out == rootOf(ch.pv.b->get()))
    return false;
  if (out == rootOf(ch.qk.a->get()) &&
      (ch.qk.a->get() != ch.pv.c->get() ||
       !indexes(ch.qk.op.getMatchingIndexingMap(ch.qk.a),
                {ch.qk.batch, ch.qk.m, ch.qk.k}) ||
       ch.shape.headDim != ch.shape.valueDim))
    return false;
  SmallVector<Value> buffers = {ch.qk.a->get(), keys, ch.pv.b->get(),
                                ch.pv.c->get()};
  Operation *first = ch.ops.front(), *last = ch.pv.op;
  SmallVector<Operation *> deallocs;
  for (Operation *op = first->getNextNode(); op && op != last;
       op = op->getNextNode()) {
    if (llvm::is_contained(ch.ops, op))
      continue;
    if (!llvm::any_of(op->getOperands(),
                      [&](Value v) { return llvm::is_contained(buffers, v); }))
      continue;
    if (!isa<memref::DeallocOp>(op))
      return false;
    deallocs.push_back(op);
  }
  for (Operation *op : llvm::reverse(deallocs))
    op->moveAfter(last);
  return true;
}
