//===- HierarchyReduction.cpp - Reductions over the levels ----------------===//
//
// A linalg op whose loops are parallel or reductions, with one output
// indexed by exactly its parallel loops and a body that folds each element
// into the accumulator with one combining op (acc = acc + f(x), max, ...):
// softmax's max and sum, layernorm's sums, a convolution's multiply-adds.
//
//   scf.forall blocks {level "block"}        rows = product of parallel loops
//     scf.forall groups {level "group"}      one row per group
//       scf.forall lanes {level "lane"}
//         if row < rows:                     the same for all of a group
//           p = identity; for e = lane; e < len; e += lanes: p = body(p, e)
//           p = combine(p, gpu.shuffle xor p, 2^i)  for 2^i < lanes
//           lane 0: out[row] = combine(init, p)
//
// Each lane folds every lanes-th element of the row (consecutive lanes read
// consecutive elements of the innermost reduction loop) starting from the
// combining op's neutral element, so rows of any length (shorter than the
// lanes included) reduce correctly; the butterfly leaves the row's total in
// every lane. `init` is the output's old value, or the constant of the fill
// right before (folded into the kernel). The shuffle width is the
// description's lane count (a power of two), never a fixed number.
//
//===----------------------------------------------------------------------===//
#include "HierarchyReduction.h"
#include "HierarchyContraction.h"
#include "HierarchyKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace strata;
using namespace strata::hierarchy;

Operation *hierarchy::combiner(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return nullptr;
  Block *body = op.getBlock();
  BlockArgument acc = body->getArgument(op.getNumDpsInputs());
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 1 || !acc.hasOneUse())
    return nullptr;
  Operation *comb = yield.getOperand(0).getDefiningOp();
  if (!comb || comb->getBlock() != body || comb->getNumOperands() != 2 ||
      comb->getNumResults() != 1 || *acc.getUsers().begin() != comb ||
      !isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp, arith::MinimumFOp,
           arith::MaxNumFOp, arith::MinNumFOp, arith::AddIOp, arith::MulIOp,
           arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp,
           arith::AndIOp, arith::OrIOp, arith::XOrIOp>(comb))
    return nullptr;
  return comb;
}

Value hierarchy::combine(ImplicitLocOpBuilder &b, Operation *comb, Value x,
                         Value y) {
  Operation *c = b.clone(*comb);
  c->setOperands({x, y});
  return c->getResult(0);
}

void hierarchy::delinearize(KernelBuilder &k, Value linear,
                            ArrayRef<unsigned> dims, ArrayRef<int64_t> extents,
                            MutableArrayRef<Value> loops) {
  Value rest = linear;
  for (int64_t i = int64_t(dims.size()) - 1; i >= 0; --i) {
    loops[dims[i]] = i == 0 ? rest : k.rem(rest, extents[dims[i]]);
    if (i > 0)
      rest = k.div(rest, extents[dims[i]]);
  }
}

namespace {
/// The values a group's butterfly exchanges: 32-bit floats and integers
/// move as they are, narrower ones widened (exactly) and narrowed back.
Value shuffleXor(ImplicitLocOpBuilder &b, Value v, int32_t offset,
                 int32_t width) {
  Type type = v.getType();
  Type wide = type;
  if (type.isF16() || type.isBF16())
    wide = b.getF32Type();
  else if (type.isInteger() && type.getIntOrFloatBitWidth() < 32)
    wide = b.getI32Type();
  Value x = v;
  if (wide != type)
    x = isa<FloatType>(type) ? arith::ExtFOp::create(b, wide, v).getResult()
                             : arith::ExtSIOp::create(b, wide, v).getResult();
  Value r = gpu::ShuffleOp::create(b, x, offset, width, gpu::ShuffleMode::XOR)
                .getShuffleResult();
  if (wide != type)
    r = isa<FloatType>(type) ? arith::TruncFOp::create(b, type, r).getResult()
                             : arith::TruncIOp::create(b, type, r).getResult();
  return r;
}
} // namespace

Value hierarchy::groupReduce(ImplicitLocOpBuilder &b, Operation *comb,
                             Value partial, int64_t lanes) {
  for (int64_t offset = lanes / 2; offset >= 1; offset /= 2)
    partial = combine(b, comb, partial,
                      shuffleXor(b, partial, int32_t(offset), int32_t(lanes)));
  return partial;
}

bool hierarchy::isRowReduction(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || allParallel(op) || !combiner(op))
    return false;
  // The output is indexed by every parallel loop, each once, and nothing
  // else: each row writes its own element.
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<unsigned> parallel;
  op.getParallelDims(parallel);
  if (out.getNumResults() != parallel.size())
    return false;
  llvm::SmallDenseSet<unsigned> seen;
  for (AffineExpr e : out.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim || !llvm::is_contained(parallel, dim.getPosition()) ||
        !seen.insert(dim.getPosition()).second)
      return false;
  }
  return true;
}

LogicalResult hierarchy::emitReduction(ImplicitLocOpBuilder &b,
                                       linalg::LinalgOp op, linalg::FillOp fill,
                                       const HierarchyLevels &levels) {
  Operation *comb = combiner(op);
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  for (int64_t e : extents)
    if (ShapedType::isDynamic(e))
      return op->emitError("strata-map-hierarchy: dynamic extents are not "
                           "mapped to compute levels yet");
  Type accType = comb->getResult(0).getType();
  if (!accType.isIntOrFloat() || accType.getIntOrFloatBitWidth() > 32)
    return op->emitError("strata-map-hierarchy: reductions of ")
           << accType << " are not mapped yet (32 bits at most)";
  if (!llvm::isPowerOf2_64(levels.lanes))
    return op->emitError("strata-map-hierarchy: reductions need a power of "
                         "two '")
           << levels.lane << "'s per '" << levels.group << "'";
  std::optional<TypedAttr> neutral = arith::getNeutralElement(comb);
  if (!neutral)
    return op->emitError("strata-map-hierarchy: the reduction's combining op "
                         "has no neutral element");
  SmallVector<unsigned> parallel, reduction;
  op.getParallelDims(parallel);
  op.getReductionDims(reduction);
  // Rows in the output's order (row-major over its dims).
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<unsigned> rowDims;
  for (AffineExpr e : out.getResults())
    rowDims.push_back(cast<AffineDimExpr>(e).getPosition());
  int64_t rows = 1, length = 1;
  for (unsigned d : rowDims)
    rows *= extents[d];
  for (unsigned d : reduction)
    length *= extents[d];
  RowSchedule rs = chooseRowSchedule(rows, levels);

  HierarchySchedule s;
  s.levels = levels;
  s.groupsM = rs.groupsPerBlock;
  KernelBuilder k(b, s);
  Block *body = op.getBlock();
  BlockArgument accArg = body->getArgument(op.getNumDpsInputs());
  Value initValue = fill ? fill.getInputs()[0] : Value();
  auto kernel = k.forall(levels.block, {rs.blocks}, [&](ValueRange ids) {
    k.forall(levels.group, {rs.groupsPerBlock}, [&](ValueRange g) {
      k.forall(levels.lane, {levels.lanes}, [&](ValueRange l) {
        Value row = k.add(k.mul(ids[0], rs.groupsPerBlock), g[0]);
        OpBuilder::InsertionGuard guard(b);
        if (rows != rs.blocks * rs.groupsPerBlock) { // (no rows: none runs)
          // Uniform over the group: its shuffles see all its lanes.
          auto ifOp = scf::IfOp::create(b, k.lt(row, k.idx(rows)));
          b.setInsertionPointToStart(ifOp.thenBlock());
        }
        SmallVector<Value> loops(extents.size());
        delinearize(k, row, rowDims, extents, loops);
        Value identity = arith::ConstantOp::create(b, *neutral);
        auto loop = scf::ForOp::create(
            b, l[0], k.idx(length), k.idx(levels.lanes), ValueRange{identity});
        {
          OpBuilder::InsertionGuard inner(b);
          b.setInsertionPointToStart(loop.getBody());
          SmallVector<Value> at(loops);
          delinearize(k, loop.getInductionVar(), reduction, extents, at);
          // The body with the running partial as its accumulator.
          IRMapping map;
          for (OpOperand *input : op.getDpsInputOperands()) {
            Value arg = body->getArgument(input->getOperandNumber());
            if (!arg.use_empty())
              map.map(arg, k.load(op, input, at));
          }
          map.map(accArg, loop.getRegionIterArgs()[0]);
          for (Operation &o : body->without_terminator()) {
            if (auto index = dyn_cast<linalg::IndexOp>(o)) {
              map.map(index.getResult(), at[index.getDim()]);
              continue;
            }
            b.clone(o, map);
          }
          Value next = map.lookup(
              cast<linalg::YieldOp>(body->getTerminator()).getOperand(0));
          scf::YieldOp::create(b, next);
        }
        // Butterfly across the group's lanes.
        Value partial = groupReduce(b, comb, loop.getResult(0), levels.lanes);
        auto first = scf::IfOp::create(
            b,
            arith::CmpIOp::create(b, arith::CmpIPredicate::eq, l[0], k.idx(0)));
        b.setInsertionPointToStart(first.thenBlock());
        OpOperand *init = op.getDpsInitOperand(0);
        Value old = initValue ? initValue : k.load(op, init, loops);
        memref::StoreOp::create(b, combine(b, comb, old, partial), init->get(),
                                k.indices(out, loops));
      });
    });
  });
  setHierarchySchedule(kernel, {{"reduction", {rows, length}},
                                {"groups", {levels.group, rs.groupsPerBlock}},
                                {"rows_per_group", 1},
                                {"grid", {rs.blocks}},
                                {"fill_folded", bool(fill)}});
  return success();
}

linalg::FillOp hierarchy::foldableFill(linalg::LinalgOp op) {
  Value out = op.getDpsInitOperand(0)->get();
  linalg::FillOp found;
  for (Operation *user : out.getUsers()) {
    auto fill = dyn_cast<linalg::FillOp>(user);
    if (!fill || fill->getBlock() != op->getBlock() ||
        !fill->isBeforeInBlock(op) ||
        !matchPattern(fill.getInputs()[0], m_Constant()) ||
        fill.getInputs()[0].getType() != getElementTypeOrSelf(out.getType()) ||
        usedBetween(out, fill, op, {}))
      continue;
    found = fill;
  }
  return found;
}
