//===- strata-run.cpp - Compile, run, check and time a program ------------===//
//
//   strata-run IN.mlir --target=... [--entry=F] [--check] [--bench]
//              [--reps=N] [--seed=S] [--save-io=DIR [--save-io-outputs-only]]
//
// Compiles IN for the chip, runs each public function (or --entry) on fresh
// random inputs with outputs poisoned, compares with the reference lowering
// run on the host (--check) and reports the median time (--bench).
// --save-io writes the artifact, the inputs and the reference's outputs to
// DIR (before running), so that `strata-exec DIR/artifact --io=DIR` finishes
// the check on another machine. IN "-" reads stdin.
//
// Exit status (docs/tools.md): 0, 1 on an error, 2 when a --check failed,
// 77 when the program compiled but this machine has no device to run it.
//
//===----------------------------------------------------------------------===//
#include "ProgramOptions.h"
#include "ToolSupport.h"

#include "strata/Codegen/HostLowering.h"
#include "strata/Pipeline/Compiler.h"
#include "strata/Pipeline/Pipeline.h"
#include "strata/Runtime/Check.h"
#include "strata/Runtime/Device.h"
#include "strata/Runtime/HostDevice.h"
#include "strata/Runtime/Manifest.h"
#include "strata/Runtime/NoDevice.h"
#include "strata/Schedule/Attributes.h"
#include "strata/rt/Npy.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

using namespace strata;
namespace cl = llvm::cl;

using tool::inputFile;
using tool::target;

static cl::opt<std::string> entry("entry",
                                  cl::desc("Run only this public function"),
                                  cl::value_desc("function"),
                                  cl::cat(tool::strataCategory()));
static cl::opt<bool>
    check("check",
          cl::desc("Compare each result with the reference lowering run on "
                   "the host (exit status 2 when one differs)"),
          cl::cat(tool::strataCategory()));
static cl::opt<bool> bench("bench",
                           cl::desc("Time repeated runs: median time, "
                                    "GFLOP/s, GB/s, share of the roofline"),
                           cl::cat(tool::strataCategory()));
static cl::opt<unsigned> reps("reps",
                              cl::desc("Timed runs for --bench (default: 10)"),
                              cl::value_desc("N"), cl::init(10),
                              cl::cat(tool::strataCategory()));
static cl::opt<uint64_t>
    seed("seed", cl::desc("Seed of the random inputs (default: 1)"),
         cl::value_desc("S"), cl::init(1), cl::cat(tool::strataCategory()));
static cl::opt<std::string>
    saveIo("save-io",
           cl::desc("Write the artifact (DIR/artifact), the inputs and the "
                    "reference's outputs (.npy) and DIR/io.json"),
           cl::value_desc("DIR"), cl::cat(tool::strataCategory()));
static cl::opt<bool> saveIoOutputsOnly(
    "save-io-outputs-only",
    cl::desc("With --save-io: no input files (strata-exec draws the same "
             "random inputs from the seed in io.json)"),
    cl::cat(tool::strataCategory()));

static cl::extrahelp exitStatusHelp(
    "Exit status: 0 success, 1 error, 2 a --check failed, 77 compiled "
    "but no device here to run on (docs/tools.md).\n");

static_assert(tool::kExitNoDevice == runtime::kNoDeviceExitCode,
              "strata-run and strata-exec say 'no device' alike");

namespace {

/// A compiled artifact loaded on the device that runs it.
struct Loaded {
  std::unique_ptr<runtime::Device> device;
  std::unique_ptr<runtime::Executable> executable;
};

/// How many times the error of the program's own precision a result may
/// be off: the target rounds as often but in another order (blocked sums,
/// fused epilogues), so its error is of that size, not that value.
constexpr double kPrecisionFactor = 4;

bool report(llvm::Error err) {
  if (!err)
    return true;
  tool::error(llvm::toString(std::move(err)));
  return false;
}

/// Compiles and loads the reference of the program's own precision
/// (buildPrecisionReferencePipeline) with the fewest mantissa bits any of
/// the manifest's functions' matrix units keep.
bool loadPrecisionReference(mlir::ModuleOp module, const rt::Manifest &manifest,
                            const std::string &artifact, Loaded &loaded) {
  int64_t bits = 0;
  for (const rt::FunctionInfo &f : manifest.functions)
    if (f.inputMantissaBits > 0)
      bits =
          bits == 0 ? f.inputMantissaBits : std::min(bits, f.inputMantissaBits);
  mlir::OwningOpRef<mlir::ModuleOp> lowered = module.clone();
  if (mlir::failed(runPrecisionReferenceLowering(
          *lowered, bits, tool::applyPassManagerOptions)))
    return false;
  if (!report(writeHostArtifact(*lowered, EmitKind::Library, artifact,
                                HostCodegenOptions{})))
    return false;
  loaded.device = runtime::createHostDevice("precision reference");
  auto executable = loaded.device->load(artifact);
  if (!executable)
    return report(executable.takeError());
  loaded.executable = std::move(*executable);
  return true;
}

/// Runs `signature` on `loaded` with `inputs` (host data); returns outputs.
llvm::Expected<std::vector<std::vector<char>>>
runOnce(Loaded &loaded, const runtime::Signature &signature,
        const std::vector<std::vector<char>> &inputs, unsigned timedReps,
        std::vector<double> *times) {
  runtime::Device &device = *loaded.device;
  std::vector<std::unique_ptr<runtime::Buffer>> buffers;
  std::vector<runtime::Buffer *> args;
  auto add = [&](size_t bytes) -> llvm::Error {
    auto buffer = device.allocate(bytes);
    if (!buffer)
      return buffer.takeError();
    args.push_back(buffer->get());
    buffers.push_back(std::move(*buffer));
    return llvm::Error::success();
  };
  for (size_t i = 0; i < signature.inputs.size(); ++i) {
    if (llvm::Error err = add(inputs[i].size()))
      return std::move(err);
    if (llvm::Error err = device.copyToDevice(*args.back(), inputs[i].data(),
                                              inputs[i].size()))
      return std::move(err);
  }
  std::vector<std::vector<char>> outputs;
  for (const runtime::TensorSpec &spec : signature.outputs) {
    if (llvm::Error err = add(spec.bytes()))
      return std::move(err);
    outputs.emplace_back(spec.bytes());
    runtime::poison(outputs.back().data(), spec);
    if (llvm::Error err = device.copyToDevice(
            *args.back(), outputs.back().data(), spec.bytes()))
      return std::move(err);
  }
  if (llvm::Error err = device.launch(*loaded.executable, signature, args))
    return std::move(err);
  if (llvm::Error err = device.synchronize())
    return std::move(err);
  size_t first = signature.inputs.size();
  for (size_t i = 0; i < outputs.size(); ++i)
    if (llvm::Error err = device.copyToHost(outputs[i].data(), *args[first + i],
                                            outputs[i].size()))
      return std::move(err);
  std::unique_ptr<runtime::Timer> timer = device.createTimer();
  for (unsigned rep = 0; rep < timedReps; ++rep) {
    timer->start();
    if (llvm::Error err = device.launch(*loaded.executable, signature, args))
      return std::move(err);
    times->push_back(timer->stop());
  }
  return outputs;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/// --save-io: each function's inputs (unless --save-io-outputs-only) and
/// the reference's outputs as .npy files, and DIR/io.json naming them with
/// the seed (the layout strata-exec --io reads).
bool saveInputsAndOutputs(Loaded &reference,
                          const std::vector<runtime::Signature> &signatures) {
  nlohmann::json io = {{"seed", uint64_t(seed)},
                       {"artifact", "artifact"},
                       {"functions", nlohmann::json::object()}};
  for (const runtime::Signature &signature : signatures) {
    std::vector<std::vector<char>> inputs;
    nlohmann::json inputFiles = nlohmann::json::array();
    for (size_t i = 0; i < signature.inputs.size(); ++i) {
      inputs.emplace_back(signature.inputs[i].bytes());
      runtime::fillRandom(inputs.back().data(), signature.inputs[i],
                          runtime::inputSeed(seed, i));
      if (saveIoOutputsOnly) {
        inputFiles.push_back(nullptr);
        continue;
      }
      std::string name = signature.name + ".input" + std::to_string(i) + ".npy";
      if (rt::Status s = rt::writeNpy(saveIo + "/" + name, signature.inputs[i],
                                      inputs.back().data());
          !s.ok())
        return tool::error("--save-io: " + s.message()), false;
      inputFiles.push_back(name);
    }
    auto expected = runOnce(reference, signature, inputs, 0, nullptr);
    if (!expected)
      return report(expected.takeError()), false;
    nlohmann::json outputFiles = nlohmann::json::array();
    for (size_t i = 0; i < signature.outputs.size(); ++i) {
      std::string name =
          signature.name + ".expected" + std::to_string(i) + ".npy";
      if (rt::Status s = rt::writeNpy(saveIo + "/" + name, signature.outputs[i],
                                      (*expected)[i].data());
          !s.ok())
        return tool::error("--save-io: " + s.message()), false;
      outputFiles.push_back(name);
    }
    io["functions"][signature.name] = {{"inputs", inputFiles},
                                       {"expected", outputFiles}};
  }
  std::error_code ec;
  llvm::raw_fd_ostream out(saveIo + "/io.json", ec);
  if (ec)
    return tool::error("--save-io: cannot write " + saveIo +
                       "/io.json: " + ec.message()),
           false;
  out << io.dump(1) << "\n";
  llvm::outs() << "saved the artifact, inputs and expected outputs to "
               << saveIo << "\n";
  return true;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (!tool::initialize(argc, argv,
                        "Strata runner: compile, run, check, time "
                        "(<input.mlir> '-' reads stdin)\n"))
    return tool::kExitError;
  if (bench && reps == 0) {
    tool::error("--reps: expected at least 1 timed run with --bench");
    return tool::kExitError;
  }
  std::optional<hw::Description> chip = tool::resolveTarget(target);
  if (!chip)
    return tool::kExitError;
  const TargetPlugin &plugin = tool::pluginFor(*chip);

  std::unique_ptr<tool::ProgramFile> file = tool::readProgram(inputFile);
  if (!file)
    return tool::kExitError;
  mlir::OwningOpRef<mlir::ModuleOp> &module = file->module;

  // The functions to run and their destination-passing signatures.
  std::vector<runtime::Signature> signatures;
  bool found = false;
  for (auto func : module->getOps<mlir::func::FuncOp>()) {
    if (!func.isPublic() || func.isExternal())
      continue;
    if (!entry.empty() && func.getSymName() != entry)
      continue;
    found = true;
    auto signature = runtime::signatureOf(func);
    if (!signature) {
      func.emitError() << llvm::toString(signature.takeError());
      return tool::kExitError;
    }
    signatures.push_back(std::move(*signature));
  }
  if (!found) {
    std::string input = tool::inputName(inputFile);
    tool::error(entry.empty()
                    ? input + ": no public function with a body to run"
                    : "--entry: '" + input + "' has no public function '" +
                          entry + "'");
    return tool::kExitError;
  }

  std::unique_ptr<tool::TempDir> temp = tool::TempDir::create("strata-run");
  if (!temp)
    return tool::kExitError;
  if (!saveIo.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(saveIo)) {
      tool::error("--save-io: cannot create '" + saveIo + "': " + ec.message());
      return tool::kExitError;
    }
  std::string artifact =
      saveIo.empty() ? temp->file("program.so") : saveIo + "/artifact";
  std::string referenceArtifact = temp->file("reference.so");
  std::string precisionArtifact = temp->file("precision.so");

  Loaded program, reference, precision;
  // Per function: work, roofline and tolerances (those of narrower inputs
  // where a matrix unit rounds them), as the artifact carries them.
  rt::Manifest manifest;
  {
    mlir::OwningOpRef<mlir::ModuleOp> compiled = module->clone();
    rt::Manifest described = describeProgram(*compiled, *chip);
    if (mlir::failed(runCoreStages(*compiled, *chip,
                                   tool::applyPassManagerOptions,
                                   tool::coreOptions())))
      return tool::kExitError;
    manifest = attachManifest(std::move(described), *compiled, *chip);
    if (mlir::failed(runPluginLowering(*compiled, plugin, *chip,
                                       tool::applyPassManagerOptions)))
      return tool::kExitError;
    if (!report(plugin.writeArtifact(*compiled, *chip, EmitKind::Library,
                                     artifact)))
      return tool::kExitError;
  }
  if (check || !saveIo.empty()) {
    mlir::OwningOpRef<mlir::ModuleOp> lowered = module->clone();
    if (mlir::failed(
            runReferenceLowering(*lowered, tool::applyPassManagerOptions)))
      return tool::kExitError;
    if (!report(writeHostArtifact(*lowered, EmitKind::Library,
                                  referenceArtifact, HostCodegenOptions{})))
      return tool::kExitError;
    reference.device = runtime::createHostDevice("reference");
    auto executable = reference.device->load(referenceArtifact);
    if (!executable)
      return report(executable.takeError()), tool::kExitError;
    reference.executable = std::move(*executable);
  }
  if (check &&
      !loadPrecisionReference(*module, manifest, precisionArtifact, precision))
    return tool::kExitError;
  if (!saveIo.empty() && !saveInputsAndOutputs(reference, signatures))
    return tool::kExitError;
  {
    auto device = plugin.createDevice(*chip);
    if (!device) {
      // No device of this kind here: compiled, but cannot run (a skip).
      int status = tool::kExitError;
      llvm::Error rest = llvm::handleErrors(
          device.takeError(), [&](const runtime::NoDeviceError &e) {
            tool::error("no device to run on: " + e.message() +
                        " (the program compiled; exit status " +
                        std::to_string(tool::kExitNoDevice) + ")");
            status = tool::kExitNoDevice;
          });
      report(std::move(rest));
      return status;
    }
    program.device = std::move(*device);
    auto executable = program.device->load(artifact);
    if (!executable)
      return report(executable.takeError()), tool::kExitError;
    program.executable = std::move(*executable);
  }

  bool allPassed = true;
  for (const runtime::Signature &signature : signatures) {
    const rt::FunctionInfo *info = manifest.find(signature.name);
    std::vector<std::vector<char>> inputs;
    for (size_t i = 0; i < signature.inputs.size(); ++i) {
      inputs.emplace_back(signature.inputs[i].bytes());
      runtime::fillRandom(inputs.back().data(), signature.inputs[i],
                          runtime::inputSeed(seed, i));
    }
    std::vector<double> times;
    auto outputs =
        runOnce(program, signature, inputs, bench ? reps : 0, &times);
    if (!outputs)
      return report(outputs.takeError()), tool::kExitError;
    llvm::outs() << llvm::formatv("{0}: ran on {1}\n", signature.name,
                                  chip->name);
    std::string launchReport = program.device->lastLaunchReport();
    if (!launchReport.empty())
      llvm::outs() << launchReport;
    if (check) {
      auto expected = runOnce(reference, signature, inputs, 0, nullptr);
      if (!expected)
        return report(expected.takeError()), tool::kExitError;
      std::optional<std::vector<std::vector<char>>> precisionOutputs;
      if (precision.executable) {
        auto own = runOnce(precision, signature, inputs, 0, nullptr);
        if (!own)
          return report(own.takeError()), tool::kExitError;
        precisionOutputs = std::move(*own);
      }
      for (size_t i = 0; i < signature.outputs.size(); ++i) {
        const runtime::TensorSpec &spec = signature.outputs[i];
        double tolerance = info && i < info->tolerances.size()
                               ? info->tolerances[i]
                               : runtime::tolerance(spec.type);
        // A result the program's own arithmetic lands far from (products
        // that cancel, chained rounded products) is allowed that error
        // several times over.
        std::string precisionNote;
        if (precisionOutputs) {
          double own = runtime::compare((*precisionOutputs)[i].data(),
                                        (*expected)[i].data(), spec, 0)
                           .relativeError;
          if (std::isfinite(own) && kPrecisionFactor * own > tolerance) {
            tolerance = kPrecisionFactor * own;
            precisionNote = llvm::formatv(": {0:f0}x the error {1:e1} of the "
                                          "program in its own precision",
                                          kPrecisionFactor, own);
          }
        }
        runtime::Comparison cmp = runtime::compare(
            (*outputs)[i].data(), (*expected)[i].data(), spec, tolerance);
        allPassed &= cmp.passed;
        llvm::outs() << llvm::formatv(
            "{0}: check result #{1} ({2}): relative error {3:e2} "
            "(tolerance {4:e1}{7}){5} {6}\n",
            signature.name, i, spec.str(), cmp.relativeError, tolerance,
            cmp.nonFinite
                ? llvm::formatv(", {0} non-finite values", cmp.nonFinite).str()
                : std::string(),
            cmp.passed ? "PASS" : "FAIL", precisionNote);
      }
    }
    if (bench) {
      double seconds = median(times);
      double flops = info ? info->flops : 0, bytes = info ? info->bytes : 0;
      double roofline = info ? info->rooflineSeconds : 0;
      llvm::outs() << llvm::formatv(
          "{0}: median {1:f3} ms over {2} runs, {3:f2} GFLOP/s, {4:f2} GB/s, "
          "{5:f1}% of the roofline of {6}\n",
          signature.name, seconds * 1e3, times.size(), flops / seconds * 1e-9,
          bytes / seconds * 1e-9, roofline > 0 ? 100 * roofline / seconds : 0.0,
          chip->name);
    }
  }
  return allPassed ? tool::kExitSuccess : tool::kExitCheckFailed;
}
