#pragma once
// Host memory a step may still take (MemAvailable of /proc/meminfo, else the
// free pages): readers compare what a declared size would need against it and
// fail with a message before allocating, instead of being killed.
#include <cstddef>

namespace saga {
std::size_t available_host_memory();
// memcpy of a large block by the host's threads (OpenMP; one thread reads
// about 6 GB/s, a socket several times that): the host side of the staged
// host-device copies (core/device_cuda.cu).
void parallel_memcpy(void* dst, const void* src, std::size_t bytes);
}  // namespace saga
