//===- AttentionLowering.cpp - An attention as one program ----------------===//
//
// Recognizes the mapped IR of O = softmax(scale Q K^T) V (what S1 and
// bufferization make of a transpose of K, a product with a zero fill, an
// optional scale, linalg.softmax and a second product) and lowers it to
// the one-pass program (AttentionProgram.cpp) with the core's attention
// schedule (ScratchpadAttention.h). Every op of the function must be the
// expected one, with the expected body and indexing; anything else is not
// an attention here and goes to the sequence of programs.
//
//===----------------------------------------------------------------------===//
#include "FunctionLowering.h"

#include "strata/Schedule/ScratchpadAttention.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace strata;
using namespace strata::tile;

namespace {
using linalg::GenericOp;

/// The one op a generic's body computes before its yield, if it has one
/// result and is of type `Op`.
template <typename Op> Op yielded(GenericOp op) {
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  return yield.getNumOperands() == 1 ? yield.getOperand(0).getDefiningOp<Op>()
                                     : Op();
}

bool isArg(GenericOp op, Value v, unsigned index) {
  auto arg = dyn_cast<BlockArgument>(v);
  return arg && arg.getOwner() == op.getBody() && arg.getArgNumber() == index;
}

/// Binary `Op` of block arguments a and b (in either order when `commutes`).
template <typename Op>
bool combines(GenericOp op, unsigned a, unsigned b, bool commutes) {
  Op y = yielded<Op>(op);
  if (!y)
    return false;
  Value l = y->getOperand(0), r = y->getOperand(1);
  return (isArg(op, l, a) && isArg(op, r, b)) ||
         (commutes && isArg(op, l, b) && isArg(op, r, a));
}

bool allParallel(GenericOp op) { return op.getNumReductionLoops() == 0; }

/// Map of operand `i`: every loop (identity), or every loop but the last.
bool mapIs(GenericOp op, unsigned i, bool dropLast) {
  AffineMap map = op.getIndexingMapsArray()[i];
  unsigned loops = op.getNumLoops();
  if (map.getNumResults() != loops - (dropLast ? 1 : 0))
    return false;
  for (unsigned d = 0; d < map.getNumResults(); ++d)
    if (map.getResult(d) != getAffineDimExpr(d, op.getContext()))
      return false;
  return true;
}

/// A row reduction combining with `Op`: out[..., i] = op(in[..., i, j]).
template <typename Op> bool isRowReduce(Operation *o, Value &in, Value &out) {
  auto op = dyn_cast_or_null<GenericOp>(o);
  if (!op || op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 1 ||
      op.getIteratorTypesArray().back() != utils::IteratorType::reduction ||
      !mapIs(op, 0, false) || !mapIs(op, 1, true) ||
      !combines<Op>(op, 0, 1, true))
    return false;
  in = op.getDpsInputs()[0];
  out = op.getDpsInits()[0];
  return true;
}

/// An elementwise op of `inputs` inputs, the last `vectors` of them per row.
GenericOp elementwise(Operation *o, unsigned inputs, unsigned vectors) {
  auto op = dyn_cast_or_null<GenericOp>(o);
  if (!op || !allParallel(op) || op.getNumDpsInputs() != inputs ||
      op.getNumDpsInits() != 1 || !mapIs(op, inputs, false))
    return GenericOp();
  for (unsigned i = 0; i < inputs; ++i)
    if (!mapIs(op, i, i + vectors >= inputs))
      return GenericOp();
  return op;
}

bool fills(Operation *o, Value &buffer, const std::function<bool(float)> &is) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(o);
  FloatAttr value;
  if (!fill || !matchPattern(fill.getInputs()[0], m_Constant(&value)))
    return false;
  buffer = fill.getDpsInits()[0];
  return is(float(value.getValueAsDouble()));
}

bool isProduct(Operation *o) {
  return isa_and_nonnull<linalg::MatmulOp, linalg::BatchMatmulOp>(o);
}

/// The parts of an attention the program needs.
struct Match {
  Value q, k, v, o;
  bool scaled = false;
  float scale = 1;
  Operation *product = nullptr; // Q K^T, for messages
};

/// Matches `ops` in order; false when they are not an attention.
bool matchAttention(ArrayRef<Operation *> ops, Match &m) {
  size_t i = 0;
  auto next = [&]() { return i < ops.size() ? ops[i++] : nullptr; };
  // K^T: a copy of an argument swapping its last two dimensions.
  auto transpose = dyn_cast_or_null<GenericOp>(next());
  if (!transpose || !allParallel(transpose) ||
      transpose.getNumDpsInputs() != 1 || !mapIs(transpose, 1, false))
    return false;
  AffineMap tmap = transpose.getIndexingMapsArray()[0];
  unsigned loops = transpose.getNumLoops();
  auto yield = cast<linalg::YieldOp>(transpose.getBody()->getTerminator());
  if (loops < 2 || !tmap.isPermutation() ||
      tmap.getResult(loops - 1) !=
          getAffineDimExpr(loops - 2, tmap.getContext()) ||
      tmap.getResult(loops - 2) !=
          getAffineDimExpr(loops - 1, tmap.getContext()) ||
      !isArg(transpose, yield.getOperand(0), 0))
    return false;
  m.k = transpose.getDpsInputs()[0];
  Value kt = transpose.getDpsInits()[0];
  // S = Q K^T into a zero fill.
  Value s, buffer;
  if (!fills(next(), s, [](float x) { return x == 0; }))
    return false;
  Operation *qk = next();
  if (!qk || !isProduct(qk))
    return false;
  auto product = cast<linalg::LinalgOp>(qk);
  if (product.getDpsInits()[0] != s || product.getDpsInputs()[1] != kt)
    return false;
  m.q = product.getDpsInputs()[0];
  m.product = qk;
  // An optional scale: S * c or S / c.
  Operation *op = next();
  if (GenericOp scale = elementwise(op, 1, 0);
      scale && scale.getDpsInputs()[0] == s) {
    Operation *body = yielded<arith::MulFOp>(scale);
    bool divides = false;
    if (!body) {
      body = yielded<arith::DivFOp>(scale);
      divides = true;
    }
    FloatAttr c;
    if (!body || !isArg(scale, body->getOperand(0), 0) ||
        !matchPattern(body->getOperand(1), m_Constant(&c)))
      return false;
    m.scaled = true;
    m.scale =
        float(divides ? 1.0 / c.getValueAsDouble() : c.getValueAsDouble());
    s = scale.getDpsInits()[0];
    op = next();
  }
  // The softmax: max, exp(S - max), sum, 1 / sum, times.
  Value max, in, e, sum, recip;
  if (!fills(op, max, [](float x) { return std::isnan(x) || x == -INFINITY; }))
    return false;
  op = next();
  if (!op ||
      !(isRowReduce<arith::MaxNumFOp>(op, in, buffer) ||
        isRowReduce<arith::MaximumFOp>(op, in, buffer)) ||
      in != s || buffer != max)
    return false;
  GenericOp exp = elementwise(next(), 2, 1);
  if (!exp || exp.getDpsInputs()[0] != s || exp.getDpsInputs()[1] != max)
    return false;
  auto expOp = yielded<math::ExpOp>(exp);
  auto sub = expOp ? expOp.getOperand().getDefiningOp<arith::SubFOp>()
                   : arith::SubFOp();
  if (!sub || !isArg(exp, sub.getLhs(), 0) || !isArg(exp, sub.getRhs(), 1))
    return false;
  e = exp.getDpsInits()[0];
  if (!fills(next(), sum, [](float x) { return x == 0; }) ||
      !isRowReduce<arith::AddFOp>(next(), in, buffer) || in != e ||
      buffer != sum)
    return false;
  GenericOp inverse = elementwise(next(), 1, 0);
  auto div = inverse ? yielded<arith::DivFOp>(inverse) : arith::DivFOp();
  if (!div || inverse.getDpsInputs()[0] != sum ||
      !matchPattern(div.getLhs(), m_OneFloat()) ||
      !isArg(inverse, div.getRhs(), 0))
    return false;
  recip = inverse.getDpsInits()[0];
  GenericOp times = elementwise(next(), 2, 1);
  if (!times || times.getDpsInputs()[0] != e ||
      times.getDpsInputs()[1] != recip ||
      !combines<arith::MulFOp>(times, 0, 1, false))
    return false;
  Value p = times.getDpsInits()[0];
  // O = P V into a zero fill.
  if (!fills(next(), m.o, [](float x) { return x == 0; }))
    return false;
  Operation *pv = next();
  if (!pv || !isProduct(pv) || i != ops.size())
    return false;
  auto second = cast<linalg::LinalgOp>(pv);
  if (second.getDpsInits()[0] != m.o || second.getDpsInputs()[0] != p)
    return false;
  m.v = second.getDpsInputs()[1];
  return true;
}

std::string typeName(Value v) {
  return cast<MemRefType>(v.getType()).getElementType().isBF16() ? "bf16"
                                                                 : "f32";
}

/// Cycles of the exponential of one tile on the vector engine, from the
/// description (instructions per row of lanes, lanes, pipes).
double expCycles(const hw::Description &d, const TileChip &chip) {
  const nlohmann::json &options = d.targetOptions;
  double instructions = 0;
  if (options.contains("vector_instructions") &&
      options["vector_instructions"].contains("exp"))
    instructions = options["vector_instructions"]["exp"].get<double>();
  double lanes = d.vector ? double(d.vector->widthBits / 32) : 1;
  double pipes =
      d.vector ? double(std::max<int64_t>(d.vector->fmaPipes, 1)) : 1;
  return double(chip.tileRows * chip.tileCols) / std::max(lanes, 1.0) *
         instructions / pipes;
}
} // namespace

FailureOr<std::optional<std::string>>
strata::tile::lowerAttentionFunction(const LoweringTarget &target,
                                     func::FuncOp fn) {
  SmallVector<Operation *> ops;
  for (Operation &op : fn.getBody().front()) {
    if (isa<linalg::LinalgOp>(op))
      ops.push_back(&op);
    else if (!isa<func::ReturnOp, memref::AllocOp, memref::DeallocOp,
                  arith::ConstantOp>(op))
      return std::optional<std::string>();
  }
  Match m;
  if (!matchAttention(ops, m))
    return std::optional<std::string>();
  // Operands and result straight from DRAM, [batch,] rows x cols each.
  FailureOr<BlockArgument> q = argumentOf(m.product, m.q),
                           k = argumentOf(m.product, m.k),
                           v = argumentOf(m.product, m.v),
                           o = argumentOf(m.product, m.o);
  if (failed(q) || failed(k) || failed(v) || failed(o))
    return failure();
  // One DRAM tensor per argument: an argument read as two operands (Q = K)
  // is left to the sequence of programs.
  llvm::SmallDenseSet<unsigned> distinct;
  for (BlockArgument arg : {*q, *k, *v, *o})
    distinct.insert(arg.getArgNumber());
  if (distinct.size() != 4)
    return std::optional<std::string>();
  auto shape = [](Value x) { return cast<MemRefType>(x.getType()).getShape(); };
  ArrayRef<int64_t> qs = shape(m.q), ks = shape(m.k), vs = shape(m.v);
  size_t lead = qs.size() - 2;
  AttentionShape a;
  for (size_t d = 0; d < lead; ++d)
    a.batch *= qs[d];
  a.queries = qs[lead];
  a.headDim = qs[lead + 1];
  a.keys = ks[lead];
  a.valueDim = vs[lead + 1];
  a.qType = typeName(m.q);
  a.kType = typeName(m.k);
  a.vType = typeName(m.v);
  a.outType = typeName(m.o);
  a.scaled = m.scaled;
  const TileChip &chip = target.chip;
  a.expCyclesPerTile = expCycles(target.description, chip);
  llvm::Expected<AttentionSchedule> s = chooseScratchpadAttention(
      a, target.description, m.product->getName().getStringRef());
  if (!s)
    return m.product->emitError() << llvm::toString(s.takeError());
  if (s->tileRows != chip.tileRows || s->tileCols != chip.tileCols)
    return m.product->emitError()
           << "the attention schedule's tile does not match the chip's "
           << chip.tileRows << "x" << chip.tileCols << " tiles";

  AttentionPlan p;
  p.name = fn.getSymName().str();
  p.tileRows = chip.tileRows;
  p.tileCols = chip.tileCols;
  p.qt = ceilDiv(a.queries, chip.tileRows);
  p.kt = a.keys / chip.tileCols;
  p.dt = ceilDiv(a.headDim, chip.tileCols);
  p.dvt = ceilDiv(a.valueDim, chip.tileCols);
  p.rows = s->rows;
  p.cols = s->cols;
  p.blocks = a.batch * p.qt / (s->rows * s->cols);
  p.kb = s->keyTiles;
  p.multicast = s->multicast;
  p.scaled = m.scaled;
  p.scale = m.scale;
  for (const AttentionSchedule::Buffer &b : s->buffers)
    p.buffers.push_back({b.name, b.type, b.tiles});
  // What the model chose and predicted, visible in the lowered IR.
  p.decision =
      llvm::formatv(
          "bound = \"{0}\", footprint_bytes = {1} : i64, key_tiles = {2} : "
          "i64, "
          "multicast = {3}, predicted_cycles = {4} : i64, stages = {5} : i64",
          s->bound, s->footprintBytes, s->keyTiles,
          s->multicast ? "true" : "false", int64_t(s->cycles), s->stages)
          .str();
  p.fidelity = target.fidelityFor(a.qType);
  // The heads stacked: head b's tile rows after b - 1's.
  auto tensor = [&](BlockArgument arg, int64_t rows, int64_t cols,
                    bool output) {
    return tensorFor(m.product, arg, a.batch * rows * chip.tileRows,
                     cols * chip.tileCols, output);
  };
  FailureOr<TensorDecl> tq = tensor(*q, p.qt, p.dt, false),
                        tk = tensor(*k, p.kt, p.dt, false),
                        tv = tensor(*v, p.kt, p.dvt, false),
                        to = tensor(*o, p.qt, p.dvt, true);
  if (failed(tq) || failed(tk) || failed(tv) || failed(to))
    return failure();
  p.q = *tq;
  p.k = *tk;
  p.v = *tv;
  p.o = *to;
  SmallVector<std::pair<unsigned, TensorDecl>> tensors{
      {q->getArgNumber(), p.q},
      {k->getArgNumber(), p.k},
      {v->getArgNumber(), p.v},
      {o->getArgNumber(), p.o}};
  llvm::sort(tensors, [](auto &x, auto &y) { return x.first < y.first; });
  for (auto &[index, t] : tensors)
    p.tensors.push_back(t);
  return std::optional<std::string>(writeAttentionProgram(p));
}
