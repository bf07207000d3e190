// Breadth-first search over MPI ranks, one device each (Graph500 style; Beamer, Asanovic and
// Patterson's direction-optimizing BFS in Beamer, Buluc, Asanovic and Patterson's 1D distributed
// form, "Distributed memory breadth-first search revisited", 2013).
//
//   lockstep::mpi::Session mpi;
//   lockstep::Context ctx(lockstep::mpi::select_rank_device(MPI_COMM_WORLD));
//   auto g = lockstep::mpi::rmat_graph(MPI_COMM_WORLD, 26, 16, 1);  // drawn on every rank
//   lockstep::mpi::DistributedBfs bfs(ctx, g);
//   auto r = bfs.run(source);               // r.levels / r.parents: this rank's vertices
//   std::string why = lockstep::mpi::validate_bfs(g, source, r);  // "" on every rank when valid
//
// The graph is split by vertex (1D): rank q owns the contiguous block [block[q], block[q+1]) of
// global ids (block starts are multiples of 32, so a rank's bitmap words are whole words of the
// global bitmap), chosen to balance adjacency entries. Each rank keeps its rows with global
// neighbour ids and 64-bit row offsets (a rank may hold more than 2^31 entries), plus the rows of
// the in-neighbours when the graph is directed. Per level, with the global frontier counts:
//   top-down   each rank expands its frontier on its device (one wave a vertex, or, for hubs,
//              the one-GPU engine's load-balanced merge-path tiles): neighbours it owns are
//              claimed there, the others leave as (vertex, parent) pairs, each remote
//              vertex at most once a search (a global bitmap of those sent or seen in a gathered
//              frontier), bucketed by owner on the device and sent with MPI_Alltoallv through
//              pinned host buffers (the counts first, while the device buckets); the owners
//              claim what they receive;
//   bottom-up  each rank's frontier bitmap words are gathered on every rank (shared memory
//              between ranks of one host, MPI messages otherwise; LOCKSTEP_MPI_HALO), and
//              every rank scans its own unvisited vertices' in-neighbours against the whole
//              bitmap on its device (cl/bfs_bitmap.cl's bfs_bu_step, the one-GPU kernel);
//   the switch Beamer's: bottom-up when the frontier's edges exceed the unvisited edges / alpha,
//              back to top-down when the frontier falls below n / beta (all counts global);
//              with gamma > 0 (off by default), on several ranks also bottom-up while the
//              frontier's edges exceed n / gamma. (gamma
//              64, the earlier default, sent levels of small frontiers with hubs bottom-up: RMAT
//              26 on 2 H200s, 4 of 8 sources 11-16 ms against 5.6-7.2 ms top-down.)
//   hub levels a top-down level whose pairs could pass some rank's pair buffer or shared-memory
//              segment (a frontier with hubs) sends no pairs: each rank's remote discoveries go
//              to their owners as bitmaps (one MPI_Reduce_scatter of n bits with MPI_BOR), and
//              each owner picks a parent for its discovered vertices among their in-neighbours
//              in the frontier (gathered as a list of vertices where shorter than the bitmap; a
//              bottom-up step over those candidates only; src/mpi/bfs_hub.cpp).
//              bitmap_discoveries = false runs such levels bottom-up instead (the earlier rule).
//   tiny       a top-down level of a small frontier (tiny_edges) is one MPI_Allgather: every
//              rank's counts and its pairs to every rank, each owner claiming its own; the
//              counts are the direction rule's and the termination's, so no MPI_Allreduce
//              (src/mpi/bfs_tiny.cpp). Other levels end in one MPI_Allreduce of four counts.
// One rank with a graph of fewer than 2^31 vertices + entries runs lockstep::Bfs, the one-device
// engine, on its rows (nothing to exchange; its steps reported as top-down or bottom-up levels).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "lockstep/graph.hpp"
#include "lockstep/mpi/session.hpp"

namespace lockstep::mpi {

/// This rank's share of a graph split by vertex over the ranks of `comm`.
struct DistributedGraph {
  MPI_Comm comm = MPI_COMM_WORLD;
  int32_t n = 0;                    // global vertices
  std::vector<int32_t> block;       // ranks + 1 vertex offsets, multiples of 32 (the last n)
  int32_t first = 0, count = 0;     // this rank's block
  std::vector<int64_t> offsets{0};  // count + 1 row offsets
  std::vector<int32_t> adj;         // global out-neighbours, each row sorted
  std::vector<int64_t> in_offsets;  // the in-neighbours' rows (empty when symmetric)
  std::vector<int32_t> in_adj;
  bool symmetric = true;
  int64_t global_entries = 0;  // adjacency entries over all ranks
  int owner(int32_t v) const;  // the rank that owns global vertex v
  int64_t degree(int32_t local) const {
    return offsets[size_t(local) + 1] - offsets[size_t(local)];
  }
};

/// Block offsets balancing `entries` (prefix sums over n + 1 vertices) over `parts`, starts
/// rounded to multiples of 32.
std::vector<int32_t> partition_by_entries(const std::vector<int64_t>& prefix, int parts);

/// Collective: root's whole graph (other ranks pass an empty CsrGraph), split and scattered.
/// `block` (parts + 1 offsets, multiples of 32 but the last, read on root) overrides the
/// entry-balanced split. Throws collective_error on every rank for a bad `block`.
DistributedGraph scatter_graph(MPI_Comm comm, const CsrGraph& global,
                               std::vector<int32_t> block = {}, int root = 0);

/// Collective: Graph500 R-MAT (lockstep::rmat_graph's graph for the same scale, edge factor and
/// seed: its counter-based edges, both directions, repeats once), built in parallel: each rank
/// counts the degrees of its 1/ranks of the edge stream (OpenMP), one MPI_Allreduce sums them
/// (the same entry-balanced blocks everywhere), then every rank draws its 1/ranks again and
/// sends both directions of each edge to the owner of the row (MPI_Alltoallv, rounds of 2^23
/// edges): 2/ranks draws of the stream a rank. Scale up to 30.
DistributedGraph rmat_graph(MPI_Comm comm, int32_t scale, int32_t edgefactor, uint64_t seed,
                            std::vector<int32_t> block = {});

enum class Direction { automatic, top_down, bottom_up };
Direction parse_direction(const std::string& name);  // auto | top-down | bottom-up
const char* to_string(Direction d);

/// A top-down level's expand on each rank: automatic (load-balanced when the rank's frontier
/// passes the one-GPU rule's lb_edges or lb_degree, lockstep::BfsRule), one wave a vertex, or
/// load-balanced (merge-path tiles: a hub's edges over many work-groups).
enum class Expand { automatic, wave, lb };

struct DistributedBfsOptions {
  Direction direction = Direction::automatic;
  double alpha = 14, beta = 24;
  double gamma = 0;  // several ranks, > 0: bottom-up while the frontier's edges exceed n / gamma
  int local_size = 256;
  int wave_width = 0;  // 0: the device's (at least 32)
  /// Remote (vertex, parent) pairs a top-down level may send per rank; a level whose frontier
  /// has more edges on some rank runs bottom-up. 0: min(local entries, 2^26), at least 2^16.
  int64_t remote_capacity = 0;
  /// Of those, the pairs a rank's shared-memory segment holds (ranks of one host): a top-down
  /// level whose pairs could pass it on some rank sends them all through MPI on every rank.
  /// 0: 2^22 (never more than remote_capacity).
  int64_t shared_capacity = 0;
  Expand expand = Expand::automatic;
  /// A top-down level whose pairs could pass some rank's buffer or segment: the remote
  /// discoveries as bitmaps to their owners (true), or the whole level bottom-up (false).
  bool bitmap_discoveries = true;
  /// Several ranks: a top-down level whose global frontier has at most this many edges, and
  /// the levels after it while their frontier could hold at most this many vertices, run in
  /// one MPI_Allgather of each rank's counts and pairs (no pair exchange, no MPI_Allreduce); a
  /// rank whose frontier has more edges defers it to an ordinary level. 0: off; at most 2^16
  /// (and remote_capacity) are used.
  int64_t tiny_edges = 1024;
};

struct DistributedBfsStep {
  int32_t level = 0;
  Direction direction = Direction::top_down;
  int64_t frontier = 0, edges = 0;  // global, before the level
  double ms = 0, exchange_ms = 0;   // this rank's level time, and its part in MPI and copies
  int64_t sent = 0;                 // top-down: the (vertex, parent) pairs this rank sent
  bool balanced = false;            // top-down: this rank's expand was load-balanced
  bool shared = false;              // top-down: its pairs went to same-host ranks by shared memory
  bool bitmap = false;    // top-down: discoveries went as bitmaps (`sent`: this rank's discoveries)
  bool gathered = false;  // a tiny level: counts and pairs in one MPI_Allgather (tiny_edges)
};

struct DistributedBfsResult {
  std::vector<int32_t> levels, parents;  // this rank's vertices (-1: unreached); global parents
  std::vector<DistributedBfsStep> steps;
  double ms = 0;                             // the slowest rank's traversal time (from a barrier)
  int64_t reached = 0, traversed_edges = 0;  // global; edges as lockstep::BfsResult counts them
  int32_t max_level = 0;
  double gteps() const { return ms > 0 ? double(traversed_edges) / (ms * 1e6) : 0; }
  int levels_run(Direction d) const;
};

/// The search engine: the graph on this rank's device once, then any number of searches.
/// Collective (every rank constructs it and calls run() with the same source).
class DistributedBfs {
 public:
  DistributedBfs(Context& ctx, const DistributedGraph& g, const DistributedBfsOptions& o = {});
  ~DistributedBfs();
  /// Throws collective_error (input) on every rank for a source outside [0, n).
  DistributedBfsResult run(int32_t source);
  /// Whether run() is lockstep::Bfs on one rank's whole graph (see the comment at the top).
  bool one_device() const;
  /// Ranks whose bottom-up frontier words and top-down pairs both come through shared memory
  /// (same host, LOCKSTEP_MPI_HALO auto or shm); 0: MPI messages only.
  int shared_peers() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> p_;
};

/// Graph500's BFS-tree checks, each rank on its own vertices against the gathered levels:
/// the source at level 0 and its own parent; every other reached vertex's parent one level up
/// and joined to it by an edge; unreached vertices without parent; every edge from a reached
/// vertex ends at a reached vertex at most one level further. Collective: the first violation
/// (of the lowest rank that found one), or "", on every rank.
std::string validate_bfs(const DistributedGraph& g, int32_t source, const DistributedBfsResult& r);

/// Collective: min(k, candidates) distinct vertices of degree >= 1 reached from the vertex of
/// largest degree (the largest connected component of R-MAT), drawn with `seed`, the same list
/// on every rank and, on a symmetric graph, the same as the one-GPU lockstep::bfs_sources(whole
/// graph, k, seed) (so that `bfs --distributed` and `bfs` time the same searches).
std::vector<int32_t> bfs_sources(DistributedBfs& bfs, const DistributedGraph& g, int k,
                                 uint64_t seed);

/// The whole levels vector on `root` (empty elsewhere).
std::vector<int32_t> gather_levels(const DistributedGraph& g, const std::vector<int32_t>& local,
                                   int root = 0);

}  // namespace lockstep::mpi
