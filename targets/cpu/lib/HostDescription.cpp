//===- HostDescription.cpp - Describe the machine we run on ---------------===//
//
// Measured facts come from the machine; rates that no register reports
// (bandwidths, latencies) are estimates from the clock and vector width and
// are marked as such in `source`.
//
//===----------------------------------------------------------------------===//
#include "HostDescription.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cpuid.h>
#include <cstring>
#include <fstream>
#include <sched.h>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>

using nlohmann::json;

namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string value = text.str();
  while (!value.empty() && (value.back() == '\n' || value.back() == ' '))
    value.pop_back();
  return value;
}

/// "48K" / "1024K" / "32M" → bytes.
int64_t parseSize(const std::string &text) {
  if (text.empty())
    return 0;
  int64_t value = std::atoll(text.c_str());
  switch (text.back()) {
  case 'K':
    return value << 10;
  case 'M':
    return value << 20;
  case 'G':
    return value << 30;
  default:
    return value;
  }
}

/// Number of CPUs in a sysfs list like "0-3,8".
int countCpuList(const std::string &list) {
  int count = 0;
  std::stringstream in(list);
  std::string part;
  while (std::getline(in, part, ',')) {
    size_t dash = part.find('-');
    if (dash == std::string::npos)
      count += part.empty() ? 0 : 1;
    else
      count += std::atoi(part.c_str() + dash + 1) - std::atoi(part.c_str()) + 1;
  }
  return count;
}

std::string cpuInfoField(const std::string &field) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(field, 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos)
        return line.substr(colon + 2);
    }
  return "";
}

struct VectorFacts {
  int widthBits = 128;
  bool fma = false;
  int registers = 16;
  std::string vendor;
  int family = 0;
};

VectorFacts detectVector() {
  VectorFacts facts;
  unsigned eax, ebx, ecx, edx;
  if (__get_cpuid(0, &eax, &ebx, &ecx, &edx)) {
    char vendor[13] = {};
    std::memcpy(vendor, &ebx, 4);
    std::memcpy(vendor + 4, &edx, 4);
    std::memcpy(vendor + 8, &ecx, 4);
    facts.vendor = vendor;
  }
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
    facts.fma = (ecx >> 12) & 1;
    // The display family: the extended family is added to a base of 0xF.
    int base = (eax >> 8) & 0xF;
    facts.family = base == 0xF ? base + int((eax >> 20) & 0xFF) : base;
  }
  if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) {
    if ((ebx >> 5) & 1)
      facts.widthBits = 256; // AVX2
    if ((ebx >> 16) & 1) {
      facts.widthBits = 512; // AVX-512F
      facts.registers = 32;
    }
  }
  return facts;
}

int usableCores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0)
    return CPU_COUNT(&set);
  return std::max(1u, std::thread::hardware_concurrency());
}

/// The clock the core runs at now, measured: a chain of dependent integer
/// adds retires one add per cycle, so adds per second is cycles per second.
/// Virtual machines often report a nominal `cpu MHz` far below the clock
/// the core really runs at, which would understate every peak.
/// Short trials, the best of many: on a busy machine a trial that the
/// scheduler interrupts reads slow, and a short one is rarely interrupted.
double measureClockHz() {
  constexpr uint64_t kIterations = 1 << 17, kAddsPerIteration = 16;
  double best = 0;
  for (int trial = 0; trial < 24; ++trial) {
    uint64_t value = 0;
    auto start = std::chrono::steady_clock::now();
    for (uint64_t i = 0; i < kIterations; ++i)
      asm volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                   "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                   "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                   "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0"
                   : "+r"(value));
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    if (seconds > 0)
      best = std::max(best, kIterations * kAddsPerIteration / seconds);
  }
  return best;
}

double clockHz() {
  std::string khz =
      readFile("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  if (!khz.empty() && std::atof(khz.c_str()) > 0)
    return std::atof(khz.c_str()) * 1e3;
  // Plausible measurements only (0.5 to 8 GHz); otherwise the nominal value.
  double measured = measureClockHz();
  if (measured > 0.5e9 && measured < 8e9)
    return measured;
  std::string mhz = cpuInfoField("cpu MHz");
  if (!mhz.empty() && std::atof(mhz.c_str()) > 0)
    return std::atof(mhz.c_str()) * 1e6;
  return 2.5e9;
}

} // namespace

int strata::cpu::hostVectorBits() { return detectVector().widthBits; }

int strata::cpu::datapathBits(const std::string &vendor, int family,
                              int vectorBits) {
  if (vendor == "AuthenticAMD" && family == 0x19)
    return std::min(vectorBits, 256);
  return vectorBits;
}

std::string strata::cpu::describeHostMachine() {
  VectorFacts vec = detectVector();
  int cores = usableCores();
  double clock = clockHz();
  int lanes = vec.widthBits / 32;
  double vectorBytes = vec.widthBits / 8.0;
  // Whole vectors per cycle of one pipe or port (1/2 where the datapath is
  // half a vector wide).
  double wholeVectors =
      double(datapathBits(vec.vendor, vec.family, vec.widthBits)) /
      vec.widthBits;

  json doc;
  doc["name"] = "host";
  doc["plugin"] = "cpu";
  doc["arch"] = vec.widthBits >= 512   ? "x86-64-v4"
                : vec.widthBits >= 256 ? "x86-64-v3"
                                       : "x86-64";
  std::string model = cpuInfoField("model name");
  doc["summary"] = "This machine: " + (model.empty() ? "unknown CPU" : model);
  doc["source"] = {
      "detected at run time: /proc/cpuinfo, sysfs cache (and cpufreq when "
      "present, else the clock measured with a dependent-add chain), cpuid",
      "estimated: cache bandwidth as load ports x vector width x clock, DRAM "
      "bandwidth 12 GB/s per core; latencies typical of the level",
      "AMD Zen 4 (family 0x19) runs 512-bit operations on 256-bit "
      "datapaths: half the FMA pipes and L1/L2 rates (AMD 57647, 2.11)"};
  doc["clock_hz"] = clock;
  auto level = [](const char *name, int count) {
    json entry = json::object();
    entry["name"] = name;
    entry["count"] = count;
    return entry;
  };
  doc["compute"] = json::array(
      {level("chip", 1), level("core", cores), level("lane", lanes)});

  // Caches from sysfs, largest level first (the description lists memory
  // farthest from compute first).
  json caches = json::array();
  for (int index = 0; index < 8; ++index) {
    std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    std::string type = readFile(dir + "/type");
    if (type.empty())
      break;
    if (type == "Instruction")
      continue;
    int level = std::atoi(readFile(dir + "/level").c_str());
    int64_t size = parseSize(readFile(dir + "/size"));
    int sharing = countCpuList(readFile(dir + "/shared_cpu_list"));
    if (level <= 0 || size <= 0)
      continue;
    bool perCore = sharing <= 2 && level <= 2;
    // Per-core bandwidth: two loads per cycle from L1, one from L2, half a
    // vector per cycle from farther levels.
    double perCycle = (level == 1   ? 2 * vectorBytes
                       : level == 2 ? vectorBytes
                                    : vectorBytes / 2) *
                      (level <= 2 ? wholeVectors : 1.0);
    double bandwidth = perCycle * clock * (perCore ? 1 : cores);
    json cache = json::object();
    cache["name"] = "l" + std::to_string(level);
    cache["kind"] = "cache";
    cache["capacity_bytes"] = size;
    cache["owner"] = perCore ? "core" : "chip";
    cache["bandwidth_bytes_per_s"] = bandwidth;
    cache["latency_cycles"] = level == 1 ? 5 : level == 2 ? 14 : 50;
    cache["alignment_bytes"] = 64;
    caches.insert(caches.begin(), cache);
  }
  int64_t pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  json dram = json::object();
  dram["name"] = "dram";
  dram["kind"] = "dram";
  dram["capacity_bytes"] = pages > 0 ? pages * pageSize : int64_t(1) << 30;
  dram["owner"] = "chip";
  dram["bandwidth_bytes_per_s"] = 12e9 * cores;
  dram["latency_cycles"] = 300;
  dram["alignment_bytes"] = 64;
  json memory = json::array({dram});
  for (auto &cache : caches)
    memory.push_back(cache);
  doc["memory"] = memory;

  json types = json::array({"f32", "f64", "i32", "i16", "i8"});
  json vector = json::object();
  vector["width_bits"] = vec.widthBits;
  vector["element_types"] = types;
  vector["level"] = "core";
  // Two FMA pipes on every x86 core with FMA since Haswell; the pipes of
  // a half-width datapath complete one whole vector per cycle together.
  vector["fma_pipes"] = std::max(1, int((vec.fma ? 2 : 1) * wholeVectors));
  vector["fma_latency_cycles"] = 4;
  vector["registers"] = vec.registers;
  doc["vector"] = vector;
  doc["matrix"] = json::array();
  return doc.dump(2);
}
