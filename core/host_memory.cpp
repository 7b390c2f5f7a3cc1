#include "core/host_memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace saga {

namespace {
std::size_t machine_available();
}

void parallel_memcpy(void* dst, const void* src, std::size_t bytes) {
  constexpr std::size_t kPiece = std::size_t(1) << 18;  // 256 KB a task
  const std::int64_t pieces = static_cast<std::int64_t>((bytes + kPiece - 1) / kPiece);
  char* d = static_cast<char*>(dst);
  const char* s = static_cast<const char*>(src);
#pragma omp parallel for schedule(static) if (pieces > 1)
  for (std::int64_t p = 0; p < pieces; ++p) {
    const std::size_t at = static_cast<std::size_t>(p) * kPiece;
    std::memcpy(d + at, s + at, std::min(kPiece, bytes - at));
  }
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
