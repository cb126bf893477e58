//===- NpuDevice.cpp - The npu's runtime device: the simulator ------------===//
//
// Buffers are host memory; an executable is the artifact's MLIR module in
// a context of its own; a launch simulates the function and adds its cycles
// to the device's simulated time, which its timers report.
//
//===----------------------------------------------------------------------===//
#include "NpuSimulator.h"

#include "Npu/NpuDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>
#include <vector>

using namespace mlir;
using namespace strata::runtime;

namespace {

class HostBuffer final : public Buffer {
public:
  explicit HostBuffer(size_t bytes) : data(bytes) {}
  size_t size() const override { return data.size(); }
  void *hostPointer() override { return data.data(); }

private:
  std::vector<uint8_t> data;
};

class NpuExecutable final : public Executable {
public:
  NpuExecutable() {
    context.loadDialect<npu::NpuDialect, func::FuncDialect,
                        memref::MemRefDialect>();
    // The compiler may annotate the module with attributes of dialects
    // this context does not load; an op of one still fails at launch.
    context.allowUnregisteredDialects();
    context.printOpOnDiagnostic(false);
  }
  func::FuncOp find(StringRef entry) const {
    return module ? SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
                        *module, StringAttr::get(&context, entry))
                  : nullptr;
  }
  bool hasFunction(StringRef entry) const override {
    return static_cast<bool>(find(entry));
  }

  mutable MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

class NpuDevice final : public Device {
public:
  explicit NpuDevice(const strata::hw::Description &chip)
      : chipName(chip.name), params(npu::simParams(chip)) {}

  std::string getName() const override {
    return "npu simulator (" + chipName + ")";
  }
  llvm::Expected<std::unique_ptr<Buffer>> allocate(size_t bytes) override {
    return std::make_unique<HostBuffer>(bytes);
  }
  llvm::Error copyToDevice(Buffer &dst, const void *src,
                           size_t bytes) override {
    if (bytes > dst.size())
      return llvm::createStringError(llvm::formatv(
          "copy of {0} bytes into a buffer of {1}", bytes, dst.size()));
    std::memcpy(dst.hostPointer(), src, bytes);
    return llvm::Error::success();
  }
  llvm::Error copyToHost(void *dst, Buffer &src, size_t bytes) override {
    if (bytes > src.size())
      return llvm::createStringError(llvm::formatv(
          "copy of {0} bytes out of a buffer of {1}", bytes, src.size()));
    std::memcpy(dst, src.hostPointer(), bytes);
    return llvm::Error::success();
  }

  llvm::Expected<std::unique_ptr<Executable>>
  load(StringRef artifactPath) override {
    auto executable = std::make_unique<NpuExecutable>();
    std::string diagnostics;
    ScopedDiagnosticHandler handler(&executable->context, [&](Diagnostic &d) {
      llvm::raw_string_ostream(diagnostics)
          << d.getLocation() << ": " << d << "\n";
      return success();
    });
    ParserConfig config(&executable->context);
    executable->module = parseSourceFile<ModuleOp>(artifactPath, config);
    if (!executable->module || failed(verify(*executable->module)))
      return llvm::createStringError("cannot load " + artifactPath.str() +
                                     ":\n" + diagnostics);
    return std::unique_ptr<Executable>(std::move(executable));
  }

  llvm::Error launch(Executable &executable, const Signature &signature,
                     llvm::ArrayRef<Buffer *> args) override {
    // Every executable this device hands out is an NpuExecutable.
    func::FuncOp fn =
        static_cast<NpuExecutable &>(executable).find(signature.name);
    if (!fn)
      return llvm::createStringError("no function @" + signature.name);
    size_t numInputs = signature.inputs.size();
    if (args.size() != numInputs + signature.outputs.size() ||
        args.size() != fn.getNumArguments())
      return llvm::createStringError(llvm::formatv(
          "@{0} takes {1} arguments; the launch gives {2} tensors in {3} "
          "buffers",
          signature.name, fn.getNumArguments(),
          numInputs + signature.outputs.size(), args.size()));
    std::vector<void *> pointers;
    for (auto [i, type] : llvm::enumerate(fn.getArgumentTypes())) {
      const TensorSpec &spec = i < numInputs ? signature.inputs[i]
                                             : signature.outputs[i - numInputs];
      auto memref = dyn_cast<MemRefType>(type);
      if (!memref || !memref.hasStaticShape())
        return llvm::createStringError(llvm::formatv(
            "@{0}'s argument #{1} is not a static memref", signature.name, i));
      size_t bytes =
          memref.getNumElements() * memref.getElementTypeBitWidth() / 8;
      if (bytes != spec.bytes() || args[i]->size() < bytes ||
          !args[i]->hostPointer())
        return llvm::createStringError(llvm::formatv(
            "@{0}'s argument #{1} holds {2} bytes; the launch gives {3} in a "
            "buffer of {4}",
            signature.name, i, bytes, spec.str(), args[i]->size()));
      pointers.push_back(args[i]->hostPointer());
    }
    llvm::Expected<npu::SimReport> report = npu::simulate(fn, pointers, params);
    if (!report)
      return report.takeError();
    simulatedSeconds += report->cycles / params.clockHz;
    lastReport = report->str();
    return llvm::Error::success();
  }

  std::string lastLaunchReport() const override { return lastReport; }
  std::unique_ptr<Timer> createTimer() override {
    return createModeledTimer(simulatedSeconds);
  }

private:
  /// Simulated seconds of all launches so far.
  double simulatedSeconds = 0;
  std::string chipName;
  npu::SimParams params;
  std::string lastReport;
};

} // namespace

llvm::Expected<std::unique_ptr<Device>>
npu::createSimDevice(const strata::hw::Description &chip) {
  return std::make_unique<NpuDevice>(chip);
}
