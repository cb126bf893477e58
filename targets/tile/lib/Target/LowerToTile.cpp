//===- LowerToTile.cpp - S5: mapped IR to tile programs -------------------===//
//
// Each public function of the mapped IR (on buffers, results as trailing
// output arguments) becomes a tile.program of the same name whose DRAM
// tensors are the function's arguments in order. The function must be one
// of the shapes the tile kernels implement:
//   - a zero fill and a 2-D linalg.matmul, optionally followed by an
//     elementwise linalg.generic reading the product and row-broadcast
//     vectors (bias) — the epilogue runs on the accumulator;
//   - one elementwise linalg.generic over 2-D tensors and row-broadcast
//     vectors, or over tensors of any rank read whole;
//   - row reductions and elementwise ops over the rows of one 2-D shape
//     (a softmax);
//   - a transpose of a matrix or a batch of them;
//   - an attention, in one pass (AttentionLowering.cpp);
//   - a copy between strided views of two tensors: a slice, the interior
//     of a pad (CopyLowering.cpp).
// Ops that read or write strided views get buffers of their own and copies
// (StridedViews.cpp); an elementwise op reading its output's old value
// reads it as an input (InPlaceUpdates.cpp).
// Any other function made of several of these becomes one program per
// part, run in order by the runtime (SplitLowering.cpp).
// This file holds the pass, the choice among the shapes and the helpers
// they share; each shape has its own file (FunctionLowering.h).
// Every number comes from the op's #strata.schedule (blocks, k step, grid,
// matrix tile, multicast) or from the chip (Dst capacity, grid, tile);
// tensors whose shapes are not whole tiles are padded with zeros in DRAM.
// The program is verified against the chip (L1 capacity included) by the
// dialect's verifier after the pass.
//
//===----------------------------------------------------------------------===//
#include "LowerToTile.h"
#include "FunctionLowering.h"

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

/// Whether the tile target holds `element`s in DRAM: bf16 and f32,
/// booleans (i1) as bf16 1.0 and 0.0, and f16 as f32 (exactly: the chips'
/// formats include no IEEE half), which the runtime converts to and from
/// the host's bytes.
static bool isDramElement(Type element) {
  return element.isBF16() || element.isF32() || element.isF16() ||
         element.isInteger(1);
}

/// The declaration of argument `arg` (of `element`s the DRAM holds) as a
/// `rows` x `cols` DRAM matrix.
static TensorDecl declare(BlockArgument arg, Type element, int64_t rows,
                          int64_t cols, bool output) {
  TensorDecl t;
  t.name = "arg" + std::to_string(arg.getArgNumber());
  t.output = output;
  t.rows = rows;
  t.cols = cols;
  t.type = element.isF32() || element.isF16() ? "f32" : "bf16";
  return t;
}

/// The DRAM tensor of function argument `arg` padded to `rows` x `cols`.
FailureOr<TensorDecl> strata::tile::tensorFor(Operation *user,
                                              BlockArgument arg, int64_t rows,
                                              int64_t cols, bool output) {
  auto type = dyn_cast<MemRefType>(arg.getType());
  Type element = type ? type.getElementType() : Type();
  if (!type || !type.hasStaticShape() || !isDramElement(element) ||
      type.getRank() > 3)
    return user->emitError()
           << "the tile target reads 1-D, 2-D or batches of 2-D bf16, f16, "
              "f32 or i1 tensors of static shape; argument #"
           << arg.getArgNumber() << " is " << arg.getType();
  TensorDecl t = declare(arg, element, rows, cols, output);
  ArrayRef<int64_t> shape = type.getShape();
  // A vector (or a batch of one row) fills every row: a bias.
  t.replicateRows =
      !shape.empty() && type.getNumElements() == shape.back() && rows > 1;
  if (type.getRank() != 2 || shape[0] != rows || shape[1] != cols)
    t.hostShape.assign(shape.begin(), shape.end());
  return t;
}

/// The DRAM tensor of argument `arg` of any rank as the matrix [elements /
/// last dimension, last dimension] padded to `rows` x `cols` (an NHWC
/// tensor as [pixels, channels]).
FailureOr<TensorDecl> strata::tile::flatTensorFor(Operation *user,
                                                  BlockArgument arg,
                                                  int64_t rows, int64_t cols,
                                                  bool output) {
  auto type = dyn_cast<MemRefType>(arg.getType());
  Type element = type ? type.getElementType() : Type();
  if (!type || !type.hasStaticShape() || !isDramElement(element))
    return user->emitError()
           << "the tile target reads bf16, f16, f32 or i1 tensors of static "
              "shape; argument #"
           << arg.getArgNumber() << " is " << arg.getType();
  TensorDecl t = declare(arg, element, rows, cols, output);
  t.hostShape.assign(type.getShape().begin(), type.getShape().end());
  // A scalar (rank 0) is one row of one.
  t.flatten = !t.hostShape.empty();
  t.vector = t.hostShape.empty();
  return t;
}

/// The DRAM tensor of a vector or scalar argument `arg` read in every row
/// (a value per column), every column (per row, stored as a column) or
/// every element of `rows` x `cols` tiles: its elements in order whatever
/// its rank.
FailureOr<TensorDecl>
strata::tile::vectorTensorFor(Operation *user, BlockArgument arg, int64_t rows,
                              int64_t cols, bool perRow, bool perColumn) {
  FailureOr<TensorDecl> t = flatTensorFor(user, arg, rows, cols, false);
  if (failed(t))
    return failure();
  t->flatten = false;
  t->vector = true;
  t->replicateRows = !perRow;
  t->replicateCols = !perColumn;
  t->column = perRow;
  return t;
}

/// The function argument `v` is, or failure with a message at `user`.
FailureOr<BlockArgument> strata::tile::argumentOf(Operation *user, Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || !isa<func::FuncOp>(arg.getOwner()->getParentOp()))
    return user->emitError() << "the tile target reads operands straight "
                                "from DRAM: expected a function argument";
  return arg;
}

/// True when input `i` of `op` is indexed by the last loop only: a row
/// broadcast along the rows of a 2-D iteration space.
bool strata::tile::isRowBroadcast(linalg::GenericOp op, OpOperand &operand) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  unsigned loops = op.getNumLoops();
  if (loops < 2 || map.getNumResults() < 1 ||
      map.getResults().back() != getAffineDimExpr(loops - 1, op.getContext()))
    return false;
  // Leading dimensions of size one (a [1, 1, n] bias of a batch of one)
  // index 0, or a loop that takes only 0.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  return llvm::all_of(map.getResults().drop_back(), [&](AffineExpr e) {
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      return ranges[dim.getPosition()] == 1;
    auto c = dyn_cast<AffineConstantExpr>(e);
    return c && c.getValue() == 0;
  });
}

GridProgram strata::tile::gridProgram(func::FuncOp fn, const TileChip &chip) {
  GridProgram program;
  program.name = fn.getSymName().str();
  program.rows = chip.rows;
  program.cols = chip.cols;
  program.tileRows = chip.tileRows;
  program.tileCols = chip.tileCols;
  return program;
}

LogicalResult strata::tile::unsupportedFunction(func::FuncOp fn,
                                                Operation *op) {
  InFlightDiagnostic diag =
      fn.emitError() << "the tile target lowers a function made of a zero "
                        "fill and a 2-D matmul (optionally followed by an "
                        "elementwise epilogue), of one elementwise op on "
                        "2-D tensors (or on tensors of any rank read "
                        "whole), or of row reductions and elementwise ops "
                        "over the rows of one 2-D shape";
  if (op)
    diag.attachNote(op->getLoc()) << "not lowered: " << op->getName();
  return diag;
}

FailureOr<Schedule> strata::tile::scratchpadScheduleOf(linalg::LinalgOp op) {
  FailureOr<std::optional<Schedule>> s = getSchedule(op, op.getNumLoops());
  if (failed(s))
    return failure();
  // An op on scalars has no loop, so no register tile.
  if (!*s || (*s)->tiles.empty() ||
      ((*s)->registerTile.empty() && op.getNumLoops() != 0))
    return op->emitError() << "the tile target needs the op's scratchpad "
                              "schedule (#strata.schedule from S3)";
  return **s;
}

namespace {
/// A temporary written by ops of `fn` and then copied whole into a function
/// argument nothing else touches (a callee's result, once inlined, copied
/// into the caller's output) becomes that argument: its writers write the
/// output, and no copy program is needed.
void forwardCopiedTemporaries(func::FuncOp fn) {
  SmallVector<memref::CopyOp> copies(fn.getBody().getOps<memref::CopyOp>());
  for (memref::CopyOp copy : copies) {
    auto alloc = copy.getSource().getDefiningOp<memref::AllocOp>();
    auto target = dyn_cast<BlockArgument>(copy.getTarget());
    if (!alloc || !target || alloc.getType() != target.getType() ||
        !target.hasOneUse())
      continue;
    SmallVector<Operation *> deallocs;
    bool before = llvm::all_of(alloc->getUsers(), [&](Operation *user) {
      if (isa<memref::DeallocOp>(user)) {
        deallocs.push_back(user);
        return true;
      }
      return user == copy.getOperation() ||
             (user->getBlock() == copy->getBlock() &&
              user->isBeforeInBlock(copy));
    });
    if (!before)
      continue;
    copy.erase();
    for (Operation *dealloc : deallocs)
      dealloc->erase();
    alloc.getResult().replaceAllUsesWith(target);
    alloc.erase();
  }
}

/// Replaces each of `ops` with what `rewrite` makes of it, the op's
/// schedule carried over to the replacement.
template <typename Ops, typename Rewrite>
void rewriteKeepingSchedules(IRRewriter &rewriter, const Ops &ops,
                             Rewrite rewrite) {
  for (auto op : ops) {
    Attribute schedule = op->getAttr(kScheduleAttrName);
    rewriter.setInsertionPoint(op);
    auto replacement = rewrite(op);
    if (succeeded(replacement) && schedule)
      (*replacement)->setAttr(kScheduleAttrName, schedule);
  }
}

/// The program text of `fn` by its shape, or failure (reported).
FailureOr<std::string> lowerFunction(const LoweringTarget &target,
                                     func::FuncOp fn) {
  SmallVector<linalg::LinalgOp> ops;
  Operation *copy = nullptr; // row programs take copies of fills
  int64_t copies = 0;
  for (Operation &op : fn.getBody().front()) {
    if (isPaddingOp(&op))
      continue; // a convolution's reader pads
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      ops.push_back(linalgOp);
    else if (isa<memref::CopyOp>(op))
      copy = copies++ ? copy : &op;
    else if (auto view = dyn_cast<memref::SubViewOp>(op);
             view &&
             llvm::any_of(view.getSource().getUsers(), [](Operation *u) {
               return isa<linalg::Conv2DNhwcHwcfOp>(u);
             }))
      // A padded convolution input that ConvPadding.cpp did not take.
      return view.emitError()
             << "the tile target pads a convolution's input with a constant "
                "only (a tensor.pad yielding a value defined outside it)";
    else if (isa<memref::SubViewOp, memref::ReinterpretCastOp>(op) &&
             llvm::all_of(op.getUsers(), [](Operation *u) {
               return isa<memref::CopyOp>(u) || isViewOp(u);
             }))
      continue; // a view a copy reads or writes
    else if (!isa<func::ReturnOp, memref::AllocOp, memref::DeallocOp,
                  arith::ConstantOp, memref::ExpandShapeOp,
                  memref::CollapseShapeOp>(op))
      return unsupportedFunction(fn, &op);
  }
  // A copy alone: between views of two tensors.
  if (ops.empty() && copies == 1)
    return lowerCopyFunction(target, fn, cast<memref::CopyOp>(copy));
  auto opAt = [&](size_t i) {
    return i < ops.size() ? ops[i].getOperation() : nullptr;
  };
  if (!copy && ops.size() <= 3 && isa_and_nonnull<linalg::FillOp>(opAt(0)) &&
      isa_and_nonnull<linalg::MatmulOp, linalg::BatchMatmulOp,
                      linalg::Conv2DNhwcHwcfOp>(opAt(1)))
    return lowerMatmulFunction(
        target, fn, cast<linalg::FillOp>(ops[0].getOperation()), ops[1],
        ops.size() == 3 ? ops[2] : linalg::LinalgOp());
  // A product the split could not separate from its neighbours: one
  // without the zero fill of its accumulator just before it.
  auto product = llvm::find_if(ops, [](linalg::LinalgOp op) {
    return isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation());
  });
  if (product != ops.end())
    return product->emitError()
           << "the tile target lowers a matrix product right after a zero "
              "fill of its result (optionally followed by an elementwise "
              "epilogue); this one has no such fill";
  // A fill alone (a split function's, before ops that update the buffer
  // in place) is the elementwise op yielding its value.
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(opAt(0));
      !copy && ops.size() == 1 && fill && fill.hasPureBufferSemantics()) {
    OpBuilder builder(fill);
    Value value = fill.getInputs()[0];
    Value init = fill.getDpsInits()[0];
    auto rank = cast<MemRefType>(init.getType()).getRank();
    auto generic = linalg::GenericOp::create(
        builder, fill.getLoc(), TypeRange(), ValueRange(), ValueRange{init},
        SmallVector<AffineMap>{builder.getMultiDimIdentityMap(rank)},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location loc, ValueRange) {
          linalg::YieldOp::create(b, loc, value);
        });
    fill.erase();
    return lowerEltwiseFunction(target, fn, generic);
  }
  // A map alone (a split function's pad value, written before the copy
  // into the pad's interior) is the elementwise op of its body.
  if (auto map = dyn_cast_or_null<linalg::MapOp>(opAt(0));
      !copy && ops.size() == 1 && map) {
    IRRewriter rewriter(map);
    FailureOr<linalg::GenericOp> generic =
        linalg::generalizeNamedOp(rewriter, map);
    if (failed(generic))
      return unsupportedFunction(fn, map);
    return lowerEltwiseFunction(target, fn, *generic);
  }
  bool reduces = llvm::any_of(
      ops, [](linalg::LinalgOp op) { return op.getNumReductionLoops() > 0; });
  if (!copy && ops.size() == 1 && isa<linalg::GenericOp>(opAt(0)) && !reduces)
    return lowerEltwiseFunction(target, fn,
                                cast<linalg::GenericOp>(ops[0].getOperation()));
  if (reduces)
    return lowerRowFunction(target, fn, ops);
  if (copy)
    return unsupportedFunction(fn, copy);
  return unsupportedFunction(fn, ops.empty() ? nullptr
                                             : ops.front().getOperation());
}

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
           "scheduled matmul with its epilogue, an elementwise op, a row "
           "program, a transpose, or a sequence of these) becomes "
           "tile.programs with reader, compute and writer kernels; an "
           "attention is one program (online softmax)";
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
    // A program's own parallel loops run iteration by iteration.
    for (auto fn : module.getOps<func::FuncOp>())
      if (failed(unrollParallelLoops(fn)))
        return signalPassFailure();
    // Named elementwise ops (linalg.add, ...) as generics, keeping their
    // schedules: the expression translator reads generic bodies.
    IRRewriter rewriter(module.getContext());
    SmallVector<linalg::LinalgOp> named;
    module.walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::GenericOp, linalg::MatmulOp, linalg::BatchMatmulOp,
               linalg::FillOp, linalg::Conv2DNhwcHwcfOp>(op.getOperation()) &&
          !isPaddingOp(op))
        named.push_back(op);
    });
    rewriteKeepingSchedules(rewriter, named, [&](linalg::LinalgOp op) {
      return linalg::generalizeNamedOp(rewriter, op);
    });
    // Generics that are named products (a 1x1 convolution collapsed into
    // a GEMM over its rows) as those ops, keeping their schedules: the
    // product programs take named matmuls.
    SmallVector<linalg::GenericOp> products;
    module.walk([&](linalg::GenericOp op) {
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      if (op.getNumDpsInputs() == 2 && linalg::isaContractionOpInterface(op) &&
          (maps == linalg::MatmulOp::getDefaultIndexingMaps(op.getContext()) ||
           maps ==
               linalg::BatchMatmulOp::getDefaultIndexingMaps(op.getContext())))
        products.push_back(op);
    });
    rewriteKeepingSchedules(rewriter, products, [&](linalg::GenericOp op) {
      return linalg::specializeGenericOp(rewriter, op);
    });
    // One DRAM tensor per buffer an op reads: an input read twice with the
    // same map (max(x, x), fused after bufferization) is read once.
    SmallVector<linalg::GenericOp> generics;
    module.walk([&](linalg::GenericOp op) { generics.push_back(op); });
    rewriteKeepingSchedules(rewriter, generics, [&](linalg::GenericOp op) {
      return linalg::deduplicateOperandsAndRemoveDeadResults(
          rewriter, op, /*removeOutputs=*/false);
    });
    for (auto fn : module.getOps<func::FuncOp>()) {
      tabulateIndexTerms(fn);
      forwardCopiedTemporaries(fn);
      copyStridedOperands(fn);
      copyPermutedReads(fn);
      forwardFills(fn);
      readOldOutputsAsInputs(fn);
      maskRaggedReductions(fn, chip->tileCols);
    }
    LoweringTarget target{*chip, **description, fidelity};
    // Parses a program's text and places it before `fn`; the program's ops
    // report at the function they implement.
    auto place = [&](func::FuncOp fn, StringRef name,
                     const std::string &text) -> FailureOr<ProgramOp> {
      Block parsed;
      ParserConfig config(module.getContext(), /*verifyAfterParse=*/false);
      if (failed(parseSourceString(text, &parsed, config))) {
        fn.emitError() << "internal error: the tile program written for @"
                       << name << " does not parse:\n"
                       << text;
        return failure();
      }
      ProgramOp program;
      for (Operation &op : parsed) {
        op.walk([&](Operation *inner) { inner->setLoc(fn.getLoc()); });
        if (auto p = dyn_cast<ProgramOp>(op))
          program = p;
      }
      module.getBody()->getOperations().splice(Block::iterator(fn),
                                               parsed.getOperations());
      return program;
    };
    for (func::FuncOp fn :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      if (fn.isExternal())
        continue;
      // An attention is one program when it has the shape the one-pass
      // program computes; otherwise it is split like any other function.
      FailureOr<std::optional<std::string>> attention =
          lowerAttentionFunction(target, fn);
      if (failed(attention))
        return signalPassFailure();
      if (*attention) {
        if (failed(place(fn, fn.getSymName(), **attention)))
          return signalPassFailure();
        fn.erase();
        continue;
      }
      SmallVector<SmallVector<Operation *>> groups =
          programGroups(fn, /*paddingInPlace=*/true);
      // A reshaped buffer is a tensor of the runtime's in two shapes: even
      // one program binds its tensors through the sequence. No groups: an
      // op no program takes, which the one-program lowering names.
      bool reshapes = llvm::any_of(fn.getBody().front(), [](Operation &op) {
        return isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(op);
      });
      // Constants (IndexTerms.cpp) are DRAM tensors the runtime fills by
      // name, which it does for the programs of a sequence.
      bool constants = !fn.getOps<memref::GetGlobalOp>().empty();
      bool oneProgram =
          groups.empty() || (groups.size() == 1 && !reshapes && !constants);
      // A convolution pads its input in place in one program only: the
      // parts of a sequence write a padded input first (the ops that pad
      // in place stay out of the convolution's part; differential seed 304
      // case 0).
      if (!oneProgram) {
        groups = programGroups(fn, /*paddingInPlace=*/false);
        oneProgram = groups.empty(); // names the op no program takes
      }
      if (oneProgram) {
        FailureOr<std::string> text = lowerFunction(target, fn);
        if (failed(text) || failed(place(fn, fn.getSymName(), *text)))
          return signalPassFailure();
        fn.erase();
        continue;
      }
      if (failed(lowerSequence(target, fn, groups, place)))
        return signalPassFailure();
    }
    if (failed(collectConstants(module)))
      return signalPassFailure();
  }

  /// The constants the programs bind (index terms, a program's own dense
  /// constants) move into the module's `tile.constants` dictionary, by
  /// name, from which the runtime fills them (TileDevice.cpp).
  static LogicalResult collectConstants(ModuleOp module) {
    SmallVector<NamedAttribute> constants;
    for (auto global :
         llvm::make_early_inc_range(module.getOps<memref::GlobalOp>())) {
      auto value =
          dyn_cast_or_null<DenseElementsAttr>(global.getInitialValueAttr());
      Type element = global.getType().getElementType();
      if (!global.getConstant() || !value || !isDramElement(element))
        return global.emitError()
               << "the tile target takes constant f32, f16, bf16 or i1 "
                  "tensors with their values only";
      constants.push_back(NamedAttribute(global.getSymNameAttr(), value));
      global.erase();
    }
    if (!constants.empty())
      module->setAttr(kConstantsAttrName,
                      DictionaryAttr::get(module.getContext(), constants));
    return success();
  }

  /// A function cut into programs run one after the other: each part is
  /// lowered as a function of its own; its program gets `part_of` (the
  /// function's name: the runtime runs the parts in the module's order)
  /// and each DRAM tensor `bind` (the function's argument or the scratch
  /// tensor it stands for).
  template <typename Place>
  LogicalResult lowerSequence(const LoweringTarget &target, func::FuncOp fn,
                              ArrayRef<SmallVector<Operation *>> groups,
                              Place &place) {
    FailureOr<SmallVector<ProgramPart>> parts = splitFunction(fn, groups);
    if (failed(parts))
      return failure();
    auto eraseParts = [&] {
      for (ProgramPart &part : *parts)
        part.fn.erase();
    };
    MLIRContext *ctx = fn.getContext();
    for (auto [index, part] : llvm::enumerate(*parts)) {
      FailureOr<std::string> text = lowerFunction(target, part.fn);
      FailureOr<ProgramOp> program =
          failed(text) ? FailureOr<ProgramOp>(failure())
                       : place(fn, part.fn.getSymName(), *text);
      if (failed(program) || !*program) {
        fn.emitError() << "the tile target runs @" << fn.getSymName() << " as "
                       << parts->size() << " programs; part " << index
                       << " (starting with '"
                       << groups[index].front()->getName()
                       << "') is not lowered";
        eraseParts();
        return failure();
      }
      (*program)->setAttr("part_of", StringAttr::get(ctx, fn.getSymName()));
      for (auto tensor : program->getBody().getOps<DramTensorOp>()) {
        unsigned arg = 0;
        StringRef name = tensor.getSymName();
        if (!name.consume_front("arg") || name.getAsInteger(10, arg) ||
            arg >= part.binds.size()) {
          fn.emitError() << "internal error: program @" << part.fn.getSymName()
                         << " declares @" << tensor.getSymName();
          eraseParts();
          return failure();
        }
        tensor->setAttr("bind", StringAttr::get(ctx, part.binds[arg]));
      }
    }
    eraseParts();
    fn.erase();
    return success();
  }

  Option<std::string> fidelity{
      *this, "fidelity",
      llvm::cl::desc("Matrix-engine fidelity of the compute kernels (default: "
                     "the matrix intrinsics' default_fidelity)"),
      llvm::cl::init("")};
};
} // namespace

std::unique_ptr<Pass>
strata::tile::createLowerToTilePass(llvm::StringRef fidelity) {
  return std::make_unique<LowerToTilePass>(fidelity.str());
}

#ifndef STRATA_PLUGIN_MODULE
static PassRegistration<LowerToTilePass> lowerToTilePass;
#endif
