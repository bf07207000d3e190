// BFS on many-core hosts: when automatic's rule sends the whole graph to the CPU path,
// a Bfs engine races that path once against the device's and keeps the faster one. Whichever
// wins (timing decides, so the tests accept either): every search gives the CPU BFS's levels and
// a valid tree, the first search returns the CPU path's result, the decision is reported with
// both times and every later search takes the decided path; without the race (race_cpu_graph
// false, or the one-shot bfs()) the rule alone holds: the CPU path, the device never used.
#include <fstream>

#include "lockstep/bfs.hpp"
#include "lockstep/generators.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {

// automatic with the whole-graph CPU rule on for every graph (the test suite's local size 64:
// the device path's programs are the other BFS tests' builds)
BfsOptions cpu_graph_options(bool race) {
  BfsOptions o;
  o.local_size = 64;
  o.rule.cpu_graph_edges = int64_t(1) << 62;
  o.race_cpu_graph = race;
  return o;
}

void check_levels(const CsrGraph& g, int32_t source, const BfsResult& r) {
  CAPTURE(source);
  CHECK(r.levels == bfs_cpu(g, source).levels);
  CHECK(validate_bfs(g, source, r.levels, r.parents) == "");
}

}  // namespace

TEST_CASE("bfs: an engine races auto's whole-graph CPU path against the device once" *
          doctest::test_suite("portable")) {
  Context& ctx = test::context();
  const CsrGraph g = rmat_graph(10, 8, 5);
  Bfs many(ctx, g, cpu_graph_options(true));
  CHECK(many.cpu_graph().candidate);
  CHECK_FALSE(many.cpu_graph().raced);

  const BfsResult first = many.run(1);
  check_levels(g, 1, first);
  CHECK(first.cpu_graph);  // the rule's choice is the first search's result
  const BfsCpuGraph decided = many.cpu_graph();
  CHECK(decided.raced);
  CHECK(decided.cpu_ms > 0);
  CHECK(decided.device_ms > 0);
  CHECK(decided.cpu == (decided.cpu_ms <= decided.device_ms));
  for (int32_t source : {5, 700, 1023, 1}) {
    const BfsResult r = many.run(source);
    check_levels(g, source, r);
    CHECK(r.cpu_graph == decided.cpu);  // the same path for every later search
    CHECK(many.cpu_graph().cpu == decided.cpu);
    CHECK(many.cpu_graph().cpu_ms == decided.cpu_ms);  // measured once
  }

  // The rule alone: the CPU path, nothing raced, for an engine and for one search.
  Bfs rule_only(ctx, g, cpu_graph_options(false));
  for (int32_t source : {5, 1}) {
    const BfsResult r = rule_only.run(source);
    check_levels(g, source, r);
    CHECK(r.cpu_graph);
    CHECK(r.levels_run(BfsAlgorithm::cpu) == r.max_level + 1);
  }
  CHECK(rule_only.cpu_graph().candidate);
  CHECK(rule_only.cpu_graph().cpu);
  CHECK_FALSE(rule_only.cpu_graph().raced);
  const BfsResult once = bfs(ctx, g, 700, cpu_graph_options(true));  // one search: never raced
  check_levels(g, 700, once);
  CHECK(once.cpu_graph);

  // No candidate (the rule off): the device path, and nothing to report.
  BfsOptions device = cpu_graph_options(true);
  device.rule.cpu_graph_edges = -1;
  Bfs on_device(ctx, g, device);
  const BfsResult r = on_device.run(5);
  check_levels(g, 5, r);
  CHECK_FALSE(r.cpu_graph);
  CHECK_FALSE(on_device.cpu_graph().candidate);
  CHECK_FALSE(on_device.cpu_graph().raced);
}

TEST_CASE("bfs cli: the summary reports auto's whole-graph CPU race") {
  test::TempDir dir;
  const std::string graph = (dir.path / "g.txt").string();
  std::ofstream(graph) << "0 1\n1 2\n2 3\n3 0\n";
  std::string out;
  REQUIRE_MESSAGE(test::run_cli("bfs " + graph +
                                    " --undirected --sources 2 --validate "
                                    "--cpu-graph-edges 1000000 --algorithm auto",
                                out) == 0,
                  out);
  const auto kv = test::last_line(out);
  REQUIRE(kv.count("cpu_graph"));
  CHECK((kv.at("cpu_graph") == "cpu" || kv.at("cpu_graph") == "device"));
  CHECK(std::stod(kv.at("cpu_graph_ms")) > 0);
  CHECK(std::stod(kv.at("device_graph_ms")) > 0);
  REQUIRE(test::run_cli("bfs " + graph + " --undirected --algorithm auto --cpu-graph-edges -1",
                        out) == 0);
  CHECK(out.find("cpu_graph=") == std::string::npos);  // no candidate, nothing to report
}
