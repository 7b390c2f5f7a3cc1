#include "core/host_memory.hpp"

#include <unistd.h>

#include <fstream>
#include <string>

namespace saga {

std::size_t available_host_memory() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::size_t kb = 0;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : ~std::size_t(0);
}

}  // namespace saga
