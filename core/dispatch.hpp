#pragma once
// SAGA_DEVICE_CALL(expr): evaluates a call into the CUDA backend, or throws a
// clear UnavailableError in a build without CUDA. Used by the dispatch functions
// that pick the host or the CUDA kernel from where the data lives.
#include "core/error.hpp"

#ifdef SAGA_HAVE_CUDA
#define SAGA_DEVICE_CALL(expr) expr
#else
#define SAGA_DEVICE_CALL(expr) \
  throw ::saga::UnavailableError("device data given to a build without the CUDA backend")
#endif
