//===- RowReductions.cpp - Reductions as a sequence of row reductions -----===//
//
// A schedule model whose engines reduce along rows only (a grid of
// scratchpads: a tile's rows summed into a column) schedules a reduction
// of the input's innermost loop, with any leading loops as a batch of
// rows. Any other reduction of one input with an associative, commutative
// combining op is rewritten into that form: a transpose putting the
// reduced loops last, then one row reduction per reduced loop, innermost
// first. Regrouping the combination this way is exact for max and min and
// reassociates a sum or a product (as any blocked reduction does).
//
// A contraction without a matrix on one side (a dot product, a matrix-
// vector or vector-matrix product, batched or not) has no matrix-engine
// form: its products become an elementwise op over all its loops, and
// their sum a one-input reduction, rewritten as above.
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/FloatConversions.h"
#include "strata/Transforms/Passes.h"
#include "strata/Transforms/Transposes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>

namespace strata {
#define GEN_PASS_DEF_STRATAROWREDUCTIONS
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;
using namespace strata;

namespace {
/// What a rewritable reduction is made of.
struct Plan {
  SmallVector<int64_t> order;   // loops: the output's, then the reduced ones
  unsigned kept = 0;            // how many of `order` the output keeps
  SmallVector<int64_t> perm;    // input dimension at each position of `order`
  bool transposed = false;      // perm is not the identity
  Operation *combine = nullptr; // yield combine(g(in), acc)
  TypedAttr neutral;
};

/// The plan for `op`, when it is a reduction of one input that is not
/// already a row reduction and whose body combines the accumulator once,
/// last, with an op that has a neutral element.
std::optional<Plan> planOf(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 || !op.hasPureTensorSemantics() ||
      op.hasIndexSemantics() || op->getNumResults() != 1)
    return std::nullopt;
  auto inType =
      dyn_cast<RankedTensorType>(op.getDpsInputOperand(0)->get().getType());
  auto outType = dyn_cast<RankedTensorType>(op.getDpsInits()[0].getType());
  if (!inType || !outType || !inType.hasStaticShape() ||
      !outType.hasStaticShape())
    return std::nullopt;
  AffineMap inMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!inMap.isPermutation())
    return std::nullopt;
  Plan plan;
  SmallVector<utils::IteratorType> types = op.getIteratorTypesArray();
  SmallVector<int64_t> reduced;
  for (unsigned d = 0; d < types.size(); ++d)
    (types[d] == utils::IteratorType::parallel ? plan.order : reduced)
        .push_back(d);
  plan.kept = plan.order.size();
  // The output keeps the parallel loops in their order.
  if (outMap.getNumResults() != plan.kept)
    return std::nullopt;
  for (unsigned i = 0; i < plan.kept; ++i)
    if (outMap.getResult(i) != getAffineDimExpr(plan.order[i], op.getContext()))
      return std::nullopt;
  plan.order.append(reduced.begin(), reduced.end());
  for (int64_t loop : plan.order)
    plan.perm.push_back(
        *inMap.getResultPosition(getAffineDimExpr(loop, op.getContext())));
  // Already a row reduction: one reduced loop, innermost in the input,
  // with a row of at least one leading loop.
  plan.transposed =
      !llvm::equal(plan.perm, llvm::seq<int64_t>(0, plan.perm.size()));
  if (!plan.transposed && reduced.size() == 1 && plan.kept >= 1)
    return std::nullopt;
  // The body: yield combine(g(in), acc), the accumulator read only there.
  Block *body = op.getBlock();
  BlockArgument acc = body->getArgument(1);
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  Operation *combine = yield.getNumOperands() == 1
                           ? yield.getOperand(0).getDefiningOp()
                           : nullptr;
  if (!combine || combine->getNumOperands() != 2 ||
      combine->getNumResults() != 1 || !acc.hasOneUse() ||
      acc.getUses().begin()->getOwner() != combine)
    return std::nullopt;
  std::optional<TypedAttr> neutral = arith::getNeutralElement(combine);
  if (!neutral || neutral->getType() != outType.getElementType())
    return std::nullopt;
  plan.combine = combine;
  plan.neutral = *neutral;
  return plan;
}

/// A generic reducing the last loop of `input` (identity map) into `init`.
/// `body` fills the payload from the input's and accumulator's values.
Value reduceLast(
    OpBuilder &b, Location loc, Value input, Value init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> body) {
  auto type = cast<RankedTensorType>(input.getType());
  unsigned loops = type.getRank();
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineExpr> kept;
  for (unsigned d = 0; d + 1 < loops; ++d)
    kept.push_back(getAffineDimExpr(d, ctx));
  SmallVector<AffineMap> maps{b.getMultiDimIdentityMap(loops),
                              AffineMap::get(loops, 0, kept, ctx)};
  SmallVector<utils::IteratorType> types(loops, utils::IteratorType::parallel);
  types.back() = utils::IteratorType::reduction;
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{input}, ValueRange{init}, maps, types,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, body(nb, nloc, args[0], args[1]));
      });
  return generic->getResult(0);
}

/// Whether `op` is a contraction with no matrix on one side: no M or no N
/// loop (linalg.dot, matvec, vecmat and their batched forms).
bool isVectorContraction(linalg::LinalgOp op) {
  if (!linalg::isaContractionOpInterface(op) || !op.hasPureTensorSemantics() ||
      op.getNumDpsInits() != 1 || op->getNumResults() != 1 ||
      llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
    return false;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  return succeeded(dims) && (dims->m.empty() || dims->n.empty());
}

/// Whether `op` reduces several inputs, or one broadcast along a loop, along
/// other loops than the last alone (a softmax along a column, whose sum of
/// exp(x - max) fusion made one op of x and the per-column max; a max over
/// a broadcast vector) and is no matrix product: its term becomes an
/// elementwise op over all its loops and its reduction one of that op
/// alone, which planOf rewrites into rows. A row reduction of several
/// inputs (a variance reading the mean) is left whole: the engines reduce
/// its rows.
bool needsTermFirst(linalg::LinalgOp op) {
  // Inputs read through windows (a pooling's) stay as they are.
  if (llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *input) {
        return !op.getMatchingIndexingMap(input).isProjectedPermutation();
      }))
    return false;
  bool broadcast =
      op.getNumDpsInputs() == 1 &&
      !op.getMatchingIndexingMap(op.getDpsInputOperand(0)).isPermutation();
  if (!op.hasPureTensorSemantics() ||
      (op.getNumDpsInputs() < 2 && !broadcast) || op.getNumDpsInits() != 1 ||
      op->getNumResults() != 1 || op.getNumReductionLoops() == 0 ||
      op.hasIndexSemantics() ||
      llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic) ||
      linalg::isaConvolutionOpInterface(op))
    return false;
  if (linalg::isaContractionOpInterface(op)) {
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    if (failed(dims) || (!dims->m.empty() && !dims->n.empty()))
      return false;
  }
  SmallVector<utils::IteratorType> types = op.getIteratorTypesArray();
  bool lastOnly = types.back() == utils::IteratorType::reduction &&
                  op.getNumReductionLoops() == 1 && types.size() >= 2;
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  bool rows = lastOnly && outMap.getNumResults() + 1 == types.size();
  for (unsigned d = 0; rows && d < outMap.getNumResults(); ++d)
    rows = outMap.getResult(d) == getAffineDimExpr(d, op.getContext());
  return !rows;
}

/// Splits the vector contraction `op` into its products (an elementwise op
/// over all its loops) and their sum (a reduction of that one input, with
/// the original combining op and init); left as it is when its body is not
/// `yield combine(g(inputs), acc)`.
void splitProducts(IRRewriter &rw, linalg::LinalgOp op) {
  Block *body = op.getBlock();
  BlockArgument acc = body->getArguments().back();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  Operation *combine = yield.getOperand(0).getDefiningOp();
  if (!combine || combine->getNumOperands() != 2 || !acc.hasOneUse() ||
      acc.getUses().begin()->getOwner() != combine)
    return;
  Value product = combine->getOperand(0) == acc ? combine->getOperand(1)
                                                : combine->getOperand(0);
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  unsigned loops = op.getNumLoops();
  rw.setInsertionPoint(op);
  // bf16/f16 products that are summed stay f32, and so does their sum,
  // rounded once at the end (as the matrix engine's accumulators and every
  // library keep them): rounded to bf16, each product carried 2^-9 of
  // itself into a sum that may cancel.
  Type f32 = rw.getF32Type();
  bool wide =
      isNarrowFloat(product.getType()) && isa<arith::AddFOp>(combine) &&
      llvm::all_of(body->without_terminator(), [&](Operation &inner) {
        return &inner == combine || isa<arith::MulFOp, arith::ExtFOp>(inner);
      });
  auto toF32 = [&](OpBuilder &b, Value v) {
    return convertFloats(b, loc, v, f32);
  };
  Value empty = tensor::EmptyOp::create(rw, loc, op.getStaticLoopRanges(),
                                        wide ? f32 : product.getType());
  SmallVector<AffineMap> maps;
  SmallVector<Value> inputs;
  for (OpOperand *input : op.getDpsInputOperands()) {
    maps.push_back(op.getMatchingIndexingMap(input));
    inputs.push_back(input->get());
  }
  // An operand broadcast beside one read transposed (a vector-matrix
  // product's vector and matrix) is more than one elementwise program
  // reads at once: the transposed one is transposed first, into the loops'
  // order.
  bool broadcast = llvm::any_of(
      maps, [&](AffineMap m) { return m.getNumResults() < loops; });
  for (size_t i = 0; i < maps.size() && broadcast; ++i) {
    AffineMap map = maps[i];
    if (!map.isProjectedPermutation())
      continue;
    SmallVector<int64_t> perm =
        llvm::to_vector(llvm::seq<int64_t>(0, map.getNumResults()));
    llvm::sort(perm, [&](int64_t a, int64_t b) {
      return cast<AffineDimExpr>(map.getResult(a)).getPosition() <
             cast<AffineDimExpr>(map.getResult(b)).getPosition();
    });
    if (llvm::is_sorted(perm))
      continue;
    inputs[i] = transposeAsMatrices(rw, loc, inputs[i], perm);
    maps[i] = AffineMap::get(
        loops, 0,
        llvm::map_to_vector(perm, [&](int64_t r) { return map.getResult(r); }),
        ctx);
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(loops, ctx));
  SmallVector<utils::IteratorType> parallel(loops,
                                            utils::IteratorType::parallel);
  auto products = linalg::GenericOp::create(
      rw, loc, empty.getType(), inputs, ValueRange{empty}, maps, parallel,
      [&](OpBuilder &b, Location, ValueRange args) {
        IRMapping map;
        for (unsigned i = 0; i < op.getNumDpsInputs(); ++i)
          map.map(body->getArgument(i), args[i]);
        for (Operation &inner : body->without_terminator()) {
          if (&inner == combine)
            continue;
          if (!wide) {
            b.clone(inner, map);
            continue;
          }
          // Products and extensions of the inputs, in f32.
          Value lhs = toF32(b, map.lookupOrDefault(inner.getOperand(0)));
          map.map(inner.getResult(0),
                  isa<arith::ExtFOp>(inner)
                      ? lhs
                      : arith::MulFOp::create(
                            b, loc, lhs,
                            toF32(b, map.lookupOrDefault(inner.getOperand(1))))
                            .getResult());
        }
        Value yielded = map.lookupOrDefault(product);
        linalg::YieldOp::create(b, loc, wide ? toF32(b, yielded) : yielded);
      });
  SmallVector<AffineMap> sumMaps{
      AffineMap::getMultiDimIdentityMap(loops, ctx),
      op.getMatchingIndexingMap(op.getDpsInitOperand(0))};
  Value init = op.getDpsInits()[0];
  auto narrow = cast<RankedTensorType>(init.getType());
  if (wide)
    init = widenedAccumulator(rw, loc, init);
  auto sum = linalg::GenericOp::create(
      rw, loc, TypeRange{init.getType()}, products->getResults(),
      ValueRange{init}, sumMaps, op.getIteratorTypesArray(),
      [&](OpBuilder &b, Location, ValueRange args) {
        if (wide) {
          linalg::YieldOp::create(
              b, loc,
              arith::AddFOp::create(b, loc, args[0], args[1]).getResult());
          return;
        }
        IRMapping map;
        map.map(product, args[0]);
        map.map(acc, args[1]);
        linalg::YieldOp::create(b, loc, b.clone(*combine, map)->getResult(0));
      });
  Value result = sum.getResult(0);
  if (wide)
    result = convertFloats(rw, loc, result, narrow);
  rw.replaceOp(op, result);
}

/// The row length a lone row of `n` values is cut into (the smallest
/// divisor of n from sqrt(n) to 8 sqrt(n): rows of at least 64 values), or
/// 0 when it stays one row: short rows, and lengths without such a divisor
/// (a prime).
int64_t rowSplit(int64_t n) {
  if (n < 4096)
    return 0;
  int64_t root = int64_t(std::ceil(std::sqrt(double(n))));
  for (int64_t width = root; width <= 8 * root && width <= n / 2; ++width)
    if (n % width == 0)
      return width;
  return 0;
}

struct RowReductions : strata::impl::StrataRowReductionsBase<RowReductions> {
  void runOnOperation() override {
    IRRewriter rw(&getContext());
    SmallVector<linalg::LinalgOp> vectorContractions;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isVectorContraction(op) || needsTermFirst(op))
        vectorContractions.push_back(op);
    });
    for (linalg::LinalgOp op : vectorContractions)
      splitProducts(rw, op);
    SmallVector<std::pair<linalg::LinalgOp, Plan>> work;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (std::optional<Plan> plan = planOf(op))
        work.push_back({op, *plan});
    });
    for (auto &[op, plan] : work)
      rewrite(rw, op, plan);
  }

  void rewrite(IRRewriter &rw, linalg::LinalgOp op, const Plan &plan) {
    Location loc = op.getLoc();
    rw.setInsertionPoint(op);
    Value input = op.getDpsInputOperand(0)->get();
    Value init = op.getDpsInits()[0];
    auto narrowType = cast<RankedTensorType>(init.getType());
    Type accType = narrowType.getElementType();
    // A bf16/f16 sum from a fill sums in f32 across its steps and rounds
    // once at the end: each step's sums rounded to bf16 carried 2^-9 of
    // themselves into a total that may cancel (a whole sum of 21,632 bf16
    // values was 6% off on the tile chips, differential seed 311 case 46).
    bool wide = isNarrowFloat(accType) && isa<arith::AddFOp>(plan.combine) &&
                init.getDefiningOp<linalg::FillOp>();
    if (wide) {
      init = widenedAccumulator(rw, loc, init);
      accType = rw.getF32Type();
    }
    auto neutralFill = [&](ArrayRef<int64_t> shape) -> Value {
      Value empty = tensor::EmptyOp::create(rw, loc, shape, accType);
      Value neutral = arith::ConstantOp::create(
          rw, loc, wide ? TypedAttr(rw.getF32FloatAttr(0.0f)) : plan.neutral);
      return linalg::FillOp::create(rw, loc, neutral, empty).getResult(0);
    };
    // An init that is not a fill (values the reduction adds to) is combined
    // after the sum of the rows, which then starts from the neutral element:
    // each step writes a fresh buffer, as the engines' programs do.
    Value carried;
    if (!init.getDefiningOp<linalg::FillOp>()) {
      carried = init;
      init = neutralFill(cast<RankedTensorType>(init.getType()).getShape());
    }
    // The reduced loops last.
    if (plan.transposed)
      input = transposeAsMatrices(rw, loc, input, plan.perm);
    // The first step computes the original body; the others combine.
    Block *body = op.getBlock();
    auto original = [&](OpBuilder &b, Location nloc, Value in,
                        Value acc) -> Value {
      IRMapping map;
      map.map(body->getArgument(0), in);
      map.map(body->getArgument(1), acc);
      for (Operation &inner : body->without_terminator())
        if (!wide || &inner != plan.combine)
          b.clone(inner, map);
      if (!wide)
        return map.lookup(body->getTerminator()->getOperand(0));
      // The term as the body computes it, extended, added in f32.
      Value accArg = body->getArgument(1);
      Value term = plan.combine->getOperand(0) == accArg
                       ? plan.combine->getOperand(1)
                       : plan.combine->getOperand(0);
      Value wideTerm =
          convertFloats(b, nloc, map.lookupOrDefault(term), b.getF32Type());
      return arith::AddFOp::create(b, nloc, wideTerm, acc).getResult();
    };
    auto combine = [&](OpBuilder &b, Location nloc, Value in,
                       Value acc) -> Value {
      if (wide)
        return arith::AddFOp::create(b, nloc, in, acc).getResult();
      IRMapping map;
      Value accArg = body->getArgument(1);
      for (Value operand : plan.combine->getOperands())
        map.map(operand, operand == accArg ? acc : in);
      return b.clone(*plan.combine, map)->getResult(0);
    };
    bool first = true;
    while (true) {
      auto type = cast<RankedTensorType>(input.getType());
      int64_t rank = type.getRank();
      if (rank == int64_t(plan.kept))
        break;
      // A scalar's last row, when long, is summed as a matrix first: its
      // rows spread over the grid instead of one core summing it all (and
      // a row of a million values fits no scratchpad).
      if (plan.kept == 0 && type.getNumElements() == type.getShape().back())
        if (int64_t width = rowSplit(type.getNumElements())) {
          int64_t n = type.getNumElements();
          auto flat = RankedTensorType::get({n}, type.getElementType());
          if (rank > 1)
            input = tensor::CollapseShapeOp::create(
                rw, loc, flat, input,
                {llvm::to_vector(llvm::seq<int64_t>(0, rank))});
          input = tensor::ExpandShapeOp::create(
              rw, loc,
              RankedTensorType::get({n / width, width}, type.getElementType()),
              input, {{0, 1}});
          type = cast<RankedTensorType>(input.getType());
          rank = 2;
        }
      SmallVector<int64_t> lead(type.getShape().drop_back());
      Value into = rank - 1 > int64_t(plan.kept) ? neutralFill(lead) : init;
      // The step reduces a matrix [rows, n] into [rows]: leading loops
      // collapsed into one row loop, or a row of one for a scalar.
      int64_t rows = type.getNumElements() / type.getShape().back();
      auto matrix = RankedTensorType::get({rows, type.getShape().back()},
                                          type.getElementType());
      auto column = RankedTensorType::get({rows}, accType);
      SmallVector<ReassociationIndices> inGroups, outGroups;
      if (rank == 1) {
        inGroups = {{0, 1}};
      } else {
        inGroups = {llvm::to_vector(llvm::seq<int64_t>(0, rank - 1)),
                    {rank - 1}};
        outGroups = {llvm::to_vector(llvm::seq<int64_t>(0, rank - 1))};
      }
      auto reshape = [&](Value v, RankedTensorType to,
                         ArrayRef<ReassociationIndices> groups) -> Value {
        if (v.getType() == to)
          return v;
        if (to.getRank() > cast<RankedTensorType>(v.getType()).getRank())
          return tensor::ExpandShapeOp::create(rw, loc, to, v, groups);
        return tensor::CollapseShapeOp::create(rw, loc, to, v, groups);
      };
      Value reduced = reduceLast(
          rw, loc, reshape(input, matrix, inGroups),
          reshape(into, column, outGroups),
          first ? function_ref<Value(OpBuilder &, Location, Value, Value)>(
                      original)
                : combine);
      first = false;
      input =
          reshape(reduced, cast<RankedTensorType>(into.getType()), outGroups);
    }
    if (carried) {
      // A scalar is combined as a vector of one (the engines move tiles).
      auto scalar = cast<RankedTensorType>(carried.getType());
      auto type = scalar.getRank() == 0
                      ? RankedTensorType::get({1}, scalar.getElementType())
                      : scalar;
      if (scalar.getRank() == 0) {
        input = tensor::ExpandShapeOp::create(rw, loc, type, input,
                                              ArrayRef<ReassociationIndices>{});
        carried = tensor::ExpandShapeOp::create(
            rw, loc, type, carried, ArrayRef<ReassociationIndices>{});
      }
      AffineMap identity = rw.getMultiDimIdentityMap(unsigned(type.getRank()));
      auto combined = linalg::GenericOp::create(
          rw, loc, type, ValueRange{input, carried},
          ValueRange{tensor::EmptyOp::create(rw, loc, type.getShape(), accType)
                         .getResult()},
          SmallVector<AffineMap>(3, identity),
          SmallVector<utils::IteratorType>(type.getRank(),
                                           utils::IteratorType::parallel),
          [&](OpBuilder &b, Location nloc, ValueRange args) {
            linalg::YieldOp::create(b, nloc,
                                    combine(b, nloc, args[0], args[1]));
          });
      input = combined->getResult(0);
      if (scalar.getRank() == 0)
        input = tensor::CollapseShapeOp::create(
            rw, loc, scalar, input, ArrayRef<ReassociationIndices>{});
    }
    if (wide)
      input = convertFloats(rw, loc, input, narrowType);
    rw.replaceOp(op, input);
  }
};
} // namespace
