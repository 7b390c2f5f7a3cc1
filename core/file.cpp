#include "core/file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/error.hpp"

namespace saga {

namespace fs = std::filesystem;

std::ifstream open_input_file(const std::string& path, const char* what) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (path.empty()) throw InputError(fmt::format("no {} given (an empty path)", what));
  if (!fs::exists(st)) throw InputError(fmt::format("cannot open {} '{}': no such file", what, path));
  if (fs::is_directory(st)) throw InputError(fmt::format("cannot open {} '{}': it is a folder, not a file", what, path));
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("cannot open {} '{}': {}", what, path, std::strerror(errno)));
  return in;
}

void check_output_path(const std::string& path, const char* what) {
  if (path.empty()) throw InputError(fmt::format("no path given for the {}", what));
  std::error_code ec;
  if (fs::is_directory(path, ec))
    throw InputError(fmt::format("cannot write the {} to '{}': it is a folder", what, path));
  const fs::path parent = fs::path(path).parent_path();
  const std::string folder = parent.empty() ? "." : parent.string();
  if (!fs::is_directory(folder, ec))
    throw InputError(fmt::format("cannot write the {} to '{}': folder '{}' does not exist", what, path, folder));
  if (fs::exists(path, ec) ? ::access(path.c_str(), W_OK) != 0 : ::access(folder.c_str(), W_OK | X_OK) != 0)
    throw InputError(fmt::format("cannot write the {} to '{}': permission denied", what, path));
}

std::string resolve_config_path(const std::string& directory, const std::string& path) {
  if (path.empty() || fs::path(path).is_absolute()) return path;
  return (fs::path(directory) / path).string();
}

}  // namespace saga
