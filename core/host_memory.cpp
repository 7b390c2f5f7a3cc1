#include "core/host_memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

namespace saga {

namespace {
std::size_t machine_available();
}

std::size_t available_host_memory() {
  // SAGA_HOST_MEMORY_LIMIT (bytes) caps it: tests and fuzzers run the size
  // checks against a budget of their own.
  std::size_t cap = ~std::size_t(0);
  if (const char* env = std::getenv("SAGA_HOST_MEMORY_LIMIT")) cap = std::strtoull(env, nullptr, 10);
  return std::min(cap, machine_available());
}

namespace {
std::size_t machine_available() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::size_t kb = 0;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : ~std::size_t(0);
}

}  // namespace

}  // namespace saga
