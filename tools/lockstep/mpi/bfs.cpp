// `mpirun -np P lockstep bfs (--rmat SCALE | GRAPH) --distributed [--sources K | --source V]
// [--validate] [--algorithm auto|top-down|bottom-up]`: Graph500 over the ranks, one device each
// (lockstep::mpi::DistributedBfs). R-MAT is drawn on every rank (each keeps its rows); a file is
// read on rank 0 and scattered. Rank 0 prints a head line (graph_s: the graph read or drawn and
// built, the slowest rank), a line per search (ms: the slowest rank, from a barrier; exchange_ms:
// the largest per-rank time in MPI and its copies), after the first one `timeline level=` lines
// (its levels: direction, frontier, slowest rank's ms and exchange_ms, pairs sent, ranks whose
// top-down expand was load-balanced: lb_ranks) and last the
// summary: Graph500's harmonic mean
// of the per-search TEPS (gteps) with median, min and max, each undirected edge of the traversed
// component once, as `lockstep bfs` counts them.
#include <algorithm>
#include <chrono>
#include <iostream>

#include "distributed.hpp"
#include "mpi/driver.hpp"
#include "report.hpp"

namespace lockstep::cli {
namespace {

mpi::DistributedGraph load(MPI_Comm comm, const po::variables_map& vm) {
  if (vm.count("rmat"))
    return mpi::rmat_graph(comm, vm["rmat"].as<int>(), vm["edge-factor"].as<int>(),
                           uint64_t(vm["seed"].as<long long>()));
  CsrGraph whole;
  mpi::collective(comm, [&] {
    if (mpi::rank(comm) != 0) return;
    const std::string file = vm["graph"].as<std::string>();
    GraphFormat f = parse_graph_format(vm["format"].as<std::string>());
    Graph g = read_graph(file, f, vm.count("undirected") > 0);
    if (g.n == 0) throw input_error(file + ": the graph is empty (no vertices, no edges)");
    whole = CsrGraph(g);
  });
  return mpi::scatter_graph(comm, whole);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t m = v.size();
  return m == 0 ? 0 : m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
}

// The first search's levels on rank 0, one line each: the global frontier, the slowest rank's
// level time and time in MPI and copies, the most pairs a rank sent (top-down) and the ranks
// whose pairs went through shared memory; bitmap=1: a level whose discoveries went as bitmaps;
// gathered=1: a tiny level (counts and pairs in one MPI_Allgather).
void timeline(const mpi::DistributedBfsResult& r, MPI_Comm comm, bool one_device) {
  for (const mpi::DistributedBfsStep& st : r.steps) {
    double t[2] = {st.ms, st.exchange_ms};
    int64_t sent = st.sent, sums[2] = {st.balanced, st.shared};
    MPI_Allreduce(MPI_IN_PLACE, t, 2, MPI_DOUBLE, MPI_MAX, comm);
    MPI_Allreduce(MPI_IN_PLACE, &sent, 1, MPI_INT64_T, MPI_MAX, comm);
    MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_INT64_T, MPI_SUM, comm);
    Report line;
    line.add("timeline level", st.level).add("direction", mpi::to_string(st.direction));
    line.add("frontier", st.frontier).add("edges", st.edges).add("ms", t[0]);
    line.add("exchange_ms", t[1]).add("sent_max", sent).add("lb_ranks", sums[0]);
    line.add("shm_ranks", sums[1]).add("bitmap", int(st.bitmap)).add("gathered", int(st.gathered));
    line.add("one_device", int(one_device));
    if (mpi::rank(comm) == 0) std::cout << line.str() << "\n";
  }
}

int run(const po::variables_map& vm, const mpi::DistributedBfsOptions& o, MPI_Comm comm) {
  const int me = mpi::rank(comm);
  auto ctx = rank_context<float>(comm, vm);
  MPI_Barrier(comm);
  const auto t0 = std::chrono::steady_clock::now();
  const mpi::DistributedGraph g = load(comm, vm);
  double graph_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  MPI_Allreduce(MPI_IN_PLACE, &graph_s, 1, MPI_DOUBLE, MPI_MAX, comm);
  mpi::DistributedBfs bfs(*ctx, g, o);
  Report head;
  head.add("device", ctx->info().name).add("ranks", mpi::size(comm)).add("n", g.n);
  head.add("edges", g.global_entries).add("symmetric", int(g.symmetric)).add("graph_s", graph_s);
  head.add("shared_peers", bfs.shared_peers());  // bottom-up words through shared memory
  if (me == 0) std::cout << head.str() << "\n";

  std::vector<int32_t> sources{0};
  if (vm.count("source")) {
    sources = {vm["source"].as<int>()};
  } else if (!vm["sources"].defaulted()) {
    sources =
        mpi::bfs_sources(bfs, g, vm["sources"].as<int>(), uint64_t(vm["seed"].as<long long>()) + 7);
    Report line;
    line.add("sources", sources.size()).add("picked_from", "component-of-largest-degree");
    if (me == 0) std::cout << line.str() << "\n";
  }
  for (int w = 0; w < vm["warmup"].as<int>(); ++w) bfs.run(sources[0]);
  const bool validate = vm.count("validate") > 0;
  std::vector<double> teps;
  double sum_ms = 0;
  mpi::DistributedBfsResult first;
  for (int32_t s : sources)
    for (int rep = 0; rep < vm["repeat"].as<int>(); ++rep) {
      mpi::DistributedBfsResult r = bfs.run(s);
      if (validate) {
        const std::string why = mpi::validate_bfs(g, s, r);
        if (!why.empty())
          throw mpi::collective_error(
              1, "validation failed (source " + std::to_string(s) + "): " + why);
      }
      double exchange = 0;
      for (const auto& st : r.steps) exchange += st.exchange_ms;
      MPI_Allreduce(MPI_IN_PLACE, &exchange, 1, MPI_DOUBLE, MPI_MAX, comm);
      Report line;
      line.add("source", s).add("reached", r.reached).add("max_level", r.max_level);
      line.add("ms", r.ms).add("exchange_ms", exchange).add("gteps", r.gteps());
      line.add("top_down_levels", r.levels_run(mpi::Direction::top_down))
          .add("bottom_up_levels", r.levels_run(mpi::Direction::bottom_up));
      if (me == 0) std::cout << line.str() << "\n";
      if (teps.empty()) timeline(r, comm, bfs.one_device());
      teps.push_back(r.gteps());
      sum_ms += r.ms;
      if (teps.size() == 1) first = std::move(r);
    }
  double inv = 0;
  for (double x : teps) inv += x > 0 ? 1 / x : 0;
  Report kv;
  kv.add("reached", first.reached).add("max_level", first.max_level);
  kv.add("ms", sum_ms / double(teps.size()));
  kv.add("gteps", inv > 0 ? double(teps.size()) / inv : 0).add("gteps_median", median(teps));
  kv.add("gteps_min", *std::min_element(teps.begin(), teps.end()))
      .add("gteps_max", *std::max_element(teps.begin(), teps.end()));
  kv.add("sources", sources.size())
      .add("runs", teps.size())
      .add("algorithm", mpi::to_string(o.direction));
  kv.add("traversed_edges", first.traversed_edges);
  if (validate) kv.add("valid", 1);
  kv.add("ranks", mpi::size(comm));
  if (me == 0) std::cout << kv.str() << "\n";
  return 0;
}

}  // namespace

int distributed_bfs(const po::variables_map& vm) {
  for (const char* o : {"levels-out", "steps-out", "json", "grid"})
    if (vm.count(o))
      throw usage_error(std::string("--") + o + " is not available with --distributed");
  if (vm.count("graph") + vm.count("rmat") != 1)
    throw usage_error("--distributed needs exactly one of GRAPH or --rmat SCALE");
  mpi::DistributedBfsOptions o;  // usage errors before MPI starts
  try {
    o.direction = mpi::parse_direction(vm["algorithm"].as<std::string>());
  } catch (const input_error& e) {
    throw usage_error(std::string("--algorithm with --distributed: ") + e.what());
  }
  o.local_size = vm["local-size"].as<int>(), o.wave_width = vm["wave-width"].as<int>();
  o.alpha = vm["alpha"].as<double>(), o.beta = vm["beta"].as<double>();
  o.gamma = vm["gamma"].as<double>();
  o.shared_capacity = vm["shared-capacity"].as<long long>();
  o.bitmap_discoveries = vm["bitmap-discoveries"].as<int>() != 0;
  o.tiny_edges = vm["tiny-edges"].as<long long>();
  return run_distributed("bfs", [&](MPI_Comm comm) { return run(vm, o, comm); });
}

}  // namespace lockstep::cli
