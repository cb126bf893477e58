//===- CompileFuzzer.cpp - libFuzzer target of the compile driver ---------===//
//
// Any program the generator makes (ProgramGenerator.h) goes through the core
// stages (S1-S4) and the plugin's S5 for one shipped description (chosen by
// the first byte). A crash, an assertion, an op that no longer verifies
// after a pass that succeeded (a Strata bug: checked after every pass), or a
// stage that fails without saying why is a finding; a clear diagnostic is
// not. STRATA_FUZZ_PRINT=1 prints each program and its outcome.
//
//===----------------------------------------------------------------------===//
#include "ProgramGenerator.h"
#include "strata/HW/Description.h"
#include "strata/Pipeline/Compiler.h"
#include "strata/Support/Logging.h"
#include "strata/Target/TargetRegistry.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <vector>

using namespace strata;

namespace {

struct Chip {
  hw::Description description;
  const TargetPlugin *plugin;
};

std::vector<Chip> &chips() {
  static std::vector<Chip> all = [] {
    setupLogging("error");
    TargetRegistry &registry = TargetRegistry::get();
    registerStaticTargets(registry);
    std::vector<Chip> list;
    for (const std::string &name : hw::shippedDescriptionNames()) {
      hw::LoadResult loaded = registry.resolve(name);
      if (loaded)
        list.push_back(
            {*loaded.description, registry.lookup(loaded.description->plugin)});
    }
    return list;
  }();
  return all;
}

[[noreturn]] void finding(const std::string &what, const std::string &program,
                          const std::string &chip) {
  llvm::errs() << "compile fuzzer: " << what << " (chip " << chip << ") on:\n"
               << program;
  std::abort();
}

/// Verifies the IR after every pass that succeeded.
class VerifyAfterEachPass : public mlir::PassInstrumentation {
public:
  VerifyAfterEachPass(std::string &failedPass) : failedPass(failedPass) {}
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override {
    if (failedPass.empty() && mlir::failed(mlir::verify(op)))
      failedPass = pass->getName().str();
  }

private:
  std::string &failedPass;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<Chip> &all = chips();
  if (all.empty() || size == 0)
    return 0;
  const Chip &chip = all[data[0] % all.size()];
  fuzz::ByteReader bytes(data + 1, size - 1);
  std::string program = fuzz::generateProgram(bytes);

  mlir::DialectRegistry registry;
  registerStrataDialects(registry);
  mlir::MLIRContext ctx(registry);
  std::string diagnostics;
  int errors = 0;
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
    errors += d.getSeverity() == mlir::DiagnosticSeverity::Error;
    diagnostics += d.str() + "\n";
    return mlir::success();
  });
  auto module = mlir::parseSourceString<mlir::ModuleOp>(program, &ctx);
  if (!module || mlir::failed(mlir::verify(*module)))
    finding("the generator made an invalid program:\n" + diagnostics, program,
            chip.description.name);

  std::string failedPass;
  PassManagerHook hook = [&](mlir::PassManager &pm) {
    pm.enableVerifier(false); // ours runs after every pass
    pm.addInstrumentation(std::make_unique<VerifyAfterEachPass>(failedPass));
    return mlir::success();
  };
  bool ok = mlir::succeeded(runCoreStages(*module, chip.description, hook)) &&
            mlir::succeeded(runPluginLowering(*module, *chip.plugin,
                                              chip.description, hook));
  if (!failedPass.empty())
    finding("the IR does not verify after " + failedPass + ":\n" + diagnostics,
            program, chip.description.name);
  if (!ok && errors == 0)
    finding("a stage failed without an error", program, chip.description.name);
  if (std::getenv("STRATA_FUZZ_PRINT"))
    llvm::errs() << chip.description.name << ": "
                 << (ok ? "compiled" : "rejected: " + diagnostics) << "\n"
                 << program;
  return 0;
}
