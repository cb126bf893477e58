//===- EmitCInterface.cpp - Export public functions -----------------------===//
//
// Every public function gets MLIR's C interface wrapper, _mlir_ciface_<name>
// (the library ABI). A function named like one of the C or math library's
// (div, exp, abs) is renamed `_strata_fn_<name>` first: the lowering's own
// libm calls would otherwise call it, and the dynamic loader would bind its
// wrapper's call to the C library's function; in LLVM IR its wrapper is
// named _mlir_ciface_<name> again and the function becomes internal.
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/CInterface.h"
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/IR/Module.h"

#include <dlfcn.h>

namespace strata {
#define GEN_PASS_DEF_STRATAEMITCINTERFACE
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;
using namespace strata;

/// True when `name` is a function of the C or math library: the library's
/// own code calls those (a libm exp), and the dynamic loader resolves a
/// call of a function so named to the C library's, loaded first.
static bool isCLibraryName(llvm::StringRef name) {
  static void *libraries[] = {dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD),
                              dlopen("libm.so.6", RTLD_LAZY | RTLD_NOLOAD)};
  std::string symbol = name.str();
  return llvm::any_of(libraries, [&](void *library) {
    return library && dlsym(library, symbol.c_str());
  });
}

namespace {
struct EmitCInterface : strata::impl::StrataEmitCInterfaceBase<EmitCInterface> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto func :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      if (!func.isPublic() || func.isExternal())
        continue;
      func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    UnitAttr::get(&getContext()));
      // A function named like a C library one is renamed; its wrapper gets
      // the exported name back once in LLVM IR (exportCInterfaces).
      if (isCLibraryName(func.getSymName()) &&
          failed(
              symbols.rename(func, kRenamedPrefix + func.getSymName().str())))
        return signalPassFailure();
    }
  }
};
} // namespace

void strata::exportCInterfaces(llvm::Module &module) {
  std::string wrapped = std::string("_mlir_ciface_") + kRenamedPrefix;
  for (llvm::Function &f : module) {
    llvm::StringRef name = f.getName();
    if (name.starts_with(wrapped))
      f.setName("_mlir_ciface_" + name.drop_front(wrapped.size()).str());
    else if (name.starts_with(kRenamedPrefix) && !f.isDeclaration())
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
}
