// The skip listener of the test binaries (tests/main.cpp, tests/mpi/main.cpp; include it in one
// file of a binary): counts the test cases that reported themselves skipped (test::skip in
// support.hpp: skip() called, nothing checked), so a run can print them and exit 77 when every
// case it ran was skipped (CTest's SKIP_RETURN_CODE then shows "Skipped", not "Passed").
#pragma once
#include <doctest/doctest.h>

#include <iostream>
#include <string>
#include <vector>

#include "support.hpp"

namespace lockstep::test {

struct SkipCounts {
  int cases_run = 0;
  std::vector<std::string> skipped;
  /// Prints the skipped cases under `binary`'s name; whether every case run was skipped.
  bool report(const char* binary) const {
    if (!skipped.empty()) {
      std::cout << binary << ": " << skipped.size() << " of " << cases_run
                << " test cases skipped (see their \"skipped:\" lines):";
      for (const auto& n : skipped) std::cout << "\n  " << n;
      std::cout << std::endl;
    }
    return cases_run > 0 && int(skipped.size()) == cases_run;
  }
};

inline SkipCounts& skip_counts() {
  static SkipCounts c;
  return c;
}

struct SkipListener : doctest::IReporter {
  explicit SkipListener(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData& tc) override {
    name_ = tc.m_name;
    skip_called() = false;
  }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats& st) override {
    ++skip_counts().cases_run;
    if (skip_called() && st.numAssertsCurrentTest == 0) skip_counts().skipped.push_back(name_);
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

}  // namespace lockstep::test

REGISTER_LISTENER("lockstep_skips", 1, lockstep::test::SkipListener);
