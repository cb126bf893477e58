//===- CpuTarget.cpp - The host CPU plugin --------------------------------===//
//
// Lowers the mapped IR through loops to the LLVM dialect and writes a shared
// library for the description's CPU (its `arch` is the LLVM CPU name; `host`
// compiles for the CPU this process runs on).
//
//===----------------------------------------------------------------------===//
#include "HostDescription.h"
#include "StackBuffers.h"
#include "ThreadLowering.h"

#include "strata/Codegen/HostLowering.h"
#include "strata/Pipeline/Pipeline.h"
#include "strata/Runtime/HostDevice.h"
#include "strata/Target/TargetRegistry.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/FormatVariadic.h"

using namespace strata;

namespace {
class CpuTarget final : public TargetPlugin {
public:
  llvm::StringRef getName() const override { return "cpu"; }
  llvm::StringRef getSummary() const override {
    return "host CPU through LLVM: shared library with MLIR's C interface";
  }

  void registerDialects(mlir::DialectRegistry &registry) const override {
    registry.insert<mlir::LLVM::LLVMDialect>();
  }

  void validateDescription(const hw::Description &chip,
                           std::vector<hw::Diagnostic> &errors) const override {
    if (!chip.vector)
      errors.push_back({"/vector",
                        "the cpu plugin needs a vector unit: expected an "
                        "object with width_bits",
                        0, 0});
    const nlohmann::json &options = chip.targetOptions;
    if (!options.is_object())
      return;
    if (options.contains("cpu") && !options["cpu"].is_string())
      errors.push_back({"/target_options/cpu",
                        "expected a string: an LLVM cpu name (znver5)", 0, 0});
    if (options.contains("features")) {
      const nlohmann::json &features = options["features"];
      if (!features.is_array())
        errors.push_back({"/target_options/features",
                          "expected an array of LLVM feature names", 0, 0});
      else
        for (size_t i = 0; i < features.size(); ++i)
          if (!features[i].is_string())
            errors.push_back({"/target_options/features/" + std::to_string(i),
                              "expected a string: an LLVM feature name "
                              "(avx512bf16)",
                              0, 0});
    }
  }

  std::optional<std::string> describeHost() const override {
    return cpu::describeHostMachine();
  }

  // The core has tiled and vectorized every scheduled op (mapped IR); what
  // is left are whole-buffer fills and copies and ops without a vector form,
  // which become loops that LLVM's loop vectorizer handles. f32
  // transcendentals become polynomials that stay vectorized instead of
  // scalar libm calls; accumulators left in memory by bufferization move
  // back into registers; small scratch buffers move to the stack; grid
  // loops become threads. Then the shared host lowering (which also lowers
  // copies and n-D vectors).
  void buildLoweringPipeline(mlir::OpPassManager &pm,
                             const hw::Description &) const override {
    addPipeline(pm, "func.func(convert-linalg-to-loops,strata-approximate-math,"
                    "strata-hoist-vector-transfers),canonicalize,cse");
    cpu::addStackBuffersPass(pm);
    cpu::buildThreadLoweringPipeline(pm);
    buildLoopsToLLVMPipeline(pm);
  }

  std::vector<std::string> loweredDialects() const override {
    return {"llvm", "omp"};
  }

  llvm::Error writeArtifact(mlir::ModuleOp lowered, const hw::Description &chip,
                            EmitKind kind,
                            llvm::StringRef path) const override {
    // A described chip's code is for its target_options' cpu and features
    // when it names them (znver5 with avx512bf16: x86-64-v4 alone has no
    // bf16 conversions, which then became calls to a runtime library), else
    // for its architecture level.
    HostCodegenOptions options;
    options.cpu = chip.name == "host" ? "native" : chip.arch;
    const nlohmann::json &given = chip.targetOptions;
    if (chip.name != "host" && given.is_object()) {
      if (given.contains("cpu") && given["cpu"].is_string())
        options.cpu = given["cpu"].get<std::string>();
      if (given.contains("features") && given["features"].is_array())
        for (const nlohmann::json &feature : given["features"])
          if (feature.is_string())
            options.features += (options.features.empty() ? "+" : ",+") +
                                feature.get<std::string>();
    }
    return writeHostArtifact(lowered, kind, path, options);
  }

  llvm::Expected<std::unique_ptr<runtime::Device>>
  createDevice(const hw::Description &chip) const override {
    // Code for a wider vector unit than this machine has would stop on an
    // illegal instruction; refuse to run it instead.
    int width = chip.vector ? int(chip.vector->widthBits) : 0;
    if (chip.name != "host" && width > cpu::hostVectorBits())
      return llvm::createStringError(llvm::formatv(
          "this machine's vectors are {0} bits wide; code for '{1}' ({2}, "
          "{3}-bit vectors) cannot run here (compiling for it works)",
          cpu::hostVectorBits(), chip.name, chip.arch, width));
    return runtime::createHostDevice(chip.name);
  }
};
} // namespace

STRATA_DEFINE_TARGET(cpu, CpuTarget)
