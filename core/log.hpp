#pragma once
// The library's messages (a level that did not coarsen, a singular coarse
// matrix, ...). They go to a sink the embedding code chooses; the default
// prints warnings to stderr and drops information. The `saga` application
// routes them to its logger. Keeps logging libraries out of libsaga's
// dependencies.
#include <string>

#include <fmt/format.h>

namespace saga {

enum class LogLevel { info, warning };
using LogSink = void (*)(LogLevel, const std::string&);
// Replaces the sink (nullptr restores the default); returns the previous one.
LogSink set_log_sink(LogSink sink);
void log_message(LogLevel level, const std::string& message);

template <class... A>
void log_info(fmt::format_string<A...> f, A&&... a) {
  log_message(LogLevel::info, fmt::format(f, std::forward<A>(a)...));
}
template <class... A>
void log_warning(fmt::format_string<A...> f, A&&... a) {
  log_message(LogLevel::warning, fmt::format(f, std::forward<A>(a)...));
}

}  // namespace saga
