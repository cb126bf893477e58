//===- Model.cpp - Roofline quantities derived from a description ---------===//

#include "strata/HW/Model.h"

#include "llvm/ADT/StringSwitch.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace strata::hw {

const std::vector<std::string> &knownElementTypes() {
  static const std::vector<std::string> types = {
      "f64",     "f32",     "tf32", "bf16", "f16",
      "fp8e4m3", "fp8e5m2", "i32",  "i16",  "i8"};
  return types;
}

int64_t elementTypeBits(llvm::StringRef type) {
  return llvm::StringSwitch<int64_t>(type)
      .Case("f64", 64)
      .Cases({"f32", "tf32", "i32"}, 32)
      .Cases({"bf16", "f16", "i16"}, 16)
      .Cases({"fp8e4m3", "fp8e5m2", "i8"}, 8)
      .Default(0);
}

const TypePeak *DerivedModel::findPeak(llvm::StringRef elementType) const {
  for (const TypePeak &peak : peaks)
    if (peak.elementType == elementType)
      return &peak;
  return nullptr;
}

double DerivedModel::peakFlops(llvm::StringRef elementType) const {
  const TypePeak *peak = findPeak(elementType);
  return peak ? peak->flops : 0;
}

const MemoryModel *DerivedModel::findMemory(llvm::StringRef name) const {
  for (const MemoryModel &level : memory)
    if (level.name == name)
      return &level;
  return nullptr;
}

namespace {

/// One unit able to compute an element type: the vector unit or a matrix
/// intrinsic, with its rate per instance of its issuing level.
struct RateSource {
  std::string elementType;
  std::string name;
  std::string level;
  double flopsPerUnit = 0;
};

int levelIndex(const Description &desc, llvm::StringRef name) {
  for (size_t i = 0; i < desc.compute.size(); ++i)
    if (desc.compute[i].name == name)
      return int(i);
  return -1;
}

double units(const Description &desc, llvm::StringRef level) {
  return double(desc.totalUnits(level));
}

/// Passes at each fidelity of `intrinsic`, in its order; {"", 1} if none.
std::vector<std::pair<std::string, double>>
fidelityPasses(const MatrixIntrinsic &intrinsic) {
  std::vector<std::pair<std::string, double>> passes;
  for (const std::string &fidelity : intrinsic.fidelities) {
    auto it = intrinsic.fidelityPasses.find(fidelity);
    passes.push_back(
        {fidelity, it == intrinsic.fidelityPasses.end()
                       ? 1.0
                       : double(std::max<int64_t>(it->second, 1))});
  }
  if (passes.empty())
    passes.push_back({"", 1.0});
  return passes;
}

double ratio(double numerator, double denominator) {
  return denominator > 0 ? numerator / denominator : 0;
}

} // namespace

DerivedModel deriveModel(const Description &desc) {
  DerivedModel model;

  std::vector<RateSource> sources;
  if (desc.vector && desc.vector->widthBits > 0) {
    const VectorUnit &vector = *desc.vector;
    for (const std::string &type : vector.elementTypes) {
      int64_t bits = elementTypeBits(type);
      if (bits == 0)
        continue;
      double lanes = double(vector.widthBits / bits);
      sources.push_back({type, "vector", vector.level,
                         lanes * 2.0 * double(vector.fmaPipes) * desc.clockHz});
    }
  }
  for (const MatrixIntrinsic &intrinsic : desc.matrix) {
    IntrinsicModel im;
    im.name = intrinsic.name;
    im.elementType = intrinsic.aType;
    im.flopsPerInstruction =
        2.0 * double(intrinsic.m) * double(intrinsic.n) * double(intrinsic.k);
    im.issuingUnits = desc.totalUnits(intrinsic.level);
    double perUnitBest = 0;
    for (const auto &[fidelity, passes] : fidelityPasses(intrinsic)) {
      double perUnit = ratio(im.flopsPerInstruction,
                             intrinsic.cyclesPerInstruction * passes) *
                       desc.clockHz;
      double chip = perUnit * double(im.issuingUnits);
      im.flopsByFidelity.push_back({fidelity, chip});
      im.flops = std::max(im.flops, chip);
      perUnitBest = std::max(perUnitBest, perUnit);
    }
    sources.push_back(
        {intrinsic.aType, intrinsic.name, intrinsic.level, perUnitBest});
    model.matrix.push_back(std::move(im));
  }
  // Integer intrinsics count operations, not FLOP: the balance that matters
  // for floating-point work is that of the fastest floating-point type.
  double bestMatrixFlops = 0;
  for (const IntrinsicModel &im : model.matrix)
    if (im.flops > bestMatrixFlops &&
        !llvm::StringRef(im.elementType).starts_with("i")) {
      bestMatrixFlops = im.flops;
      model.bestMatrixType = im.elementType;
    }

  for (const std::string &type : knownElementTypes()) {
    TypePeak peak;
    peak.elementType = type;
    std::vector<double> perLevel(desc.compute.size(), 0.0);
    for (const RateSource &source : sources) {
      if (source.elementType != type)
        continue;
      int issue = levelIndex(desc, source.level);
      if (issue < 0)
        continue;
      double chip = source.flopsPerUnit * units(desc, source.level);
      if (chip > peak.flops) {
        peak.flops = chip;
        peak.source = source.name;
        peak.sourceLevel = source.level;
      }
      for (int level = 0; level <= issue; ++level)
        perLevel[size_t(level)] = std::max(
            perLevel[size_t(level)],
            ratio(chip, units(desc, desc.compute[size_t(level)].name)));
    }
    for (size_t level = 0; level < perLevel.size(); ++level)
      if (perLevel[level] > 0)
        peak.perLevel.push_back({desc.compute[level].name, perLevel[level]});
    auto given = desc.peakFlops.find(type);
    if (given != desc.peakFlops.end())
      peak.given = given->second;
    if (peak.flops > 0 || peak.given > 0)
      model.peaks.push_back(std::move(peak));
  }

  double f32Peak = model.peakFlops("f32");
  double matrixPeak = model.peakFlops(model.bestMatrixType);
  for (const MemoryLevel &level : desc.memory) {
    MemoryModel mm;
    mm.name = level.name;
    mm.kind = level.kind;
    mm.owner = level.owner;
    mm.instances = desc.totalUnits(level.owner);
    mm.capacityPerInstance = double(level.capacityBytes);
    mm.capacityTotal = mm.capacityPerInstance * double(mm.instances);
    mm.bandwidthPerInstance = level.bandwidthBytesPerS;
    mm.bandwidthTotal = mm.bandwidthPerInstance * double(mm.instances);
    for (const ComputeLevel &compute : desc.compute)
      mm.capacityPerUnit.push_back(
          {compute.name, ratio(mm.capacityTotal, units(desc, compute.name))});
    mm.balanceF32 = ratio(f32Peak, mm.bandwidthTotal);
    mm.balanceMatrix = ratio(matrixPeak, mm.bandwidthTotal);
    model.memory.push_back(std::move(mm));
  }
  return model;
}

std::string formatQuantity(double value, llvm::StringRef unit, bool binary) {
  if (!std::isfinite(value))
    return fmt::format("{} {}", value, unit.str());
  static const char *decimal[] = {"", "k", "M", "G", "T", "P", "E"};
  static const char *binaryPrefixes[] = {"",   "Ki", "Mi", "Gi",
                                         "Ti", "Pi", "Ei"};
  double base = binary ? 1024.0 : 1000.0;
  double scaled = value;
  size_t prefix = 0;
  while (std::fabs(scaled) >= base && prefix < 6) {
    scaled /= base;
    ++prefix;
  }
  return fmt::format("{:.4g} {}{}", scaled,
                     binary ? binaryPrefixes[prefix] : decimal[prefix],
                     unit.str());
}

namespace {

std::string hierarchy(const Description &desc) {
  std::string out;
  for (const ComputeLevel &level : desc.compute) {
    if (!out.empty())
      out += " > ";
    out += fmt::format("{} {}", level.name, level.count);
  }
  return out;
}

/// FLOP per byte with about three significant digits.
std::string balance(double value) {
  if (value >= 100)
    return fmt::format("{:.0f}", value);
  return fmt::format(value >= 10 ? "{:.1f}" : "{:.2f}", value);
}

std::string types(const std::vector<std::string> &names) {
  std::string out;
  for (const std::string &name : names)
    out += (out.empty() ? "" : " ") + name;
  return out;
}

} // namespace

std::string formatSummary(const Description &desc) {
  std::string memory;
  for (const MemoryLevel &level : desc.memory)
    memory += (memory.empty() ? "" : ", ") + level.name;
  std::string out =
      fmt::format("{}: plugin {}, arch {}, {}; compute {}; memory {}",
                  desc.name, desc.plugin, desc.arch,
                  formatQuantity(desc.clockHz, "Hz"), hierarchy(desc), memory);
  if (desc.vector)
    out += fmt::format("; vector {}-bit", desc.vector->widthBits);
  out += fmt::format("; {} matrix intrinsic{}", desc.matrix.size(),
                     desc.matrix.size() == 1 ? "" : "s");
  return out;
}

std::string formatModel(const Description &desc, const DerivedModel &model) {
  std::string out = desc.name;
  if (!desc.summary.empty())
    out += ": " + desc.summary;
  out += fmt::format("\n  plugin {}, arch {}, clock {}\n", desc.plugin,
                     desc.arch, formatQuantity(desc.clockHz, "Hz"));
  out += fmt::format("compute  {}\n", hierarchy(desc));
  if (desc.vector) {
    const VectorUnit &v = *desc.vector;
    out += fmt::format("vector   {}-bit per {}, {} FMA pipe{}, latency {}, "
                       "{} registers: {}\n",
                       v.widthBits, v.level, v.fmaPipes,
                       v.fmaPipes == 1 ? "" : "s", v.fmaLatencyCycles,
                       v.registers, types(v.elementTypes));
  }

  std::string outermost = desc.compute.empty() ? "" : desc.compute[0].name;
  out += "peaks    type     chip              source\n";
  for (const TypePeak &peak : model.peaks) {
    std::string source =
        peak.source.empty()
            ? std::string("(no unit)")
            : fmt::format("{} @{}", peak.source, peak.sourceLevel);
    out += fmt::format("         {:<8} {:<17} {}", peak.elementType,
                       formatQuantity(peak.flops, "FLOP/s"), source);
    if (peak.given > 0)
      out += fmt::format("  (given {})", formatQuantity(peak.given, "FLOP/s"));
    out += "\n";
    std::string perLevel;
    for (const LevelValue &level : peak.perLevel)
      if (level.level != outermost)
        perLevel +=
            fmt::format("{}per {} {}", perLevel.empty() ? "" : ", ",
                        level.level, formatQuantity(level.value, "FLOP/s"));
    if (!perLevel.empty())
      out += fmt::format("{:<26}{}\n", "", perLevel);
  }

  std::string matrixType =
      model.bestMatrixType.empty() ? "" : model.bestMatrixType;
  out += fmt::format(
      "memory   {:<10} {:<10} {:<22} {:<26} {:>8}  {:>9}{}\n", "name", "kind",
      "capacity", "bandwidth", "latency", "f32 F/B",
      matrixType.empty() ? std::string()
                         : fmt::format("  {:>9}", matrixType + " F/B"));
  for (size_t i = 0; i < model.memory.size() && i < desc.memory.size(); ++i) {
    const MemoryModel &mm = model.memory[i];
    const MemoryLevel &level = desc.memory[i];
    std::string capacity = fmt::format(
        "{} /{}", formatQuantity(mm.capacityPerInstance, "B", true), mm.owner);
    std::string bandwidth = fmt::format(
        "{} /{}", formatQuantity(mm.bandwidthPerInstance, "B/s"), mm.owner);
    if (mm.instances > 1) {
      capacity += fmt::format(" x{}", mm.instances);
      bandwidth +=
          fmt::format(" ({})", formatQuantity(mm.bandwidthTotal, "B/s"));
    }
    out += fmt::format("         {:<10} {:<10} {:<22} {:<26} {:>8.4g}  {:>9}",
                       mm.name, mm.kind, capacity, bandwidth,
                       level.latencyCycles, balance(mm.balanceF32));
    if (!matrixType.empty())
      out += fmt::format("  {:>9}", balance(mm.balanceMatrix));
    out += "\n";
    if (level.engine) {
      const MovementEngine &e = *level.engine;
      out += fmt::format("{:<11}engine {} x{}: {:.4g} B/cycle, setup {:.4g} "
                         "cycles",
                         "", e.kind, e.count, e.bytesPerCycle,
                         e.setupLatencyCycles);
      if (e.flitBytes > 0)
        out += fmt::format(", {} B flits, {:.4g} cycles/hop", e.flitBytes,
                           e.hopLatencyCycles);
      out += "\n";
    }
  }

  if (!model.matrix.empty())
    out += "matrix   (preference order)\n";
  for (size_t i = 0; i < model.matrix.size() && i < desc.matrix.size(); ++i) {
    const MatrixIntrinsic &mi = desc.matrix[i];
    const IntrinsicModel &im = model.matrix[i];
    out += fmt::format("         {:>2}. {:<26} {}x{}x{} {}*{}->{} @{} {:.4g} "
                       "cycles: {}",
                       i + 1, mi.name, mi.m, mi.n, mi.k, mi.aType, mi.bType,
                       mi.accType, mi.level, mi.cyclesPerInstruction,
                       formatQuantity(im.flops, "FLOP/s"));
    if (im.flopsByFidelity.size() > 1) {
      std::string fidelities;
      for (const auto &[fidelity, flops] : im.flopsByFidelity)
        fidelities += fmt::format("{}{} {}", fidelities.empty() ? "" : ", ",
                                  fidelity, formatQuantity(flops, "FLOP/s"));
      out += fmt::format("\n{:<13}{}", "", fidelities);
    }
    out += "\n";
  }
  return out;
}

} // namespace strata::hw
