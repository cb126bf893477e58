//===- AttentionMask.cpp - Which keys a mask hides ------------------------===//
//
// keysAfterQueryMasked (AttentionMask.h) evaluates the scale ops' bodies
// symbolically:
//
//  - integer values as a * key + b * query + c, from linalg.index of the
//    query and key loops, integer constants, casts, addi, subi and muli by
//    a constant (the indices are small: no wrap-around is assumed);
//  - conditions as an upper bound on key - query where they hold: cmpi of
//    two such values whose difference is t * (key - query) + g (sle, slt,
//    eq, and their mirrors; the unsigned predicates where both sides are
//    sums of indices and non-negative constants), negated through xori
//    with true, combined through andi and ori;
//  - floats as a bound c with the value -inf wherever key - query > c:
//    the constant -inf, select(cond, x, y) (y past cond's bound, x past
//    the negation's), addf (either operand), subf (its minuend), mulf and
//    divf by a positive constant, min (either), max (both), casts.
//
// addf(x, -inf) is -inf for every x but +inf and NaN; scores are products
// of finite inputs, so this takes them as neither (where one is, the
// unfused program's row is NaN and the kernel's may differ).
//
//===----------------------------------------------------------------------===//
#include "AttentionMask.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace strata;
using namespace strata::hierarchy;

namespace {
/// key * (the key index) + query * (the query index) + constant.
struct Linear {
  int64_t key = 0, query = 0, constant = 0;
};

/// Bounds that hold for every position (a constant -inf) are this one; the
/// caller clamps bounds to the extents.
constexpr int64_t kAlways = std::numeric_limits<int64_t>::min() / 4;
/// Coefficients and constants past this are refused (no overflow below).
constexpr int64_t kLimit = int64_t(1) << 40;
/// The bodies are small; deeper expressions are refused.
constexpr int kMaxDepth = 32;

using Bound = std::optional<int64_t>;

/// A bound where either condition suffices.
Bound either(Bound a, Bound b) {
  if (a && b)
    return std::min(*a, *b);
  return a ? a : b;
}

/// A bound where both conditions are needed.
Bound both(Bound a, Bound b) {
  if (a && b)
    return std::max(*a, *b);
  return std::nullopt;
}

/// The predicate p' with x p y <=> y p' x (signed and equality ones).
arith::CmpIPredicate mirrored(arith::CmpIPredicate p) {
  using P = arith::CmpIPredicate;
  switch (p) {
  case P::slt:
    return P::sgt;
  case P::sle:
    return P::sge;
  case P::sgt:
    return P::slt;
  case P::sge:
    return P::sle;
  default:
    return p;
  }
}

class MaskAnalysis {
public:
  MaskAnalysis(ArrayRef<linalg::LinalgOp> scales, unsigned query, unsigned key)
      : scales(scales.begin(), scales.end()), query(query), key(key) {}

  /// c with `v` -inf wherever key - query > c.
  Bound infinite(Value v, int depth = 0);

private:
  std::optional<Linear> linear(Value v, int depth);
  /// c with key - query <= c wherever `cond` (its negation when `negated`)
  /// holds.
  Bound holds(Value cond, bool negated, int depth);

  SmallVector<linalg::LinalgOp> scales;
  unsigned query, key;
};
} // namespace

std::optional<Linear> MaskAnalysis::linear(Value v, int depth) {
  if (depth > kMaxDepth)
    return std::nullopt;
  auto ok = [](Linear l) -> std::optional<Linear> {
    if (std::abs(l.key) > kLimit || std::abs(l.query) > kLimit ||
        std::abs(l.constant) > kLimit)
      return std::nullopt;
    return l;
  };
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return c.getSignificantBits() > 48 ? std::nullopt
                                       : ok(Linear{0, 0, c.getSExtValue()});
  Operation *op = v.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (auto index = dyn_cast<linalg::IndexOp>(op)) {
    if (index.getDim() == key)
      return Linear{1, 0, 0};
    if (index.getDim() == query)
      return Linear{0, 1, 0};
    return std::nullopt;
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp, arith::TruncIOp>(op))
    return linear(op->getOperand(0), depth + 1);
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op))
    return std::nullopt;
  std::optional<Linear> x = linear(op->getOperand(0), depth + 1);
  std::optional<Linear> y = linear(op->getOperand(1), depth + 1);
  if (!x || !y)
    return std::nullopt;
  if (isa<arith::AddIOp>(op))
    return ok(
        {x->key + y->key, x->query + y->query, x->constant + y->constant});
  if (isa<arith::SubIOp>(op))
    return ok(
        {x->key - y->key, x->query - y->query, x->constant - y->constant});
  // muli: one side a constant.
  if (x->key == 0 && x->query == 0)
    std::swap(x, y);
  if (y->key != 0 || y->query != 0)
    return std::nullopt;
  int64_t f = y->constant;
  if (std::abs(f) > kLimit)
    return std::nullopt;
  return ok({x->key * f, x->query * f, x->constant * f});
}

Bound MaskAnalysis::holds(Value cond, bool negated, int depth) {
  if (depth > kMaxDepth)
    return std::nullopt;
  Operation *op = cond.getDefiningOp();
  if (!op)
    return std::nullopt;
  using P = arith::CmpIPredicate;
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    P pred = negated ? arith::invertPredicate(cmp.getPredicate())
                     : cmp.getPredicate();
    std::optional<Linear> l = linear(cmp.getLhs(), depth + 1);
    std::optional<Linear> r = linear(cmp.getRhs(), depth + 1);
    if (!l || !r)
      return std::nullopt;
    // Unsigned compares order as signed ones where both sides are sums of
    // indices (never negative) and non-negative constants.
    auto nonNegative = [](const Linear &x) {
      return x.key >= 0 && x.query >= 0 && x.constant >= 0;
    };
    bool isUnsigned =
        pred == P::ult || pred == P::ule || pred == P::ugt || pred == P::uge;
    if (isUnsigned && (!nonNegative(*l) || !nonNegative(*r)))
      return std::nullopt;
    switch (pred) {
    case P::ult:
      pred = P::slt;
      break;
    case P::ule:
      pred = P::sle;
      break;
    case P::ugt:
      pred = P::sgt;
      break;
    case P::uge:
      pred = P::sge;
      break;
    default:
      break;
    }
    // (l - r) pred 0 with l - r = t * (key - query) + g; t > 0 after
    // mirroring (x pred 0 <=> -x swapped(pred) 0).
    int64_t t = l->key - r->key, g = l->constant - r->constant;
    if (t == 0 || l->query - r->query != -t)
      return std::nullopt;
    if (t < 0) {
      t = -t, g = -g;
      pred = mirrored(pred);
    }
    // t * (key - query) <= -g (sle, eq) or < -g (slt).
    if (pred == P::sle || pred == P::eq)
      return llvm::divideFloorSigned(-g, t);
    if (pred == P::slt)
      return llvm::divideFloorSigned(-g - 1, t);
    return std::nullopt;
  }
  if (auto x = dyn_cast<arith::XOrIOp>(op)) {
    for (int i = 0; i < 2; ++i)
      if (matchPattern(x->getOperand(1 - i), m_One()) &&
          x.getType().isInteger(1))
        return holds(x->getOperand(i), !negated, depth + 1);
    return std::nullopt;
  }
  if (isa<arith::AndIOp, arith::OrIOp>(op) &&
      op->getResult(0).getType().isInteger(1)) {
    Bound a = holds(op->getOperand(0), negated, depth + 1);
    Bound b = holds(op->getOperand(1), negated, depth + 1);
    // a and b holds where either does; a or b (not a and not b) where both.
    return isa<arith::AndIOp>(op) != negated ? either(a, b) : both(a, b);
  }
  return std::nullopt;
}

Bound MaskAnalysis::infinite(Value v, int depth) {
  if (depth > kMaxDepth)
    return std::nullopt;
  if (auto a = dyn_cast<BlockArgument>(v)) {
    // The first input of a scale op is the previous one's result.
    for (size_t i = 1; i < scales.size(); ++i)
      if (a.getOwner() == scales[i].getBlock() && a.getArgNumber() == 0) {
        auto yield =
            cast<linalg::YieldOp>(scales[i - 1].getBlock()->getTerminator());
        return infinite(yield.getValues()[0], depth + 1);
      }
    return std::nullopt;
  }
  FloatAttr::ValueType f(0.0);
  if (matchPattern(v, m_ConstantFloat(&f)))
    return f.isInfinity() && f.isNegative() ? Bound(kAlways) : std::nullopt;
  Operation *op = v.getDefiningOp();
  if (!op)
    return std::nullopt;
  auto positive = [](Value c) {
    FloatAttr::ValueType x(0.0);
    return matchPattern(c, m_ConstantFloat(&x)) && x.isFiniteNonZero() &&
           !x.isNegative();
  };
  if (isa<arith::TruncFOp, arith::ExtFOp>(op))
    return infinite(op->getOperand(0), depth + 1);
  if (isa<arith::AddFOp, arith::MinimumFOp, arith::MinNumFOp>(op))
    return either(infinite(op->getOperand(0), depth + 1),
                  infinite(op->getOperand(1), depth + 1));
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(op))
    return both(infinite(op->getOperand(0), depth + 1),
                infinite(op->getOperand(1), depth + 1));
  if (isa<arith::SubFOp>(op))
    return infinite(op->getOperand(0), depth + 1);
  if (isa<arith::MulFOp>(op)) {
    for (int i = 0; i < 2; ++i)
      if (positive(op->getOperand(1 - i)))
        return infinite(op->getOperand(i), depth + 1);
    return std::nullopt;
  }
  if (isa<arith::DivFOp>(op))
    return positive(op->getOperand(1)) ? infinite(op->getOperand(0), depth + 1)
                                       : std::nullopt;
  if (auto s = dyn_cast<arith::SelectOp>(op)) {
    if (!s.getCondition().getType().isInteger(1))
      return std::nullopt;
    Bound x = infinite(s.getTrueValue(), depth + 1);
    Bound y = infinite(s.getFalseValue(), depth + 1);
    // Past cond's bound the false value is taken, past the negation's the
    // true value.
    return either(both(x, y),
                  either(both(holds(s.getCondition(), false, depth + 1), y),
                         both(holds(s.getCondition(), true, depth + 1), x)));
  }
  return std::nullopt;
}

std::optional<int64_t>
hierarchy::keysAfterQueryMasked(ArrayRef<linalg::LinalgOp> scales,
                                unsigned query, unsigned key) {
  if (scales.empty())
    return std::nullopt;
  linalg::LinalgOp last = scales.back();
  auto yield = cast<linalg::YieldOp>(last.getBlock()->getTerminator());
  if (yield.getValues().size() != 1)
    return std::nullopt;
  return MaskAnalysis(scales, query, key).infinite(yield.getValues()[0]);
}
