//===- MatmulLowering.cpp - A matmul and its epilogue
//-----------------------===//
//
// A zero fill, a 2-D matmul and optionally an elementwise op reading the
// product and row vectors (a bias) become the blocked matmul program
// (MatmulProgram.cpp) with the epilogue run on the accumulator. Blocks,
// k step, stages, grid and multicast are the schedule's; the tensors are
// padded to the grid's blocks.
//
//===----------------------------------------------------------------------===//
#include "FunctionLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace strata;
using namespace strata::tile;

FailureOr<std::string>
strata::tile::lowerMatmulFunction(const LoweringTarget &target, func::FuncOp fn,
                                  linalg::FillOp fill, linalg::LinalgOp matmul,
                                  linalg::LinalgOp epilogueOp) {
  const TileChip &chip = target.chip;
  Value product = matmul.getDpsInits()[0];
  if (fill.getDpsInits()[0] != product ||
      !matchPattern(fill.getInputs()[0], m_AnyZeroFloat()))
    return matmul.emitError()
           << "the tile target computes a matmul into a zero-filled "
              "accumulator";
  FailureOr<Schedule> s = scratchpadScheduleOf(matmul);
  if (failed(s))
    return failure();
  MatmulPlan p;
  auto shape = [](Value v) { return cast<MemRefType>(v.getType()).getShape(); };
  // Leading dimensions of a batch matmul: one product per index.
  size_t lead = shape(product).size() - 2;
  for (size_t d = 0; d < lead; ++d)
    p.batch *= shape(product)[d];
  const std::vector<int64_t> &reg = s->registerTile;
  if (reg[lead] != chip.tileRows || reg[lead + 1] != chip.tileCols ||
      reg[lead + 2] != chip.tileCols)
    return matmul.emitError()
           << "the schedule's matrix tile does not match the chip's "
           << chip.tileRows << "x" << chip.tileCols << " tiles";
  p.name = fn.getSymName().str();
  p.fidelity = target.fidelity;
  p.tileRows = chip.tileRows;
  p.tileCols = chip.tileCols;
  int64_t m = shape(product)[lead], n = shape(product)[lead + 1],
          k = shape(matmul.getDpsInputs()[0])[lead + 1];
  const std::vector<int64_t> &block = s->tiles.front().sizes;
  p.mb = block[lead] / chip.tileRows;
  p.nb = block[lead + 1] / chip.tileCols;
  p.kb = block[lead + 2] / chip.tileCols;
  int64_t perRow = s->grid[lead] / chip.tileRows,
          perCol = s->grid[lead + 1] / chip.tileCols;
  if (p.mb < 1 || p.nb < 1 || p.kb < 1 || perRow % p.mb || perCol % p.nb)
    return matmul.emitError() << "malformed scratchpad schedule: blocks "
                                 "must be whole tiles dividing the grid's";
  p.rows = ceilDiv(ceilDiv(m, chip.tileRows), perRow);
  p.cols = ceilDiv(ceilDiv(n, chip.tileCols), perCol);
  if (p.rows > chip.rows || p.cols > chip.cols)
    return matmul.emitError()
           << "the schedule needs " << p.rows << "x" << p.cols
           << " cores; the grid has " << chip.rows << "x" << chip.cols;
  // The batch's products on separate rows of cores, as many at once as
  // divide the batch (the scratchpad model's groups).
  for (p.groups = std::min(chip.rows / p.rows, p.batch); p.batch % p.groups;)
    --p.groups;
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
      FailureOr<TensorDecl> t =
          tensorFor(generic, *arg, chip.tileRows, p.nt * chip.tileCols, false);
      if (failed(t))
        return failure();
      p.epilogueInputs.push_back(*t);
      tensors.push_back({arg->getArgNumber(), *t});
    }
    result = generic.getDpsInits()[0];
  }
  if (p.epilogue.slots > target.dstTiles())
    return matmul.emitError()
           << "the epilogue needs " << p.epilogue.slots
           << " Dst tiles per output tile; one acquire gives "
           << target.dstTiles();
  // Output tiles per acquire: a divisor of the block's width that fits Dst
  // with the epilogue's slots.
  for (int64_t sub = p.nb; sub >= 1; --sub)
    if (p.nb % sub == 0 && sub * p.epilogue.slots <= target.dstTiles()) {
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
  int64_t stacked = p.batch * chip.tileRows; // a batch's matrices, stacked
  if (failed(add(matmul.getDpsInputs()[0], p.mt * stacked, p.kt * chip.tileCols,
                 false, p.a)) ||
      failed(add(matmul.getDpsInputs()[1], p.kt * stacked, p.nt * chip.tileCols,
                 false, p.b)) ||
      failed(add(result, p.mt * stacked, p.nt * chip.tileCols, true, p.c)))
    return failure();
  if (p.a.type != p.b.type)
    return matmul.emitError() << "the tile target multiplies operands of "
                                 "one element type";
  // The requested fidelity when the operands' intrinsic runs at it, else
  // its most precise one (f32 operands: HiFi4 only, every TF32 bit).
  auto listed = chip.fidelitiesByType.find(p.a.type);
  if (listed != chip.fidelitiesByType.end() && !listed->second.empty() &&
      !llvm::is_contained(listed->second, p.fidelity))
    p.fidelity = listed->second.back();
  llvm::sort(tensors, [](auto &x, auto &y) { return x.first < y.first; });
  for (auto &[index, t] : tensors)
    p.tensors.push_back(t);
  return writeMatmulProgram(p);
}
