//===- HierarchyAttentionChain.cpp - The attention chain on buffers -------===//
//
// Matching of HierarchyAttentionChain.h: from a batched contraction, the ops
// that follow it in its block must be, in order, elementwise ops of the
// scores alone (the scale; they may read the loop indices: masks), the
// softmax as strata-decompose-aggregates writes it, and the second batched
// contraction, with allocations, deallocations, fills and reshaping views
// in between; every intermediate buffer must be a temporary only the chain
// uses (an allocation or a view of one). PyTorch's safe softmax adds a row
// flag (some scaled score is not -inf), anywhere after the scale, and
// zeroes P where it is false, in P's op or in one more op after it; the
// chain is matched by what each op computes, not by the number of ops.
//
//===----------------------------------------------------------------------===//
#include "HierarchyAttentionChain.h"
#include "AttentionMask.h"
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

/// Whether `v` is `x != -inf` (cmpf une or one, or the negation of oeq or
/// ueq by xori with true) in a body.
static bool notNegInf(Value v, Value x, bool negated = false) {
  if (auto xo = v.getDefiningOp<arith::XOrIOp>()) {
    for (int i = 0; i < 2; ++i)
      if (matchPattern(xo->getOperand(1 - i), m_One()))
        return notNegInf(xo->getOperand(i), x, !negated);
    return false;
  }
  auto cmp = v.getDefiningOp<arith::CmpFOp>();
  if (!cmp)
    return false;
  Value other = cmp.getLhs() == x   ? cmp.getRhs()
                : cmp.getRhs() == x ? cmp.getLhs()
                                    : Value();
  FloatAttr::ValueType f(0.0);
  if (!other || !matchPattern(other, m_ConstantFloat(&f)) || !f.isInfinity() ||
      !f.isNegative())
    return false;
  arith::CmpFPredicate p = cmp.getPredicate();
  if (negated)
    return p == arith::CmpFPredicate::OEQ || p == arith::CmpFPredicate::UEQ;
  return p == arith::CmpFPredicate::UNE || p == arith::CmpFPredicate::ONE;
}

/// PyTorch's row flag: S (identity) into an i1 R[batch, row], body
/// `out or (in != -inf)`.
static bool rowFlag(linalg::LinalgOp op, Value scores) {
  if (!isa<linalg::GenericOp>(op) || !loopsAre(op, 3, true) ||
      op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getDpsInputOperand(0)->get() != scores ||
      !isIdentity(op, op.getDpsInputOperand(0)) ||
      !indexes(op.getMatchingIndexingMap(op.getDpsInitOperand(0)), {0, 1}) ||
      !getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType())
           .isInteger(1))
    return false;
  Value y = yielded(op);
  auto orOp = y ? y.getDefiningOp<arith::OrIOp>() : nullptr;
  if (!orOp)
    return false;
  Value other = orOp.getLhs() == arg(op, 1)   ? orOp.getRhs()
                : orOp.getRhs() == arg(op, 1) ? orOp.getLhs()
                                              : Value();
  return other && notNegInf(other, arg(op, 0));
}

namespace {
/// What a value of a P op's body is: E, L, 1 / L, the row flag or its
/// negation, zero, the P of an earlier op (Prev), P = E / L or E * (1 / L),
/// or P zeroed where the flag is false.
enum class Term { Other, E, L, R, Flag, NotFlag, Zero, Prev, P, FlaggedP };
} // namespace

static Term term(Value v, ArrayRef<Term> args, Block *body) {
  if (auto a = dyn_cast<BlockArgument>(v))
    return a.getOwner() == body && a.getArgNumber() < args.size()
               ? args[a.getArgNumber()]
               : Term::Other;
  if (matchPattern(v, m_AnyZeroFloat()))
    return Term::Zero;
  Operation *op = v.getDefiningOp();
  if (!op || op->getBlock() != body)
    return Term::Other;
  auto t = [&](unsigned i) { return term(op->getOperand(i), args, body); };
  if (isa<arith::XOrIOp>(op)) {
    for (int i = 0; i < 2; ++i)
      if (matchPattern(op->getOperand(1 - i), m_One()))
        return t(i) == Term::Flag      ? Term::NotFlag
               : t(i) == Term::NotFlag ? Term::Flag
                                       : Term::Other;
    return Term::Other;
  }
  if (isa<arith::MulFOp>(op))
    return (t(0) == Term::E && t(1) == Term::R) ||
                   (t(0) == Term::R && t(1) == Term::E)
               ? Term::P
               : Term::Other;
  if (isa<arith::DivFOp>(op))
    return t(0) == Term::E && t(1) == Term::L ? Term::P : Term::Other;
  if (isa<arith::SelectOp>(op)) {
    Term c = t(0), x = t(1), y = t(2);
    auto isP = [](Term p) { return p == Term::P || p == Term::Prev; };
    if ((c == Term::Flag && isP(x) && y == Term::Zero) ||
        (c == Term::NotFlag && x == Term::Zero && isP(y)))
      return Term::FlaggedP;
  }
  return Term::Other;
}

/// What the elementwise `op` writes, as a Term, when its inputs are E or
/// `prev` (identity) and L, 1 / L or the flag (rows [batch, row]).
static Term probsOp(linalg::LinalgOp op, Value e, Value prev, Value sum,
                    Value reciprocal, Value flag) {
  if (!isa<linalg::GenericOp>(op) || !loopsAre(op, 3, false) ||
      op.getNumDpsInits() != 1 || !isIdentity(op, op.getDpsInitOperand(0)))
    return Term::Other;
  SmallVector<Term> args;
  for (OpOperand *in : op.getDpsInputOperands()) {
    Value v = in->get();
    AffineMap map = op.getMatchingIndexingMap(in);
    Term t = Term::Other;
    if (map.isIdentity())
      // P may have been written over E (the same buffer): it is P then.
      t = (prev && v == prev) ? Term::Prev : v == e ? Term::E : Term::Other;
    else if (indexes(map, {0, 1}))
      t = v == sum                          ? Term::L
          : (reciprocal && v == reciprocal) ? Term::R
          : (flag && v == flag)             ? Term::Flag
                                            : Term::Other;
    if (t == Term::Other)
      return Term::Other;
    args.push_back(t);
  }
  Value y = yielded(op);
  return y ? term(y, args, op.getBlock()) : Term::Other;
}

/// The allocation `v` is, or is a collapse or expand shape view of; null
/// when it is neither.
static Value allocationOf(Value v) {
  while (isa_and_nonnull<memref::CollapseShapeOp, memref::ExpandShapeOp>(
      v.getDefiningOp()))
    v = cast<ViewLikeOpInterface>(v.getDefiningOp()).getViewSource();
  return v.getDefiningOp<memref::AllocOp>() ? v : Value();
}

/// Whether only `ops`, deallocations and collapse or expand shape views
/// (whose users count too) use the allocation `root`.
static bool onlyUsedBy(Value root, ArrayRef<Operation *> ops) {
  SmallVector<Value> work = {root};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(user))
        work.push_back(user->getResult(0));
      else if (!isa<memref::DeallocOp>(user) && !llvm::is_contained(ops, user))
        return false;
    }
  }
  return true;
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
  // Views (collapse and expand shape) are passed over too: PyTorch's row
  // buffers are views of [batch, 1, row] allocations.
  SmallVector<linalg::FillOp> fills;
  Operation *next = qkOp->getNextNode();
  // The scaled scores, once the scale is matched, and whether a later op of
  // the chain wrote their buffer (the flag must read them, not what
  // bufferization put in their place).
  Value masked;
  bool maskedWritten = false;
  auto nextLinalg = [&]() -> linalg::LinalgOp {
    for (; next; next = next->getNextNode()) {
      if (isa<memref::AllocOp, memref::DeallocOp, memref::CollapseShapeOp,
              memref::ExpandShapeOp>(next))
        continue;
      if (auto fill = dyn_cast<linalg::FillOp>(next)) {
        fills.push_back(fill);
        continue;
      }
      auto op = dyn_cast<linalg::LinalgOp>(next);
      // The row flag, wherever it comes after the scale.
      if (op && masked && !maskedWritten && !ch.flag && rowFlag(op, masked)) {
        ch.flag = op;
        continue;
      }
      next = next ? next->getNextNode() : nullptr;
      if (op && masked && op.getNumDpsInits() == 1 &&
          op.getDpsInitOperand(0)->get() == masked)
        maskedWritten = true;
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
  // Elementwise ops of the scores alone (the scale); they may read the loop
  // indices (batch, query, key: S's dimensions), which the kernel gives them.
  while (op && isa<linalg::GenericOp>(op) && loopsAre(op, 3, false) &&
         op.getNumDpsInputs() == 1 && op.getNumDpsInits() == 1 &&
         op.getDpsInputOperand(0)->get() == cur &&
         isIdentity(op, op.getDpsInputOperand(0)) &&
         isIdentity(op, op.getDpsInitOperand(0)) && arg(op, 1).use_empty() &&
         yielded(op)) {
    ch.scales.push_back(op);
    ch.ops.push_back(op);
    cur = op.getDpsInitOperand(0)->get();
    ch.temporaries.push_back(cur);
    op = nextLinalg();
  }
  masked = cur;
  if (op && rowFlag(op, masked)) {
    ch.flag = op;
    op = nextLinalg();
  }
  // M = max over the keys, from -inf or NaN (the identity of maxnumf).
  if (!op || !rowReduction<arith::MaxNumFOp, arith::MaximumFOp>(op, cur))
    return failure();
  Value rowMax = op.getDpsInitOperand(0)->get();
  linalg::FillOp maxFill = fillOf(rowMax);
  FloatAttr::ValueType maxInit(0.0);
  if (!maxFill ||
      !matchPattern(maxFill.getInputs()[0], m_ConstantFloat(&maxInit)) ||
      !(maxInit.isNaN() || (maxInit.isInfinity() && maxInit.isNegative())))
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
  Operation *expOp = op;
  cur = op.getDpsInitOperand(0)->get();
  ch.temporaries.push_back(cur);
  // L = sum over the keys, from zero.
  op = nextLinalg();
  if (!op || !rowReduction<arith::AddFOp>(op, cur))
    return failure();
  Value rowSum = op.getDpsInitOperand(0)->get();
  linalg::FillOp sumFill = fillOf(rowSum);
  // Where L reuses M's buffer, its fill comes after E read M.
  if (!sumFill || !matchPattern(sumFill.getInputs()[0], m_AnyZeroFloat()) ||
      (allocationOf(rowSum) == allocationOf(rowMax) &&
       !expOp->isBeforeInBlock(sumFill)))
    return failure();
  ch.ops.append({sumFill, op});
  ch.temporaries.push_back(rowSum);
  // P = E * (1 / L) or E / L (1 / L in an op of its own before), with the
  // flag zero where it is false: in P's op or in a second op,
  // select(flag, P, 0).
  op = nextLinalg();
  Value divisor;
  if (op && isa<linalg::GenericOp>(op) && loopsAre(op, 2, false) &&
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
  }
  Value e = cur, probs;
  Term probsTerm = Term::Other;
  while (op) {
    Value flag = ch.flag ? ch.flag.getDpsInitOperand(0)->get() : Value();
    Term t = probsOp(op, e, probs, rowSum, divisor, flag);
    // P once, then at most the flag's select on it.
    if (!(t == Term::P && !probs) &&
        !(t == Term::FlaggedP && probsTerm != Term::FlaggedP))
      break;
    probsTerm = t;
    ch.ops.push_back(op);
    probs = op.getDpsInitOperand(0)->get();
    ch.temporaries.push_back(probs);
    op = nextLinalg();
  }
  // With the flag, P is zero where it is false; without, the flag's
  // reduction would have been matched as P's input only.
  if (!probs || (probsTerm == Term::FlaggedP) != bool(ch.flag))
    return failure();
  cur = probs;
  // O = 0; O += P V (the op after P's).
  FailureOr<Batched> pv = matchBatched(op);
  if (failed(pv) || pv->a->get() != cur)
    return failure();
  ch.pv = *pv;
  ch.pvFill = fillOf(pv->c->get());
  if (!ch.pvFill || !matchPattern(ch.pvFill.getInputs()[0], m_AnyZeroFloat()))
    return failure();
  ch.ops.append({ch.pvFill, op});
  Value flagRows;
  if (ch.flag) {
    // The flag from false.
    flagRows = ch.flag.getDpsInitOperand(0)->get();
    linalg::FillOp flagFill = fillOf(flagRows);
    if (!flagFill || !matchPattern(flagFill.getInputs()[0], m_Zero()) ||
        !flagFill->isBeforeInBlock(ch.flag))
      return failure();
    ch.ops.append({flagFill, ch.flag});
    ch.temporaries.push_back(flagRows);
  }
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
  // Kᵀ written by a transpose (a copy through a permutation) of K: the
  // chain's only writer of that allocation, before the product. Any other
  // writer (K scaled, as PyTorch may export it) means there is no
  // transpose here: the kernel reads Kᵀ as an input like Q, the writer
  // stays a kernel of its own, and makeRoomAtSecondProduct checks that
  // nothing between the first and the second product touches it.
  Value keys = qk->b->get();
  if (keys.getDefiningOp<memref::AllocOp>()) {
    linalg::LinalgOp writer;
    bool single = true;
    for (Operation *user : keys.getUsers()) {
      auto t = dyn_cast<linalg::LinalgOp>(user);
      if (!t || t == qkOp || t.getNumDpsInits() != 1 ||
          t.getDpsInitOperand(0)->get() != keys)
        continue;
      single = !writer;
      writer = t;
    }
    linalg::LinalgOp t = writer;
    if (t && single && t->getBlock() == qkOp->getBlock() &&
        t->isBeforeInBlock(qkOp) && allParallel(t) &&
        t.getNumDpsInputs() == 1 &&
        t.getMatchingIndexingMap(t.getDpsInitOperand(0)).isPermutation() &&
        t.getMatchingIndexingMap(t.getDpsInputOperand(0))
            .isProjectedPermutation() &&
        yielded(t) == arg(t, 0) &&
        getElementTypeOrSelf(t.getDpsInputOperand(0)->get().getType()) ==
            ch.inputType) {
      ch.transpose = t;
      ch.ops.insert(ch.ops.begin(), ch.transpose);
      ch.temporaries.push_back(keys);
    }
  }
  if (getElementTypeOrSelf(keys.getType()) != ch.inputType)
    return failure();
  // Every temporary is an allocation (or a view of one) only the chain
  // uses.
  for (Value t : ch.temporaries) {
    Value root = allocationOf(t);
    if (!root || !onlyUsedBy(root, ch.ops))
      return failure();
  }
  // Q, K (without a transpose), V and the output are not the chain's
  // temporaries.
  SmallVector<Value> inputs = {qk->a->get(), pv->b->get(), pv->c->get()};
  if (!ch.transpose)
    inputs.push_back(keys);
  for (Value v : inputs)
    for (Value t : ch.temporaries)
      if (v == t || (allocationOf(v) && allocationOf(v) == allocationOf(t)))
        return failure();
  // Where the mask hides the keys after the queries (AttentionMask.h): the
  // scale ops' loops are S's dimensions (batch, query, key).
  ch.keysMaskedAfter = keysAfterQueryMasked(ch.scales, 1, 2);
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
