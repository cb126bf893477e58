//===- RowPadding.cpp - What the padding of a row program's inputs holds --===//
//
// A row program works on whole tiles; rows whose length is not a multiple
// of the tile's width are padded. Zeros in the padding would enter a max
// (a row of negative scores) or a sum of exp(x - max). Instead each whole
// input read from DRAM is padded with a value chosen so that every
// reduction of the program reads its identity there: the ops are folded
// on scalars at a padded column, with the per-row vectors (reduction
// results, unknown) given several sample values; a choice holds when every
// reduced value is 0 for a sum and -inf for a max in every sample. A
// softmax pads with -inf (max ignores it, exp(-inf - max) adds 0); a sum of
// x or of x * gamma pads with 0; a max of values that are never negative
// (|x|, exp, squares) pads with what makes them 0 or less; a layer norm has
// none ((0 - mean)^2 is not 0): its reductions are masked (MaskedRows.cpp),
// and a select of a known condition (the mask's padding, false) is the
// branch it picks. What an op that does not fold leaves in the padding is
// unknown (NaN).
//
//===----------------------------------------------------------------------===//
#include "FunctionLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace strata;
using namespace strata::tile;

namespace {

/// The value of `v` in a generic's body, block arguments from `args`:
/// its op folded (MLIR's constant folders) on its operands' values;
/// nothing where an op does not fold.
std::optional<double> valueOf(Value v, const DenseMap<Value, double> &args,
                              DenseMap<Value, double> &memo) {
  if (auto it = memo.find(v); it != memo.end())
    return it->second;
  if (auto it = args.find(v); it != args.end())
    return it->second;
  Operation *op = v.getDefiningOp();
  if (!op || op->getNumResults() != 1)
    return std::nullopt;
  // A select of a known condition is its branch, whatever the other holds
  // (a masked reduction's select(column is real, x, identity)).
  if (auto select = dyn_cast<arith::SelectOp>(op))
    if (std::optional<double> c = valueOf(select.getCondition(), args, memo))
      return valueOf(*c != 0.0 ? select.getTrueValue() : select.getFalseValue(),
                     args, memo);
  // Booleans are 0 and 1.
  SmallVector<Attribute> operands;
  for (Value operand : op->getOperands()) {
    std::optional<double> x = valueOf(operand, args, memo);
    if (!x)
      return std::nullopt;
    if (isa<FloatType>(operand.getType()))
      operands.push_back(FloatAttr::get(operand.getType(), *x));
    else if (operand.getType().isInteger(1))
      operands.push_back(IntegerAttr::get(operand.getType(), *x != 0.0));
    else
      return std::nullopt;
  }
  SmallVector<OpFoldResult> folded;
  if (failed(op->fold(operands, folded)) || folded.size() != 1) {
    // MLIR folds math functions of f32 and f64 only: those of f16 and
    // bf16 are evaluated in double (enough to tell 0 and -inf apart).
    std::optional<double> x = op->getNumOperands() == 1
                                  ? valueOf(op->getOperand(0), args, memo)
                                  : std::nullopt;
    if (!x)
      return std::nullopt;
    std::optional<double> result =
        isa<math::ExpOp>(op)     ? std::optional<double>(std::exp(*x))
        : isa<math::LogOp>(op)   ? std::optional<double>(std::log(*x))
        : isa<math::SqrtOp>(op)  ? std::optional<double>(std::sqrt(*x))
        : isa<math::TanhOp>(op)  ? std::optional<double>(std::tanh(*x))
        : isa<math::ErfOp>(op)   ? std::optional<double>(std::erf(*x))
        : isa<math::RsqrtOp>(op) ? std::optional<double>(1 / std::sqrt(*x))
                                 : std::nullopt;
    if (result)
      memo[v] = *result;
    return result;
  }
  std::optional<double> result;
  if (auto same = dyn_cast<Value>(folded[0])) // e.g. max(x, x) is x
    result = valueOf(same, args, memo);
  else if (auto f = dyn_cast_if_present<FloatAttr>(cast<Attribute>(folded[0])))
    result = f.getValueAsDouble();
  else if (auto b =
               dyn_cast_if_present<IntegerAttr>(cast<Attribute>(folded[0]));
           b && b.getType().isInteger(1))
    result = b.getValue().isOne() ? 1.0 : 0.0;
  if (result)
    memo[v] = *result;
  return result;
}

/// Whether `v` is at least 0 wherever it is computed (an absolute value,
/// an exponential, a square, sums, products and maxima of such values and
/// of constants at least 0): a max over values like these is unchanged by
/// padding that holds 0 or less.
bool nonNegative(Value v, int depth = 0) {
  if (depth > 16)
    return false;
  FloatAttr constant;
  if (matchPattern(v, m_Constant(&constant)))
    return !constant.getValue().isNegative() && !constant.getValue().isNaN();
  Operation *op = v.getDefiningOp();
  if (!op)
    return false;
  if (isa<math::AbsFOp, math::ExpOp>(op))
    return true;
  auto both = [&] {
    return nonNegative(op->getOperand(0), depth + 1) &&
           nonNegative(op->getOperand(1), depth + 1);
  };
  if (auto mul = dyn_cast<arith::MulFOp>(op))
    return mul.getLhs() == mul.getRhs() || both();
  if (isa<arith::AddFOp>(op))
    return both();
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(op))
    return nonNegative(op->getOperand(0), depth + 1) ||
           nonNegative(op->getOperand(1), depth + 1);
  return false;
}

/// Whether every reduction of `ops` reads its identity at a padded column
/// when each whole DRAM input holds `pads[input]` there and the per-row
/// vectors the program computes hold `sample` (times their index + 1).
bool reductionsSeeIdentity(ArrayRef<linalg::LinalgOp> ops,
                           const DenseMap<Value, float> &pads, double sample) {
  DenseMap<Value, double> padded; // 2-D buffers: their value in the padding
  DenseMap<Value, double> perRow; // vectors: a sample value
  for (linalg::LinalgOp op : ops) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic)
      continue; // fills: of reduction results, which are samples
    unsigned loops = generic.getNumLoops();
    DenseMap<Value, double> args;
    for (OpOperand &operand : generic->getOpOperands()) {
      Value buffer = operand.get();
      BlockArgument arg = generic.getMatchingBlockArgument(&operand);
      AffineMap map = generic.getMatchingIndexingMap(&operand);
      if (generic.isDpsInit(&operand) &&
          !generic.payloadUsesValueFromOperand(&operand))
        continue;
      if (map.getNumResults() == loops) { // whole
        if (auto it = padded.find(buffer); it != padded.end())
          args[arg] = it->second;
        else if (auto it = pads.find(buffer); it != pads.end())
          args[arg] = it->second;
        else if (generic.isDpsInit(&operand) && generic.getNumReductionLoops())
          return false;
        else
          args[arg] = 0.0;
      } else if (map.getNumResults() == 1 && loops >= 2 &&
                 map.getResult(0) ==
                     getAffineDimExpr(loops - 1, generic.getContext())) {
        args[arg] = 0.0; // a per-column vector from DRAM, zero-padded
      } else {
        auto [it, fresh] =
            perRow.try_emplace(buffer, sample * double(perRow.size() + 1));
        args[arg] = it->second;
      }
    }
    DenseMap<Value, double> memo;
    Value yielded = generic.getBody()->getTerminator()->getOperand(0);
    Value out = generic.getDpsInits()[0];
    if (generic.getNumReductionLoops() == 0) {
      // What the padding holds after an op that does not fold (an erf) is
      // unknown: NaN, which no reduction takes for its identity (a masked
      // one does not read it).
      std::optional<double> v = valueOf(yielded, args, memo);
      padded[out] = v ? *v : std::numeric_limits<double>::quiet_NaN();
      continue;
    }
    // A reduction: the value it combines with its accumulator.
    std::optional<RowCombine> combine = rowCombineOf(generic);
    if (!combine)
      return false;
    Value x = combine->term();
    std::optional<double> v = valueOf(x, args, memo);
    // An "any" of booleans (or) has false as its identity, as a sum 0.
    bool sum = isa<arith::AddFOp, arith::OrIOp>(combine->op);
    // A max also ignores a padded value no larger than every real one (0
    // or less where the values are at least 0: a max of |x|).
    bool below = v && *v <= 0.0 && nonNegative(x);
    if (!v || (sum ? *v != 0.0 : !((std::isinf(*v) && *v < 0) || below)))
      return false;
    perRow.try_emplace(out, sample * double(perRow.size() + 1));
  }
  return true;
}

} // namespace

FailureOr<DenseMap<Value, float>>
strata::tile::chooseRowPadding(ArrayRef<linalg::LinalgOp> ops) {
  // The whole inputs read from DRAM (arguments or views of them), in order
  // of first use.
  SmallVector<Value> inputs;
  DenseSet<Value> written;
  for (linalg::LinalgOp op : ops) {
    for (OpOperand *operand : op.getDpsInputOperands()) {
      Value v = operand->get();
      if (isa<BlockArgument>(bufferOf(v)) && !written.contains(v) &&
          op.getMatchingIndexingMap(operand).getNumResults() ==
              op.getNumLoops() &&
          !llvm::is_contained(inputs, v))
        inputs.push_back(v);
    }
    for (Value init : op.getDpsInits())
      written.insert(init);
  }
  if (inputs.size() > 4)
    return failure();
  const float candidates[] = {0.0f, -std::numeric_limits<float>::infinity()};
  for (unsigned choice = 0; choice < (1u << inputs.size()); ++choice) {
    DenseMap<Value, float> pads;
    for (size_t i = 0; i < inputs.size(); ++i)
      pads[inputs[i]] = candidates[(choice >> i) & 1];
    if (llvm::all_of(ArrayRef<double>{0.5, -2.25, 7.0}, [&](double sample) {
          return reductionsSeeIdentity(ops, pads, sample);
        }))
      return pads;
  }
  return failure();
}
