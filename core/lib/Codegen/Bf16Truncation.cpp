//===- Bf16Truncation.cpp - f32 -> bf16 for the host's code ---------------===//
//
// The module's own __truncsfbf2 (Bf16Truncation.h): integer arithmetic on
// the f32 bits, which code generation does not turn back into the libcall.
//
//===----------------------------------------------------------------------===//
#include "Bf16Truncation.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace {
bool isBf16(Type *type) { return type->getScalarType()->isBFloatTy(); }

/// Whether any instruction of `module` produces or reads bf16 values.
bool computesInBf16(Module &module) {
  for (Function &fn : module)
    for (BasicBlock &block : fn)
      for (Instruction &inst : block) {
        if (isBf16(inst.getType()))
          return true;
        for (Value *operand : inst.operands())
          if (isBf16(operand->getType()))
            return true;
      }
  return false;
}
} // namespace

void strata::defineBf16Truncation(Module &module) {
  if (!computesInBf16(module))
    return;
  LLVMContext &ctx = module.getContext();
  auto *type = FunctionType::get(Type::getBFloatTy(ctx),
                                 {Type::getFloatTy(ctx)}, /*isVarArg=*/false);
  auto *fn = dyn_cast<Function>(
      module.getOrInsertFunction("__truncsfbf2", type).getCallee());
  if (!fn || !fn->isDeclaration())
    return;
  // Weak: kept although no IR calls it (code generation adds the calls).
  fn->setLinkage(GlobalValue::WeakAnyLinkage);
  fn->setVisibility(GlobalValue::HiddenVisibility);
  IRBuilder<> b(BasicBlock::Create(ctx, "entry", fn));
  Value *x = fn->getArg(0);
  Value *bits = b.CreateBitCast(x, b.getInt32Ty());
  // Round to nearest, ties to even: add 0x7fff plus the lowest kept bit.
  Value *lsb = b.CreateAnd(b.CreateLShr(bits, 16), 1);
  Value *rounded = b.CreateAdd(bits, b.CreateAdd(b.getInt32(0x7fff), lsb));
  // A NaN keeps its sign and stays a NaN: its quiet bit set, not rounded
  // (rounding could carry into the exponent and make it infinite).
  Value *quiet = b.CreateOr(bits, b.getInt32(0x00400000));
  Value *chosen = b.CreateSelect(b.CreateFCmpUNO(x, x), quiet, rounded);
  Value *high = b.CreateTrunc(b.CreateLShr(chosen, 16), b.getInt16Ty());
  b.CreateRet(b.CreateBitCast(high, b.getBFloatTy()));
}
