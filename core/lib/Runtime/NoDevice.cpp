//===- NoDevice.cpp - The error of a machine without the device -----------===//
#include "strata/Runtime/NoDevice.h"

char strata::runtime::NoDeviceError::ID = 0;
