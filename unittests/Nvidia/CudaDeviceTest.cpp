//===- CudaDeviceTest.cpp - The CUDA device without a driver --------------===//
//
// These machines have no GPU: creating the device must fail with
// NoDeviceError (strata-run's skip status), never crash, whether the driver
// library is missing or is not a CUDA driver.
//
//===----------------------------------------------------------------------===//
#include "CudaDevice.h"

#include "strata/HW/Description.h"
#include "strata/Runtime/NoDevice.h"

#include <gtest/gtest.h>

using namespace strata;

namespace {

hw::Description chip() {
  hw::Description d;
  d.name = "test-gpu";
  d.arch = "sm_80";
  return d;
}

TEST(CudaDevice, MissingDriverIsNoDevice) {
  auto device = nvidia::createCudaDevice(chip(), "/nonexistent/libcuda.so.1");
  ASSERT_FALSE(device);
  llvm::Error error = device.takeError();
  EXPECT_TRUE(error.isA<runtime::NoDeviceError>());
  std::string text = llvm::toString(std::move(error));
  EXPECT_NE(text.find("no NVIDIA driver"), std::string::npos) << text;
  EXPECT_NE(text.find("/nonexistent/libcuda.so.1"), std::string::npos);
}

TEST(CudaDevice, LibraryWithoutTheDriverApiIsNoDevice) {
  // A library that loads but has no cuInit.
  auto device = nvidia::createCudaDevice(chip(), "libm.so.6");
  ASSERT_FALSE(device);
  llvm::Error error = device.takeError();
  EXPECT_TRUE(error.isA<runtime::NoDeviceError>());
  std::string text = llvm::toString(std::move(error));
  EXPECT_NE(text.find("not a usable CUDA driver"), std::string::npos) << text;
}

TEST(CudaDevice, ExitStatusIsTheSkipConvention) {
  EXPECT_EQ(runtime::kNoDeviceExitCode, 77);
}

} // namespace
