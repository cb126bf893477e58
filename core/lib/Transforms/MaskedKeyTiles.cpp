//===- MaskedKeyTiles.cpp - Row groups skip the keys a mask hides ---------===//
//
// See MaskedKeyTiles.h. The group's ops along the keys are found from the
// scores: the contraction that makes them, its chain of scale ops (the
// mask), and every op that reads a value along the keys. Skipping the
// hidden keys is exact only where they would have changed nothing, which
// is checked op by op by evaluating each body at a hidden key: the last
// scale yields -inf there; an op along the keys must yield -inf or zero
// there (exp(s - max) is 0, P = E / L is 0, a flag of "not -inf" is false),
// and a reduction over the keys must combine its accumulator with its
// identity (max with -inf, a sum or an or with zero, P * V adds 0 * v).
// Anything else (a minimum over the keys, a mean, an unknown op) keeps the
// group as it is.
//
//===----------------------------------------------------------------------===//
#include "MaskedKeyTiles.h"
#include "AttentionMask.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace strata;

namespace {
/// A value at a hidden key: -inf, zero (or false), true, or anything else.
enum class Hidden { Other, NegInf, Zero, True };

/// The scale ops after the scores `qk` yields: generics of the scores'
/// loops, each reading the previous value alone with identity maps. Every
/// value before the last has that next op as its only user.
SmallVector<linalg::LinalgOp> scaleChain(linalg::LinalgOp qk) {
  SmallVector<linalg::LinalgOp> scales;
  if (qk->getNumResults() != 1)
    return scales;
  auto scores = dyn_cast<RankedTensorType>(qk->getResult(0).getType());
  if (!scores || scores.getRank() < 2)
    return scales;
  Value cur = qk->getResult(0);
  while (cur.hasOneUse()) {
    auto g = dyn_cast<linalg::GenericOp>(*cur.getUsers().begin());
    if (!g || g.getNumLoops() != unsigned(scores.getRank()) ||
        g.getNumReductionLoops() != 0 || g.getNumDpsInputs() != 1 ||
        g.getNumDpsInits() != 1 || g->getNumResults() != 1 ||
        g.getDpsInputOperand(0)->get() != cur ||
        !g.getMatchingIndexingMap(g.getDpsInputOperand(0)).isIdentity() ||
        !g.getMatchingIndexingMap(g.getDpsInitOperand(0)).isIdentity())
      break;
    scales.push_back(g);
    cur = g->getResult(0);
  }
  return scales;
}

/// `v`, computed in a linalg body whose block arguments are `args` at a
/// hidden key.
Hidden evaluate(Value v, const DenseMap<Value, Hidden> &args, int depth = 0) {
  if (auto it = args.find(v); it != args.end())
    return it->second;
  Operation *op = v.getDefiningOp();
  if (!op || depth > 32)
    return Hidden::Other;
  FloatAttr::ValueType f(0.0);
  if (matchPattern(v, m_ConstantFloat(&f)))
    return f.isZero()                         ? Hidden::Zero
           : f.isInfinity() && f.isNegative() ? Hidden::NegInf
                                              : Hidden::Other;
  if (matchPattern(v, m_Zero()))
    return Hidden::Zero;
  if (v.getType().isInteger(1) && matchPattern(v, m_One()))
    return Hidden::True;
  auto at = [&](unsigned i) {
    return evaluate(op->getOperand(i), args, depth + 1);
  };
  if (isa<arith::ExtFOp, arith::TruncFOp>(op))
    return at(0);
  if (isa<arith::ExtUIOp, arith::ExtSIOp, arith::TruncIOp, arith::UIToFPOp,
          arith::SIToFPOp>(op))
    return at(0) == Hidden::Zero ? Hidden::Zero : Hidden::Other;
  if (isa<math::ExpOp>(op))
    return at(0) == Hidden::NegInf ? Hidden::Zero : Hidden::Other;
  // Scores are finite where not -inf (AttentionMask.h): -inf plus or
  // minus a finite value is -inf.
  if (isa<arith::SubFOp>(op))
    return at(0) == Hidden::NegInf && at(1) != Hidden::NegInf ? Hidden::NegInf
           : at(0) == Hidden::Zero && at(1) == Hidden::Zero   ? Hidden::Zero
                                                              : Hidden::Other;
  if (isa<arith::AddFOp>(op)) {
    Hidden a = at(0), b = at(1);
    if (a == Hidden::NegInf || b == Hidden::NegInf)
      return Hidden::NegInf;
    return a == Hidden::Zero && b == Hidden::Zero ? Hidden::Zero
                                                  : Hidden::Other;
  }
  if (isa<arith::XOrIOp>(op)) {
    Hidden a = at(0), b = at(1);
    bool known = (a == Hidden::Zero || a == Hidden::True) &&
                 (b == Hidden::Zero || b == Hidden::True);
    return !known ? Hidden::Other : a == b ? Hidden::Zero : Hidden::True;
  }
  if (isa<arith::MulFOp, arith::MulIOp, arith::AndIOp>(op)) {
    Hidden a = at(0), b = at(1);
    return (a == Hidden::Zero && b != Hidden::NegInf) ||
                   (b == Hidden::Zero && a != Hidden::NegInf)
               ? Hidden::Zero
               : Hidden::Other;
  }
  if (isa<arith::DivFOp>(op))
    return at(0) == Hidden::Zero && at(1) == Hidden::Other ? Hidden::Zero
                                                           : Hidden::Other;
  if (isa<arith::MaxNumFOp, arith::MaximumFOp>(op)) {
    Hidden a = at(0), b = at(1);
    return a == Hidden::NegInf ? b : b == Hidden::NegInf ? a : Hidden::Other;
  }
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    Hidden c = at(0), x = at(1), y = at(2);
    if (c == Hidden::Zero)
      return y;
    return x == y ? x : Hidden::Other;
  }
  if (auto cmp = dyn_cast<arith::CmpFOp>(op)) {
    // x == -inf and x != -inf, for x -inf.
    using P = arith::CmpFPredicate;
    if (at(0) != Hidden::NegInf || at(1) != Hidden::NegInf)
      return Hidden::Other;
    if (cmp.getPredicate() == P::ONE || cmp.getPredicate() == P::UNE)
      return Hidden::Zero;
    if (cmp.getPredicate() == P::OEQ || cmp.getPredicate() == P::UEQ)
      return Hidden::True;
    return Hidden::Other;
  }
  return Hidden::Other;
}

/// The reduction `result` of `op` (its map lacks the key loop) is left
/// unchanged by a hidden key: its yielded value combines the accumulator
/// with the combiner's identity there.
bool unchangedByHiddenKey(linalg::LinalgOp op, OpResult result,
                          const DenseMap<Value, Hidden> &args) {
  Block *body = op.getBlock();
  Value acc =
      body->getArgument(op.getNumDpsInputs() + result.getResultNumber());
  Value yielded = body->getTerminator()->getOperand(result.getResultNumber());
  Operation *combine = yielded.getDefiningOp();
  if (!combine || combine->getNumOperands() != 2)
    return false;
  Value other = combine->getOperand(0) == acc   ? combine->getOperand(1)
                : combine->getOperand(1) == acc ? combine->getOperand(0)
                                                : Value();
  if (!other)
    return false;
  Hidden x = evaluate(other, args);
  if (isa<arith::AddFOp, arith::AddIOp, arith::OrIOp, arith::XOrIOp,
          arith::MaxUIOp>(combine))
    return x == Hidden::Zero;
  if (isa<arith::MaxNumFOp, arith::MaximumFOp>(combine))
    return x == Hidden::NegInf;
  return false;
}

/// The position of `dim` among `map`'s results, if one is that dim alone.
std::optional<unsigned> positionOf(AffineMap map, unsigned dim) {
  for (unsigned p = 0; p < map.getNumResults(); ++p)
    if (auto d = dyn_cast<AffineDimExpr>(map.getResult(p));
        d && d.getPosition() == dim)
      return p;
  return std::nullopt;
}
} // namespace

std::optional<int64_t>
strata::maskedKeysAfter(linalg::LinalgOp root,
                        function_ref<bool(Operation *)> isContraction) {
  if (root.getNumDpsInputs() < 1)
    return std::nullopt;
  // The scores' contraction: the first among P's producers.
  linalg::LinalgOp qk;
  SmallVector<Value> work{root.getDpsInputOperand(0)->get()};
  llvm::SmallPtrSet<Operation *, 16> seen;
  for (size_t i = 0; i < work.size() && !qk; ++i) {
    auto op = work[i].getDefiningOp<linalg::LinalgOp>();
    if (!op || !seen.insert(op).second)
      continue;
    if (isContraction(op)) {
      qk = op;
      break;
    }
    llvm::append_range(work, op.getDpsInputs());
  }
  if (!qk)
    return std::nullopt;
  SmallVector<linalg::LinalgOp> scales = scaleChain(qk);
  unsigned rank = cast<RankedTensorType>(qk->getResult(0).getType()).getRank();
  return hierarchy::keysAfterQueryMasked(scales, rank - 2, rank - 1);
}

FailureOr<bool> strata::skipMaskedKeyTiles(
    RewriterBase &rw, scf::ForOp queries, Value queryOffset, scf::ForOp rows,
    Operation *root, int64_t keysAfter, int64_t keyTile,
    function_ref<bool(Operation *)> isContraction, KeyTiler tileKeys) {
  Block *body = rows.getBody();
  std::optional<int64_t> block = getConstantIntValue(queries.getStep());
  if (!block || keyTile <= 0)
    return false;
  // The scores' contraction in the group, and its scale chain.
  linalg::LinalgOp qk;
  for (Operation &op : *body)
    if (&op != root && isContraction(&op)) {
      if (qk)
        return false;
      qk = cast<linalg::LinalgOp>(op);
    }
  if (!qk || qk->getNumResults() != 1)
    return false;
  SmallVector<linalg::LinalgOp> scales = scaleChain(qk);
  if (scales.empty())
    return false;
  auto scores = cast<RankedTensorType>(qk->getResult(0).getType());
  std::optional<unsigned> qkKey;
  if (auto d = dyn_cast<AffineDimExpr>(
          qk.getIndexingMapMatchingResult(qk->getResult(0))
              .getResult(scores.getRank() - 1)))
    qkKey = d.getPosition();
  if (!qkKey)
    return false;
  int64_t keys = qk.getStaticLoopRanges()[*qkKey];
  if (ShapedType::isDynamic(keys) || keys % keyTile != 0 || keys < 2 * keyTile)
    return false;

  // The plan: each op along the keys with its key loop, in order; the
  // values along the keys with their key dim and their value at a hidden
  // key (the scores and scale values before the last are never read there).
  SmallVector<std::pair<linalg::LinalgOp, unsigned>> plan = {{qk, *qkKey}};
  DenseMap<Value, std::pair<unsigned, Hidden>> along;
  along[qk->getResult(0)] = {unsigned(scores.getRank() - 1), Hidden::Other};
  for (linalg::LinalgOp scale : scales) {
    plan.push_back({scale, unsigned(scores.getRank() - 1)});
    along[scale->getResult(0)] = {unsigned(scores.getRank() - 1),
                                  Hidden::Other};
  }
  along[scales.back()->getResult(0)].second = Hidden::NegInf;
  llvm::SmallPtrSet<Operation *, 16> planned;
  for (auto &[op, dim] : plan)
    planned.insert(op);
  for (Operation &any : *body) {
    auto op = dyn_cast<linalg::LinalgOp>(&any);
    if (!op || planned.contains(op))
      continue;
    std::optional<unsigned> key;
    DenseMap<Value, Hidden> args;
    for (OpOperand &operand : op->getOpOperands()) {
      auto it = along.find(operand.get());
      Value arg = op.getMatchingBlockArgument(&operand);
      if (it == along.end()) {
        args[arg] = Hidden::Other;
        continue;
      }
      auto d = dyn_cast<AffineDimExpr>(
          op.getMatchingIndexingMap(&operand).getResult(it->second.first));
      if (!d || (key && *key != d.getPosition()))
        return false;
      key = d.getPosition();
      args[arg] = it->second.second;
    }
    if (!key)
      continue;
    for (OpResult result : op->getResults()) {
      std::optional<unsigned> p =
          positionOf(op.getIndexingMapMatchingResult(result), *key);
      if (!p) {
        if (!unchangedByHiddenKey(op, result, args))
          return false;
        continue;
      }
      Hidden h = evaluate(
          op.getBlock()->getTerminator()->getOperand(result.getResultNumber()),
          args);
      if (h == Hidden::Other)
        return false;
      along[result] = {*p, h};
    }
    plan.push_back({op, *key});
    planned.insert(op);
  }
  if (!planned.contains(root))
    return false;
  // Values along the keys are read by the planned ops alone.
  for (auto &[value, info] : along)
    for (Operation *user : value.getUsers())
      if (!planned.contains(user))
        return false;

  // The block's last needed key, rounded up to whole tiles, at least one.
  OpBuilder::InsertionGuard guard(rw);
  rw.setInsertionPointToStart(body);
  Location loc = rows.getLoc();
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rw, loc, v);
  };
  Value first = queries.getInductionVar();
  if (queryOffset)
    first = arith::AddIOp::create(rw, loc, first, queryOffset);
  Value last =
      arith::AddIOp::create(rw, loc, first, constant(*block + keysAfter));
  Value tiles = arith::CeilDivSIOp::create(rw, loc, last, constant(keyTile));
  Value end = arith::MulIOp::create(rw, loc, tiles, constant(keyTile));
  end = arith::MaxSIOp::create(rw, loc, end, constant(keyTile));
  end = arith::MinSIOp::create(rw, loc, end, constant(keys));
  for (auto &[op, dim] : plan) {
    FailureOr<scf::ForOp> loop = tileKeys(op, dim, keyTile);
    if (failed(loop))
      return failure();
    rw.modifyOpInPlace(*loop, [&] { loop->setUpperBound(end); });
  }
  return true;
}
