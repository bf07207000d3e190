// The distributed BFS's Graph500 validation (each rank checks its own vertices and rows against
// the levels gathered on every rank, OpenMP over its vertices), the search keys drawn from the
// component of the largest-degree vertex, and gathering the levels on one rank.
#include <algorithm>
#include <map>
#include <random>

#include "lockstep/mpi/bfs.hpp"

namespace lockstep::mpi {
namespace {

std::vector<int> block_counts(const DistributedGraph& g) {
  std::vector<int> c;
  for (size_t q = 0; q + 1 < g.block.size(); ++q) c.push_back(g.block[q + 1] - g.block[q]);
  return c;
}

// The message of the lowest rank with a non-empty `why`, on every rank ("" when none).
std::string first_message(MPI_Comm comm, const std::string& why) {
  const int p = size(comm);
  int first = why.empty() ? p : rank(comm);
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == p) return "";
  std::string text = why;
  int len = int(text.size());
  MPI_Bcast(&len, 1, MPI_INT, first, comm);
  text.resize(size_t(len));
  MPI_Bcast(text.data(), len, MPI_CHAR, first, comm);
  return text;
}

}  // namespace

std::vector<int32_t> gather_levels(const DistributedGraph& g, const std::vector<int32_t>& local,
                                   int root) {
  const std::vector<int> counts = block_counts(g);
  std::vector<int> displs(g.block.begin(), g.block.end() - 1);
  std::vector<int32_t> all(rank(g.comm) == root ? size_t(g.n) : 0);
  MPI_Gatherv(local.data(), g.count, MPI_INT32_T, all.data(), counts.data(), displs.data(),
              MPI_INT32_T, root, g.comm);
  return all;
}

std::string validate_bfs(const DistributedGraph& g, int32_t source, const DistributedBfsResult& r) {
  const std::vector<int> counts = block_counts(g);
  std::vector<int> displs(g.block.begin(), g.block.end() - 1);
  std::vector<int32_t> all(size_t(g.n));
  MPI_Allgatherv(r.levels.data(), g.count, MPI_INT32_T, all.data(), counts.data(), displs.data(),
                 MPI_INT32_T, g.comm);
  const std::vector<int64_t>& in_off = g.symmetric ? g.offsets : g.in_offsets;
  const std::vector<int32_t>& in_adj = g.symmetric ? g.adj : g.in_adj;
  // "" or what is wrong at local vertex v (the first edge that breaks a rule).
  auto check = [&](int32_t v) -> std::string {
    const int32_t gv = g.first + v, lv = r.levels[size_t(v)], pv = r.parents[size_t(v)];
    const std::string at = "vertex " + std::to_string(gv) + " (level " + std::to_string(lv) +
                           ", parent " + std::to_string(pv) + ")";
    if (gv == source) {
      if (lv != 0 || pv != source)
        return "the source " + at + " is not at level 0 as its own parent";
    } else if (lv < 0) {
      if (lv != -1 || pv != -1) return "unreached " + at + " has a level or parent";
    } else {
      if (pv < 0 || pv >= g.n || all[size_t(pv)] != lv - 1)
        return at + ": the parent is not one level up";
      const int32_t *b = in_adj.data() + in_off[size_t(v)],
                    *e = in_adj.data() + in_off[size_t(v) + 1];
      if (!std::binary_search(b, e, pv)) return at + ": no edge from the parent";
    }
    if (lv >= 0)
      for (int64_t k = g.offsets[size_t(v)]; k < g.offsets[size_t(v) + 1]; ++k) {
        const int32_t w = g.adj[size_t(k)], lw = all[size_t(w)];
        if (lw < 0 || lw > lv + 1)
          return "edge " + std::to_string(gv) + " -> " + std::to_string(w) + " spans levels " +
                 std::to_string(lv) + " -> " + std::to_string(lw);
      }
    return "";
  };
  int32_t bad = g.count;
#pragma omp parallel for reduction(min : bad) schedule(dynamic, 4096)
  for (int32_t v = 0; v < g.count; ++v)
    if (v < bad && !check(v).empty()) bad = v;
  return first_message(g.comm, bad < g.count ? check(bad) : "");
}

std::vector<int32_t> bfs_sources(DistributedBfs& bfs, const DistributedGraph& g, int k,
                                 uint64_t seed) {
  struct {
    int degree, vertex;
  } hub{-1, 0};
  for (int32_t v = 0; v < g.count; ++v)
    if (g.degree(v) > hub.degree) hub = {int(g.degree(v)), g.first + v};
  MPI_Allreduce(MPI_IN_PLACE, &hub, 1, MPI_2INT, MPI_MAXLOC, g.comm);
  if (g.n == 0) return {};
  const DistributedBfsResult r = bfs.run(hub.vertex);
  auto candidate = [&](int32_t v) { return r.levels[size_t(v)] >= 0 && g.degree(v) > 0; };
  int64_t mine = 0;
  for (int32_t v = 0; v < g.count; ++v) mine += candidate(v);
  std::vector<int64_t> before(size_t(size(g.comm)));
  MPI_Allgather(&mine, 1, MPI_INT64_T, before.data(), 1, MPI_INT64_T, g.comm);
  int64_t total = 0, start = 0;
  for (int q = 0; q < size(g.comm); ++q) {
    if (q == rank(g.comm)) start = total;
    total += before[size_t(q)];
  }
  // The same draws on every rank and as the one-GPU bfs_sources (src/bfs/sources.cpp) over the
  // same candidates in vertex order: a partial Fisher-Yates shuffle of the indices 0..total-1,
  // its swaps kept in a map (k entries, not total); all of them (k >= total) are gathered and
  // shuffled as the one-GPU picker shuffles them.
  std::mt19937_64 rng(seed);
  std::vector<int64_t> picks;
  if (k >= total) {
    std::vector<int32_t> mine_v;
    for (int32_t v = 0; v < g.count; ++v)
      if (candidate(v)) mine_v.push_back(g.first + v);
    std::vector<int> counts(size_t(size(g.comm))), displs(size_t(size(g.comm)), 0);
    for (int q = 0; q < size(g.comm); ++q) counts[size_t(q)] = int(before[size_t(q)]);
    for (size_t q = 1; q < counts.size(); ++q) displs[q] = displs[q - 1] + counts[q - 1];
    std::vector<int32_t> every(static_cast<size_t>(total));
    MPI_Allgatherv(mine_v.data(), int(mine_v.size()), MPI_INT32_T, every.data(), counts.data(),
                   displs.data(), MPI_INT32_T, g.comm);
    std::shuffle(every.begin(), every.end(), rng);
    return every;
  }
  std::map<int64_t, int64_t> moved;  // index -> the index now at that place
  auto at = [&](int64_t i) {
    auto it = moved.find(i);
    return it == moved.end() ? i : it->second;
  };
  for (int64_t i = 0; i < int64_t(k); ++i) {
    const int64_t j = i + int64_t(rng() % uint64_t(total - i));
    const int64_t vi = at(i), vj = at(j);
    moved[i] = vj, moved[j] = vi;
    picks.push_back(vj);
  }
  std::vector<int64_t> order(picks.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = int64_t(i);
  std::sort(order.begin(), order.end(),
            [&](int64_t a, int64_t b) { return picks[size_t(a)] < picks[size_t(b)]; });
  std::vector<int32_t> sources(picks.size(), -1);
  int64_t idx = start;
  size_t o = 0;
  while (o < order.size() && picks[size_t(order[o])] < start) ++o;
  for (int32_t v = 0; v < g.count && o < order.size(); ++v)
    if (candidate(v)) {
      while (o < order.size() && picks[size_t(order[o])] == idx)
        sources[size_t(order[o++])] = g.first + v;
      ++idx;
    }
  MPI_Allreduce(MPI_IN_PLACE, sources.data(), int(sources.size()), MPI_INT32_T, MPI_MAX, g.comm);
  return sources;
}

}  // namespace lockstep::mpi
