//===- MatmulLowering.cpp - A matmul and its epilogue
//-----------------------===//
//
// A zero fill, a 2-D matmul (or a batch of them, or an NHWC convolution as
// its implicit GEMM, whose A tiles the reader gathers: ConvGather.cpp) and
// optionally an elementwise op reading the product and row vectors (a
// bias) become the blocked matmul program (MatmulProgram.cpp) with the
// epilogue run on the accumulator. Blocks,
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

namespace {
/// The geometry of a 2-D NHWC convolution's implicit GEMM.
FailureOr<ConvGather> convGather(linalg::Conv2DNhwcHwcfOp conv,
                                 const TileChip &chip,
                                 const ConvPadding &padding) {
  auto in = cast<MemRefType>(padding.input.getType()).getShape();
  auto filter = cast<MemRefType>(conv.getDpsInputs()[1].getType()).getShape();
  auto out = cast<MemRefType>(conv.getDpsInits()[0].getType()).getShape();
  ConvGather g;
  g.height = in[1];
  g.width = in[2];
  g.channels = in[3];
  g.outHeight = out[1];
  g.outWidth = out[2];
  g.kernelWidth = filter[1];
  g.taps = filter[0] * filter[1];
  auto strides = conv.getStrides().getValues<int64_t>();
  auto dilations = conv.getDilations().getValues<int64_t>();
  g.strideH = strides[0];
  g.strideW = strides[1];
  g.dilationH = dilations[0];
  g.dilationW = dilations[1];
  g.padTop = padding.top;
  g.padLeft = padding.left;
  g.padValue = padding.value;
  g.padded = padding.subview != nullptr;
  g.pixels = out[0] * out[1] * out[2];
  g.faceRows = chip.faceRows;
  g.faceCols = chip.faceCols;
  return g;
}
} // namespace

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
  auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(matmul.getOperation());
  // Leading dimensions of a batch matmul: one product per index.
  size_t lead = conv ? 0 : shape(product).size() - 2;
  for (size_t d = 0; d < lead; ++d)
    p.batch *= shape(product)[d];
  // The loops holding m, n and k in the schedule: a convolution's implicit
  // GEMM keeps them on ow, f and c (the core's scratchpad model).
  size_t mLoop = conv ? 2 : lead, nLoop = conv ? 3 : lead + 1,
         kLoop = conv ? 6 : lead + 2;
  const std::vector<int64_t> &reg = s->registerTile;
  if (reg[mLoop] != chip.tileRows || reg[nLoop] != chip.tileCols ||
      reg[kLoop] != chip.tileCols)
    return matmul.emitError()
           << "the schedule's matrix tile does not match the chip's "
           << chip.tileRows << "x" << chip.tileCols << " tiles";
  p.name = fn.getSymName().str();
  p.tileRows = chip.tileRows;
  p.tileCols = chip.tileCols;
  int64_t m, n, k;
  Value convInput;
  if (conv) {
    // The input: an argument, or the argument a zero padding copies.
    Value input = conv.getDpsInputs()[0];
    ConvPadding padding;
    if (FailureOr<ConvPadding> padded = paddingOf(input); succeeded(padded))
      padding = *padded;
    else if (FailureOr<BlockArgument> arg = argumentOf(conv, input);
             succeeded(arg))
      padding.input = *arg;
    else
      return failure();
    convInput = padding.input;
    FailureOr<ConvGather> g = convGather(conv, chip, padding);
    if (failed(g))
      return failure();
    p.conv = *g;
    ArrayRef<int64_t> filter = shape(conv.getDpsInputs()[1]);
    m = g->pixels;
    n = filter[3];
    k = filter[0] * filter[1] * filter[2];
  } else {
    m = shape(product)[lead];
    n = shape(product)[lead + 1];
    k = shape(matmul.getDpsInputs()[0])[lead + 1];
  }
  const std::vector<int64_t> &block = s->tiles.front().sizes;
  p.mb = block[mLoop] / chip.tileRows;
  p.nb = block[nLoop] / chip.tileCols;
  p.kb = block[kLoop] / chip.tileCols;
  int64_t perRow = s->grid[mLoop] / chip.tileRows,
          perCol = s->grid[nLoop] / chip.tileCols;
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
    llvm::Expected<Expression> expr =
        translateBody(generic, 1, target.dstTiles());
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
  // Output tiles per acquire: a divisor of the block's width that fits Dst
  // with the epilogue's slots.
  for (int64_t sub = p.nb; sub >= 1; --sub)
    if (p.nb % sub == 0 && sub * p.epilogue.slots <= target.dstTiles()) {
      p.subblock = sub;
      break;
    }

  // The operands' stored format: the scheduled intrinsic's operand_format
  // (a block float; not for a convolution, whose reader gathers rows of
  // A's tiles).
  std::string operandFormat;
  for (const hw::MatrixIntrinsic &mi : target.description.matrix)
    if (mi.name == s->matrixIntrinsic && !mi.operandFormat.empty() && !conv) {
      if (mi.operandFormat != "bfp8" && mi.operandFormat != "bfp4")
        return matmul.emitError()
               << "the tile target stores matrix operands as bfp8 or bfp4, "
                  "not '"
               << mi.operandFormat << "' (intrinsic " << mi.name << ")";
      operandFormat = mi.operandFormat;
    }
  auto add = [&](Value v, int64_t rows, int64_t cols, bool output,
                 TensorDecl &into,
                 const std::string &format = "") -> LogicalResult {
    FailureOr<BlockArgument> arg = argumentOf(matmul, v);
    if (failed(arg))
      return failure();
    // A convolution's tensors as matrices: [pixels, channels], the filter
    // [taps x channels, filters], the output [pixels, filters].
    FailureOr<TensorDecl> t =
        conv ? flatTensorFor(matmul, *arg, rows, cols, output)
             : tensorFor(matmul, *arg, rows, cols, output);
    if (failed(t))
      return failure();
    if (!format.empty() && t->type == "bf16")
      t->type = format;
    into = *t;
    tensors.push_back({arg->getArgNumber(), *t});
    return success();
  };
  int64_t stacked = p.batch * chip.tileRows; // a batch's matrices, stacked
  int64_t aRows = p.mt * stacked, aCols = p.kt * chip.tileCols;
  Value aValue = matmul.getDpsInputs()[0];
  if (conv) {
    ArrayRef<int64_t> in = shape(convInput);
    aRows = ceilDiv(in[0] * in[1] * in[2], chip.tileRows) * chip.tileRows;
    aCols = ceilDiv(in[3], chip.tileCols) * chip.tileCols;
    aValue = convInput;
  }
  if (failed(add(aValue, aRows, aCols, false, p.a, operandFormat)) ||
      failed(add(matmul.getDpsInputs()[1], p.kt * stacked, p.nt * chip.tileCols,
                 false, p.b, operandFormat)) ||
      failed(add(result, p.mt * stacked, p.nt * chip.tileCols, true, p.c)))
    return failure();
  if (p.a.type != p.b.type)
    return matmul.emitError() << "the tile target multiplies operands of "
                                 "one element type";
  // Block floats reach the matrix engine as bf16.
  p.fidelity = target.fidelityFor(p.a.type == "f32" ? "f32" : "bf16");
  // One declaration per argument: a buffer that is both an operand and
  // an epilogue input (x @ w then min(., x), with x one row) is read twice
  // from one DRAM tensor.
  llvm::sort(tensors, [](auto &x, auto &y) { return x.first < y.first; });
  for (auto &[index, t] : tensors) {
    if (!p.tensors.empty() && p.tensors.back().name == t.name) {
      if (!p.tensors.back().sameAs(t))
        return matmul.emitError()
               << "the tile target's matmul program reads argument #" << index
               << " twice, as " << p.tensors.back().rows << "x"
               << p.tensors.back().cols << " and " << t.rows << "x" << t.cols
               << " tiles of DRAM; it reads one layout of a tensor";
      continue;
    }
    p.tensors.push_back(t);
  }
  return writeMatmulProgram(p);
}
