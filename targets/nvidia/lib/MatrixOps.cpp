//===- MatrixOps.cpp - Matrix-intrinsic contractions to nvgpu -------------===//
//
// nvidia-matrix-ops: each k loop whose body holds contractions tagged with a
// matrix intrinsic (`strata.intrinsic`) becomes nvgpu.ldmatrix and
// nvgpu.mma.sync on per-lane fragments, through upstream's vector-to-nvgpu
// conversion applied to that loop only (f32 operands as tf32, m16n8k8:
// their A tiles through ldmatrix, which moves 32-bit elements whole when not
// transposing, B's k x n rows element by element); wgmma loops become
// nvgpu.warpgroup.mma (WarpgroupMma.h). That conversion treats any integer
// add/mul/div as a potential matrix op, so the loop's index arithmetic
// (always by constants here) is first rewritten as affine.apply, which the
// later lower-affine turns back into the same integer ops.
//
//===----------------------------------------------------------------------===//
#include "Bf16Fragments.h"
#include "GridToGPU.h"
#include "SwizzledTiles.h"
#include "WarpgroupMma.h"

#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace strata::nvidia {
namespace {

/// `op` (an index add/sub/mul/div by a constant) as an affine.apply.
void toAffine(RewriterBase &rw, Operation *op) {
  if (op->getNumResults() != 1 || !op->getResult(0).getType().isIndex())
    return;
  MLIRContext *ctx = op->getContext();
  AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx);
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  std::optional<int64_t> c = getConstantIntValue(rhs);
  AffineMap map;
  SmallVector<Value> operands = {lhs, rhs};
  if (isa<arith::AddIOp>(op))
    map = AffineMap::get(2, 0, d0 + d1);
  else if (isa<arith::SubIOp>(op))
    map = AffineMap::get(2, 0, d0 - d1);
  else if (isa<arith::MulIOp>(op) && c)
    map = AffineMap::get(1, 0, d0 * *c), operands = {lhs};
  else if (isa<arith::DivUIOp>(op) && c && *c > 0)
    map = AffineMap::get(1, 0, d0.floorDiv(*c)), operands = {lhs};
  else
    return;
  rw.setInsertionPoint(op);
  rw.replaceOpWithNewOp<affine::AffineApplyOp>(op, map, operands);
}

struct MatrixOps : public PassWrapper<MatrixOps, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MatrixOps)
  StringRef getArgument() const override { return "nvidia-matrix-ops"; }
  StringRef getDescription() const override {
    return "Contractions tagged with a matrix intrinsic to nvgpu.ldmatrix "
           "and nvgpu.mma.sync";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<affine::AffineDialect, gpu::GPUDialect, LLVM::LLVMDialect,
                    NVVM::NVVMDialect, nvgpu::NVGPUDialect,
                    vector::VectorDialect>();
  }
  void runOnOperation() override {
    // wgmma k loops first (WarpgroupMma.h): the preparation below would
    // rewrite their contractions for mma.sync.
    {
      llvm::SetVector<scf::ForOp> warpgroupLoops;
      getOperation().walk([&](vector::ContractionOp contract) {
        auto intrinsic =
            contract->getAttrOfType<StringAttr>("strata.intrinsic");
        if (intrinsic && isWarpgroupIntrinsic(intrinsic.getValue()))
          if (auto loop = contract->getParentOfType<scf::ForOp>())
            warpgroupLoops.insert(loop);
      });
      IRRewriter rw(&getContext());
      for (scf::ForOp loop : warpgroupLoops)
        if (failed(lowerWarpgroupLoop(rw, loop)))
          return signalPassFailure();
    }
    // The k loops of tagged contractions, marked (the preparation below
    // rebuilds the contractions without their attributes).
    bool failedLoop = false;
    SmallVector<vector::ContractionOp> bf16;
    getOperation().walk([&](vector::ContractionOp contract) {
      Attribute intrinsic = contract->getAttr("strata.intrinsic");
      if (!intrinsic || failedLoop)
        return;
      auto loop = contract->getParentOfType<scf::ForOp>();
      if (!loop) {
        contract.emitError("nvidia-matrix-ops: a matrix-intrinsic "
                           "contraction must accumulate in a k loop");
        failedLoop = true;
        return;
      }
      // Upstream's mma.sync fragments exist for f16, tf32, f64 and integer
      // operands; bf16 goes through f16 fragments (Bf16Fragments.h). Other
      // types are refused here, before anything is rewritten.
      Type operand = contract.getLhsType().getElementType();
      if (!operand.isF16() && !operand.isBF16() && !operand.isF32() &&
          !operand.isF64() && !operand.isInteger(8) && !operand.isInteger(4)) {
        contract.emitError("nvidia-matrix-ops: ")
            << operand << " operands of '"
            << cast<StringAttr>(intrinsic).getValue()
            << "' are not lowered to mma.sync yet (f16 is)";
        failedLoop = true;
        return;
      }
      loop->setAttr("strata.intrinsic", intrinsic);
      if (operand.isBF16()) {
        bf16.push_back(contract);
        loop->setAttr("strata.bf16", UnitAttr::get(contract.getContext()));
      }
    });
    if (failedLoop)
      return signalPassFailure();
    // bf16 operands become f16 reads of the same bytes (Bf16Fragments.h).
    {
      IRRewriter rw(&getContext());
      llvm::DenseMap<Value, Value> aliases;
      for (vector::ContractionOp contract : bf16)
        if (failed(aliasBf16AsF16(rw, contract, aliases)))
          return signalPassFailure();
    }
    // Contractions into the row-major x column-major form mma.sync takes.
    {
      RewritePatternSet patterns(&getContext());
      populatePrepareVectorToMMAPatterns(patterns, /*useNvGpu=*/true);
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr("strata.intrinsic"))
        loops.push_back(loop);
    });
    IRRewriter rw(&getContext());
    for (scf::ForOp loop : loops) {
      SmallVector<Operation *> index;
      loop.getBody()->walk([&](Operation *op) {
        if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivUIOp>(
                op))
          index.push_back(op);
      });
      for (Operation *op : index)
        toAffine(rw, op);
      loop->removeAttr("strata.intrinsic");
      // The conversion rebuilds the loop (its accumulators change type):
      // the bf16 mma.sync ops are the new ones of the loop's parent.
      bool isBf16 = loop->hasAttr("strata.bf16");
      loop->removeAttr("strata.bf16");
      Operation *parent = loop->getParentOp();
      llvm::DenseSet<Operation *> before;
      parent->walk([&](nvgpu::MmaSyncOp op) { before.insert(op); });
      // On failure the loop may be half rewritten: report at the function.
      if (failed(convertVectorToNVVMCompatibleMMASync(rw, loop))) {
        getOperation().emitError("nvidia-matrix-ops: the contractions of a "
                                 "k loop do not map to mma.sync");
        return signalPassFailure();
      }
      if (isBf16 && failed(lowerMmaSyncAsBf16(rw, parent, before)))
        return signalPassFailure();
      // f32 operands reach mma.sync only through a tf32 intrinsic (the
      // model picks one for them only when allowed): the hardware reads
      // them as tf32, which the op must say (upstream builds it without).
      parent->walk([&](nvgpu::MmaSyncOp op) {
        if (!before.contains(op) &&
            op.getMatrixA().getType().getElementType().isF32())
          op.setTf32Enabled(true);
      });
    }
  }
};
} // namespace

std::unique_ptr<Pass> createMatrixOpsPass() {
  return std::make_unique<MatrixOps>();
}

void registerMatrixOpsPass() { PassRegistration<MatrixOps>(); }

} // namespace strata::nvidia
