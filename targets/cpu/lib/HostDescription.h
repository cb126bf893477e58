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

} // namespace strata::cpu

#endif // STRATA_TARGETS_CPU_HOSTDESCRIPTION_H
