// OneRankBfs: the rank's rows as a CsrGraph (64-bit offsets narrowed; the graph is symmetric or
// carries its in-rows) and lockstep::Bfs on them; its levels, parents and steps as a
// DistributedBfsResult (every step's exchange 0; lb / multi / queue / single / cpu steps count as
// top-down, bottom-up as bottom-up).
#include "mpi/bfs_one.hpp"

#include <climits>

namespace lockstep::mpi {
namespace {
std::vector<int32_t> narrow(const std::vector<int64_t>& v) { return {v.begin(), v.end()}; }
}  // namespace

bool OneRankBfs::fits(const DistributedGraph& g, const DistributedBfsOptions& o) {
  const int64_t entries = int64_t(g.adj.size()) + int64_t(g.in_adj.size());
  return size(g.comm) == 1 && o.direction == Direction::automatic &&
         o.expand == Expand::automatic && g.n > 0 && int64_t(g.n) + entries < int64_t(INT32_MAX) &&
         o.remote_capacity == 0;
}

OneRankBfs::OneRankBfs(Context& ctx, const DistributedGraph& g, const DistributedBfsOptions& o) {
  whole_.n = g.n, whole_.symmetric = g.symmetric;
  whole_.offsets = narrow(g.offsets), whole_.adj = g.adj;
  if (!g.symmetric) whole_.rev_offsets = narrow(g.in_offsets), whole_.rev_adj = g.in_adj;
  BfsOptions bo;
  bo.local_size = o.local_size, bo.wave_width = o.wave_width;
  bo.rule.alpha = o.alpha, bo.rule.beta = o.beta;
  bfs_ = std::make_unique<Bfs>(ctx, whole_, bo);
}
OneRankBfs::~OneRankBfs() = default;

DistributedBfsResult OneRankBfs::run(int32_t source) {
  BfsResult b = bfs_->run(source);
  DistributedBfsResult r;
  r.levels = std::move(b.levels), r.parents = std::move(b.parents);
  for (const BfsStep& s : b.steps) {
    DistributedBfsStep st;
    st.level = s.level, st.frontier = s.frontier, st.edges = s.edges, st.ms = s.ms;
    st.direction =
        s.algorithm == BfsAlgorithm::bottom_up ? Direction::bottom_up : Direction::top_down;
    r.steps.push_back(st);
  }
  r.ms = b.ms, r.reached = b.reached, r.traversed_edges = b.traversed_edges;
  r.max_level = b.max_level;
  return r;
}

}  // namespace lockstep::mpi
