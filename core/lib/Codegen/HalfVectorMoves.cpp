//===- HalfVectorMoves.cpp - 16-bit float vectors moved as integers -------===//
//
// See HalfVectorMoves.h. Each odd-length half-float vector load gets an i16
// twin; shuffles of it become i16 shuffles (cast back when their own result
// is a half-float vector that something else reads), extracts become i16
// extracts cast to the scalar, stores store the twin. The original load is
// replaced by a cast of the twin for any other reader.
//
//===----------------------------------------------------------------------===//
#include "HalfVectorMoves.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace {
/// A fixed vector of bf16 or f16 whose length is no power of two.
bool isOddHalfVector(Type *type) {
  auto *vector = dyn_cast<FixedVectorType>(type);
  return vector &&
         (vector->getElementType()->isBFloatTy() ||
          vector->getElementType()->isHalfTy()) &&
         !isPowerOf2_32(vector->getNumElements());
}

FixedVectorType *asIntegers(Type *type) {
  auto *vector = cast<FixedVectorType>(type);
  return FixedVectorType::get(Type::getInt16Ty(type->getContext()),
                              vector->getNumElements());
}

void rewrite(Function &fn) {
  // The i16 twin of each half-float vector value rewritten so far.
  DenseMap<Value *, Value *> twin;
  SmallVector<Instruction *> dead;
  auto integerOf = [&](IRBuilder<> &b, Value *v) -> Value * {
    if (Value *t = twin.lookup(v))
      return t;
    return b.CreateBitCast(v, asIntegers(v->getType()));
  };
  for (BasicBlock &block : fn) {
    for (Instruction &inst : make_early_inc_range(block)) {
      IRBuilder<> b(&inst);
      if (auto *load = dyn_cast<LoadInst>(&inst)) {
        if (!isOddHalfVector(load->getType()))
          continue;
        LoadInst *ints =
            b.CreateAlignedLoad(asIntegers(load->getType()),
                                load->getPointerOperand(), load->getAlign());
        ints->setVolatile(load->isVolatile());
        twin[load] = ints;
        continue;
      }
      if (auto *shuffle = dyn_cast<ShuffleVectorInst>(&inst)) {
        Value *l = shuffle->getOperand(0), *r = shuffle->getOperand(1);
        if (!twin.count(l) && !twin.count(r))
          continue;
        Value *ints = b.CreateShuffleVector(integerOf(b, l), integerOf(b, r),
                                            shuffle->getShuffleMask());
        twin[shuffle] = ints;
        continue;
      }
      if (auto *extract = dyn_cast<ExtractElementInst>(&inst)) {
        Value *from = extract->getVectorOperand();
        if (!twin.count(from))
          continue;
        Value *bits =
            b.CreateExtractElement(twin[from], extract->getIndexOperand());
        extract->replaceAllUsesWith(b.CreateBitCast(bits, extract->getType()));
        dead.push_back(extract);
        continue;
      }
      if (auto *store = dyn_cast<StoreInst>(&inst)) {
        Value *v = store->getValueOperand();
        if (!twin.count(v))
          continue;
        StoreInst *ints = b.CreateAlignedStore(
            twin[v], store->getPointerOperand(), store->getAlign());
        ints->setVolatile(store->isVolatile());
        dead.push_back(store);
        continue;
      }
      if (auto *cast = dyn_cast<BitCastInst>(&inst)) {
        Value *from = cast->getOperand(0);
        if (twin.count(from) && cast->getType() == twin[from]->getType()) {
          cast->replaceAllUsesWith(twin[from]);
          dead.push_back(cast);
        }
      }
    }
  }
  for (Instruction *inst : dead)
    inst->eraseFromParent();
  // Other readers of a rewritten value read its twin cast back.
  for (auto [original, ints] : twin) {
    auto *inst = cast<Instruction>(original);
    if (!inst->use_empty()) {
      IRBuilder<> b(cast<Instruction>(ints)->getNextNode());
      inst->replaceAllUsesWith(b.CreateBitCast(ints, inst->getType()));
    }
    inst->eraseFromParent();
  }
}
} // namespace

void strata::moveHalfVectorsAsIntegers(Module &module) {
  for (Function &fn : module)
    if (!fn.isDeclaration())
      rewrite(fn);
}
