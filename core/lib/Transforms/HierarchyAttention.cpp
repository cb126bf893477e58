//===- HierarchyAttention.cpp - Attention as one kernel -------------------===//
//
// The kernel of one attention chain (HierarchyAttention.h), for a schedule of
// HierarchyAttentionModel.h:
//
//   scf.forall (%bh, %qt) in (batch, query tiles)      block level
//     scratchpad: Q tile, Kᵀ tile, V tile, f32 scores (later f32 P V),
//                 P tile (input type), f32 running output, row state
//     scf.forall (%g) in (groups)                      group level
//       lanes: Q tile (zero past the queries), O = 0, max = -inf, sum = 0
//       scf.for %kt in (key tiles)
//         lanes: Kᵀ and V tiles (zero past the keys);            barrier
//         group: its fragM rows of S = Q Kᵀ, vector.contract at the
//                intrinsic's shape (strata.intrinsic), stored f32; barrier
//         lanes, rowLanes per row, each a slice of the keys: the scale
//                ops, the slice's maximum over the keys that exist; barrier
//                m' = max(m, the slices' maxima), P = exp(S - m') (0 past
//                the keys), the slice's sum of P, a = e^(m - m');  barrier
//         group: its rows of P V, vector.contract, stored f32;   barrier
//         lanes: O = O a + P V, l = l a + the slices' sums, m = m'
//       barrier; lanes: out = O / l for the queries that exist
//
// Without a matrix intrinsic (f32 inputs) the products too are computed by
// the lanes, with multiply-adds from the scratchpad.
//
// Everything between the group's products runs on the lanes from the
// scratchpad: the products are the upstream form the plugins already lower
// (a k loop of tagged contractions with zero accumulators and stores), and
// the row statistics need no cross-lane operations on matrix fragments.
//
//===----------------------------------------------------------------------===//
#include "HierarchyAttention.h"
#include "HierarchyContraction.h"
#include "HierarchyKernel.h"

#include "strata/Dialect/Strata/IR/StrataDialect.h"
#include "strata/Schedule/HierarchyAttentionModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <limits>

using namespace mlir;
using namespace strata;
using namespace strata::hierarchy;

namespace {
constexpr llvm::StringLiteral kIntrinsicAttrName = "strata.intrinsic";

/// A batched contraction of one batch, m, n and k loop on buffers.
struct Batched {
  linalg::LinalgOp op;
  unsigned batch = 0, m = 0, n = 0, k = 0;
  OpOperand *a = nullptr, *b = nullptr, *c = nullptr;
  int64_t extentBatch = 0, extentM = 0, extentN = 0, extentK = 0;
};

FailureOr<Batched> matchBatched(linalg::LinalgOp op) {
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
SmallVector<Operation *> bodyOps(linalg::LinalgOp op) {
  SmallVector<Operation *> ops;
  for (Operation &inner : op.getBlock()->without_terminator())
    ops.push_back(&inner);
  return ops;
}

/// The value `op`'s body yields.
Value yielded(linalg::LinalgOp op) {
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  return yield.getValues().size() == 1 ? yield.getValues()[0] : Value();
}

Value arg(linalg::LinalgOp op, unsigned i) {
  return op.getBlock()->getArgument(i);
}

bool isIdentity(linalg::LinalgOp op, OpOperand *operand) {
  return op.getMatchingIndexingMap(operand).isIdentity();
}

/// Whether `op` is a generic of `rank` loops, the last a reduction when
/// `reduction`, the others parallel.
bool loopsAre(linalg::LinalgOp op, unsigned rank, bool reduction) {
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
bool rowReduction(linalg::LinalgOp op, Value scores) {
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
bool withRows(linalg::LinalgOp op, Value scores, Value rows) {
  return isa<linalg::GenericOp>(op) && loopsAre(op, 3, false) &&
         op.getNumDpsInputs() == 2 && op.getNumDpsInits() == 1 &&
         op.getDpsInputOperand(0)->get() == scores &&
         op.getDpsInputOperand(1)->get() == rows &&
         isIdentity(op, op.getDpsInputOperand(0)) &&
         isIdentity(op, op.getDpsInitOperand(0)) &&
         indexes(op.getMatchingIndexingMap(op.getDpsInputOperand(1)), {0, 1});
}

/// One attention chain.
struct Chain {
  Batched qk, pv;
  linalg::LinalgOp transpose; // writes QK's B operand from K, or null
  linalg::FillOp qkFill, pvFill;
  SmallVector<linalg::LinalgOp> scales; // on the scores before the softmax
  SmallVector<Operation *> ops;         // the chain's ops, erased once mapped
  SmallVector<Value> temporaries;       // buffers only the chain uses
  HierarchyAttentionShape shape;
  Type inputType, scoreType;
};

/// The zero fill of `buffer` right before `op` in its block, if any.
linalg::FillOp zeroFillBefore(Operation *op, Value buffer) {
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

/// The chain that ends in `qk`'s consumers, or failure.
FailureOr<Chain> matchChain(linalg::LinalgOp qkOp) {
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

/// The kernel replaces the chain at the second product, so it reads K later
/// than the transpose (or the first product) did, Q later than the first
/// product did. Safe when nothing but the chain uses those buffers (or the
/// output) in between, except deallocations, which move after the second
/// product, and when the output is not a buffer other blocks read; false,
/// changing nothing, otherwise.
/// The buffer `v` is a view of.
Value rootOf(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

bool makeRoomAtSecondProduct(Chain &ch) {
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

/// Builds the kernel of one chain.
class AttentionEmitter {
public:
  AttentionEmitter(ImplicitLocOpBuilder &b, Chain &ch,
                   const HierarchyAttentionSchedule &s,
                   const HierarchySchedule &hs)
      : b(b), k(b, hs), ch(ch), s(s) {}

  void emit();

private:
  /// The value of `op`'s operand at `loops`, or `zero` where `in` is false
  /// (no check when `in` is null).
  Value guardedLoad(Value in, Value zero, function_ref<Value()> load) {
    if (!in)
      return load();
    auto ifOp = scf::IfOp::create(b, TypeRange{zero.getType()}, in, true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(b, load());
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, zero);
    return ifOp.getResult(0);
  }
  /// Q[bh, query, d].
  Value loadQuery(Value bh, Value query, Value d) {
    SmallVector<Value> loops(ch.qk.op.getNumLoops(), Value());
    loops[ch.qk.batch] = bh, loops[ch.qk.m] = query, loops[ch.qk.k] = d;
    return k.load(ch.qk.op, ch.qk.a, loops);
  }
  /// K[bh, key, d], through the transpose when there is one.
  Value loadKey(Value bh, Value key, Value d) {
    SmallVector<Value> loops(ch.qk.op.getNumLoops(), Value());
    loops[ch.qk.batch] = bh, loops[ch.qk.n] = key, loops[ch.qk.k] = d;
    if (!ch.transpose)
      return k.load(ch.qk.op, ch.qk.b, loops);
    AffineMap map = ch.qk.op.getMatchingIndexingMap(ch.qk.b);
    linalg::LinalgOp t = ch.transpose;
    AffineMap out = t.getMatchingIndexingMap(t.getDpsInitOperand(0));
    SmallVector<Value> tLoops(t.getNumLoops(), Value());
    for (unsigned i = 0; i < map.getNumResults(); ++i)
      tLoops[out.getDimPosition(i)] = loops[map.getDimPosition(i)];
    return k.load(t, t.getDpsInputOperand(0), tLoops);
  }
  /// V[bh, key, c].
  Value loadValue(Value bh, Value key, Value c) {
    SmallVector<Value> loops(ch.pv.op.getNumLoops(), Value());
    loops[ch.pv.batch] = bh, loops[ch.pv.k] = key, loops[ch.pv.n] = c;
    return k.load(ch.pv.op, ch.pv.b, loops);
  }
  /// out[bh, query, c] = v.
  void storeOutput(Value bh, Value query, Value c, Value v) {
    SmallVector<Value> loops(ch.pv.op.getNumLoops(), Value());
    loops[ch.pv.batch] = bh, loops[ch.pv.m] = query, loops[ch.pv.n] = c;
    AffineMap map = ch.pv.op.getMatchingIndexingMap(ch.pv.c);
    SmallVector<Value> indices;
    for (AffineExpr e : map.getResults())
      indices.push_back(loops[cast<AffineDimExpr>(e).getPosition()]);
    memref::StoreOp::create(b, v, ch.pv.c->get(), indices);
  }
  /// A plain array read at (batch, row, column): the buffer and, per
  /// dimension, which of the three it indexes (0, 1, 2).
  struct RowSource {
    Value buffer;
    SmallVector<int64_t> roles;
  };
  /// `operand` of `op` as a RowSource, `roles` giving the role of each of
  /// `op`'s loops (-1: none); nullopt unless it is a static identity-layout
  /// array of rank 3 whose last dimension is the column.
  std::optional<RowSource> rowSource(linalg::LinalgOp op, OpOperand *operand,
                                     ArrayRef<int64_t> roles) {
    auto type = dyn_cast<MemRefType>(operand->get().getType());
    AffineMap map = op.getMatchingIndexingMap(operand);
    if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
        type.getRank() != 3 || !map.isProjectedPermutation() ||
        map.getNumResults() != 3)
      return std::nullopt;
    RowSource src{operand->get(), {}};
    for (unsigned i = 0; i < 3; ++i)
      src.roles.push_back(roles[map.getDimPosition(i)]);
    SmallVector<int64_t> sorted(src.roles);
    llvm::sort(sorted);
    if (sorted != SmallVector<int64_t>{0, 1, 2} || src.roles[2] != 2)
      return std::nullopt;
    return src;
  }
  /// Q, K (through the transpose) and V as RowSources.
  std::optional<RowSource> querySource() {
    SmallVector<int64_t> roles(ch.qk.op.getNumLoops(), -1);
    roles[ch.qk.batch] = 0, roles[ch.qk.m] = 1, roles[ch.qk.k] = 2;
    return rowSource(ch.qk.op, ch.qk.a, roles);
  }
  std::optional<RowSource> keySource() {
    SmallVector<int64_t> roles(ch.qk.op.getNumLoops(), -1);
    roles[ch.qk.batch] = 0, roles[ch.qk.n] = 1, roles[ch.qk.k] = 2;
    if (!ch.transpose)
      return rowSource(ch.qk.op, ch.qk.b, roles);
    // The transpose's loops take the roles of the qk loops that read the
    // same dimension of Kᵀ.
    AffineMap map = ch.qk.op.getMatchingIndexingMap(ch.qk.b);
    linalg::LinalgOp t = ch.transpose;
    AffineMap out = t.getMatchingIndexingMap(t.getDpsInitOperand(0));
    SmallVector<int64_t> tRoles(t.getNumLoops(), -1);
    for (unsigned i = 0; i < map.getNumResults(); ++i)
      tRoles[out.getDimPosition(i)] = roles[map.getDimPosition(i)];
    return rowSource(t, t.getDpsInputOperand(0), tRoles);
  }
  std::optional<RowSource> valueSource() {
    SmallVector<int64_t> roles(ch.pv.op.getNumLoops(), -1);
    roles[ch.pv.batch] = 0, roles[ch.pv.k] = 1, roles[ch.pv.n] = 2;
    return rowSource(ch.pv.op, ch.pv.b, roles);
  }
  /// Copies rows [row0, row0 + rows) x `cols` of `src` for batch `bh` into
  /// `tile` (transposed: tile[col, row]), zero at rows from `extent` on (no
  /// check when `extent` is 0: the tiles divide the rows), in
  /// vectors of 16 bytes (consecutive lanes, consecutive vectors of a row);
  /// false, emitting nothing, when the rows are not whole vectors.
  bool copyRows(Value laneId, const std::optional<RowSource> &src, Value bh,
                Value row0, int64_t rows, int64_t cols, int64_t extent,
                Value tile, bool transposed) {
    Type elem = ch.inputType;
    int64_t eb = llvm::divideCeil(elem.getIntOrFloatBitWidth(), 8);
    int64_t width = 16 / eb;
    int64_t pitch = cast<MemRefType>(tile.getType()).getShape().back();
    if (!src || 16 % eb != 0 || cols % width != 0 ||
        (!transposed && pitch % width != 0) ||
        getElementTypeOrSelf(src->buffer.getType()) != elem)
      return false;
    auto vectorType = VectorType::get({width}, elem);
    int64_t perRow = cols / width;
    bool partial = extent > 0;
    k.strided(laneId, rows * perRow, s.lanesPerBlock(), [&](Value e) {
      Value r = k.div(e, perRow), c = k.mul(k.rem(e, perRow), width);
      Value g = k.add(row0, r);
      SmallVector<Value> at(3);
      for (unsigned i = 0; i < 3; ++i)
        at[i] = src->roles[i] == 0 ? bh : src->roles[i] == 1 ? g : c;
      auto load = [&]() -> Value {
        return vector::LoadOp::create(b, vectorType, src->buffer, at, false,
                                      llvm::MaybeAlign(16));
      };
      Value v;
      if (partial) {
        Value zero = arith::ConstantOp::create(
            b, DenseElementsAttr::get(vectorType, b.getZeroAttr(elem)));
        v = guardedLoad(k.lt(g, k.idx(extent)), zero, load);
      } else {
        v = load();
      }
      if (!transposed) {
        vector::StoreOp::create(b, v, tile, ValueRange{r, c}, false,
                                llvm::MaybeAlign(16));
        return;
      }
      for (int64_t i = 0; i < width; ++i)
        memref::StoreOp::create(
            b, vector::ExtractOp::create(b, v, ArrayRef<int64_t>{i}), tile,
            ValueRange{k.add(c, k.idx(i)), r});
    });
    return true;
  }
  /// The scale ops on score `x` (f32), in the scores' type.
  Value scaled(Value x) {
    if (ch.scales.empty())
      return x;
    if (ch.scoreType != x.getType())
      x = arith::TruncFOp::create(b, ch.scoreType, x);
    for (linalg::LinalgOp op : ch.scales) {
      IRMapping map;
      map.map(arg(op, 0), x);
      for (Operation &inner : op.getBlock()->without_terminator())
        b.clone(inner, map);
      x = map.lookupOrDefault(yielded(op));
    }
    if (x.getType() != b.getF32Type())
      x = arith::ExtFOp::create(b, b.getF32Type(), x);
    return x;
  }
  Value f32(double v) {
    return arith::ConstantOp::create(b, b.getF32FloatAttr(v));
  }
  /// The group's fragM rows of A B into `out` (f32): A rows from `a` at
  /// (gRow, 0..depth), B from `bt` (depth x width), zero accumulators.
  void groupProduct(Value gRow, Value a, Value bt, int64_t depth, int64_t width,
                    Value out);
  /// Without an intrinsic: the block's rows of A B into `out` (f32), one
  /// element per lane at a time, multiply-adds from the scratchpad.
  void lanesProduct(Value laneId, Value a, Value bt, int64_t depth,
                    int64_t width, Value out);
  /// A B into `out` by the group's intrinsic or the lanes.
  void product(Value gRow, function_ref<void(function_ref<void(Value)>)> lanes,
               Value a, Value bt, int64_t depth, int64_t width, Value out) {
    if (s.intrinsic.empty())
      lanes([&](Value id) { lanesProduct(id, a, bt, depth, width, out); });
    else
      groupProduct(gRow, a, bt, depth, width, out);
  }

  ImplicitLocOpBuilder &b;
  KernelBuilder k;
  Chain &ch;
  const HierarchyAttentionSchedule &s;
};

void AttentionEmitter::lanesProduct(Value laneId, Value a, Value bt,
                                    int64_t depth, int64_t width, Value out) {
  Type f32t = b.getF32Type();
  k.strided(laneId, s.blockM * width, s.lanesPerBlock(), [&](Value e) {
    Value r = k.div(e, width), c = k.rem(e, width);
    auto loop = scf::ForOp::create(b, k.idx(0), k.idx(depth), k.idx(1),
                                   ValueRange{f32(0)});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value kk = loop.getInductionVar();
      Value x = memref::LoadOp::create(b, a, ValueRange{r, kk});
      Value y = memref::LoadOp::create(b, bt, ValueRange{kk, c});
      if (x.getType() != f32t)
        x = arith::ExtFOp::create(b, f32t, x);
      if (y.getType() != f32t)
        y = arith::ExtFOp::create(b, f32t, y);
      scf::YieldOp::create(b, ValueRange{math::FmaOp::create(
                                  b, x, y, loop.getRegionIterArgs()[0])});
    }
    memref::StoreOp::create(b, loop.getResult(0), out, ValueRange{r, c});
  });
}

void AttentionEmitter::groupProduct(Value gRow, Value a, Value bt,
                                    int64_t depth, int64_t width, Value out) {
  MLIRContext *ctx = b.getContext();
  Type elem = ch.inputType, f32t = b.getF32Type();
  AffineExpr d0, d1, d2;
  bindDims(ctx, d0, d1, d2);
  SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {d0, d2}, ctx),
                                 AffineMap::get(3, 0, {d2, d1}, ctx),
                                 AffineMap::get(3, 0, {d0, d1}, ctx)};
  auto iters = b.getArrayAttr(
      {vector::IteratorTypeAttr::get(ctx, vector::IteratorType::parallel),
       vector::IteratorTypeAttr::get(ctx, vector::IteratorType::parallel),
       vector::IteratorTypeAttr::get(ctx, vector::IteratorType::reduction)});
  Value pad = arith::ConstantOp::create(b, b.getZeroAttr(elem));
  auto accType = VectorType::get({s.fragM, s.fragN}, f32t);
  int64_t n = width / s.fragN;
  // A k loop carrying the accumulators, as in a contraction's kernel: the
  // plugin lowers the tagged contractions of one such loop together.
  scf::ForOp loop = k.kLoop(accType, n, depth / s.fragK);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> accs(loop.getRegionIterArgs());
    Value kk = k.mul(loop.getInductionVar(), s.fragK);
    Value x = vector::TransferReadOp::create(
        b, VectorType::get({s.fragM, s.fragK}, elem), a, ValueRange{gRow, kk},
        pad, ArrayRef<bool>{true, true});
    SmallVector<Value> ys;
    for (int64_t y = 0; y < n; ++y)
      ys.push_back(vector::TransferReadOp::create(
          b, VectorType::get({s.fragK, s.fragN}, elem), bt,
          ValueRange{kk, k.idx(y * s.fragN)}, pad, ArrayRef<bool>{true, true}));
    for (int64_t y = 0; y < n; ++y) {
      auto contract = vector::ContractionOp::create(
          b, x, ys[y], accs[y], b.getAffineMapArrayAttr(maps), iters);
      contract->setAttr(kIntrinsicAttrName, b.getStringAttr(s.intrinsic));
      accs[y] = contract;
    }
    scf::YieldOp::create(b, accs);
  }
  SmallVector<Value> accs(loop.getResults());
  for (int64_t y = 0; y < n; ++y)
    vector::TransferWriteOp::create(b, accs[y], out,
                                    ValueRange{gRow, k.idx(y * s.fragN)},
                                    ArrayRef<bool>{true, true});
}

void AttentionEmitter::emit() {
  MLIRContext *ctx = b.getContext();
  auto space = MemAttr::get(ctx, s.levels.scratchpad);
  Type elem = ch.inputType, f32t = b.getF32Type();
  const HierarchyAttentionShape &sh = ch.shape;
  int64_t bm = s.blockM, bk = s.blockK, d = sh.headDim, dv = sh.valueDim;
  int64_t pad = s.padElements, fpad = HierarchyAttentionSchedule::kF32Pad;
  int64_t lanes = s.lanesPerBlock(), groupLanes = s.levels.lanes;
  // Guards only where tiles do not divide the extents.
  bool partialQueries = sh.queries % bm != 0, partialKeys = sh.keys % bk != 0;
  float negInf = -std::numeric_limits<float>::infinity();

  auto kernel = k.forall(
      s.levels.block, {s.gridBatch, s.gridQueries}, [&](ValueRange ids) {
        Value bh = ids[0], q0 = k.mul(ids[1], bm);
        // One scratchpad buffer; the f32 scores and the f32 P V product share
        // their bytes (the scores are dead once P is written).
        Value shared = memref::AllocOp::create(
            b, MemRefType::get({s.tiles.total()}, b.getI8Type(),
                               MemRefLayoutAttrInterface(), space));
        int64_t offset = 0;
        auto view = [&](ArrayRef<int64_t> shape, Type t, int64_t at) -> Value {
          return memref::ViewOp::create(
              b, MemRefType::get(shape, t, MemRefLayoutAttrInterface(), space),
              shared, k.idx(at), ValueRange());
        };
        Value qTile = view({bm, d + pad}, elem, offset);
        offset += s.tiles.query;
        Value kTile = view({d, bk + pad}, elem, offset);
        offset += s.tiles.keysT;
        Value vTile = view({bk, dv + pad}, elem, offset);
        offset += s.tiles.values;
        Value sTile = view({bm, bk + fpad}, f32t, offset);
        Value pvTile = view({bm, dv + fpad}, f32t, offset);
        offset += s.tiles.scores;
        Value pTile = view({bm, bk + pad}, elem, offset);
        offset += s.tiles.probs;
        Value oTile = view({bm, dv + fpad}, f32t, offset);
        offset += s.tiles.output;
        // Rows: maximum, sum, rescale factor, next maximum, then each row
        // lane's partial maximum and partial sum.
        Value rows = view({4 + 2 * s.rowLanes, bm}, f32t, offset);
        Value rMax = k.idx(0), rSum = k.idx(1), rScale = k.idx(2),
              rNext = k.idx(3), rPartMax = k.idx(4),
              rPartSum = k.idx(4 + s.rowLanes);

        k.forall(s.levels.group, {s.groups}, [&](ValueRange g) {
          Value group = g[0];
          Value gRow = k.mul(group, s.fragM);
          auto laneLoop = [&](function_ref<void(Value)> body) {
            k.forall(s.levels.lane, {groupLanes}, [&](ValueRange l) {
              body(k.add(k.mul(group, groupLanes), l[0]));
            });
          };
          Value zeroIn = arith::ConstantOp::create(b, b.getZeroAttr(elem));
          // The Q tile, zero past the queries; O = 0, max = -inf, sum = 0.
          laneLoop([&](Value id) {
            // Rows of 16-byte vectors where Q is a plain array, else one
            // element at a time through its indexing map.
            if (!copyRows(id, querySource(), bh, q0, bm, d,
                          partialQueries ? sh.queries : 0, qTile, false))
              k.strided(id, bm * d, lanes, [&](Value e) {
                Value r = k.div(e, d), c = k.rem(e, d);
                Value query = k.add(q0, r);
                Value in =
                    partialQueries ? k.lt(query, k.idx(sh.queries)) : Value();
                Value v = guardedLoad(in, zeroIn,
                                      [&] { return loadQuery(bh, query, c); });
                memref::StoreOp::create(b, v, qTile, ValueRange{r, c});
              });
            k.strided(id, bm * dv, lanes, [&](Value e) {
              Value r = k.div(e, dv), c = k.rem(e, dv);
              memref::StoreOp::create(b, f32(0), oTile, ValueRange{r, c});
            });
            k.strided(id, bm, lanes, [&](Value r) {
              memref::StoreOp::create(b, f32(negInf), rows,
                                      ValueRange{rMax, r});
              memref::StoreOp::create(b, f32(0), rows, ValueRange{rSum, r});
            });
          });
          gpu::BarrierOp::create(b);

          auto loop =
              scf::ForOp::create(b, k.idx(0), k.idx(s.keyTiles), k.idx(1));
          {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPointToStart(loop.getBody());
            Value key0 = k.mul(loop.getInductionVar(), bk);
            // Kᵀ and V tiles, zero past the keys (so that P V adds nothing
            // there, whatever lies past the end of V). Consecutive lanes read
            // consecutive elements of a key's row.
            laneLoop([&](Value id) {
              if (!copyRows(id, keySource(), bh, key0, bk, d,
                            partialKeys ? sh.keys : 0, kTile, true))
                k.strided(id, bk * d, lanes, [&](Value e) {
                  Value key = k.div(e, d), c = k.rem(e, d);
                  Value gk = k.add(key0, key);
                  Value in = partialKeys ? k.lt(gk, k.idx(sh.keys)) : Value();
                  Value v = guardedLoad(in, zeroIn,
                                        [&] { return loadKey(bh, gk, c); });
                  memref::StoreOp::create(b, v, kTile, ValueRange{c, key});
                });
              if (!copyRows(id, valueSource(), bh, key0, bk, dv,
                            partialKeys ? sh.keys : 0, vTile, false))
                k.strided(id, bk * dv, lanes, [&](Value e) {
                  Value key = k.div(e, dv), c = k.rem(e, dv);
                  Value gk = k.add(key0, key);
                  Value in = partialKeys ? k.lt(gk, k.idx(sh.keys)) : Value();
                  Value v = guardedLoad(in, zeroIn,
                                        [&] { return loadValue(bh, gk, c); });
                  memref::StoreOp::create(b, v, vTile, ValueRange{key, c});
                });
            });
            gpu::BarrierOp::create(b);
            // S = Q Kᵀ for the group's rows.
            product(gRow, laneLoop, qTile, kTile, d, bk, sTile);
            gpu::BarrierOp::create(b);
            // Online softmax, `rowLanes` lanes per row, each over a slice of
            // the key tile: first the slices' maxima of the scaled scores
            // over the keys that exist, then, after a barrier, the row's new
            // maximum, P = e^(s - m) (0 past the keys) and the slices' sums.
            int64_t rl = s.rowLanes, slice = bk / rl;
            auto valid = [&](Value j) -> Value {
              return partialKeys ? k.lt(k.add(key0, j), k.idx(sh.keys))
                                 : Value();
            };
            auto rowSlices = [&](function_ref<void(Value, Value, Value)> body) {
              laneLoop([&](Value id) {
                k.strided(id, bm * rl, lanes, [&](Value e) {
                  Value h = k.rem(e, rl);
                  body(k.div(e, rl), h, k.mul(h, slice));
                });
              });
            };
            // One loop over the row's keys [j0, j0 + slice) carrying `init`.
            auto overSlice = [&](Value j0, Value init,
                                 function_ref<Value(Value, Value)> step) {
              auto loop = scf::ForOp::create(b, k.idx(0), k.idx(slice),
                                             k.idx(1), ValueRange{init});
              OpBuilder::InsertionGuard g2(b);
              b.setInsertionPointToStart(loop.getBody());
              Value j = k.add(j0, loop.getInductionVar());
              scf::YieldOp::create(
                  b, ValueRange{step(j, loop.getRegionIterArgs()[0])});
              return loop.getResult(0);
            };
            rowSlices([&](Value r, Value h, Value j0) {
              Value m = overSlice(j0, f32(negInf), [&](Value j, Value acc) {
                Value x =
                    scaled(memref::LoadOp::create(b, sTile, ValueRange{r, j}));
                if (Value in = valid(j))
                  x = arith::SelectOp::create(b, in, x, f32(negInf));
                return arith::MaximumFOp::create(b, acc, x).getResult();
              });
              memref::StoreOp::create(b, m, rows,
                                      ValueRange{k.add(rPartMax, h), r});
            });
            gpu::BarrierOp::create(b);
            rowSlices([&](Value r, Value h, Value j0) {
              Value old = memref::LoadOp::create(b, rows, ValueRange{rMax, r});
              Value m = old;
              for (int64_t x = 0; x < rl; ++x)
                m = arith::MaximumFOp::create(
                    b, m,
                    memref::LoadOp::create(
                        b, rows, ValueRange{k.add(rPartMax, k.idx(x)), r}));
              Value sum = overSlice(j0, f32(0), [&](Value j, Value acc) {
                Value x =
                    scaled(memref::LoadOp::create(b, sTile, ValueRange{r, j}));
                Value p =
                    math::ExpOp::create(b, arith::SubFOp::create(b, x, m));
                if (Value in = valid(j))
                  p = arith::SelectOp::create(b, in, p, f32(0));
                Value stored = p.getType() == elem
                                   ? p
                                   : arith::TruncFOp::create(b, elem, p);
                memref::StoreOp::create(b, stored, pTile, ValueRange{r, j});
                return arith::AddFOp::create(b, acc, p).getResult();
              });
              memref::StoreOp::create(b, sum, rows,
                                      ValueRange{k.add(rPartSum, h), r});
              // The first lane of the row: a = e^(old - m) (0 before the
              // first tile, old = -inf) and the new maximum, both read after
              // the next barrier.
              auto ifFirst = scf::IfOp::create(
                  b, arith::CmpIOp::create(b, arith::CmpIPredicate::eq, h,
                                           k.idx(0)));
              OpBuilder::InsertionGuard g2(b);
              b.setInsertionPointToStart(ifFirst.thenBlock());
              Value first = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ,
                                                  old, f32(negInf));
              Value alpha = arith::SelectOp::create(
                  b, first, f32(0),
                  math::ExpOp::create(b, arith::SubFOp::create(b, old, m)));
              memref::StoreOp::create(b, alpha, rows, ValueRange{rScale, r});
              memref::StoreOp::create(b, m, rows, ValueRange{rNext, r});
            });
            gpu::BarrierOp::create(b);
            // P V for the group's rows, over the scores' bytes.
            product(gRow, laneLoop, pTile, vTile, bk, dv, pvTile);
            gpu::BarrierOp::create(b);
            // O = O a + P V; l = l a + the slices' sums, m = the new maximum.
            laneLoop([&](Value id) {
              k.strided(id, bm, lanes, [&](Value r) {
                Value a =
                    memref::LoadOp::create(b, rows, ValueRange{rScale, r});
                Value l = arith::MulFOp::create(
                    b, memref::LoadOp::create(b, rows, ValueRange{rSum, r}), a);
                for (int64_t x = 0; x < rl; ++x)
                  l = arith::AddFOp::create(
                      b, l,
                      memref::LoadOp::create(
                          b, rows, ValueRange{k.add(rPartSum, k.idx(x)), r}));
                memref::StoreOp::create(b, l, rows, ValueRange{rSum, r});
                memref::StoreOp::create(
                    b, memref::LoadOp::create(b, rows, ValueRange{rNext, r}),
                    rows, ValueRange{rMax, r});
              });
              k.strided(id, bm * dv, lanes, [&](Value e) {
                Value r = k.div(e, dv), c = k.rem(e, dv);
                Value o = memref::LoadOp::create(b, oTile, ValueRange{r, c});
                Value a =
                    memref::LoadOp::create(b, rows, ValueRange{rScale, r});
                Value pv = memref::LoadOp::create(b, pvTile, ValueRange{r, c});
                Value next = arith::AddFOp::create(
                    b, arith::MulFOp::create(b, o, a), pv);
                memref::StoreOp::create(b, next, oTile, ValueRange{r, c});
              });
            });
            // The next tile's copies and products write only buffers whose last
            // readers the barriers above already waited for.
          }
          gpu::BarrierOp::create(b);
          // out = O / l for the queries that exist.
          Type outElem = getElementTypeOrSelf(ch.pv.c->get().getType());
          laneLoop([&](Value id) {
            k.strided(id, bm * dv, lanes, [&](Value e) {
              Value r = k.div(e, dv), c = k.rem(e, dv);
              Value query = k.add(q0, r);
              OpBuilder::InsertionGuard g2(b);
              if (partialQueries) {
                auto ifOp =
                    scf::IfOp::create(b, k.lt(query, k.idx(sh.queries)));
                b.setInsertionPointToStart(ifOp.thenBlock());
              }
              Value o = memref::LoadOp::create(b, oTile, ValueRange{r, c});
              Value l = memref::LoadOp::create(b, rows, ValueRange{rSum, r});
              Value v = arith::DivFOp::create(b, o, l);
              if (outElem != f32t)
                v = arith::TruncFOp::create(b, outElem, v);
              storeOutput(bh, query, c, v);
            });
          });
        });
      });
  setHierarchySchedule(kernel, s.toJson());
}
} // namespace

LogicalResult hierarchy::mapAttention(func::FuncOp func,
                                      const HierarchyLevels &levels,
                                      const hw::Description &chip) {
  SmallVector<linalg::LinalgOp> candidates;
  func.walk([&](linalg::LinalgOp op) {
    if (!op->getParentOfType<scf::ForallOp>() && succeeded(matchBatched(op)))
      candidates.push_back(op);
  });
  llvm::DenseSet<Operation *> erased;
  for (linalg::LinalgOp qk : candidates) {
    if (erased.contains(qk))
      continue;
    FailureOr<Chain> ch = matchChain(qk);
    if (failed(ch))
      continue;
    HierarchyAttentionChoice choice =
        chooseHierarchyAttentionSchedule(ch->shape, levels, chip);
    if (!choice.schedule) {
      ch->pv.op->emitRemark("strata-map-hierarchy: attention is mapped as "
                            "separate ops: ")
          << choice.error;
      continue;
    }
    if (!makeRoomAtSecondProduct(*ch)) {
      ch->pv.op->emitRemark("strata-map-hierarchy: attention is mapped as "
                            "separate ops: its output is one of its inputs, "
                            "or they are used by other ops between its first "
                            "and its second product");
      continue;
    }
    // The kernel builder reads only the levels of a contraction schedule.
    HierarchySchedule hs;
    hs.levels = levels;
    ImplicitLocOpBuilder b(ch->pv.op->getLoc(), ch->pv.op);
    AttentionEmitter(b, *ch, *choice.schedule, hs).emit();
    for (Operation *op : llvm::reverse(ch->ops)) {
      erased.insert(op);
      op->erase();
    }
  }
  return success();
}
