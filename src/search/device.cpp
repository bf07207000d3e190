// lockstep::search on the device (issue 34). The database is ordered by length (longest first),
// packed in chunks of local_size subjects (src/search/pack.cpp) and streamed in batches; the
// queries are paired for the two 16-bit lanes; each launch runs several query pairs against a
// batch (cl/search.cl search_inter), its scores read back while the next launch runs. Scores
// above the 16-bit limit, subjects longer than kLongSubject and the ends of the reported hits go
// through the exact 32-bit path (src/search/exact.cpp). Ranking: score descending, then database
// order; ends follow align_cpu's rule (smallest end in the query, then in the subject).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <numeric>
#include <thread>

#include "runtime/environment.hpp"
#include "search/search_impl.hpp"

namespace lockstep {

using namespace detail;

namespace {

constexpr int64_t kLongSubject = 1 << 15;  // longer subjects: the 32-bit path, pair by pair

struct Shape {
  int local = 0, stripe = 0;
  bool dpx = false;
  int dpx_level = 0;
  Defines defines;
};

Defines inter_defines(const Shape& sh, int dpx_level, bool gpu) {
  Defines d;
  d.set("LOCAL_SIZE", sh.local).set("STRIPE", sh.stripe);
  d.set("ENDS_LOCAL", ends_local(gpu)).set("ENDS_ROWS", ends_rows(gpu));
  if (sh.dpx) d.set("SW_DPX", dpx_level);
  return d;
}

/// The kernel shape and its program: DPX on NVIDIA compute capability >= 9.0 (level 2: its
/// three-input and relu forms; level 1 where the driver's PTX refuses them), else portable.
Shape resolve_shape(Context& ctx, const SearchOptions& o) {
  const DeviceInfo& di = ctx.info();
  Shape sh;
  sh.local = o.local_size ? o.local_size : di.is_gpu() ? 128 : 64;
  sh.stripe = o.stripe ? o.stripe : di.is_gpu() ? 64 : 16;  // H100: 64 rows 842 GCUPS, 32: 773
  if (sh.local < 1 || sh.local > int(di.max_work_group_size) || sh.local > 1024)
    throw input_error("search: local_size must be in [1, " +
                      std::to_string(std::min<size_t>(1024, di.max_work_group_size)) + "]");
  if (sh.stripe < 2 || sh.stripe > 64 || sh.stripe % 2)
    throw input_error("search: stripe must be even and in [2, 64]");
  sh.dpx = di.dpx;  // NVIDIA compute capability >= 9.0, unless LOCKSTEP_DPX=0
  // Level 2 (three-input max.s16x2) is refused by ptxas 13.0 ("Arguments mismatch"; two-input
  // max is fused into VIMNMX3 anyway, BENCHMARKS.md): tried only under LOCKSTEP_SEARCH_DPX=2.
  int top_level = 1;
  if (const auto e = env::value("LOCKSTEP_SEARCH_DPX")) top_level = std::atoi(e->c_str());
  if (top_level <= 0) sh.dpx = false;
  for (int level : {2, 1}) {
    if (!sh.dpx) break;
    if (level > top_level) continue;
    try {
      sh.defines = inter_defines(sh, level, di.is_gpu());
      ctx.kernel("search.cl", "search_inter", sh.defines);
      sh.dpx_level = level;
      return sh;
    } catch (const opencl_error&) {
      if (level == 1) sh.dpx = false;  // the driver refused the DPX forms: the portable path
    }
  }
  sh.defines = inter_defines(sh, 0, di.is_gpu());
  return sh;
}

/// Pairs through the exact path, their scores added to the top-K keepers (ends kept).
void exact_into(Context& ctx, const Defines& d, const SequenceSet& q, const SequenceSet& db,
                const Scoring& s, std::vector<ExactJob>& jobs, std::vector<TopK>& top,
                std::map<std::pair<int32_t, int64_t>, ExactJob>& known) {
  run_exact(ctx, d, q, db, s, jobs);
  for (const ExactJob& j : jobs) {
    top[size_t(j.query)].add(j.score, j.subject);
    known[{j.query, j.subject}] = j;
  }
  jobs.clear();
}

}  // namespace

SearchResult search(Context& ctx, const SequenceSet& queries, const SequenceSet& db,
                    const Scoring& s, const SearchOptions& o) {
  check_search(queries, db, s, o);
  const std::string& alg = o.algorithm;
  if (alg == "cpu") return search_cpu(queries, db, s, o);
  const auto t0 = std::chrono::steady_clock::now();
  SearchResult r;
  r.algorithm = alg == "intra" || !packed_fits(s) ? "intra" : "inter";
  const Shape sh = resolve_shape(ctx, o);
  r.dpx = r.algorithm == "inter" && sh.dpx;
  const size_t nq = queries.size(), top = size_t(o.top);
  std::vector<TopK> keep(nq, TopK(top));
  std::map<std::pair<int32_t, int64_t>, ExactJob> known;  // pairs with exact ends
  std::vector<ExactJob> jobs;
  for (size_t i = 0; i < db.size(); ++i) r.cells += double(db.length(i));
  double qres = 0;
  for (size_t q = 0; q < nq; ++q) qres += double(queries.length(q));
  r.cells *= qres;

  // Subjects for the packed kernel (longest first); the rest take the exact path.
  std::vector<int64_t> order;
  for (size_t i = 0; i < db.size(); ++i) {
    const int64_t len = db.length(i);
    const bool packed = r.algorithm == "inter" && len > 0 && len <= kLongSubject;
    if (packed) {
      order.push_back(int64_t(i));
      continue;
    }
    for (size_t q = 0; q < nq; ++q)
      if (queries.length(q) > 0) jobs.push_back({int32_t(q), int64_t(i)});
      else keep[q].add(0, int64_t(i));
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t x, int64_t y) {
                     return db.length(size_t(x)) > db.length(size_t(y));
                   });
  for (size_t q = 0; q < nq; ++q)  // an empty query scores 0 against every packed subject
    if (queries.length(q) == 0)
      for (int64_t i : order) keep[q].add(0, i);

  const QueryPairs qp = pair_queries(queries, s, sh.stripe);
  const size_t npairs = qp.a.size();
  if (!order.empty() && npairs > 0) {
    const DeviceInfo& di = ctx.info();
    auto& queue = ctx.queue();
    cl::Buffer dprof = upload(queue, qp.profile, CL_MEM_READ_ONLY);
    cl::Buffer dinfo = upload(queue, qp.info, CL_MEM_READ_ONLY);
    const int64_t budget = o.max_device_mib > 0
                               ? o.max_device_mib << 20
                               : int64_t(std::min<cl_ulong>(di.global_mem_bytes / 8,
                                                            di.max_alloc_bytes / 2));
    const int64_t bmax = int64_t(std::min<cl_ulong>(di.max_alloc_bytes, di.global_mem_bytes / 4));
    const int64_t target = int64_t(di.compute_units) * (di.is_gpu() ? 2048 : 4 * sh.local);
    const int32_t limit = packed_limit(s);
    const uint32_t neg_open = uint16_t(-s.gap_open) * 0x10001u,
                   neg_ext = uint16_t(-s.gap_extend) * 0x10001u;
    const unsigned threads = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
    // Batches: whole chunks (the longest subject of a chunk is its first) up to the budget.
    std::vector<size_t> cuts{0};
    std::vector<int64_t> columns{0};  // per batch: padded columns x lanes (its boundary / 8)
    for (size_t at = 0; at < order.size(); at += size_t(sh.local)) {
      const int64_t chunk = (db.length(size_t(order[at])) + 3) / 4 * 4 * sh.local;
      if (columns.back() > 0 && columns.back() + chunk > budget)
        cuts.push_back(at), columns.push_back(0);
      columns.back() += chunk;
    }
    cuts.push_back(order.size());
    size_t launches_done = 0, launches_total = 0;
    std::vector<size_t> per_launch(cuts.size() - 1);
    for (size_t b = 0; b + 1 < cuts.size(); ++b) {
      const size_t slots = (cuts[b + 1] - cuts[b] + sh.local - 1) / sh.local * sh.local;
      // Enough work-items to fill the device, and at most 4 launches per batch: a launch's
      // longest chunk (started first) then overlaps the rest instead of ending it alone.
      const size_t fill = size_t((target + int64_t(slots) - 1) / int64_t(slots));
      const size_t fits = size_t(std::max<int64_t>(1, bmax / (8 * columns[b])));
      per_launch[b] =
          std::clamp<size_t>(std::max(fill, (npairs + 3) / 4), 1, std::min(npairs, fits));
      launches_total += (npairs + per_launch[b] - 1) / per_launch[b];
    }
    cl::Kernel k = ctx.kernel("search.cl", "search_inter", sh.defines);
    for (size_t b = 0; b + 1 < cuts.size(); ++b) {
      const PackedBatch pb = pack_batch(db, order, cuts[b], cuts[b + 1], sh.local);
      const size_t slots = pb.subjects.size(), nchunks = pb.chunks.size() / 4;
      const size_t P = per_launch[b];
      const int64_t per_pair = pb.boundary_columns * 8;
      cl::Buffer dwords = upload(queue, pb.words, CL_MEM_READ_ONLY);
      cl::Buffer dchunks = upload(queue, pb.chunks, CL_MEM_READ_ONLY);
      const cl::Buffer& dbnd = ctx.scratch(0, size_t(std::max<int64_t>(8, per_pair)) * P);
      cl::Buffer dscore[2] = {make_buffer(ctx.context(), CL_MEM_WRITE_ONLY, slots * P * 4),
                              make_buffer(ctx.context(), CL_MEM_WRITE_ONLY, slots * P * 4)};
      std::vector<uint32_t> host[2] = {std::vector<uint32_t>(slots * P),
                                       std::vector<uint32_t>(slots * P)};
      struct Pending {
        size_t first = 0, count = 0;
        int buf = 0;
        cl::Event read, kernel;
      };
      std::vector<Pending> pending;
      std::vector<std::vector<ExactJob>> sat(threads);
      auto consume = [&](Pending& pd) {
        check(pd.read.wait(), "clWaitForEvents(search scores)");
        r.kernel_ms += event_ms(pd.kernel);
        const std::vector<uint32_t>& sc = host[pd.buf];
        auto work = [&](unsigned t) {
          for (size_t p = t; p < pd.count; p += threads) {
            const size_t pair = pd.first + p;
            const int32_t qa = qp.a[pair], qb = qp.b[pair];
            const uint32_t* row = sc.data() + p * slots;
            for (size_t slot = 0; slot < slots; ++slot) {
              const int64_t id = pb.subjects[slot];
              if (id < 0) continue;
              const int32_t lo = int16_t(row[slot] & 0xffff), hi = int16_t(row[slot] >> 16);
              if (lo > limit) sat[t].push_back({qa, id});
              else keep[size_t(qa)].add(lo, id);
              if (qb < 0) continue;
              if (hi > limit) sat[t].push_back({qb, id});
              else keep[size_t(qb)].add(hi, id);
            }
          }
        };
        std::vector<std::thread> pool;
        for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t);
        work(0);
        for (auto& th : pool) th.join();
        if (o.progress) o.progress(double(++launches_done) / double(launches_total));
      };
      // Launch n+1 runs while the host ranks the scores of launch n.
      for (size_t first = 0, n = 0; first < npairs; first += P, ++n) {
        const int cnt = int(std::min(P, npairs - first)), base = int(first), nslots = int(slots);
        set_args(k, dwords, dchunks, cnt, base, dprof, dinfo, dbnd, dscore[n % 2], nslots,
                 neg_open, neg_ext);
        Pending pd{first, size_t(cnt), int(n % 2), {}, {}};
        pd.kernel = launch(queue, k, nchunks * size_t(cnt) * size_t(sh.local), size_t(sh.local));
        check(queue.enqueueReadBuffer(dscore[n % 2], CL_FALSE, 0, slots * size_t(cnt) * 4,
                                      host[n % 2].data(), nullptr, &pd.read),
              "clEnqueueReadBuffer(search scores)");
        check(queue.flush(), "clFlush");
        pending.push_back(pd);
        if (pending.size() == 2) {
          consume(pending[0]);
          pending.erase(pending.begin());
        }
      }
      for (Pending& pd : pending) consume(pd);
      for (auto& v : sat) {
        r.recomputed += v.size();
        jobs.insert(jobs.end(), v.begin(), v.end());
      }
    }
  }
  exact_into(ctx, sh.defines, queries, db, s, jobs, keep, known);

  // The hits, and the ends of those the exact path has not seen.
  r.hits.resize(nq);
  for (size_t q = 0; q < nq; ++q) {
    for (const auto& [score, id] : keep[q].take()) {
      SearchHit h{int32_t(q), id, score, -1, -1};
      auto it = known.find({int32_t(q), id});
      if (it != known.end()) h.query_end = it->second.end_q, h.subject_end = it->second.end_s;
      else if (score > 0) jobs.push_back({int32_t(q), id});
      r.hits[q].push_back(h);
    }
  }
  if (!jobs.empty()) {
    const auto te = std::chrono::steady_clock::now();
    run_exact(ctx, sh.defines, queries, db, s, jobs);
    r.ends_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - te).count();
    size_t at = 0;
    for (auto& hits : r.hits)
      for (SearchHit& h : hits) {
        if (h.query_end >= 0 || h.score == 0) continue;
        const ExactJob& j = jobs[at++];
        if (j.score != h.score)
          throw std::logic_error("search: the 16-bit and 32-bit scores of a pair differ");
        h.query_end = j.end_q, h.subject_end = j.end_s;
      }
  }
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace lockstep
