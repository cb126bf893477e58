//===- strata-tile-run.cpp - Runs a tile program on the emulator ----------===//
//
// strata-tile-run PROGRAM.mlir --target=CHIP [--reference=NAME]
//
// Parses and verifies a tile.program against the chip, fills its input
// tensors with seeded uniform values in [-1, 1) (rounded to their element
// type) and poisons its outputs with NaN, runs it on the emulator, compares
// every output with a plain C++ reference computed from the same inputs
// (maximum absolute error and relative L2 error against a tolerance per
// element type: bf16 2e-2, f32 1e-4) and prints the cycle model's report.
// PROGRAM.mlir "-" reads stdin. Exit status (docs/tools.md): 0, 1 on any
// error, 2 when an output differs from the reference.
//
//===----------------------------------------------------------------------===//
#include "Reference.h"

#include "CommandLine.h"
#include "ExitStatus.h"

#include "strata/Dialect/Strata/IR/StrataDialect.h"
#include "strata/Dialect/Tile/IR/TileChip.h"
#include "strata/Dialect/Tile/IR/TileDialect.h"
#include "strata/HW/Description.h"
#include "strata/Tile/CycleModel/CycleModel.h"
#include "strata/Tile/Emulator/Emulator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <random>

using namespace mlir;
using namespace strata;
using namespace strata::tile;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<program.mlir>"), cl::Required,
                                      cl::cat(tool::strataCategory()));
static cl::opt<std::string>
    target("target",
           cl::desc("Chip: a shipped description's name or a .json file "
                    "(default: the module's strata.hw)"),
           cl::value_desc("name"), cl::cat(tool::strataCategory()));
static cl::opt<std::string>
    programName("program",
                cl::desc("The tile.program to run (default: the only one)"),
                cl::value_desc("name"), cl::cat(tool::strataCategory()));
static cl::opt<std::string> reference(
    "reference",
    cl::desc("What the outputs should be: matmul, add, softmax or none "
             "(default: none)"),
    cl::value_desc("name"), cl::init("none"), cl::cat(tool::strataCategory()));
static cl::opt<uint64_t>
    seed("seed", cl::desc("Seed of the random inputs (default: 1)"),
         cl::value_desc("S"), cl::init(1), cl::cat(tool::strataCategory()));
static cl::opt<bool> perCore("per-core",
                             cl::desc("Print the cycle model per core"),
                             cl::cat(tool::strataCategory()));

static cl::extrahelp moreHelp(
    "\nMLIR's and LLVM's options: --help-hidden.\nExit status: 0 success, 1 "
    "error, 2 an output differs from the reference (docs/tools.md).\n");

static int fail(const llvm::Twine &message) {
  llvm::errs() << "strata-tile-run: error: " << message << "\n";
  return tool::kExitError;
}

/// The description named by --target.
static llvm::Expected<hw::Description> loadTarget(llvm::StringRef name) {
  hw::LoadResult result;
  if (name.ends_with(".json") || name.contains('/')) {
    result = hw::loadDescriptionFile(name);
  } else if (std::optional<std::string> text =
                 hw::shippedDescriptionText(name)) {
    result = hw::parseDescription(*text, "<" + name.str() + ">");
  } else {
    std::string names;
    for (const std::string &shipped : hw::shippedDescriptionNames())
      names += (names.empty() ? "" : ", ") + shipped;
    return llvm::createStringError("unknown target '" + name.str() +
                                   "'; expected one of: " + names +
                                   ", or a path to a .json description");
  }
  if (!result)
    return llvm::createStringError(result.formatErrors());
  return std::move(*result.description);
}

/// Relative L2 and maximum absolute error of `got` against `want`; NaN in
/// `got` counts as an infinite error.
struct Errors {
  double maxAbs = 0, relativeL2 = 0;
  int64_t nonFinite = 0;
};
static Errors compare(const std::vector<float> &got,
                      const std::vector<double> &want) {
  Errors errors;
  double diff = 0, norm = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (!std::isfinite(got[i])) {
      ++errors.nonFinite;
      continue;
    }
    double d = double(got[i]) - want[i];
    errors.maxAbs = std::max(errors.maxAbs, std::fabs(d));
    diff += d * d;
    norm += want[i] * want[i];
  }
  errors.relativeL2 = std::sqrt(diff) / std::max(std::sqrt(norm), 1e-30);
  return errors;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  tool::hideOptionsExcept([](const cl::Option &option) {
    return tool::inCategory(option, tool::strataCategory());
  });
  // No plugins here: the emulator runs any tile chip's description.
  tool::setVersionPrinter("strata-tile-run", [](llvm::raw_ostream &os) {
    tool::printTargetList(os, "Built-in targets", {"tile (the emulator)"});
  });
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "Runs a tile program on the emulator, checks it against a "
          "reference and predicts its time (<program.mlir> '-' reads "
          "stdin)\n",
          &llvm::errs()))
    return tool::kExitError;

  DialectRegistry registry;
  registry.insert<StrataDialect, TileDialect, arith::ArithDialect,
                  scf::SCFDialect, func::FuncDialect>();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Diagnostics point at the source; the generic form of the op adds nothing.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  std::string openError;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(inputFile, &openError);
  if (!file)
    return fail(openError);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  ParserConfig config(&context, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, config);
  if (!module)
    return tool::kExitError;

  // The chip: --target replaces the module's description.
  if (!target.empty()) {
    llvm::Expected<hw::Description> chip = loadTarget(target);
    if (!chip)
      return fail(llvm::toString(chip.takeError()));
    auto dict =
        dyn_cast<DictionaryAttr>(jsonToAttribute(&context, chip->document));
    (*module)->setAttr(StrataDialect::kHardwareAttrName,
                       HardwareAttr::get(&context, chip->name, dict));
  }
  if (failed(verify(*module)))
    return tool::kExitError;
  llvm::Expected<std::optional<hw::Description>> description =
      descriptionOf(*module);
  if (!description)
    return fail(llvm::toString(description.takeError()));
  if (!*description)
    return fail("no chip: give --target=NAME or attach strata.hw");
  const hw::Description &chip = **description;

  ProgramOp program;
  int programs = 0;
  module->walk([&](ProgramOp op) {
    ++programs;
    if (programName.empty() || op.getSymName() == programName)
      program = op;
  });
  if (!program || (programName.empty() && programs > 1))
    return fail(programName.empty()
                    ? llvm::Twine("expected one tile.program, found ") +
                          llvm::Twine(programs) + "; choose one with --program"
                    : "no tile.program @" + programName);

  FailureOr<std::unique_ptr<Emulator>> emulator =
      Emulator::create(program, chip);
  if (failed(emulator))
    return tool::kExitError;
  Emulator &emu = **emulator;

  // Inputs: seeded uniform values; outputs: NaN.
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<Matrix> inputs;
  for (const TensorInfo &tensor : emu.tensors()) {
    std::vector<float> values(tensor.rows * tensor.cols);
    bool input = tensor.role == TensorInfo::Role::Input;
    for (float &value : values)
      value = input ? uniform(random) : std::numeric_limits<float>::quiet_NaN();
    if (failed(emu.writeTensor(tensor.name, values)))
      return tool::kExitError;
    if (!input)
      continue;
    FailureOr<std::vector<float>> stored = emu.readTensor(tensor.name);
    if (failed(stored))
      return tool::kExitError;
    Matrix m{tensor.rows, tensor.cols, {}};
    m.values.assign(stored->begin(), stored->end());
    inputs.push_back(std::move(m));
  }

  auto start = std::chrono::steady_clock::now();
  if (failed(emu.run()))
    return tool::kExitError;
  double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  const RunStats &stats = emu.stats();
  llvm::outs() << llvm::formatv(
      "program @{0} on {1}: {2} kernel instances, {3} ops interpreted in "
      "{4:F2} s\n",
      program.getSymName(), chip.name, stats.instances, stats.operations, wall);

  bool passed = true;
  for (const TensorInfo &tensor : emu.tensors()) {
    if (tensor.role != TensorInfo::Role::Output)
      continue;
    FailureOr<std::vector<float>> got = emu.readTensor(tensor.name);
    if (failed(got))
      return tool::kExitError;
    const char *type = formatName(tensor.format);
    if (reference == "none") {
      llvm::outs() << llvm::formatv("output @{0} ({1}x{2} {3}): not checked\n",
                                    tensor.name, tensor.rows, tensor.cols,
                                    type);
      continue;
    }
    llvm::Expected<Matrix> want =
        computeReference(reference, inputs, tensor.rows, tensor.cols);
    if (!want)
      return fail(llvm::toString(want.takeError()));
    Errors errors = compare(*got, want->values);
    // f32 1e-4; narrower formats 2.56 x 2^-(mantissa bits): bf16 2e-2,
    // bfp8 4e-2, bfp4 0.64 (the block's largest element keeps them all,
    // smaller ones fewer).
    double tolerance =
        tensor.format == TileFormat::F32
            ? 1e-4
            : 2.56 * std::ldexp(1.0, -int(formatMantissaBits(tensor.format)));
    bool ok = errors.nonFinite == 0 && errors.relativeL2 <= tolerance;
    passed &= ok;
    llvm::outs() << llvm::formatv(
        "output @{0} ({1}x{2} {3}) vs {4} reference: max abs error {5:e}, "
        "relative L2 error {6:e} (tolerance {7:e}){8}: {9}\n",
        tensor.name, tensor.rows, tensor.cols, type, reference.getValue(),
        errors.maxAbs, errors.relativeL2, tolerance,
        errors.nonFinite
            ? llvm::formatv(", {0} non-finite values", errors.nonFinite).str()
            : std::string(),
        ok ? "PASS" : "FAIL");
  }

  llvm::Expected<CycleModelParams> params =
      CycleModelParams::fromDescription(chip);
  if (!params)
    return fail(llvm::toString(params.takeError()));
  llvm::Expected<CycleReport> report = predictCycles(emu.trace(), *params);
  if (!report)
    return fail(llvm::toString(report.takeError()));
  llvm::outs() << formatCycleReport(*report, perCore);
  return passed ? tool::kExitSuccess : tool::kExitCheckFailed;
}
