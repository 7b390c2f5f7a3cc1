#pragma once
// Files named by users: opened with a message that says what is wrong (no such
// file, a folder, no permission), and output paths checked before the work
// that will write them starts.
#include <fstream>
#include <string>

namespace saga {

// `path` opened for reading as `what` ("config file", "Matrix Market file"...);
// InputError when it does not exist, is a folder or cannot be read.
std::ifstream open_input_file(const std::string& path, const char* what);

// InputError unless `path` could be written as `what` ("report"...): its folder
// exists and is writable, and the path is not a folder. Creates nothing.
void check_output_path(const std::string& path, const char* what);

// `path` as written in a config: absolute or empty as it is, relative to the
// config's `directory` otherwise.
std::string resolve_config_path(const std::string& directory, const std::string& path);

}  // namespace saga
