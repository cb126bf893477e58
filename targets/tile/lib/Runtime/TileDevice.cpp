//===- TileDevice.cpp - The runtime device of tile chips ------------------===//
#include "strata/Tile/Runtime/TileDevice.h"

#include "strata/Dialect/Strata/IR/StrataDialect.h"
#include "strata/Dialect/Tile/IR/TileDialect.h"
#include "strata/Tile/CycleModel/CycleModel.h"
#include "strata/Tile/Emulator/Emulator.h"
#include "strata/rt/HalfFloat.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"

#include <cstring>
#include <map>

using namespace mlir;
using namespace strata;
using namespace strata::runtime;
using namespace strata::tile;

namespace {

/// Host memory: the emulator's DRAM is filled from it at each launch.
class TileBuffer final : public Buffer {
public:
  explicit TileBuffer(size_t bytes) : data(bytes) {}
  size_t size() const override { return data.size(); }
  void *hostPointer() override { return data.data(); }

private:
  std::vector<uint8_t> data;
};

/// A parsed and verified file of tile programs, with its own context.
class TileExecutable final : public Executable {
public:
  TileExecutable() {
    context.loadDialect<TileDialect, StrataDialect, arith::ArithDialect,
                        scf::SCFDialect>();
    context.printOpOnDiagnostic(false);
  }
  bool hasFunction(llvm::StringRef entry) const override {
    auto *self = const_cast<TileExecutable *>(this);
    return self->find(entry) != nullptr || !self->parts(entry).empty();
  }
  /// The programs of a function the compiler split (`part_of`), in the
  /// order they run: the module's.
  std::vector<ProgramOp> parts(llvm::StringRef entry) {
    std::vector<ProgramOp> found;
    module->walk([&](ProgramOp program) {
      if (auto of = program->getAttrOfType<StringAttr>("part_of");
          of && of.getValue() == entry)
        found.push_back(program);
    });
    return found;
  }
  ProgramOp find(llvm::StringRef entry) {
    ProgramOp found;
    module->walk([&](ProgramOp program) {
      if (program.getSymName() == entry)
        found = program;
    });
    return found;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

/// Collects the diagnostics of a context as text while it lives.
class DiagnosticText {
public:
  explicit DiagnosticText(MLIRContext &context)
      : handler(&context, [this](Diagnostic &diag) {
          llvm::raw_string_ostream os(text);
          os << diag.getLocation() << ": " << diag << "\n";
          for (Diagnostic &note : diag.getNotes())
            os << note.getLocation() << ": note: " << note << "\n";
          return success();
        }) {}
  llvm::Error error(llvm::StringRef what) const {
    return llvm::createStringError(what.str() + ":\n" + text);
  }

private:
  std::string text;
  ScopedDiagnosticHandler handler;
};

class TileDevice final : public Device {
public:
  TileDevice(hw::Description chip, CycleModelParams params)
      : chip(std::move(chip)), params(std::move(params)) {}

  std::string getName() const override {
    return "tile emulator (" + chip.name + ")";
  }

  llvm::Expected<std::unique_ptr<Buffer>> allocate(size_t bytes) override {
    return std::make_unique<TileBuffer>(bytes);
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
  load(llvm::StringRef artifactPath) override {
    auto executable = std::make_unique<TileExecutable>();
    DiagnosticText diagnostics(executable->context);
    ParserConfig config(&executable->context, /*verifyAfterParse=*/false);
    executable->module = parseSourceFile<ModuleOp>(artifactPath, config);
    if (!executable->module)
      return diagnostics.error("cannot load " + artifactPath.str());
    // The program is checked against this device's chip.
    MLIRContext *ctx = &executable->context;
    auto description =
        dyn_cast<DictionaryAttr>(jsonToAttribute(ctx, chip.document));
    (*executable->module)
        ->setAttr(StrataDialect::kHardwareAttrName,
                  HardwareAttr::get(ctx, chip.name, description));
    if (failed(verify(*executable->module)))
      return diagnostics.error(artifactPath.str() + " does not verify for " +
                               chip.name);
    return std::unique_ptr<Executable>(std::move(executable));
  }

  llvm::Error launch(Executable &executable, const Signature &signature,
                     llvm::ArrayRef<Buffer *> args) override {
    auto &tileExecutable = static_cast<TileExecutable &>(executable);
    ProgramOp program = tileExecutable.find(signature.name);
    if (!program) {
      std::vector<ProgramOp> parts = tileExecutable.parts(signature.name);
      if (parts.empty())
        return llvm::createStringError("no tile.program @" + signature.name);
      return launchSequence(tileExecutable, parts, signature, args);
    }
    DiagnosticText diagnostics(tileExecutable.context);
    FailureOr<std::unique_ptr<Emulator>> created =
        Emulator::create(program, chip);
    if (failed(created))
      return diagnostics.error("cannot run @" + signature.name);
    Emulator &emulator = **created;

    // DRAM tensors, inputs then outputs, against the signature.
    std::vector<const TensorInfo *> inputs, outputs;
    for (const TensorInfo &tensor : emulator.tensors()) {
      if (tensor.role == TensorInfo::Role::Input)
        inputs.push_back(&tensor);
      if (tensor.role == TensorInfo::Role::Output)
        outputs.push_back(&tensor);
    }
    // Tensors named "argN" hold the function's argument N (a program
    // declares only the arguments it reads: an unused input has none);
    // others are the signature's in order.
    size_t numInputs = signature.inputs.size();
    auto argumentIndex = [](const TensorInfo &tensor) -> std::optional<size_t> {
      llvm::StringRef name = tensor.name;
      size_t index;
      if (!name.consume_front("arg") || name.getAsInteger(10, index))
        return std::nullopt;
      return index;
    };
    bool named = llvm::all_of(inputs,
                              [&](const TensorInfo *t) {
                                auto i = argumentIndex(*t);
                                return i && *i < numInputs;
                              }) &&
                 llvm::all_of(outputs, [&](const TensorInfo *t) {
                   auto i = argumentIndex(*t);
                   return i && *i >= numInputs && *i < args.size();
                 });
    std::vector<size_t> inputArg, outputArg;
    for (size_t i = 0; i < inputs.size(); ++i)
      inputArg.push_back(named ? *argumentIndex(*inputs[i]) : i);
    for (size_t i = 0; i < outputs.size(); ++i)
      outputArg.push_back(named ? *argumentIndex(*outputs[i])
                                : inputs.size() + i);
    if ((!named && signature.inputs.size() != inputs.size()) ||
        signature.outputs.size() != outputs.size() ||
        args.size() != signature.inputs.size() + signature.outputs.size())
      return llvm::createStringError(llvm::formatv(
          "@{0} has {1} input and {2} output tensors; the launch gives {3} "
          "and {4} with {5} buffers",
          signature.name, inputs.size(), outputs.size(),
          signature.inputs.size(), signature.outputs.size(), args.size()));
    auto check = [&](const TensorInfo &tensor,
                     const TensorSpec &spec) -> llvm::Error {
      // Block-float tensors take bf16 host buffers (converted on the way),
      // bf16 ones bf16 or booleans (i1: 1.0 and 0.0), f32 ones f32 or f16.
      ElementType type = tensor.format == TileFormat::F32 ? ElementType::F32
                                                          : ElementType::BF16;
      HostView view = hostView(program, tensor);
      bool converted =
          (type == ElementType::BF16 && spec.type == ElementType::I1) ||
          (type == ElementType::F32 && spec.type == ElementType::F16);
      if ((spec.type != type && !converted) || spec.shape != view.shape)
        return llvm::createStringError(llvm::formatv(
            "tensor @{0} is {1}x{2}; the launch gives {3}", tensor.name,
            view.str(), elementTypeName(type), spec.str()));
      return llvm::Error::success();
    };
    for (size_t i = 0; i < inputs.size(); ++i) {
      const TensorSpec &spec = signature.inputs[inputArg[i]];
      if (llvm::Error error = check(*inputs[i], spec))
        return error;
      std::vector<float> values =
          pad(hostView(program, *inputs[i]), *inputs[i],
              toFloats(spec.type, spec.numElements(), *args[inputArg[i]]));
      if (failed(emulator.writeTensor(inputs[i]->name, values)))
        return diagnostics.error("cannot write @" + inputs[i]->name);
    }
    for (size_t i = 0; i < outputs.size(); ++i)
      if (llvm::Error error =
              check(*outputs[i], signature.outputs[outputArg[i] - numInputs]))
        return error;

    if (failed(emulator.run()))
      return diagnostics.error("@" + signature.name + " failed");
    for (size_t i = 0; i < outputs.size(); ++i) {
      FailureOr<std::vector<float>> values =
          emulator.readTensor(outputs[i]->name);
      if (failed(values))
        return diagnostics.error("cannot read @" + outputs[i]->name);
      fromFloats(signature.outputs[outputArg[i] - numInputs].type,
                 crop(hostView(program, *outputs[i]), *outputs[i], *values),
                 *args[outputArg[i]]);
    }
    llvm::Expected<CycleReport> report =
        predictCycles(emulator.trace(), params);
    if (!report)
      return report.takeError();
    predictedSeconds += report->seconds();
    lastReport = formatCycleReport(*report, /*perCore=*/false);
    return llvm::Error::success();
  }

  std::unique_ptr<Timer> createTimer() override {
    return createModeledTimer(predictedSeconds);
  }

  /// Runs the programs of a split function in order. Each DRAM tensor's
  /// `bind` names what it holds: the function's argument "argN" or a
  /// scratch tensor; the runtime keeps every such tensor (host-shaped,
  /// so each program pads it to its own tiles) from the program that
  /// writes it to those that read it, and copies the function's outputs
  /// back at the end. The report sums the programs' predictions.
  llvm::Error launchSequence(TileExecutable &executable,
                             llvm::ArrayRef<ProgramOp> programs,
                             const Signature &signature,
                             llvm::ArrayRef<Buffer *> args) {
    struct Held {
      std::vector<float> values; // host-shaped
      std::vector<int64_t> shape;
      TileFormat format = TileFormat::F32;
    };
    std::map<std::string, Held> held;
    size_t numInputs = signature.inputs.size();
    if (args.size() != numInputs + signature.outputs.size())
      return llvm::createStringError(llvm::formatv(
          "@{0}: the launch gives {1} buffers for {2} tensors", signature.name,
          args.size(), numInputs + signature.outputs.size()));
    auto specOf = [&](size_t arg) -> const TensorSpec & {
      return arg < numInputs ? signature.inputs[arg]
                             : signature.outputs[arg - numInputs];
    };
    auto formatOf = [](ElementType type) {
      return type == ElementType::F32 || type == ElementType::F16
                 ? TileFormat::F32
                 : TileFormat::BF16;
    };
    for (size_t i = 0; i < numInputs; ++i) {
      TensorInfo info;
      info.format = formatOf(signature.inputs[i].type);
      held["arg" + std::to_string(i)] = {
          toFloats(signature.inputs[i].type, signature.inputs[i].numElements(),
                   *args[i]),
          signature.inputs[i].shape, info.format};
    }
    // The module's constants (a causal mask, a program's own weights) are
    // held from the start, each under its name.
    if (auto constants =
            (*executable.module)
                ->getAttrOfType<DictionaryAttr>(kConstantsAttrName))
      for (NamedAttribute entry : constants) {
        auto value = dyn_cast<DenseElementsAttr>(entry.getValue());
        Type type = value ? value.getElementType() : Type();
        if (!type || !(type.isF32() || type.isBF16() || type.isF16() ||
                       type.isInteger(1)))
          return llvm::createStringError(
              "constant @" + entry.getName().str() +
              " is not a dense f32, f16, bf16 or i1 tensor");
        // Booleans are bf16 1.0 and 0.0, f16 values f32.
        Held constant;
        constant.format =
            type.isF32() || type.isF16() ? TileFormat::F32 : TileFormat::BF16;
        constant.shape.assign(value.getType().getShape().begin(),
                              value.getType().getShape().end());
        if (type.isInteger(1))
          for (bool element : value.getValues<bool>())
            constant.values.push_back(element ? 1.0f : 0.0f);
        else
          for (llvm::APFloat element : value.getValues<llvm::APFloat>())
            constant.values.push_back(type.isF32()
                                          ? element.convertToFloat()
                                          : float(element.convertToDouble()));
        held[entry.getName().str()] = std::move(constant);
      }
    DiagnosticText diagnostics(executable.context);
    std::vector<CycleReport> reports;
    std::string lines;
    for (ProgramOp program : programs) {
      std::string name = program.getSymName().str();
      FailureOr<std::unique_ptr<Emulator>> created =
          Emulator::create(program, chip);
      if (failed(created))
        return diagnostics.error("cannot run @" + name);
      Emulator &emulator = **created;
      std::vector<std::pair<const TensorInfo *, std::string>> outputs;
      for (const TensorInfo &tensor : emulator.tensors()) {
        auto decl = dyn_cast_or_null<DramTensorOp>(
            SymbolTable::lookupSymbolIn(program, tensor.name));
        auto bind = decl ? decl->getAttrOfType<StringAttr>("bind") : nullptr;
        if (!bind)
          return llvm::createStringError("tensor @" + tensor.name + " of @" +
                                         name + " binds to nothing");
        HostView view = hostView(program, tensor);
        auto it = held.find(bind.str());
        if (tensor.role == TensorInfo::Role::Output) {
          outputs.push_back({&tensor, bind.str()});
          // A DRAM tensor keeps its contents from program to program: one
          // that writes part of it (a copy into a pad's interior) leaves
          // the rest as the program before left it.
          if (it != held.end() &&
              ShapedType::getNumElements(it->second.shape) ==
                  ShapedType::getNumElements(view.shape) &&
              it->second.format == tensor.format &&
              failed(emulator.writeTensor(
                  tensor.name, pad(view, tensor, it->second.values))))
            return diagnostics.error("cannot write @" + tensor.name);
          continue;
        }
        if (it == held.end())
          return llvm::createStringError("@" + name + " reads @" + bind.str() +
                                         " before any program writes it");
        // A reshaped view reads the same row-major values.
        if (ShapedType::getNumElements(it->second.shape) !=
                ShapedType::getNumElements(view.shape) ||
            it->second.format != tensor.format)
          return llvm::createStringError(llvm::formatv(
              "@{0} reads @{1} as {2}x{3}; it holds {4}x{5}", name, bind.str(),
              view.str(), formatName(tensor.format),
              HostView{it->second.shape}.str(), formatName(it->second.format)));
        if (failed(emulator.writeTensor(tensor.name,
                                        pad(view, tensor, it->second.values))))
          return diagnostics.error("cannot write @" + tensor.name);
      }
      if (failed(emulator.run()))
        return diagnostics.error("@" + name + " failed");
      for (auto &[tensor, bind] : outputs) {
        FailureOr<std::vector<float>> values =
            emulator.readTensor(tensor->name);
        if (failed(values))
          return diagnostics.error("cannot read @" + tensor->name);
        HostView view = hostView(program, *tensor);
        held[bind] = {crop(view, *tensor, *values), view.shape, tensor->format};
      }
      llvm::Expected<CycleReport> report =
          predictCycles(emulator.trace(), params);
      if (!report)
        return report.takeError();
      lines += llvm::formatv("  program @{0}: {1:F0} cycles, bound {2}\n", name,
                             report->cycles, report->bound);
      reports.push_back(std::move(*report));
    }
    for (size_t i = numInputs; i < args.size(); ++i) {
      auto it = held.find("arg" + std::to_string(i));
      const TensorSpec &spec = specOf(i);
      if (it == held.end())
        return llvm::createStringError(
            llvm::formatv("no program of @{0} writes its output #{1}",
                          signature.name, i - numInputs));
      if (ShapedType::getNumElements(it->second.shape) !=
              ShapedType::getNumElements(spec.shape) ||
          formatOf(spec.type) != it->second.format)
        return llvm::createStringError(llvm::formatv(
            "@{0}'s output #{1} is {2}; the launch gives {3}", signature.name,
            i - numInputs, HostView{it->second.shape}.str(), spec.str()));
      fromFloats(spec.type, it->second.values, *args[i]);
    }
    CycleReport sum = sequenceReport(reports);
    predictedSeconds += sum.seconds();
    lastReport =
        formatCycleReport(sum, /*perCore=*/false) +
        llvm::formatv("  {0} programs in order:\n", reports.size()).str() +
        lines;
    return llvm::Error::success();
  }

  std::string lastLaunchReport() const override { return lastReport; }

  /// Seconds the cycle model predicted for all launches so far.
  double predictedSeconds = 0;

private:
  /// The shape of a tensor's host data: the DRAM tensor's unless its
  /// `host_shape` says otherwise (the compiler padded it to whole tiles);
  /// a host row with `replicate_rows` fills every row of the tensor. A
  /// batch of matrices (leading dimensions) is stacked: each matrix takes
  /// an equal share of the tensor's rows; with `flatten` the host data is
  /// one matrix [elements / last dimension, last dimension] (an NHWC
  /// tensor as [pixels, channels]).
  struct HostView {
    std::vector<int64_t> shape;
    bool replicateRows = false;
    bool replicateCols = false; // a column [rows x 1] fills every column
    bool flatten = false;
    float padValue = 0.0f; // what the padding of an input holds
    bool column = false;   // [.., n]: column 0 of n rows (flatten: of all)
    bool vector = false;   // the elements in order as one row (column)
    int64_t elements() const {
      int64_t n = 1;
      for (int64_t d : shape)
        n *= d;
      return n;
    }
    int64_t rows() const {
      if (vector)
        return column ? elements() : 1;
      if (column) // a flat column: one value per row of a stacked batch
        return flatten ? elements() : shape.back();
      if (flatten) {
        int64_t n = 1;
        for (size_t d = 0; d + 1 < shape.size(); ++d)
          n *= shape[d];
        return n;
      }
      return shape.size() >= 2 ? shape[shape.size() - 2] : 1;
    }
    int64_t cols() const {
      if (vector)
        return column ? 1 : elements();
      return column ? 1 : shape.back();
    }
    int64_t batches() const {
      if (vector)
        return 1;
      int64_t n = 1;
      for (size_t d = 0; d + (column ? 1 : 2) < shape.size(); ++d)
        n *= shape[d];
      return replicateRows || flatten ? 1 : n;
    }
    std::string str() const {
      std::string text;
      for (int64_t d : shape)
        text += (text.empty() ? "" : "x") + std::to_string(d);
      return text;
    }
  };
  static HostView hostView(ProgramOp program, const TensorInfo &tensor) {
    HostView view{{tensor.rows, tensor.cols}};
    auto decl = dyn_cast_or_null<DramTensorOp>(
        SymbolTable::lookupSymbolIn(program, tensor.name));
    if (!decl)
      return view;
    if (auto shape = decl->getAttrOfType<DenseI64ArrayAttr>("host_shape"))
      view.shape.assign(shape.asArrayRef().begin(), shape.asArrayRef().end());
    view.replicateRows = decl->hasAttr("replicate_rows");
    view.replicateCols = decl->hasAttr("replicate_cols");
    view.flatten = decl->hasAttr("flatten");
    view.column = decl->hasAttr("column");
    view.vector = decl->hasAttr("vector");
    if (auto padValue = decl->getAttrOfType<FloatAttr>("pad"))
      view.padValue = float(padValue.getValueAsDouble());
    return view;
  }
  /// Host data (row-major in `view`) as the tensor's rows x cols values,
  /// padded with the view's pad value (zero unless the declaration's `pad`
  /// says otherwise).
  static std::vector<float> pad(const HostView &view, const TensorInfo &tensor,
                                const std::vector<float> &host) {
    std::vector<float> values(size_t(tensor.rows * tensor.cols), view.padValue);
    int64_t share = tensor.rows / view.batches();
    int64_t rows = view.replicateRows ? tensor.rows : view.rows();
    int64_t cols = view.replicateCols ? tensor.cols : view.cols();
    for (int64_t b = 0; b < view.batches(); ++b)
      for (int64_t r = 0; r < std::min(rows, share); ++r)
        for (int64_t c = 0; c < std::min(cols, tensor.cols); ++c) {
          int64_t row = view.replicateRows ? 0 : b * view.rows() + r;
          values[size_t((b * share + r) * tensor.cols + c)] =
              host[size_t(row * view.cols() + (view.replicateCols ? 0 : c))];
        }
    return values;
  }
  /// The host's part of a tensor's values.
  static std::vector<float> crop(const HostView &view, const TensorInfo &tensor,
                                 const std::vector<float> &values) {
    std::vector<float> host;
    int64_t share = tensor.rows / view.batches();
    for (int64_t b = 0; b < view.batches(); ++b)
      for (int64_t r = 0; r < view.rows(); ++r)
        for (int64_t c = 0; c < view.cols(); ++c)
          host.push_back(values[size_t((b * share + r) * tensor.cols + c)]);
    return host;
  }

  /// The host buffer's `n` values (f32, bf16, f16 or i1: a byte each) as
  /// floats.
  static std::vector<float> toFloats(ElementType host, size_t n,
                                     Buffer &buffer) {
    std::vector<float> values(n);
    const auto *bytes = static_cast<const uint8_t *>(buffer.hostPointer());
    for (size_t i = 0; i < n; ++i) {
      if (host == ElementType::I1) {
        values[i] = bytes[i] ? 1.0f : 0.0f;
      } else if (host == ElementType::F16) {
        uint16_t half;
        std::memcpy(&half, bytes + 2 * i, 2);
        values[i] = rt::fromF16(half);
      } else if (host != ElementType::F32) {
        uint16_t half;
        std::memcpy(&half, bytes + 2 * i, 2);
        values[i] = fromBf16(half);
      } else {
        std::memcpy(&values[i], bytes + 4 * i, 4);
      }
    }
    return values;
  }

  static void fromFloats(ElementType host, const std::vector<float> &values,
                         Buffer &buffer) {
    auto *bytes = static_cast<uint8_t *>(buffer.hostPointer());
    for (size_t i = 0; i < values.size(); ++i) {
      if (host == ElementType::I1) {
        bytes[i] = values[i] != 0.0f;
      } else if (host == ElementType::F16) {
        uint16_t half = rt::toF16(values[i]);
        std::memcpy(bytes + 2 * i, &half, 2);
      } else if (host != ElementType::F32) {
        uint16_t half = toBf16(values[i]);
        std::memcpy(bytes + 2 * i, &half, 2);
      } else {
        std::memcpy(bytes + 4 * i, &values[i], 4);
      }
    }
  }

  hw::Description chip;
  CycleModelParams params;
  std::string lastReport;
};

} // namespace

llvm::Expected<std::unique_ptr<Device>>
strata::tile::createTileDevice(const hw::Description &chip) {
  llvm::Expected<CycleModelParams> params =
      CycleModelParams::fromDescription(chip);
  if (!params)
    return params.takeError();
  return std::make_unique<TileDevice>(chip, std::move(*params));
}
