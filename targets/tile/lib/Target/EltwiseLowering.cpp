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

/// How an elementwise op reads an input by the loops its map uses: whole
/// (every loop, in order), transposed (the last two swapped), a vector of
/// one value per column (the last loop only: a bias), a vector of one value
/// per row (every loop but the last, in order: per row of the matrix the
/// op's leading loops flatten to) or one scalar (no loop). A
/// vector's or scalar's other indices are 0 into dimensions of size 1, so
/// its elements are contiguous whatever its rank ([n], [1, n], [n, 1]).
enum class Read { Whole, Transposed, PerColumn, PerRow, Scalar };

std::optional<Read> readOf(linalg::GenericOp op, OpOperand &operand) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  auto type = dyn_cast<ShapedType>(operand.get().getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  SmallVector<unsigned> dims;
  for (auto [i, e] : llvm::enumerate(map.getResults())) {
    if (auto dim = dyn_cast<AffineDimExpr>(e)) {
      dims.push_back(dim.getPosition());
      continue;
    }
    auto c = dyn_cast<AffineConstantExpr>(e);
    if (!c || c.getValue() != 0 || type.getDimSize(i) != 1)
      return std::nullopt;
  }
  unsigned loops = op.getNumLoops();
  if (dims.empty())
    return Read::Scalar;
  if (dims.size() == 1 && dims[0] + 1 == loops && loops >= 1)
    return loops == 1 ? Read::Whole : Read::PerColumn;
  if (loops >= 2 && dims.size() + 1 == loops &&
      llvm::equal(dims, llvm::seq(0u, loops - 1)))
    return Read::PerRow;
  if (map.isIdentity())
    return Read::Whole;
  if (dims.size() == loops && loops >= 2) {
    SmallVector<unsigned> swapped = llvm::to_vector(llvm::seq(0u, loops));
    std::swap(swapped[loops - 2], swapped[loops - 1]);
    if (ArrayRef<unsigned>(dims) == ArrayRef<unsigned>(swapped))
      return Read::Transposed;
  }
  return std::nullopt;
}

/// A vector or scalar read: what addBroadcastOperand declares.
bool isBroadcast(std::optional<Read> read) {
  return read && *read != Read::Whole && *read != Read::Transposed;
}

/// The DRAM tensor of input `operand`, a vector or scalar read in every row
/// (PerColumn), every column (PerRow) or every element (Scalar) of an
/// output of `rows` x `cols`: one row (column, tile) of tiles, its host
/// data the contiguous elements.
LogicalResult addBroadcastOperand(EltwisePlan &p, NumberedTensors &tensors,
                                  linalg::GenericOp op, OpOperand &operand,
                                  Read read, const TileChip &chip, int64_t rows,
                                  int64_t cols) {
  FailureOr<BlockArgument> arg = argumentOf(op, operand.get());
  if (failed(arg))
    return failure();
  bool perRow = read == Read::PerRow, perColumn = read == Read::PerColumn;
  FailureOr<TensorDecl> t =
      vectorTensorFor(op, *arg, perRow ? rows : chip.tileRows,
                      perColumn ? cols : chip.tileCols, perRow, perColumn);
  if (failed(t))
    return failure();
  p.inputs.push_back(*t);
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

/// True when `op` is elementwise over other than two dimensions (none: on
/// scalars) with every input read whole, as a vector along the last
/// dimension, as a value per row (of the leading dimensions flattened) or
/// as a scalar, the output whole, and no loop index in its body.
bool isFlatElementwise(linalg::GenericOp op) {
  if (op.getNumLoops() == 2 || op.getNumReductionLoops() != 0 ||
      op.getNumDpsInits() != 1)
    return false;
  if (!op.getBody()->getOps<linalg::IndexOp>().empty() ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return false;
  return llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
    std::optional<Read> read = readOf(op, *input);
    return read && (*read == Read::Whole || *read == Read::PerColumn ||
                    *read == Read::PerRow || *read == Read::Scalar);
  });
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
    // Vectors and scalars (over one matrix) are read as in any
    // elementwise op, by the output tile's row or column.
    std::optional<Read> read = readOf(op, *input);
    bool broadcast = n == 2 && isBroadcast(read);
    if (map != transposed && !map.isIdentity() && !broadcast)
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
    bool output = op.isDpsInit(&operand);
    std::optional<Read> read = readOf(op, operand);
    if (!output && isBroadcast(read)) {
      if (failed(addBroadcastOperand(p, tensors, op, operand, *read, chip, rows,
                                     cols)))
        return failure();
      continue;
    }
    bool swapped = !output && p.transposed[operand.getOperandNumber()];
    if (failed(addOperand(p, tensors, op, operand,
                          batch * (swapped ? cols : rows),
                          swapped ? rows : cols)))
      return failure();
  }
  return writePlan(p, tensors);
}
} // namespace

bool strata::tile::isElementwiseRead(linalg::GenericOp op, OpOperand &operand) {
  std::optional<Read> read = readOf(op, operand);
  // Transposed reads: of a matrix or a batch of them (lowerTranspose).
  return read && (*read != Read::Transposed || op.getNumLoops() <= 3);
}

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
  // returned twice) or a fill with a constant (a pad's) has no schedule
  // from S3: one tile, twice.
  int64_t stepTiles = 1;
  bool unscheduled =
      linalg::isaCopyOpInterface(op) || op.getNumDpsInputs() == 0;
  if (!unscheduled || op->hasAttr(kScheduleAttrName)) {
    FailureOr<Schedule> s = scratchpadScheduleOf(op);
    if (failed(s))
      return failure();
    ArrayRef<int64_t> sizes = s->tiles.front().sizes; // none: scalars
    stepTiles =
        sizes.empty() ? 1 : std::max<int64_t>(1, sizes.back() / chip.tileCols);
  }
  EltwisePlan p;
  static_cast<GridProgram &>(p) = gridProgram(fn, chip);
  p.depth = 2 * stepTiles;
  auto outType = cast<MemRefType>(op.getDpsInits()[0].getType());
  // The output as a matrix: rows x cols (flat: all but the last dimension
  // as rows, one row for a vector).
  int64_t outCols = outType.getRank() == 0 ? 1 : outType.getShape().back();
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
    std::optional<Read> read = readOf(op, operand);
    bool vector = !output && isBroadcast(read);
    if (flat && vector) {
      if (failed(addBroadcastOperand(p, tensors, op, operand, *read, chip, rows,
                                     cols)))
        return failure();
      continue;
    }
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
    if (!output && !broadcast && !column && !map.isIdentity()) {
      // A vector or scalar of another rank or map ([n] per row, [n, 1]
      // per column, a rank-0 scalar).
      if (vector) {
        if (failed(addBroadcastOperand(p, tensors, op, operand, *read, chip,
                                       rows, cols)))
          return failure();
        continue;
      }
      return op.emitError() << "the tile target reads elementwise operands "
                               "whole or broadcast along rows or columns; "
                               "operand #"
                            << operand.getOperandNumber() << " is neither";
    }
    if (failed(addOperand(p, tensors, op, operand,
                          broadcast ? chip.tileRows : rows,
                          column ? chip.tileCols : cols, column)))
      return failure();
  }
  return writePlan(p, tensors);
}
