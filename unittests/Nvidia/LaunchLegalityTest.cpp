//===- LaunchLegalityTest.cpp - What one block may use on an SM -----------===//
#include "LaunchLegality.h"
#include "Ptxas.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace strata;
using namespace strata::nvidia;

namespace {

// ptxas -v as CUDA 12/13 writes it: one kernel with static shared memory,
// one without, one in an older version's "N+M bytes smem".
constexpr const char *kLog =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'attention_kernel' for "
    "'sm_90a'\n"
    "ptxas info    : Function properties for attention_kernel\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 168 registers, used 1 barriers, 1024 bytes smem\n"
    "ptxas info    : Compile time = 37.080 ms\n"
    "ptxas info    : Compiling entry function 'attention_kernel_0' for "
    "'sm_90a'\n"
    "ptxas info    : Function properties for attention_kernel_0\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 128 registers, used 1 barriers, 400 bytes "
    "cmem[0]\n"
    "ptxas info    : Compiling entry function 'old_kernel' for 'sm_80'\n"
    "ptxas info    : Used 32 registers, 4096+16 bytes smem, 64 bytes "
    "cmem[0]\n";

BlockLimits h200() {
  BlockLimits limits;
  limits.maxThreads = 1024;
  limits.registersPerBlock = 65536;
  limits.registersPerThread = 255;
  limits.maxSharedBytes = 232448;
  return limits;
}

FunctionPlan plan(const std::string &kernel, int64_t threads,
                  int64_t sharedBytes) {
  FunctionPlan f;
  f.name = "attention";
  f.arguments = 4;
  LaunchStep s;
  s.kernel = kernel;
  s.grid = {21, 8, 1};
  s.block = {threads, 1, 1};
  s.sharedBytes = sharedBytes;
  f.steps.push_back(s);
  return f;
}

std::string check(const FunctionPlan &f, const BlockLimits &limits = h200()) {
  llvm::Error e = checkLaunches({f}, kLog, limits);
  return e ? llvm::toString(std::move(e)) : "";
}

TEST(LaunchLegality, ParsesPtxasLog) {
  llvm::StringMap<KernelResources> kernels = parsePtxasLog(kLog);
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels["attention_kernel"].registers, 168);
  EXPECT_EQ(kernels["attention_kernel"].staticSharedBytes, 1024);
  EXPECT_EQ(kernels["attention_kernel_0"].registers, 128);
  EXPECT_EQ(kernels["attention_kernel_0"].staticSharedBytes, 0);
  EXPECT_EQ(kernels["old_kernel"].registers, 32);
  EXPECT_EQ(kernels["old_kernel"].staticSharedBytes, 4112);
  EXPECT_TRUE(parsePtxasLog("").empty());
}

TEST(LaunchLegality, RegistersPerThreadForBlockSizes) {
  BlockLimits limits = h200();
  EXPECT_EQ(maxRegistersPerThread(32, limits), 255);
  EXPECT_EQ(maxRegistersPerThread(64, limits), 255);
  EXPECT_EQ(maxRegistersPerThread(256, limits), 255);
  EXPECT_EQ(maxRegistersPerThread(384, limits), 168);
  EXPECT_EQ(maxRegistersPerThread(512, limits), 128);
  EXPECT_EQ(maxRegistersPerThread(1024, limits), 64);
  // 9 warps are allocated as 12 (4 schedulers): 65536 / 12 / 32 -> 168.
  EXPECT_EQ(maxRegistersPerThread(288, limits), 168);
  limits.registersPerThread = 96;
  EXPECT_EQ(maxRegistersPerThread(128, limits), 96);
  limits.registersPerBlock = 32768;
  EXPECT_EQ(maxRegistersPerThread(512, limits), 64);
  // 32 warps cannot have one allocation unit each.
  limits.registersPerBlock = 4096;
  EXPECT_EQ(maxRegistersPerThread(1024, limits), 0);
}

TEST(LaunchLegality, LimitsOfTheShippedGpus) {
  BlockLimits a100 = BlockLimits::of(test::loadShipped("nvidia-a100"));
  EXPECT_EQ(a100.maxThreads, 1024);
  EXPECT_EQ(a100.registersPerBlock, 65536);
  EXPECT_EQ(a100.registersPerThread, 255);
  EXPECT_EQ(a100.maxSharedBytes, 166912);
  BlockLimits hopper = BlockLimits::of(test::loadShipped("nvidia-h200"));
  EXPECT_EQ(hopper.registersPerBlock, 65536);
  EXPECT_EQ(hopper.maxSharedBytes, 232448);
  // The register file is read from the description.
  BlockLimits half = BlockLimits::of(
      test::editedShipped("nvidia-h200", [](nlohmann::json &doc) {
        doc["target_options"]["registers_per_sm"] = 32768;
        doc["target_options"].erase("max_shared_bytes_per_block");
      }));
  EXPECT_EQ(half.registersPerBlock, 32768);
  EXPECT_EQ(maxRegistersPerThread(512, half), 64);
  // Without a per-block share, the whole scratchpad of an SM.
  EXPECT_EQ(half.maxSharedBytes, 233472);
}

TEST(LaunchLegality, AllocatesPerWarp) {
  EXPECT_EQ(allocatedRegisters(512, 128), 65536);
  EXPECT_EQ(allocatedRegisters(512, 168), 86016);
  // 255 registers are allocated as 256; 33 threads as 4 warps.
  EXPECT_EQ(allocatedRegisters(256, 255), 65536);
  EXPECT_EQ(allocatedRegisters(33, 100), 4 * 3328);
}

TEST(LaunchLegality, LegalLaunches) {
  EXPECT_EQ(check(plan("attention_kernel", 384, 65536)), "");
  EXPECT_EQ(check(plan("attention_kernel_0", 512, 232448)), "");
  EXPECT_EQ(check(plan("old_kernel", 1024, 0)), "");
}

TEST(LaunchLegality, TooManyRegisters) {
  EXPECT_EQ(check(plan("attention_kernel", 512, 0)),
            "nvidia: kernel 'attention_kernel': 512 threads x 168 registers "
            "= 86016 > 65536 registers per block");
  // 390 x 168 = 65520 would fit, but 13 warps are allocated as 16.
  EXPECT_EQ(check(plan("attention_kernel", 390, 0)),
            "nvidia: kernel 'attention_kernel': 390 threads x 168 registers "
            "= 86016 (16 warps x 5376, as allocated) > 65536 registers per "
            "block");
  EXPECT_EQ(check(plan("attention_kernel_0", 1024, 0)),
            "nvidia: kernel 'attention_kernel_0': 1024 threads x 128 "
            "registers = 131072 > 65536 registers per block");
}

TEST(LaunchLegality, TooMuchSharedMemory) {
  // 1024 bytes of static shared memory leave 231424 of the 232448.
  EXPECT_EQ(check(plan("attention_kernel", 128, 231424)), "");
  EXPECT_EQ(check(plan("attention_kernel", 128, 231425)),
            "nvidia: kernel 'attention_kernel': 1024 bytes of static + "
            "231425 bytes of dynamic shared memory = 232449 > 232448 bytes "
            "per block");
}

TEST(LaunchLegality, TooManyThreads) {
  EXPECT_EQ(check(plan("old_kernel", 2048, 0)),
            "nvidia: kernel 'old_kernel': 2048 threads > 1024 threads per "
            "block");
  // A description may allow fewer; it cannot allow more than 1024.
  BlockLimits small = h200();
  small.maxThreads = 512;
  EXPECT_EQ(check(plan("old_kernel", 1024, 0), small),
            "nvidia: kernel 'old_kernel': 1024 threads > 512 threads per "
            "block");
  BlockLimits large = h200();
  large.maxThreads = 4096;
  large.registersPerBlock = 1 << 20;
  EXPECT_NE(check(plan("old_kernel", 2048, 0), large), "");
  FunctionPlan deep = plan("old_kernel", 1, 0);
  deep.steps[0].block = {1, 1, 128};
  EXPECT_NE(check(deep), "");
}

TEST(LaunchLegality, UnknownKernel) {
  EXPECT_EQ(check(plan("missing_kernel", 32, 0)),
            "nvidia: kernel 'missing_kernel' of function 'attention' is not "
            "in ptxas's resource report");
}

} // namespace
