#include "core/log.hpp"

#include <atomic>
#include <cstdio>

namespace saga {

namespace {
void default_sink(LogLevel level, const std::string& msg) {
  if (level == LogLevel::warning) std::fprintf(stderr, "saga: warning: %s\n", msg.c_str());
}
std::atomic<LogSink> g_sink{&default_sink};
}  // namespace

LogSink set_log_sink(LogSink sink) { return g_sink.exchange(sink ? sink : &default_sink); }

void log_message(LogLevel level, const std::string& message) { g_sink.load()(level, message); }

}  // namespace saga
