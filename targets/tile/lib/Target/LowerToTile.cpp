//===- LowerToTile.cpp - S5: mapped IR to tile programs -------------------===//
//
// Each public function of the mapped IR (on buffers, results as trailing
// output arguments) becomes a tile.program of the same name whose DRAM
// tensors are the function's arguments in order. The function must be one
// of the shapes the tile kernels implement:
//   - a zero fill and a 2-D linalg.matmul, optionally followed by an
//     elementwise linalg.generic reading the product and row-broadcast
//     vectors (bias) — the epilogue runs on the accumulator;
//   - one elementwise linalg.generic over 2-D tensors (and row-broadcast
//     vectors).
// Every number comes from the op's #strata.schedule (blocks, k step, grid,
// matrix tile, multicast) or from the chip (Dst capacity, grid, tile);
// tensors whose shapes are not whole tiles are padded with zeros in DRAM.
// The program is verified against the chip (L1 capacity included) by the
// dialect's verifier after the pass.
//
//===----------------------------------------------------------------------===//
#include "LowerToTile.h"
#include "Programs.h"

#include "strata/Dialect/Tile/IR/TileChip.h"
#include "strata/Dialect/Tile/IR/TileDialect.h"
#include "strata/Schedule/Attributes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace strata;
using namespace strata::tile;

namespace {
int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The DRAM tensor of function argument `arg` padded to `rows` x `cols`.
FailureOr<TensorDecl> tensorFor(Operation *user, BlockArgument arg,
                                int64_t rows, int64_t cols, bool output) {
  auto type = dyn_cast<MemRefType>(arg.getType());
  Type element = type ? type.getElementType() : Type();
  if (!type || !type.hasStaticShape() ||
      !(element.isBF16() || element.isF32()) || type.getRank() > 2)
    return user->emitError()
           << "the tile target reads 1-D or 2-D bf16 or f32 tensors of static "
              "shape; argument #"
           << arg.getArgNumber() << " is " << arg.getType();
  TensorDecl t;
  t.name = "arg" + std::to_string(arg.getArgNumber());
  t.output = output;
  t.rows = rows;
  t.cols = cols;
  t.type = element.isBF16() ? "bf16" : "f32";
  ArrayRef<int64_t> shape = type.getShape();
  if (type.getRank() == 1 || shape[0] != rows || shape[1] != cols)
    t.hostShape.assign(shape.begin(), shape.end());
  t.replicateRows = type.getRank() == 1;
  return t;
}

/// The function argument `v` is, or failure with a message at `user`.
FailureOr<BlockArgument> argumentOf(Operation *user, Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || !isa<func::FuncOp>(arg.getOwner()->getParentOp()))
    return user->emitError() << "the tile target reads operands straight "
                                "from DRAM: expected a function argument";
  return arg;
}

/// True when input `i` of `op` is indexed by the last loop only: a row
/// broadcast along the rows of a 2-D iteration space.
bool isRowBroadcast(linalg::GenericOp op, OpOperand &operand) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  return op.getNumLoops() == 2 && map.getNumResults() == 1 &&
         map.getResult(0) == getAffineDimExpr(1, op.getContext());
}

class LowerToTile {
public:
  LowerToTile(const TileChip &chip, std::string fidelity)
      : chip(chip), fidelity(std::move(fidelity)) {}

  /// The program text of `fn`, or failure (reported).
  FailureOr<std::string> lower(func::FuncOp fn) {
    SmallVector<linalg::LinalgOp> ops;
    for (Operation &op : fn.getBody().front()) {
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
        ops.push_back(linalgOp);
      else if (!isa<func::ReturnOp, memref::AllocOp, memref::DeallocOp,
                    arith::ConstantOp>(op))
        return unsupported(fn, &op);
    }
    auto matmulAt = [&](size_t i) {
      return i < ops.size() && isa<linalg::MatmulOp>(ops[i].getOperation());
    };
    if (ops.size() >= 2 && isa<linalg::FillOp>(ops[0].getOperation()) &&
        matmulAt(1) && ops.size() <= 3)
      return lowerMatmul(fn, cast<linalg::FillOp>(ops[0].getOperation()),
                         cast<linalg::MatmulOp>(ops[1].getOperation()),
                         ops.size() == 3 ? ops[2] : linalg::LinalgOp());
    if (ops.size() == 1 && isa<linalg::GenericOp>(ops[0].getOperation()) &&
        !linalg::isReductionIterator(
            cast<linalg::GenericOp>(ops[0].getOperation())
                .getIteratorTypesArray()
                .back()))
      return lowerEltwise(fn, cast<linalg::GenericOp>(ops[0].getOperation()));
    if (llvm::any_of(ops, [](linalg::LinalgOp op) {
          return op.getNumReductionLoops() > 0;
        }))
      return lowerRows(fn, ops);
    return unsupported(fn, ops.empty() ? nullptr : ops.front().getOperation());
  }

private:
  LogicalResult unsupported(func::FuncOp fn, Operation *op) {
    InFlightDiagnostic diag =
        fn.emitError() << "the tile target lowers a function made of a zero "
                          "fill and a 2-D matmul (optionally followed by an "
                          "elementwise epilogue), of one elementwise op on "
                          "2-D tensors, or of row reductions and elementwise "
                          "ops over the rows of one 2-D shape";
    if (op)
      diag.attachNote(op->getLoc()) << "not lowered: " << op->getName();
    return diag;
  }

  FailureOr<Schedule> scheduleOf(linalg::LinalgOp op) {
    FailureOr<std::optional<Schedule>> s = getSchedule(op, op.getNumLoops());
    if (failed(s))
      return failure();
    if (!*s || (*s)->tiles.empty() || (*s)->registerTile.empty())
      return op->emitError() << "the tile target needs the op's scratchpad "
                                "schedule (#strata.schedule from S3)";
    return **s;
  }

  /// Dst tiles one acquire gives to an f32 accumulator.
  int64_t dstTiles() const { return chip.dstCapacity(/*f32=*/true); }

  FailureOr<std::string> lowerMatmul(func::FuncOp fn, linalg::FillOp fill,
                                     linalg::MatmulOp matmul,
                                     linalg::LinalgOp epilogueOp) {
    Value product = matmul.getDpsInits()[0];
    if (fill.getDpsInits()[0] != product ||
        !matchPattern(fill.getInputs()[0], m_AnyZeroFloat()))
      return matmul.emitError()
             << "the tile target computes a matmul into a zero-filled "
                "accumulator";
    FailureOr<Schedule> s = scheduleOf(matmul);
    if (failed(s))
      return failure();
    if (s->registerTile[0] != chip.tileRows ||
        s->registerTile[1] != chip.tileCols ||
        s->registerTile[2] != chip.tileCols)
      return matmul.emitError()
             << "the schedule's matrix tile does not match the chip's "
             << chip.tileRows << "x" << chip.tileCols << " tiles";
    MatmulPlan p;
    p.name = fn.getSymName().str();
    p.fidelity = fidelity;
    p.tileRows = chip.tileRows;
    p.tileCols = chip.tileCols;
    auto shape = [](Value v) {
      return cast<MemRefType>(v.getType()).getShape();
    };
    int64_t m = shape(product)[0], n = shape(product)[1],
            k = shape(matmul.getInputs()[0])[1];
    const std::vector<int64_t> &block = s->tiles.front().sizes;
    p.mb = block[0] / chip.tileRows;
    p.nb = block[1] / chip.tileCols;
    p.kb = block[2] / chip.tileCols;
    int64_t perRow = s->grid[0] / chip.tileRows,
            perCol = s->grid[1] / chip.tileCols;
    if (p.mb < 1 || p.nb < 1 || p.kb < 1 || perRow % p.mb || perCol % p.nb)
      return matmul.emitError() << "malformed scratchpad schedule: blocks "
                                   "must be whole tiles dividing the grid's";
    p.rows = ceilDiv(ceilDiv(m, chip.tileRows), perRow);
    p.cols = ceilDiv(ceilDiv(n, chip.tileCols), perCol);
    if (p.rows > chip.rows || p.cols > chip.cols)
      return matmul.emitError()
             << "the schedule needs " << p.rows << "x" << p.cols
             << " cores; the grid has " << chip.rows << "x" << chip.cols;
    p.mt = p.rows * perRow;
    p.nt = p.cols * perCol;
    p.kt = ceilDiv(ceilDiv(k, chip.tileCols), p.kb) * p.kb;
    p.stages = std::max<int64_t>(s->stages, 2);
    for (int64_t operand : s->multicast) {
      p.multicastA |= operand == 0;
      p.multicastB |= operand == 1;
    }

    // Where the result goes: the output argument, through the epilogue.
    Value result = product;
    p.epilogue.slots = 1;
    SmallVector<std::pair<int64_t, TensorDecl>> tensors;
    if (epilogueOp) {
      auto generic = dyn_cast<linalg::GenericOp>(epilogueOp.getOperation());
      if (!generic || generic.getNumReductionLoops() != 0 ||
          generic.getInputs().empty() || generic.getInputs()[0] != product ||
          !generic.getMatchingIndexingMap(generic.getDpsInputOperand(0))
               .isIdentity())
        return epilogueOp.emitError()
               << "the tile target fuses an elementwise op reading the "
                  "matmul's result as its first input";
      llvm::Expected<Expression> expr = translateBody(generic, 1);
      if (!expr)
        return generic.emitError() << "cannot run on the tile engines: "
                                   << llvm::toString(expr.takeError());
      p.epilogue = *expr;
      for (OpOperand *operand : generic.getDpsInputOperands()) {
        if (operand->getOperandNumber() == 0)
          continue;
        if (!isRowBroadcast(generic, *operand))
          return generic.emitError()
                 << "the tile target's matmul epilogue "
                    "reads vectors broadcast along rows "
                    "(a bias); input #"
                 << operand->getOperandNumber() << " is not one";
        FailureOr<BlockArgument> arg = argumentOf(generic, operand->get());
        if (failed(arg))
          return failure();
        FailureOr<TensorDecl> t = tensorFor(generic, *arg, chip.tileRows,
                                            p.nt * chip.tileCols, false);
        if (failed(t))
          return failure();
        p.epilogueInputs.push_back(*t);
        tensors.push_back({arg->getArgNumber(), *t});
      }
      result = generic.getDpsInits()[0];
    }
    if (p.epilogue.slots > dstTiles())
      return matmul.emitError()
             << "the epilogue needs " << p.epilogue.slots
             << " Dst tiles per output tile; one acquire gives " << dstTiles();
    // Output tiles per acquire: a divisor of the block's width that fits Dst
    // with the epilogue's slots.
    for (int64_t sub = p.nb; sub >= 1; --sub)
      if (p.nb % sub == 0 && sub * p.epilogue.slots <= dstTiles()) {
        p.subblock = sub;
        break;
      }

    auto add = [&](Value v, int64_t rows, int64_t cols, bool output,
                   TensorDecl &into) -> LogicalResult {
      FailureOr<BlockArgument> arg = argumentOf(matmul, v);
      if (failed(arg))
        return failure();
      FailureOr<TensorDecl> t = tensorFor(matmul, *arg, rows, cols, output);
      if (failed(t))
        return failure();
      into = *t;
      tensors.push_back({arg->getArgNumber(), *t});
      return success();
    };
    if (failed(add(matmul.getInputs()[0], p.mt * chip.tileRows,
                   p.kt * chip.tileCols, false, p.a)) ||
        failed(add(matmul.getInputs()[1], p.kt * chip.tileRows,
                   p.nt * chip.tileCols, false, p.b)) ||
        failed(
            add(result, p.mt * chip.tileRows, p.nt * chip.tileCols, true, p.c)))
      return failure();
    if (p.a.type != p.b.type)
      return matmul.emitError() << "the tile target multiplies operands of "
                                   "one element type";
    llvm::sort(tensors, [](auto &x, auto &y) { return x.first < y.first; });
    for (auto &[index, t] : tensors)
      p.tensors.push_back(t);
    return writeMatmulProgram(p);
  }

  FailureOr<std::string> lowerEltwise(func::FuncOp fn, linalg::GenericOp op) {
    if (op.getNumReductionLoops() != 0 || op.getNumLoops() != 2 ||
        op.getNumDpsInits() != 1)
      return unsupported(fn, op);
    FailureOr<Schedule> s = scheduleOf(op);
    if (failed(s))
      return failure();
    EltwisePlan p;
    p.name = fn.getSymName().str();
    p.tileRows = chip.tileRows;
    p.tileCols = chip.tileCols;
    p.rows = chip.rows;
    p.cols = chip.cols;
    p.depth =
        2 * std::max<int64_t>(1, s->tiles.front().sizes.back() / chip.tileCols);
    ArrayRef<int64_t> shape =
        cast<MemRefType>(op.getDpsInits()[0].getType()).getShape();
    p.rowTiles = ceilDiv(shape[0], chip.tileRows);
    p.colTiles = ceilDiv(shape[1], chip.tileCols);
    int64_t rows = p.rowTiles * chip.tileRows,
            cols = p.colTiles * chip.tileCols;
    llvm::Expected<Expression> expr = translateBody(op, 0);
    if (!expr)
      return op.emitError() << "cannot run on the tile engines: "
                            << llvm::toString(expr.takeError());
    p.expression = *expr;
    if (p.expression.slots > dstTiles())
      return op.emitError() << "the expression needs " << p.expression.slots
                            << " Dst tiles; one acquire gives " << dstTiles();
    SmallVector<std::pair<int64_t, TensorDecl>> tensors;
    for (OpOperand &operand : op->getOpOperands()) {
      bool output = op.isDpsInit(&operand);
      bool broadcast = !output && isRowBroadcast(op, operand);
      if (!output && !broadcast &&
          !op.getMatchingIndexingMap(&operand).isIdentity())
        return op.emitError() << "the tile target reads elementwise operands "
                                 "whole or broadcast along rows; operand #"
                              << operand.getOperandNumber() << " is neither";
      FailureOr<BlockArgument> arg = argumentOf(op, operand.get());
      if (failed(arg))
        return failure();
      FailureOr<TensorDecl> t =
          tensorFor(op, *arg, broadcast ? chip.tileRows : rows, cols, output);
      if (failed(t))
        return failure();
      (output ? p.out : p.inputs.emplace_back()) = *t;
      tensors.push_back({arg->getArgNumber(), *t});
    }
    llvm::sort(tensors, [](auto &x, auto &y) { return x.first < y.first; });
    for (auto &[index, t] : tensors)
      p.tensors.push_back(t);
    return writeEltwiseProgram(p);
  }

  /// A function of row reductions and elementwise ops over the rows of 2-D
  /// tensors (a softmax, after bufferization: buffers are reused, so each
  /// op's result is tracked as the buffer's current contents).
  FailureOr<std::string> lowerRows(func::FuncOp fn,
                                   ArrayRef<linalg::LinalgOp> ops) {
    RowPlan p;
    p.name = fn.getSymName().str();
    p.tileRows = chip.tileRows;
    p.tileCols = chip.tileCols;
    p.rows = chip.rows;
    p.cols = chip.cols;
    DenseMap<Value, std::string> contents; // memref -> buffer
    DenseMap<Value, Value> fills;          // memref -> fill value
    SmallVector<std::pair<int64_t, TensorDecl>> tensors;
    int64_t rows = -1, cols = -1;
    // A vector takes one tile, a row `rowsHeld` rows of tiles.
    auto addBuffer = [&](std::string name, std::string type, bool vector,
                         int64_t rowsHeld) {
      p.buffers.push_back(
          {name, type, vector ? 1 : p.colTiles * rowsHeld, vector});
      return name;
    };
    // The buffer holding `v`'s contents; a function argument not written
    // yet is an input read from DRAM.
    auto bufferOf = [&](Operation *user, Value v,
                        bool vector) -> FailureOr<std::string> {
      auto it = contents.find(v);
      if (it != contents.end())
        return it->second;
      FailureOr<BlockArgument> arg = argumentOf(user, v);
      if (failed(arg))
        return failure();
      if (vector)
        return user->emitError() << "the tile target reads row programs' "
                                    "vectors from the program itself, not "
                                    "from DRAM";
      FailureOr<TensorDecl> t =
          tensorFor(user, *arg, p.rowTiles * p.tileRows, cols, false);
      if (failed(t))
        return failure();
      // Two rows: the reader fetches the next row during this one.
      std::string name =
          addBuffer("in" + std::to_string(p.inputs.size()), t->type, false, 2);
      p.inputs.push_back({*t, name});
      tensors.push_back({arg->getArgNumber(), *t});
      contents[v] = name;
      return name;
    };
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
        return unsupported(fn, op);
      Value out = generic.getDpsInits()[0];
      auto outType = cast<MemRefType>(out.getType());
      if (rows < 0) {
        auto in = dyn_cast<MemRefType>(generic.getInputs()[0].getType());
        if (!in || in.getRank() != 2)
          return unsupported(fn, op);
        rows = in.getShape()[0];
        cols = in.getShape()[1];
        if (cols % chip.tileCols)
          return generic.emitError()
                 << "the tile target reduces rows of whole tiles: " << cols
                 << " columns are not a multiple of " << chip.tileCols
                 << " (padding would enter the reduction)";
        p.rowTiles = ceilDiv(rows, chip.tileRows);
        p.colTiles = cols / chip.tileCols;
      }
      // Every operand is a rows x cols tensor or a value per row.
      for (Value operand : generic->getOperands()) {
        auto type = cast<MemRefType>(operand.getType());
        if (type.getShape() != ArrayRef<int64_t>{rows, cols} &&
            type.getShape() != ArrayRef<int64_t>{rows})
          return generic.emitError()
                 << "the tile target's row programs work on " << rows << "x"
                 << cols << " tensors and vectors of " << rows
                 << " values; an operand is " << operand.getType();
      }
      bool vectorResult = outType.getRank() == 1;
      RowPlan::Step step;
      if (generic.getNumReductionLoops() > 0) {
        // out[i] = combine(in[i, j], out[i]) from a fill of the identity.
        Operation *combine =
            generic.getBody()->getTerminator()->getOperand(0).getDefiningOp();
        bool max =
            isa_and_nonnull<arith::MaxNumFOp, arith::MaximumFOp>(combine);
        bool sum = isa_and_nonnull<arith::AddFOp>(combine);
        Value init = fills.lookup(out);
        auto initValue = init ? init.getDefiningOp<arith::ConstantOp>()
                              : arith::ConstantOp();
        auto initFloat =
            initValue ? dyn_cast<FloatAttr>(initValue.getValue()) : FloatAttr();
        bool identity =
            initFloat && (sum ? initFloat.getValue().isZero()
                              : initFloat.getValue().isNaN() ||
                                    initFloat.getValue().isInfinity() ||
                                    initFloat.getValueAsDouble() < -1e30);
        if ((!max && !sum) || !identity || generic.getNumLoops() != 2 ||
            !vectorResult)
          return generic.emitError()
                 << "the tile target reduces rows by sum (from 0) or max "
                    "(from -inf) into a vector";
        FailureOr<std::string> src =
            bufferOf(generic, generic.getInputs()[0], false);
        if (failed(src))
          return failure();
        step.reduce = max ? "max" : "sum";
        step.operands = {*src};
      } else {
        llvm::Expected<Expression> expr = translateBody(generic, 0);
        if (!expr)
          return generic.emitError() << "cannot run on the tile engines: "
                                     << llvm::toString(expr.takeError());
        if (expr->slots > dstTiles())
          return generic.emitError()
                 << "the expression needs " << expr->slots
                 << " Dst tiles; one acquire gives " << dstTiles();
        step.expression = *expr;
        for (OpOperand *operand : generic.getDpsInputOperands()) {
          AffineMap map = generic.getMatchingIndexingMap(operand);
          bool vector =
              map.getNumResults() == 1 &&
              map.getResult(0) == getAffineDimExpr(0, generic.getContext());
          if (!map.isIdentity() && !vector)
            return generic.emitError()
                   << "the tile target's row programs read operands whole or "
                      "as a value per row; operand #"
                   << operand->getOperandNumber() << " is neither";
          FailureOr<std::string> buffer =
              bufferOf(generic, operand->get(), vector);
          if (failed(buffer))
            return failure();
          step.operands.push_back(*buffer);
        }
      }
      if (op == *last) {
        if (vectorResult)
          return generic.emitError() << "the tile target's row programs end "
                                        "with a 2-D result";
        FailureOr<BlockArgument> arg = argumentOf(generic, out);
        if (failed(arg))
          return failure();
        FailureOr<TensorDecl> t =
            tensorFor(generic, *arg, p.rowTiles * p.tileRows, cols, true);
        if (failed(t))
          return failure();
        p.out = *t;
        tensors.push_back({arg->getArgNumber(), *t});
        step.result = "out";
      } else {
        step.result = addBuffer("r" + std::to_string(p.steps.size()), "f32",
                                vectorResult, 1);
        contents[out] = step.result;
      }
      p.steps.push_back(step);
    }
    p.buffers.push_back({"out", p.out.type, 2, false});
    llvm::sort(tensors, [](auto &x, auto &y) { return x.first < y.first; });
    for (auto &[index, t] : tensors)
      p.tensors.push_back(t);
    llvm::Expected<std::string> text = writeRowProgram(p);
    if (!text)
      return fn.emitError() << "cannot run on the tile engines: "
                            << llvm::toString(text.takeError());
    return *text;
  }

  const TileChip &chip;
  std::string fidelity;
};

struct LowerToTilePass : PassWrapper<LowerToTilePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerToTilePass)
  LowerToTilePass() = default;
  LowerToTilePass(const LowerToTilePass &other) : PassWrapper(other) {}
  explicit LowerToTilePass(std::string fidelityName) {
    fidelity = std::move(fidelityName);
  }

  StringRef getArgument() const override { return "strata-tile-lower"; }
  StringRef getDescription() const override {
    return "S5 of the tile target: each function of the mapped IR (a "
           "scheduled matmul with its epilogue, or an elementwise op) "
           "becomes a tile.program with reader, compute and writer kernels";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<TileDialect, arith::ArithDialect, scf::SCFDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::Expected<std::optional<hw::Description>> description =
        tile::descriptionOf(module);
    if (!description) {
      module.emitError() << llvm::toString(description.takeError());
      return signalPassFailure();
    }
    if (!*description) {
      module.emitError() << "strata-tile-lower needs the chip's description "
                            "(strata.hw) on the module";
      return signalPassFailure();
    }
    llvm::Expected<TileChip> chip = TileChip::fromDescription(**description);
    if (!chip) {
      module.emitError() << llvm::toString(chip.takeError());
      return signalPassFailure();
    }
    // Named elementwise ops (linalg.add, ...) as generics, keeping their
    // schedules: the expression translator reads generic bodies.
    IRRewriter rewriter(module.getContext());
    SmallVector<linalg::LinalgOp> named;
    module.walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::GenericOp, linalg::MatmulOp, linalg::FillOp>(
              op.getOperation()))
        named.push_back(op);
    });
    for (linalg::LinalgOp op : named) {
      Attribute schedule = op->getAttr(kScheduleAttrName);
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> generic =
          linalg::generalizeNamedOp(rewriter, op);
      if (succeeded(generic) && schedule)
        (*generic)->setAttr(kScheduleAttrName, schedule);
    }
    LowerToTile lowering(*chip, fidelity);
    for (func::FuncOp fn :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      if (fn.isExternal())
        continue;
      FailureOr<std::string> text = lowering.lower(fn);
      if (failed(text))
        return signalPassFailure();
      Block parsed;
      ParserConfig config(module.getContext(), /*verifyAfterParse=*/false);
      if (failed(parseSourceString(*text, &parsed, config))) {
        fn.emitError() << "internal error: the tile program written for @"
                       << fn.getSymName() << " does not parse:\n"
                       << *text;
        return signalPassFailure();
      }
      // The program's ops report at the function they implement.
      for (Operation &op : parsed)
        op.walk([&](Operation *inner) { inner->setLoc(fn.getLoc()); });
      module.getBody()->getOperations().splice(Block::iterator(fn),
                                               parsed.getOperations());
      fn.erase();
    }
  }

  Option<std::string> fidelity{
      *this, "fidelity",
      llvm::cl::desc("Matrix-engine fidelity of the compute kernels"),
      llvm::cl::init("HiFi2")};
};
} // namespace

std::unique_ptr<Pass>
strata::tile::createLowerToTilePass(llvm::StringRef fidelity) {
  return std::make_unique<LowerToTilePass>(fidelity.str());
}

#ifndef STRATA_PLUGIN_MODULE
static PassRegistration<LowerToTilePass> lowerToTilePass;
#endif
