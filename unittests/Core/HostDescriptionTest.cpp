//===- HostDescriptionTest.cpp - Facts of the machine description ---------===//
#include "HostDescription.h"

#include <gtest/gtest.h>

using strata::cpu::datapathBits;

namespace {

// Zen 4 runs AVX-512 on 256-bit datapaths; Zen 5 and Intel's AVX-512 cores
// run it whole; narrower vectors are whole everywhere.
TEST(HostDescription, DatapathBits) {
  EXPECT_EQ(datapathBits("AuthenticAMD", 0x19, 512), 256);
  EXPECT_EQ(datapathBits("AuthenticAMD", 0x19, 256), 256);
  EXPECT_EQ(datapathBits("AuthenticAMD", 0x1A, 512), 512);
  EXPECT_EQ(datapathBits("GenuineIntel", 6, 512), 512);
  EXPECT_EQ(datapathBits("GenuineIntel", 6, 256), 256);
}

} // namespace
