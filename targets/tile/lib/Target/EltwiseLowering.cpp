//===- EltwiseLowering.cpp - One elementwise op ---------------------------===//
//
// One elementwise linalg op over 2-D tensors (and rows broadcast along
// the rows) becomes the elementwise program (EltwiseProgram.cpp); its
// buffers hold the schedule's tiles per step, twice. So does one over
// tensors of another rank whose operands are all read whole: each is the
// matrix [elements / last dimension, last dimension] (a vector one row).
// A transpose (of a matrix or a batch of them) is that program with
// transposed reads.
//
//===----------------------------------------------------------------------===//
#include "FunctionLowering.h"
#include "strata/Schedule/Attributes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace strata;
using namespace strata::tile;

namespace {
using NumberedTensors = SmallVector<std::pair<int64_t, TensorDecl>>;

/// The DRAM tensor of `operand` (a function argument), `rows` x `cols`
/// (a column read in every column with `replicateCols`): the plan's output
/// or its next input, and numbered in `tensors`.
LogicalResult addOperand(EltwisePlan &p, NumberedTensors &tensors,
                         linalg::GenericOp op, OpOperand &operand, int64_t rows,
                         int64_t cols, bool replicateCols = false,
                         bool flat = false) {
  bool output = op.isDpsInit(&operand);
  FailureOr<BlockArgument> arg = argumentOf(op, operand.get());
  if (failed(arg))
    return failure();
  FailureOr<TensorDecl> t = flat ? flatTensorFor(op, *arg, rows, cols, output)
                                 : tensorFor(op, *arg, rows, cols, output);
  if (failed(t))
    return failure();
  t->replicateCols = replicateCols;
  (output ? p.out : p.inputs.emplace_back()) = *t;
  tensors.push_back({arg->getArgNumber(), *t});
  return success();
}

/// The program, its tensors declared in the function's argument order.
std::string writePlan(EltwisePlan &p, NumberedTensors &tensors) {
  llvm::sort(tensors, [](auto &x, auto &y) { return x.first < y.first; });
  for (auto &[index, t] : tensors)
    p.tensors.push_back(t);
  return writeEltwiseProgram(p);
}

/// True when `op` is elementwise over other than two dimensions with every
/// operand read whole (identity maps) and no loop index in its body.
bool isFlatElementwise(linalg::GenericOp op) {
  if (op.getNumLoops() == 2 || op.getNumLoops() == 0 ||
      op.getNumReductionLoops() != 0 || op.getNumDpsInits() != 1)
    return false;
  if (!op.getBody()->getOps<linalg::IndexOp>().empty())
    return false;
  return llvm::all_of(op.getIndexingMapsArray(),
                      [](AffineMap map) { return map.isIdentity(); });
}

/// Which inputs `op` reads with the last two dimensions swapped, when it
/// is elementwise over a matrix or a batch of them, reads every input
/// whole, some swapped (a linalg.transpose as generalized, or an op of such
/// a read: a convolution's epilogue on its result moved back to
/// channels-first): out[.., i, j] = f(in[.., j, i], x[.., i, j], ...).
std::optional<std::vector<bool>> transposedReads(linalg::GenericOp op) {
  if (op.getNumDpsInputs() < 1 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 0 || op.getNumLoops() < 2 ||
      op.getNumLoops() > 3 ||
      !op.getBody()->getOps<linalg::IndexOp>().empty() ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return std::nullopt;
  unsigned n = op.getNumLoops();
  SmallVector<unsigned> swapped = llvm::to_vector(llvm::seq<unsigned>(0, n));
  std::swap(swapped[n - 2], swapped[n - 1]);
  AffineMap transposed = AffineMap::getPermutationMap(swapped, op.getContext());
  std::vector<bool> reads;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map != transposed && !map.isIdentity())
      return std::nullopt;
    reads.push_back(map == transposed);
  }
  if (llvm::none_of(reads, [](bool t) { return t; }))
    return std::nullopt;
  return reads;
}

/// Transposed reads: output tile (r, c) of each matrix reads such an
/// input's tile (c, r) transposed while unpacking; the matrices of a batch
/// are stacked, each whole tiles (padding would land inside the other
/// matrix's tiles).
FailureOr<std::string> lowerTranspose(const LoweringTarget &target,
                                      func::FuncOp fn, linalg::GenericOp op,
                                      std::vector<bool> transposed) {
  const TileChip &chip = target.chip;
  FailureOr<Schedule> s = scratchpadScheduleOf(op);
  if (failed(s))
    return failure();
  ArrayRef<int64_t> shape =
      cast<MemRefType>(op.getDpsInits()[0].getType()).getShape();
  int64_t batch = shape.size() == 3 ? shape[0] : 1;
  int64_t rows = shape[shape.size() - 2], cols = shape.back();
  // Each matrix is padded to whole tiles (zeros in, the padding of the
  // result dropped; the runtime pads the matrices of a batch each in its
  // share of the rows).
  rows = ceilDiv(rows, chip.tileRows) * chip.tileRows;
  cols = ceilDiv(cols, chip.tileCols) * chip.tileCols;
  if (chip.tileRows != chip.tileCols)
    return op.emitError() << "the tile target transposes square tiles; this "
                             "chip's are "
                          << chip.tileRows << "x" << chip.tileCols;
  EltwisePlan p;
  static_cast<GridProgram &>(p) = gridProgram(fn, chip);
  p.transposed = std::move(transposed);
  llvm::Expected<Expression> expr = translateBody(op, 0, target.dstTiles());
  if (!expr)
    return op.emitError() << "cannot run on the tile engines: "
                          << llvm::toString(expr.takeError());
  p.expression = *expr;
  p.batchRowTiles = rows / chip.tileRows;
  p.rowTiles = batch * p.batchRowTiles;
  p.colTiles = cols / chip.tileCols;
  p.depth =
      2 * std::max<int64_t>(1, s->tiles.front().sizes.back() / chip.tileCols);
  NumberedTensors tensors;
  for (OpOperand &operand : op->getOpOperands()) {
    bool swapped =
        !op.isDpsInit(&operand) && p.transposed[operand.getOperandNumber()];
    if (failed(addOperand(p, tensors, op, operand,
                          batch * (swapped ? cols : rows),
                          swapped ? rows : cols)))
      return failure();
  }
  return writePlan(p, tensors);
}
} // namespace

FailureOr<std::string>
strata::tile::lowerEltwiseFunction(const LoweringTarget &target,
                                   func::FuncOp fn, linalg::GenericOp op) {
  const TileChip &chip = target.chip;
  if (std::optional<std::vector<bool>> reads = transposedReads(op))
    return lowerTranspose(target, fn, op, std::move(*reads));
  bool flat = isFlatElementwise(op);
  if (!flat && (op.getNumReductionLoops() != 0 || op.getNumLoops() != 2 ||
                op.getNumDpsInits() != 1))
    return unsupportedFunction(fn, op);
  // Tiles buffered per operand: twice the schedule's tiles per step. A
  // copy (the program's own, or one the entry points add for a result
  // returned twice) has no schedule from S3: one tile, twice.
  int64_t stepTiles = 1;
  if (!linalg::isaCopyOpInterface(op) || op->hasAttr(kScheduleAttrName)) {
    FailureOr<Schedule> s = scratchpadScheduleOf(op);
    if (failed(s))
      return failure();
    stepTiles =
        std::max<int64_t>(1, s->tiles.front().sizes.back() / chip.tileCols);
  }
  EltwisePlan p;
  static_cast<GridProgram &>(p) = gridProgram(fn, chip);
  p.depth = 2 * stepTiles;
  auto outType = cast<MemRefType>(op.getDpsInits()[0].getType());
  // The output as a matrix: rows x cols (flat: all but the last dimension
  // as rows, one row for a vector).
  int64_t outCols = outType.getShape().back();
  int64_t outRows = outCols == 0 ? 0 : outType.getNumElements() / outCols;
  p.rowTiles = ceilDiv(outRows, chip.tileRows);
  p.colTiles = ceilDiv(outCols, chip.tileCols);
  int64_t rows = p.rowTiles * chip.tileRows, cols = p.colTiles * chip.tileCols;
  llvm::Expected<Expression> expr = translateBody(op, 0, target.dstTiles());
  if (!expr)
    return op.emitError() << "cannot run on the tile engines: "
                          << llvm::toString(expr.takeError());
  p.expression = *expr;
  NumberedTensors tensors;
  for (OpOperand &operand : op->getOpOperands()) {
    bool output = op.isDpsInit(&operand);
    if (flat) {
      if (failed(addOperand(p, tensors, op, operand, rows, cols,
                            /*replicateCols=*/false, /*flat=*/true)))
        return failure();
      continue;
    }
    bool broadcast = !output && isRowBroadcast(op, operand);
    // A column (rows x 1, read at (i, 0)): every column of its tiles holds
    // it, so its tile t / colTiles is a whole operand tile.
    AffineMap map = op.getMatchingIndexingMap(&operand);
    MLIRContext *ctx = op.getContext();
    bool column = !output && map.getNumResults() == 2 &&
                  map.getResult(0) == getAffineDimExpr(0, ctx) &&
                  map.getResult(1) == getAffineConstantExpr(0, ctx);
    if (!output && !broadcast && !column && !map.isIdentity())
      return op.emitError() << "the tile target reads elementwise operands "
                               "whole or broadcast along rows or columns; "
                               "operand #"
                            << operand.getOperandNumber() << " is neither";
    if (failed(addOperand(p, tensors, op, operand,
                          broadcast ? chip.tileRows : rows,
                          column ? chip.tileCols : cols, column)))
      return failure();
  }
  return writePlan(p, tensors);
}
