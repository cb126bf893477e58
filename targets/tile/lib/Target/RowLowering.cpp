//===- RowLowering.cpp - Row reductions and passes ------------------------===//
//
// A function of row reductions (sum from 0, max from -inf) and elementwise
// passes over the rows of one 2-D shape, as S1 makes of a softmax or a
// layernorm, becomes the row program (RowProgram.cpp). Operands are 2-D
// tensors, per-row vectors (results of reductions, indexed (i)) and
// per-column vectors read from DRAM (gamma, beta: indexed (j)). A
// reduction whose body computes before combining (sum of (x - mean)^2)
// is two steps: an elementwise pass into a row buffer, then its reduction.
// Rows that are not whole tiles are padded with what leaves the reductions
// unchanged (RowPadding.cpp).
//
//===----------------------------------------------------------------------===//
#include "FunctionLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace strata;
using namespace strata::tile;

std::optional<RowRead> strata::tile::rowReadOf(AffineMap map) {
  MLIRContext *ctx = map.getContext();
  unsigned loops = map.getNumDims();
  // Per row: indexed by every loop but the last (the row's).
  bool perRow = map.getNumResults() + 1 == loops || loops == 1;
  for (unsigned d = 0; perRow && d < map.getNumResults(); ++d)
    perRow = map.getResult(d) == getAffineDimExpr(d, ctx);
  if (perRow)
    return RowRead::PerRow;
  if (loops >= 2 && map.getNumResults() == 1 &&
      map.getResult(0) == getAffineDimExpr(loops - 1, ctx))
    return RowRead::PerColumn;
  if (map.isIdentity())
    return RowRead::Whole;
  return std::nullopt;
}

std::optional<RowCombine> strata::tile::rowCombineOf(linalg::GenericOp op) {
  Operation *combine =
      op.getBody()->getTerminator()->getOperand(0).getDefiningOp();
  Value acc = op.getBody()->getArgument(op.getNumDpsInputs());
  if (!combine || combine->getNumOperands() != 2 ||
      !llvm::is_contained(combine->getOperands(), acc))
    return std::nullopt;
  return RowCombine{combine, combine->getOperand(0) == acc ? 1u : 0u};
}

/// A function of row reductions and elementwise ops over the rows of 2-D
/// tensors (a softmax, after bufferization: buffers are reused, so each
/// op's result is tracked as the buffer's current contents).
FailureOr<std::string>
strata::tile::lowerRowFunction(const LoweringTarget &target, func::FuncOp fn,
                               ArrayRef<linalg::LinalgOp> ops) {
  const TileChip &chip = target.chip;
  RowPlan p;
  static_cast<GridProgram &>(p) = gridProgram(fn, chip);
  DenseMap<Value, std::string> contents; // memref -> buffer
  DenseMap<Value, Value> fills;          // memref -> fill value
  SmallVector<std::pair<int64_t, TensorDecl>> tensors;
  int64_t rows = -1, cols = -1, paddedCols = -1;
  // A batch of matrices that are not whole tile-rows is declared flat
  // ([elements / cols, cols], its matrices' rows one after another): a
  // row program's rows are independent, so the batch is one matrix.
  bool flat = false;
  DenseMap<Value, float> padding; // of whole inputs, when rows are padded
  DenseSet<Value> rowVectors;     // made by steps: a value per row
  SmallVector<int64_t> shape;     // of the 2-D tensors (leading dims: a batch)
  // A vector takes one tile, a row `rowsHeld` rows of tiles.
  auto addBuffer = [&](std::string name, std::string type, bool vector,
                       int64_t rowsHeld) {
    p.buffers.push_back(
        {name, type, vector ? 1 : p.colTiles * rowsHeld, vector});
    return name;
  };
  // The buffer holding `v`'s contents; a function argument not written
  // yet is an input read from DRAM (a per-column vector: its tiles hold it
  // in every row, the same tiles for every row of the program).
  enum class Kind { Whole, PerRow, PerColumn };
  auto bufferOf = [&](Operation *user, Value v,
                      Kind kind) -> FailureOr<std::string> {
    auto it = contents.find(v);
    // A vector made by a step holds one value per row; read per column it
    // would scale each row by its own value (programGroups cuts before).
    if (it != contents.end() && kind == Kind::PerColumn &&
        rowVectors.contains(v))
      return user->emitError() << "the tile target's row programs read "
                                  "per-column vectors from DRAM; this one is "
                                  "made by the program itself";
    if (it != contents.end())
      return it->second;
    FailureOr<BlockArgument> arg = argumentOf(user, v);
    if (failed(arg))
      return failure();
    if (kind == Kind::PerRow) {
      // A value per row from DRAM: its elements in order are a column, one
      // tile per tile-row, broadcast along the columns where it is read.
      FailureOr<TensorDecl> t =
          vectorTensorFor(user, *arg, p.rowTiles * p.tileRows, p.tileCols,
                          /*perRow=*/true, /*perColumn=*/false);
      if (failed(t))
        return failure();
      std::string name = addBuffer("in" + std::to_string(p.inputs.size()),
                                   t->type, /*vector=*/true, 1);
      p.inputs.push_back({*t, name});
      tensors.push_back({arg->getArgNumber(), *t});
      contents[v] = name;
      return name;
    }
    int64_t rowsRead =
        kind == Kind::PerColumn ? p.tileRows : p.rowTiles * p.tileRows;
    FailureOr<TensorDecl> t =
        flat && kind == Kind::Whole
            ? flatTensorFor(user, *arg, rowsRead, paddedCols, false)
            : tensorFor(user, *arg, rowsRead, paddedCols, false);
    if (failed(t))
      return failure();
    if (kind == Kind::Whole)
      t->padValue = padding.lookup(v);
    // Two rows: the reader fetches the next row during this one.
    std::string name =
        addBuffer("in" + std::to_string(p.inputs.size()), t->type, false, 2);
    p.inputs.push_back({*t, name});
    tensors.push_back({arg->getArgNumber(), *t});
    contents[v] = name;
    return name;
  };
  // The step's operands: 2-D tensors whole, per-row and per-column vectors.
  auto operandsOf = [&](linalg::GenericOp generic,
                        RowPlan::Step &step) -> LogicalResult {
    for (OpOperand *operand : generic.getDpsInputOperands()) {
      std::optional<RowRead> read =
          rowReadOf(generic.getMatchingIndexingMap(operand));
      if (!read)
        return generic.emitError()
               << "the tile target's row programs read operands whole or "
                  "as a value per row or per column; operand #"
               << operand->getOperandNumber() << " is none of these";
      FailureOr<std::string> buffer =
          bufferOf(generic, operand->get(),
                   *read == RowRead::PerRow      ? Kind::PerRow
                   : *read == RowRead::PerColumn ? Kind::PerColumn
                                                 : Kind::Whole);
      if (failed(buffer))
        return failure();
      step.operands.push_back(*buffer);
    }
    return success();
  };
  // The elementwise part of `generic` (up to `end`, its reduction's
  // combine) as a step.
  auto elementwise = [&](linalg::GenericOp generic, Operation *end,
                         RowPlan::Step &step) -> LogicalResult {
    llvm::Expected<Expression> expr =
        translateBody(generic, 0, target.dstTiles(), end);
    if (!expr)
      return generic.emitError() << "cannot run on the tile engines: "
                                 << llvm::toString(expr.takeError());
    step.expression = *expr;
    return operandsOf(generic, step);
  };
  // A copy of a filled buffer (bufferization's, when two reductions start
  // from one fill) is filled the same; any other copy is not lowered.
  for (auto copy : fn.getBody().getOps<memref::CopyOp>()) {
    linalg::FillOp fill;
    for (linalg::LinalgOp op : ops)
      if (auto f = dyn_cast<linalg::FillOp>(op.getOperation());
          f && f.getDpsInits()[0] == copy.getSource())
        fill = f;
    if (!fill)
      return unsupportedFunction(fn, copy);
    fills[copy.getTarget()] = fill.getInputs()[0];
  }
  auto last = llvm::find_if(llvm::reverse(ops), [](linalg::LinalgOp op) {
    return isa<linalg::GenericOp>(op.getOperation());
  });
  for (linalg::LinalgOp op : ops) {
    if (auto fill = dyn_cast<linalg::FillOp>(op.getOperation())) {
      fills[fill.getDpsInits()[0]] = fill.getInputs()[0];
      continue;
    }
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic || generic.getNumDpsInits() != 1)
      return unsupportedFunction(fn, op);
    Value out = generic.getDpsInits()[0];
    auto outType = cast<MemRefType>(out.getType());
    if (rows < 0) {
      // The rows' shape: the first matrix read (a per-column vector may
      // come first: a vector-matrix product's vector).
      // Without one (a per-row vector broadcast along the rows), the first
      // op's result.
      MemRefType in;
      for (Value input : generic.getInputs())
        if (auto type = dyn_cast<MemRefType>(input.getType());
            type && type.getRank() >= 2) {
          in = type;
          break;
        }
      if (!in && outType.getRank() >= 2 && generic.getNumReductionLoops() == 0)
        in = outType;
      if (!in)
        return unsupportedFunction(fn, op);
      // A batch of 2-D tensors is one, its matrices stacked (flat when a
      // matrix is not whole tile-rows).
      shape.assign(in.getShape().begin(), in.getShape().end());
      cols = shape.back();
      rows = 1;
      for (int64_t d : ArrayRef<int64_t>(shape).drop_back())
        rows *= d;
      flat = shape.size() > 2 && shape[shape.size() - 2] % chip.tileRows;
      if (cols % chip.tileCols) {
        FailureOr<DenseMap<Value, float>> chosen = chooseRowPadding(ops);
        if (failed(chosen))
          return generic.emitError()
                 << "the tile target reduces rows of whole tiles: " << cols
                 << " columns are not a multiple of " << chip.tileCols
                 << ", and no padding (0 or -inf) of the inputs leaves every "
                    "reduction unchanged";
        padding = std::move(*chosen);
      }
      p.rowTiles = ceilDiv(rows, chip.tileRows);
      p.colTiles = ceilDiv(cols, chip.tileCols);
      paddedCols = p.colTiles * chip.tileCols;
    }
    // Every operand is a rows x cols tensor or a value per row or column.
    for (Value operand : generic->getOperands()) {
      auto type = cast<MemRefType>(operand.getType());
      if (type.getShape() != ArrayRef<int64_t>(shape) &&
          type.getShape() != ArrayRef<int64_t>(shape).drop_back() &&
          type.getShape() != ArrayRef<int64_t>{cols})
        return generic.emitError()
               << "the tile target's row programs work on " << rows << "x"
               << cols << " tensors and vectors of " << rows << " or " << cols
               << " values; an operand is " << operand.getType();
    }
    bool vectorResult = outType.getRank() + 1 == int64_t(shape.size());
    RowPlan::Step step;
    if (generic.getNumReductionLoops() > 0) {
      // out[i] = combine(in[i, j], out[i]) from a fill of the identity.
      std::optional<RowCombine> rowCombine = rowCombineOf(generic);
      Operation *combine = rowCombine ? rowCombine->op : nullptr;
      bool max = isa_and_nonnull<arith::MaxNumFOp, arith::MaximumFOp>(combine);
      bool sum = isa_and_nonnull<arith::AddFOp>(combine);
      // "Any" of booleans (1.0 or 0.0 on the engines) from false: a max.
      bool any = isa_and_nonnull<arith::OrIOp>(combine) &&
                 combine->getResult(0).getType().isInteger(1);
      Value init = fills.lookup(out);
      auto initValue =
          init ? init.getDefiningOp<arith::ConstantOp>() : arith::ConstantOp();
      auto initFloat =
          initValue ? dyn_cast<FloatAttr>(initValue.getValue()) : FloatAttr();
      auto initBool = initValue ? dyn_cast<IntegerAttr>(initValue.getValue())
                                : IntegerAttr();
      bool identity =
          any ? initBool && initBool.getValue().isZero()
              : initFloat && (sum ? initFloat.getValue().isZero()
                                  : initFloat.getValue().isNaN() ||
                                        initFloat.getValue().isInfinity() ||
                                        initFloat.getValueAsDouble() < -1e30);
      max |= any;
      if ((!max && !sum) || !identity || !rowCombine ||
          generic.getNumLoops() != shape.size() || !vectorResult)
        return generic.emitError()
               << "the tile target reduces rows by sum (from 0), max "
                  "(from -inf) or or (from false) into a vector";
      Value x = rowCombine->term();
      auto xArg = dyn_cast<BlockArgument>(x);
      FailureOr<std::string> src;
      if (xArg && xArg.getArgNumber() == 0 &&
          generic.getMatchingIndexingMap(generic.getDpsInputOperand(0))
              .isIdentity()) {
        src = bufferOf(generic, generic.getInputs()[0], Kind::Whole);
      } else {
        // What is reduced is computed first, into a row buffer.
        RowPlan::Step prefix;
        if (failed(elementwise(generic, combine, prefix)))
          return failure();
        prefix.result =
            addBuffer("r" + std::to_string(p.steps.size()), "f32", false, 1);
        p.steps.push_back(prefix);
        src = prefix.result;
      }
      if (failed(src))
        return failure();
      step.reduce = max ? "max" : "sum";
      step.operands = {*src};
    } else if (failed(elementwise(generic, nullptr, step))) {
      return failure();
    }
    // The DRAM tensor of a result: a vector result (a row reduction) is
    // column 0 of one tile per tile-row.
    auto outputTensor = [&](BlockArgument arg) -> FailureOr<TensorDecl> {
      FailureOr<TensorDecl> t =
          flat && !vectorResult
              ? flatTensorFor(generic, arg, p.rowTiles * p.tileRows, paddedCols,
                              true)
              : tensorFor(generic, arg, p.rowTiles * p.tileRows,
                          vectorResult ? p.tileCols : paddedCols, true);
      if (failed(t))
        return failure();
      if (vectorResult) {
        t->replicateRows = false;
        t->column = true;
        t->hostShape.assign(outType.getShape().begin(),
                            outType.getShape().end());
        // Flat: one value per row of the stacked matrices, in order.
        t->flatten = flat;
      }
      tensors.push_back({arg.getArgNumber(), *t});
      return t;
    };
    if (op == *last) {
      FailureOr<BlockArgument> arg = argumentOf(generic, out);
      if (failed(arg))
        return failure();
      FailureOr<TensorDecl> t = outputTensor(*arg);
      if (failed(t))
        return failure();
      p.out = *t;
      step.result = "out";
    } else {
      step.result = addBuffer("r" + std::to_string(p.steps.size()), "f32",
                              vectorResult, 1);
      contents[out] = step.result;
      if (vectorResult)
        rowVectors.insert(out);
      // A result read after the program (a function output, or a tensor a
      // later program reads: a softmax's exponentials read transposed) is
      // also written to DRAM by its last writer here.
      auto arg = dyn_cast<BlockArgument>(out);
      bool writtenLater = llvm::any_of(
          llvm::make_range(std::next(llvm::find(ops, op)), ops.end()),
          [&](linalg::LinalgOp later) {
            return llvm::is_contained(later.getDpsInits(), out);
          });
      if (arg && !writtenLater &&
          !fn.getArgAttr(arg.getArgNumber(), kUnreadAfterAttr)) {
        FailureOr<TensorDecl> t = outputTensor(arg);
        if (failed(t))
          return failure();
        step.copyTo = "out" + std::to_string(p.extraOuts.size() + 1);
        p.extraOuts.push_back({*t, step.copyTo});
        p.buffers.push_back({step.copyTo, t->type, 2, t->column});
      }
    }
    p.steps.push_back(step);
  }
  p.buffers.push_back({"out", p.out.type, 2, p.out.column});
  // Two rows of each input let the reader fetch the next row during this
  // one; where they do not fit in L1 (the core's model holds one row of a
  // row reduction), each input keeps one row and the reader waits.
  auto l1Bytes = [&] {
    int64_t total = 0;
    for (const RowPlan::Buffer &b : p.buffers)
      total += chip.alignL1(b.tiles * p.tileRows * p.tileCols *
                            (b.type == "bf16" ? 2 : 4));
    return total;
  };
  if (l1Bytes() > chip.l1Bytes)
    for (RowPlan::Buffer &b : p.buffers)
      if (!b.vector && b.tiles == 2 * p.colTiles)
        b.tiles = p.colTiles;
  if (int64_t bytes = l1Bytes(); bytes > chip.l1Bytes)
    return fn.emitError() << "the tile target's row program holds rows of "
                          << p.colTiles << " tiles in " << p.buffers.size()
                          << " buffers: " << bytes << " bytes, more than the "
                          << chip.l1Bytes << " bytes of L1";
  // A buffer per input, per step's result and per output: a long chain
  // of row ops (five softmaxes in a row) can need more than a core has.
  if (chip.maxCircularBuffers > 0 &&
      int64_t(p.buffers.size()) > chip.maxCircularBuffers)
    return fn.emitError() << "the tile target's row program needs "
                          << p.buffers.size()
                          << " circular buffers (one per input, per step's "
                             "result and per output); the chip has "
                          << chip.maxCircularBuffers << " per core";
  llvm::sort(tensors, [](auto &x, auto &y) { return x.first < y.first; });
  for (auto &[index, t] : tensors)
    p.tensors.push_back(t);
  llvm::Expected<std::string> text = writeRowProgram(p);
  if (!text)
    return fn.emitError() << "cannot run on the tile engines: "
                          << llvm::toString(text.takeError());
  return *text;
}
