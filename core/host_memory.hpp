#pragma once
// Host memory a step may still take (MemAvailable of /proc/meminfo, else the
// free pages): readers compare what a declared size would need against it and
// fail with a message before allocating, instead of being killed.
#include <cstddef>

namespace saga {
std::size_t available_host_memory();
}  // namespace saga
