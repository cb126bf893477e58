//===- NpuLowering.cpp - Mapped IR to straight-line npu code (S5) ---------===//
//
// Each linalg op of the mapped IR is cut into the blocks its schedule chose
// (strata::codegen::BlockGrid). Blocks go round robin over the cores. For
// each block and each step along its reduction loops the DMA engine loads
// every input's box into the scratchpad, in two copies so that the next step
// loads while this one computes; a contraction's step runs on the systolic
// array into the accumulator, any other body becomes one vector op per body
// op over strided views of the boxes (stride 0 where an operand does not
// vary: broadcasts, constants, a reduction's output). The output box is
// stored once the next block's loads are queued. Every op waits for the ops
// that last wrote what it touches or still read what it writes
// (codegen::Hazards; the simulator checks this); a wait ends each linalg op.
//
//===----------------------------------------------------------------------===//
#include "Npu/NpuPasses.h"
#include "strata/Codegen/BlockGrid.h"
#include "strata/Codegen/BodyValues.h"
#include "strata/Codegen/Hazards.h"
#include "strata/Schedule/Attributes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/FormatVariadic.h"

namespace npu {
#define GEN_PASS_DEF_NPULOWER
#include "Npu/NpuPasses.h.inc"
} // namespace npu

using namespace mlir;
using namespace npu;
using namespace strata::codegen;

namespace {

/// A buffer and the stride per loop of the op that walks it.
struct View {
  Value buf;
  Ints strides;
};

/// The vector-unit function of a body op ("": none).
std::string vectorFn(Operation *op) {
  if (isa<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::ExtSIOp,
          arith::TruncIOp, arith::FPToSIOp>(op))
    return "copy";
  return llvm::StringSwitch<std::string>(op->getName().getStringRef())
      .Cases({"arith.addf", "arith.addi"}, "add")
      .Cases({"arith.subf", "arith.subi"}, "sub")
      .Cases({"arith.mulf", "arith.muli"}, "mul")
      .Case("arith.divf", "div")
      .Cases({"arith.maximumf", "arith.maxsi"}, "max")
      .Cases({"arith.minimumf", "arith.minsi"}, "min")
      .Case("arith.maxnumf", "maxnum")
      .Case("arith.minnumf", "minnum")
      .Case("arith.negf", "neg")
      .Case("math.absf", "abs")
      .Case("math.exp", "exp")
      .Case("math.tanh", "tanh")
      .Case("math.erf", "erf")
      .Case("math.sqrt", "sqrt")
      .Case("math.rsqrt", "rsqrt")
      .Default("");
}

int64_t bytesOf(Type t, int64_t elements) {
  return llvm::alignTo(
      elements * llvm::divideCeil(t.getIntOrFloatBitWidth(), 8), 64);
}

Ints withOffset(ArrayRef<int64_t> strides) {
  Ints view{0};
  view.append(strides.begin(), strides.end());
  return view;
}

bool isContraction(linalg::LinalgOp op) {
  auto schedule = strata::getSchedule(op, op.getNumLoops());
  return succeeded(schedule) && *schedule && (*schedule)->kind == "contraction";
}

/// Emits one linalg op as npu code.
class Lowerer {
public:
  Lowerer(linalg::LinalgOp op, int64_t cores, int64_t spad, int64_t acc)
      : op(op), b(op), loc(op.getLoc()), cores(cores), capacity{0, spad, acc},
        used(cores, {0, 0, 0}) {}
  LogicalResult lower(bool zeroInit);

private:
  Value buffer(int64_t core, unsigned space, Type type, int64_t elements,
               const std::string &what) {
    int64_t bytes = bytesOf(type, elements), &at = used[core][space];
    if (core == 0)
      layout[space] += llvm::formatv(
          "{0}{1} {2} B", layout[space].empty() ? "" : ", ", what, bytes);
    auto memref = MemRefType::get({elements}, type, AffineMap(), space);
    Value buf = BufferOp::create(b, loc, memref, core, at);
    at += bytes;
    return buf;
  }
  Type token() { return TokenType::get(b.getContext()); }
  void dma(bool load, Value dram, Value local, const Box &box, int64_t core) {
    auto shape = cast<MemRefType>(dram.getType()).getShape();
    Ints dramView = boxView(shape, box),
         localView = withOffset(rowMajorStrides(box.size));
    Value t;
    if (load)
      t = DmaLoadOp::create(b, loc, token(), dram, local,
                            hazards.after({}, {local}), box.size, dramView,
                            localView, core);
    else
      t = DmaStoreOp::create(b, loc, token(), local, dram,
                             hazards.after({local}, {}), box.size, localView,
                             dramView, core);
    load ? hazards.record(t, {}, {local}) : hazards.record(t, {local}, {});
  }
  void vector(StringRef fn, const View &out, ArrayRef<View> ins,
              ArrayRef<int64_t> sizes, int64_t core,
              std::optional<double> scalar = std::nullopt) {
    SmallVector<Value> bufs;
    SmallVector<Attribute> views;
    for (const View &in : ins) {
      bufs.push_back(in.buf);
      views.push_back(b.getDenseI64ArrayAttr(withOffset(in.strides)));
    }
    Value t = VectorOp::create(
        b, loc, token(), b.getStringAttr(fn), out.buf, bufs,
        hazards.after(bufs, {out.buf}), b.getDenseI64ArrayAttr(sizes),
        b.getDenseI64ArrayAttr(withOffset(out.strides)), b.getArrayAttr(views),
        scalar ? b.getF64FloatAttr(*scalar) : FloatAttr(),
        b.getI64IntegerAttr(core));
    hazards.record(t, bufs, {out.buf});
  }

  linalg::LinalgOp op;
  OpBuilder b;
  Location loc;
  int64_t cores, capacity[3];
  std::vector<std::array<int64_t, 3>> used;
  std::string layout[3];
  Hazards hazards;
};

LogicalResult Lowerer::lower(bool zeroInit) {
  if (op.getNumDpsInits() != 1)
    return op.emitOpError("npu: one output per op, got ")
           << op.getNumDpsInits();
  FailureOr<BlockGrid> grid = BlockGrid::of(op);
  if (failed(grid))
    return failure();
  BlockGrid &g = *grid;
  size_t loops = g.extents.size();
  bool contraction = isContraction(op);
  OpOperand *out = op.getDpsInitOperand(0);
  Block &body = *op.getBlock();
  Value outArg = op.getMatchingBlockArgument(out);
  Value yielded = body.getTerminator()->getOperand(0);
  bool readsOut = !outArg.use_empty() && !(contraction && zeroInit);

  // A contraction's operands: A varies with m, B with n; k is reduced.
  int64_t mLoop = -1, nLoop = -1, kLoop = -1;
  OpOperand *aOp = nullptr, *bOp = nullptr;
  if (contraction) {
    AffineMap outMap = op.getMatchingIndexingMap(out);
    mLoop = outMap.getDimPosition(outMap.getNumResults() - 2);
    nLoop = outMap.getDimPosition(outMap.getNumResults() - 1);
    kLoop = g.reductions.empty() ? -1 : g.reductions.back();
    for (OpOperand *in : op.getDpsInputOperands())
      (op.getMatchingIndexingMap(in).isFunctionOfDim(mLoop) ? aOp : bOp) = in;
    if (!aOp || !bOp || kLoop < 0 || g.reductions.size() != 1)
      return op.emitOpError("npu: not a matrix product of two operands");
  }

  // Scratchpad per core: two boxes per memref operand, the temporaries.
  // Elementwise blocks shrink until they fit: the core's model does not
  // see the body's temporaries.
  Operation *direct = contraction ? nullptr : directWriter(op);
  BodySlots slots = contraction ? BodySlots() : assignBodySlots(op, direct);
  auto footprint = [&](const BlockGrid &g) {
    int64_t bytes = 0;
    for (OpOperand &operand : op->getOpOperands())
      if (isa<MemRefType>(operand.get().getType()))
        bytes += 2 * bytesOf(getElementTypeOrSelf(operand.get().getType()),
                             g.boxElements(&operand));
    for (Type t : slots.types)
      bytes += bytesOf(t, g.points());
    return bytes;
  };
  if (!contraction)
    g.shrinkUntil(
        [&](const BlockGrid &g) { return footprint(g) <= capacity[Spad]; });

  // Buffers per core: two copies of each input box and of the output box
  // (and the accumulator of a contraction), the temporaries.
  Type outType = getElementTypeOrSelf(out->get().getType());
  Type accType = outType.isInteger() ? Type(b.getI32Type()) : b.getF32Type();
  struct PerCore {
    SmallVector<SmallVector<Value, 2>> in;
    SmallVector<Value, 2> out, acc;
    SmallVector<Value> temps;
    DenseMap<Value, View> values;
  };
  std::vector<PerCore> per(cores);
  for (int64_t c = 0; c < cores; ++c) {
    for (OpOperand *in : op.getDpsInputOperands()) {
      per[c].in.emplace_back();
      if (isa<MemRefType>(in->get().getType()))
        for (int copy = 0; copy < 2; ++copy)
          per[c].in.back().push_back(
              buffer(c, Spad, getElementTypeOrSelf(in->get().getType()),
                     g.boxElements(in),
                     llvm::formatv("input {0}", in->getOperandNumber())));
    }
    for (int copy = 0; copy < 2; ++copy) {
      per[c].out.push_back(
          buffer(c, Spad, outType, g.boxElements(out), "output"));
      if (contraction)
        per[c].acc.push_back(
            buffer(c, Acc, accType, g.boxElements(out), "accumulator"));
    }
    for (Type t : slots.types)
      per[c].temps.push_back(buffer(c, Spad, t, g.points(), "temporary"));
  }

  // A body value: a box, a temporary, or a constant (a scalar input's too)
  // as a one-element buffer filled once per core, read with stride 0.
  auto valueOf = [&](PerCore &pc, Value v, int64_t c) -> FailureOr<View> {
    if (auto it = pc.values.find(v); it != pc.values.end())
      return it->second;
    Value outer = v;
    if (auto arg = dyn_cast<BlockArgument>(v);
        arg && arg.getOwner() == &body &&
        arg.getArgNumber() < cast<BlockArgument>(outArg).getArgNumber())
      outer = op->getOperand(arg.getArgNumber());
    std::optional<double> k = constantValue(outer);
    if (!k)
      return op.emitOpError("npu: the body uses a value the vector unit "
                            "cannot broadcast: ")
             << v;
    Value buf = buffer(c, Spad, v.getType(), 1, "constant");
    vector("fill", {buf, Ints{0}}, {}, {1}, c, *k);
    return pc.values[v] = View{buf, Ints(loops, 0)};
  };

  std::vector<std::function<void()>> pendingStore(cores);
  Value outDram = rootBuffer(out->get());
  for (int64_t blk = 0, stepIndex = 0; blk < g.numBlocks(); ++blk) {
    int64_t c = blk % cores, parity = (blk / cores) % 2;
    PerCore &pc = per[c];
    Box outBox = g.box(out, g.start(blk, 0));
    Value outBuf = pc.out[parity],
          accBuf = contraction ? pc.acc[parity] : Value();
    Ints outStrides = g.loopStrides(out, outBox.size);
    for (int64_t step = 0; step < g.numSteps(); ++step, ++stepIndex) {
      Ints at = g.start(blk, step), sizes = g.sizesAt(at);
      int64_t stage = stepIndex % 2;
      for (auto [i, in] : llvm::enumerate(op.getDpsInputOperands())) {
        if (!isa<MemRefType>(in->get().getType()))
          continue;
        Box box = g.box(in, at);
        dma(true, rootBuffer(in->get()), pc.in[i][stage], box, c);
        pc.values[body.getArgument(i)] = {pc.in[i][stage],
                                          g.loopStrides(in, box.size)};
      }
      if (step == 0) {
        if (pendingStore[c])
          pendingStore[c]();
        if (readsOut) {
          dma(true, outDram, outBuf, outBox, c);
          if (contraction)
            vector("copy", {accBuf, outStrides}, {{outBuf, outStrides}}, sizes,
                   c);
        }
      }
      pc.values[outArg] = {outBuf, outStrides};
      if (contraction) {
        Ints as = g.loopStrides(aOp, g.box(aOp, at).size),
             bs = g.loopStrides(bOp, g.box(bOp, at).size);
        Value a = pc.in[aOp->getOperandNumber()][stage],
              bb = pc.in[bOp->getOperandNumber()][stage];
        Value t = MatmulOp::create(
            b, loc, token(), a, bb, accBuf, hazards.after({a, bb}, {accBuf}),
            sizes[mLoop], sizes[nLoop], sizes[kLoop],
            Ints{0, as[mLoop], as[kLoop]}, Ints{0, bs[kLoop], bs[nLoop]},
            Ints{0, outStrides[mLoop], outStrides[nLoop]}, readsOut || step > 0,
            c);
        hazards.record(t, {a, bb}, {accBuf});
        continue;
      }
      // One vector op per body op; intermediate values in temporaries.
      for (Operation &bodyOp : body.without_terminator()) {
        if (bodyOp.hasTrait<OpTrait::ConstantLike>())
          continue;
        std::string fn = vectorFn(&bodyOp);
        if (fn.empty())
          return bodyOp.emitOpError("cannot run on the npu: its vector unit "
                                    "has add, sub, mul, div, max, min, maxnum, minnum, neg, "
                                    "abs, exp, tanh, erf, sqrt, rsqrt and "
                                    "conversions");
        SmallVector<View> ins;
        for (Value v : bodyOp.getOperands()) {
          FailureOr<View> in = valueOf(pc, v, c);
          if (failed(in))
            return failure();
          ins.push_back(*in);
        }
        View dst{outBuf, outStrides};
        if (&bodyOp != direct)
          dst = {pc.temps[slots.slotOf[bodyOp.getResult(0)]],
                 rowMajorStrides(g.block)};
        vector(fn, dst, ins, sizes, c);
        pc.values[bodyOp.getResult(0)] = dst;
      }
      if (!direct) {
        FailureOr<View> result = valueOf(pc, yielded, c);
        if (failed(result))
          return failure();
        vector("copy", {outBuf, outStrides}, {*result}, sizes, c);
      }
    }
    // A contraction's f32 results leave from the accumulator; narrower ones
    // are converted into the scratchpad first.
    pendingStore[c] = [&, c, outBuf, accBuf, outBox] {
      Value src = outBuf;
      Ints strides = rowMajorStrides(outBox.size);
      if (accBuf && outType == accType)
        src = accBuf;
      else if (accBuf)
        vector("copy", {outBuf, strides}, {{accBuf, strides}}, outBox.size, c);
      dma(false, outDram, src, outBox, c);
      pendingStore[c] = nullptr;
    };
  }
  for (auto &store : pendingStore)
    if (store)
      store();
  WaitOp::create(b, loc);
  for (int space : {Spad, Acc})
    if (used[0][space] > capacity[space])
      return op.emitOpError(llvm::formatv(
          "npu: needs {0} bytes of {1} per core ({2}), more than its {3}",
          used[0][space], space == Spad ? "scratchpad" : "accumulator",
          layout[space], capacity[space]));
  return success();
}

struct NpuLower : npu::impl::NpuLowerBase<NpuLower> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<strata::hw::Description> chip = strata::descriptionOf(module);
    if (failed(chip))
      return signalPassFailure();
    // The scratchpad with a DMA engine stages operands, one per core; the
    // matrix intrinsic names the accumulator (validated by the plugin).
    int64_t cores = 1, spad = 0, acc = 0;
    for (const strata::hw::MemoryLevel &mem : chip->memory) {
      if (mem.engine && !spad) {
        spad = mem.capacityBytes;
        cores = chip->totalUnits(mem.owner);
      }
      if (mem.name == chip->matrix.front().accumulator)
        acc = mem.capacityBytes;
    }
    // Copies between DRAM buffers go through the scratchpad like any op.
    module.walk([](memref::CopyOp copy) {
      OpBuilder b(copy);
      linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    });
    SmallVector<linalg::LinalgOp> ops;
    module.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    // A zero fill right before a contraction: the array starts from zero.
    llvm::SmallPtrSet<Operation *, 8> folded;
    DenseSet<Operation *> zeroInit;
    for (linalg::LinalgOp op : ops)
      if (linalg::FillOp fill =
              isContraction(op) ? zeroFillBefore(op) : linalg::FillOp())
        folded.insert(fill), zeroInit.insert(op);
    for (linalg::LinalgOp op : ops) {
      if (!folded.count(op) &&
          failed(Lowerer(op, cores, spad, acc).lower(zeroInit.count(op))))
        return signalPassFailure();
      op->erase();
    }
    // DRAM temporaries are allocated by the runtime per launch; constants
    // now live in the programs' fills.
    module.walk([](Operation *op) {
      if (isa<memref::DeallocOp>(op) ||
          (op->hasTrait<OpTrait::ConstantLike>() && op->use_empty()))
        op->erase();
    });
  }
};

} // namespace
