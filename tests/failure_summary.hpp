#pragma once
// A doctest listener that repeats every failure in a few lines at the end of
// the run: the test case, file:line, the expression with its values, the
// CAPTURE / INFO values in scope, and the random seeds the test case printed
// (tests/helpers.hpp, fresh_seed). The
// suites print a header and the seeds of every test case, so a failure sits in
// the middle of thousands of lines; CI logs keep only their head and tail, and
// a flaky failure could not be read there (the forty-ninth session). Included
// once by each test runner (test_main.cpp, gpu_main.cpp, gmsh_main.cpp), after
// DOCTEST_CONFIG_IMPLEMENT.
#include <doctest/doctest.h>

#include <mutex>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace saga::test {

class FailureSummary final : public doctest::IReporter {
 public:
  explicit FailureSummary(const doctest::ContextOptions& options) : out_(*options.cout) {}

  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (failures_.empty()) return;
    out_ << "===============================================================================\n"
         << "[saga] " << failures_.size() << " failure" << (failures_.size() == 1 ? "" : "s")
         << " (repeated here, at the end of the log):\n";
    const std::size_t shown = failures_.size() < max_shown ? failures_.size() : max_shown;
    for (std::size_t i = 0; i < shown; ++i) out_ << failures_[i] << '\n';
    if (shown < failures_.size()) out_ << "  ... and " << failures_.size() - shown << " more above\n";
  }
  void test_case_start(const doctest::TestCaseData& tc) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    test_case_ = &tc;
    seeds_.clear();
  }
  void test_case_reenter(const doctest::TestCaseData&) override {}  // subcases: keep the seeds
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException& e) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    add(std::string(e.is_crash ? "crashed: " : "threw: ") + e.error_string.c_str());
  }
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  // Called for failed assertions only (unless doctest runs with --success).
  void log_assert(const doctest::AssertData& a) override {
    if (!a.m_failed) return;
    const std::lock_guard<std::mutex> lock(mutex_);
    std::string what = location(a.m_file, a.m_line) + ": " + a.m_expr;
    if (a.m_decomp.size() > 0) what += "  values: " + std::string(a.m_decomp.c_str());
    if (a.m_threw) what += "  threw: " + std::string(a.m_exception.c_str());
    // The CAPTURE / INFO values in scope (e.g. which method or stencil).
    const int n = get_num_active_contexts();
    const doctest::IContextScope* const* contexts = get_active_contexts();
    for (int i = 0; i < n; ++i) {
      std::ostringstream context;
      contexts[i]->stringify(&context);
      what += "  " + context.str();
    }
    add(what);
  }
  void log_message(const doctest::MessageData& m) override {
    const std::string text = m.m_string.c_str();
    if (text.find("seed") == std::string::npos) return;
    const std::lock_guard<std::mutex> lock(mutex_);
    seeds_.push_back(text);
  }
  void test_case_skipped(const doctest::TestCaseData&) override {}

 private:
  static constexpr std::size_t max_shown = 20;

  // The path from tests/ on (the build's absolute source path says nothing).
  static std::string location(const char* file, int line) {
    std::string f = file ? file : "?";
    const auto at = f.rfind("tests/");
    if (at != std::string::npos) f = f.substr(at);
    return f + ":" + std::to_string(line);
  }

  void add(const std::string& what) {
    std::string line = "  ";
    if (test_case_) line += std::string("\"") + test_case_->m_name + "\" ";
    line += what;
    for (const std::string& s : seeds_) line += "  [" + s + "]";
    failures_.push_back(line);
  }

  std::ostream& out_;
  std::mutex mutex_;
  const doctest::TestCaseData* test_case_ = nullptr;
  std::vector<std::string> seeds_;     // this test case's seed messages
  std::vector<std::string> failures_;  // one line each
};

}  // namespace saga::test

REGISTER_LISTENER("saga_failure_summary", 1, saga::test::FailureSummary);
