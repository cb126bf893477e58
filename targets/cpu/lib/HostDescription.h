//===- HostDescription.h - Describe the machine we run on -------*- C++ -*-===//
#ifndef STRATA_TARGETS_CPU_HOSTDESCRIPTION_H
#define STRATA_TARGETS_CPU_HOSTDESCRIPTION_H

#include <string>

namespace strata::cpu {

/// A hardware description (JSON text) of this machine: CPU model and clock
/// from /proc/cpuinfo and sysfs, core count from the affinity mask, cache
/// sizes from sysfs, vector width from cpuid.
std::string describeHostMachine();

/// Vector width in bits of this machine's widest usable SIMD unit.
int hostVectorBits();

/// Bits the execution units of a CPU process per operation, for vectors of
/// `vectorBits`: AMD's Zen 4 (family 0x19) runs AVX-512 on 256-bit
/// datapaths, each 512-bit operation taking two of them (AMD, "Software
/// Optimization Guide for the AMD Zen4 Microarchitecture", 57647, 2.11), so
/// that its FMA pipes and load ports do half as many 512-bit operations per
/// cycle as their count suggests; every other CPU runs its widest vectors
/// whole. `vendor` is cpuid's vendor string, `family` the display family.
int datapathBits(const std::string &vendor, int family, int vectorBits);

} // namespace strata::cpu

#endif // STRATA_TARGETS_CPU_HOSTDESCRIPTION_H
