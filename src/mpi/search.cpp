// lockstep::mpi::search (see lockstep/mpi/search.hpp): each rank's share searched on its device,
// the hits gathered on rank 0 as six int64 words each and merged there.
#include "lockstep/mpi/search.hpp"

#include <algorithm>
#include <chrono>
#include <climits>

#include "lockstep/mpi/session.hpp"
#include "search/search_impl.hpp"

namespace lockstep::mpi {

namespace {
constexpr int kWords = 6;  // query, subject, score, query_end, subject_end, minus
}  // namespace

SearchResult search(MPI_Comm comm, Context& ctx, const SequenceSet& queries, const SequenceSet& db,
                    const Scoring& s, const SearchOptions& o) {
  const int me = rank(comm), ranks = size(comm);
  collective(comm, [&] {  // the checks of every search, outside its time (as search's)
    if (!o.devices.empty())
      throw input_error("search: one device per rank (SearchOptions::devices must be empty)");
    if (detail::algorithm_words(o).base == "cpu")
      throw input_error("search: a share runs on a device, not cpu");
    check_search(queries, db, s, o);
  });
  const auto t0 = std::chrono::steady_clock::now();
  SearchResult mine;
  std::vector<int64_t> words;
  collective(comm, [&] {
    const std::vector<size_t> b = database_shares(db, size_t(ranks));
    if (!db.whole() &&
        (db.held_begin != b[size_t(me)] || std::min(db.held_end, db.size()) != b[size_t(me) + 1]))
      throw input_error("search: the database set holds a share other than this rank's");
    mine = detail::search_range(ctx, queries, db, s, o, b[size_t(me)], b[size_t(me) + 1]);
    for (const auto& hits : mine.hits)
      for (const SearchHit& h : hits)
        words.insert(words.end(), {int64_t(h.query), h.subject, int64_t(h.score), h.query_end,
                                   h.subject_end, int64_t(h.minus)});
    if (words.size() > size_t(INT_MAX) / size_t(ranks))
      throw input_error("search: too many hits to gather on rank 0 (" +
                        std::to_string(words.size() / kWords) + " on this rank): lower --top");
  });
  const int count = int(words.size());
  std::vector<int> counts(me == 0 ? size_t(ranks) : 0), displs(counts.size());
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  std::vector<int64_t> all;
  if (me == 0) {
    for (int r = 1; r < ranks; ++r)
      displs[size_t(r)] = displs[size_t(r) - 1] + counts[size_t(r) - 1];
    all.resize(size_t(displs.back()) + size_t(counts.back()));
  }
  MPI_Gatherv(words.data(), count, MPI_INT64_T, all.data(), counts.data(), displs.data(),
              MPI_INT64_T, 0, comm);
  double sums[4] = {mine.cells, double(mine.recomputed), mine.kernel_ms, double(mine.batches)};
  MPI_Allreduce(MPI_IN_PLACE, sums, 4, MPI_DOUBLE, MPI_SUM, comm);
  SearchResult r = std::move(mine);
  r.cells = sums[0], r.recomputed = size_t(sums[1]), r.kernel_ms = sums[2];
  r.batches = size_t(sums[3]);
  r.hits.assign(queries.size(), {});
  if (me == 0) {
    // Rank by rank, each rank's hits per query best first: merged as one device's.
    for (int from = 0; from < ranks; ++from) {
      std::vector<std::vector<SearchHit>> theirs(queries.size());
      const int64_t* w = all.data() + displs[size_t(from)];
      for (int k = 0; k < counts[size_t(from)]; k += kWords, w += kWords)
        theirs[size_t(w[0])].push_back({int32_t(w[0]), w[1], int32_t(w[2]), w[3], w[4], w[5] != 0});
      merge_hits(r.hits, theirs, o.top);
    }
  }
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  MPI_Allreduce(MPI_IN_PLACE, &r.ms, 1, MPI_DOUBLE, MPI_MAX, comm);
  return r;
}

}  // namespace lockstep::mpi
