// doctest's main for the lockstep suite. A listener counts the test cases that reported
// themselves skipped (test::skip in support.hpp: skip() called, nothing checked); the run prints
// how many, and exits 77 when it passed and every case it ran was skipped (a single case run by
// CTest: SKIP_RETURN_CODE 77 shows it as "Skipped", not "Passed").
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <iostream>
#include <string>
#include <vector>

#include "support.hpp"

namespace {

int cases_run = 0;
std::vector<std::string> skipped_cases;

struct SkipListener : doctest::IReporter {
  explicit SkipListener(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData& tc) override {
    name_ = tc.m_name;
    lockstep::test::skip_called() = false;
  }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats& st) override {
    ++cases_run;
    if (lockstep::test::skip_called() && st.numAssertsCurrentTest == 0)
      skipped_cases.push_back(name_);
  }
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}

 private:
  std::string name_;
};

}  // namespace

REGISTER_LISTENER("lockstep_skips", 1, SkipListener);

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int result = context.run();
  if (context.shouldExit()) return result;
  if (!skipped_cases.empty()) {
    std::cout << "lockstep_tests: " << skipped_cases.size() << " of " << cases_run
              << " test cases skipped (see their \"skipped:\" lines):";
    for (const auto& n : skipped_cases) std::cout << "\n  " << n;
    std::cout << std::endl;
  }
  return result == 0 && cases_run > 0 && int(skipped_cases.size()) == cases_run ? 77 : result;
}
