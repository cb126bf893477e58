//===- Bf16Fragments.cpp - bf16 operands of mma.sync ----------------------===//
//
// Upstream's vector-to-nvgpu conversion builds fragments for f16 but not for
// bf16, and its nvgpu.mma.sync lowering has no bf16 case. Both types are 16
// bits wide, ldmatrix moves untyped b16 elements, and mma.sync m16n8k16
// distributes the A, B and C fragments of both types over the lanes in the
// same way. So a bf16 contraction's operand reads are retyped to f16 views
// of the same shared-memory bytes, converted as f16, and each resulting
// nvgpu.mma.sync becomes the bf16 nvvm.mma.sync: every pair of elements of a
// fragment is one 32-bit register (element 0 in the low half, as PTX packs
// .f16x2 and .bf16x2), the four f32 accumulators are d0..d3 in row-major
// order of nvgpu's 2x2 accumulator vector.
//
//===----------------------------------------------------------------------===//
#include "Bf16Fragments.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;

namespace strata::nvidia {

LogicalResult aliasBf16AsF16(RewriterBase &rw, vector::ContractionOp contract,
                             llvm::DenseMap<Value, Value> &aliases) {
  Type f16 = rw.getF16Type();
  for (unsigned i : {0u, 1u}) {
    Value operand = contract->getOperand(i);
    if (Value done = aliases.lookup(operand)) {
      contract->setOperand(i, done);
      continue;
    }
    auto read = operand.getDefiningOp<vector::TransferReadOp>();
    auto view = read ? read.getBase().getDefiningOp<memref::ViewOp>() : nullptr;
    if (!view)
      return contract.emitError("nvidia-matrix-ops: bf16 operands of a matrix "
                                "intrinsic must be read from a shared-memory "
                                "view (memref.view)");
    MemRefType type = view.getType();
    OpBuilder::InsertionGuard guard(rw);
    rw.setInsertionPointAfter(view);
    Value alias = memref::ViewOp::create(
        rw, view.getLoc(),
        MemRefType::get(type.getShape(), f16, type.getLayout(),
                        type.getMemorySpace()),
        view.getSource(), view.getByteShift(), view.getSizes());
    rw.setInsertionPoint(read);
    Value pad =
        arith::ConstantOp::create(rw, read.getLoc(), f16, rw.getZeroAttr(f16));
    Value f16Read = vector::TransferReadOp::create(
        rw, read.getLoc(),
        VectorType::get(read.getVectorType().getShape(), f16), alias,
        read.getIndices(), read.getPermutationMapAttr(), pad, read.getMask(),
        read.getInBoundsAttr());
    aliases[operand] = f16Read;
    contract->setOperand(i, f16Read);
  }
  return success();
}

LogicalResult lowerMmaSyncAsBf16(RewriterBase &rw, Operation *scope,
                                 const llvm::DenseSet<Operation *> &keep) {
  SmallVector<nvgpu::MmaSyncOp> mmas;
  scope->walk([&](nvgpu::MmaSyncOp mma) {
    if (!keep.contains(mma))
      mmas.push_back(mma);
  });
  MLIRContext *ctx = rw.getContext();
  Type i32 = rw.getI32Type(), f32 = rw.getF32Type();
  for (nvgpu::MmaSyncOp mma : mmas) {
    auto fragment = [](Value v, int64_t rows, Type elem) {
      auto t = cast<VectorType>(v.getType());
      return t.getShape() == ArrayRef<int64_t>{rows, 2} &&
             t.getElementType() == elem;
    };
    if (mma.getMmaShapeAsArray() != std::array<int64_t, 3>{16, 8, 16} ||
        !fragment(mma.getMatrixA(), 4, rw.getF16Type()) ||
        !fragment(mma.getMatrixB(), 2, rw.getF16Type()) ||
        !fragment(mma.getMatrixC(), 2, f32))
      return mma.emitError("nvidia-matrix-ops: bf16 mma.sync is emitted for "
                           "m16n8k16 with f32 accumulators only");
    Location loc = mma.getLoc();
    rw.setInsertionPoint(mma);
    // Each row of a 16-bit fragment is one register of two elements.
    auto registers = [&](Value v, int64_t rows) {
      SmallVector<Value> regs;
      for (int64_t r = 0; r < rows; ++r) {
        Value pair =
            vector::ExtractOp::create(rw, loc, v, ArrayRef<int64_t>{r});
        regs.push_back(LLVM::BitcastOp::create(rw, loc, i32, pair));
      }
      return regs;
    };
    SmallVector<Value> a = registers(mma.getMatrixA(), 4);
    SmallVector<Value> b = registers(mma.getMatrixB(), 2);
    SmallVector<Value> c;
    for (int64_t r = 0; r < 2; ++r)
      for (int64_t e = 0; e < 2; ++e)
        c.push_back(vector::ExtractOp::create(rw, loc, mma.getMatrixC(),
                                              ArrayRef<int64_t>{r, e}));
    auto result = LLVM::LLVMStructType::getLiteral(ctx, {f32, f32, f32, f32});
    auto op = NVVM::MmaOp::create(
        rw, loc, result, a, b, c, ArrayRef<int64_t>{16, 8, 16},
        /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
        std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                      NVVM::MMATypes::bf16},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    // d0, d1 are row 0 of the accumulator vector, d2, d3 row 1.
    auto accType = cast<VectorType>(mma.getType());
    Value acc = arith::ConstantOp::create(
        rw, loc, accType,
        DenseElementsAttr::get(accType, rw.getF32FloatAttr(0)));
    for (int64_t r = 0; r < 2; ++r) {
      SmallVector<Value> row;
      for (int64_t e = 0; e < 2; ++e)
        row.push_back(LLVM::ExtractValueOp::create(
            rw, loc, op, ArrayRef<int64_t>{2 * r + e}));
      Value rowVec = vector::FromElementsOp::create(
          rw, loc, VectorType::get({2}, f32), row);
      acc =
          vector::InsertOp::create(rw, loc, rowVec, acc, ArrayRef<int64_t>{r});
    }
    rw.replaceOp(mma, acc);
  }
  return success();
}

} // namespace strata::nvidia
