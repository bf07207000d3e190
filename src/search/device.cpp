// lockstep::search on the device. The database is ordered by length (longest first),
// packed in chunks of local_size subjects (src/search/pack.cpp) and streamed in batches; the
// queries are paired for the two 16-bit lanes; each launch runs several query pairs against a
// batch (cl/search.cl search_inter; the batches' pipeline in batches.cpp). Scores
// above the 16-bit limit, subjects longer than kLongSubject and the ends of the reported hits go
// through the exact 32-bit path (src/search/exact.cpp). Ranking: score descending, then database
// order; ends follow align_cpu's rule (smallest end in the query, then in the subject).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>

#include "lockstep/kernel_builds.hpp"
#include "runtime/environment.hpp"
#include "search/search_impl.hpp"

namespace lockstep {

using namespace detail;

namespace {

constexpr int64_t kLongSubject = 1 << 15;  // longer subjects: the 32-bit path, pair by pair

struct Shape : SearchShape {
  bool dpx = false;
  int dpx_level = 0;
  Defines defines;
};

/// `ids` ordered by length, longest first, equal lengths in their order (a counting sort: a
/// million subjects of at most kLongSubject residues).
std::vector<int64_t> longest_first(const SequenceSet& db, const std::vector<int64_t>& ids) {
  std::vector<size_t> start(size_t(kLongSubject) + 2, 0);
  for (int64_t i : ids) ++start[size_t(kLongSubject - db.length(size_t(i))) + 1];
  for (size_t k = 1; k < start.size(); ++k) start[k] += start[k - 1];
  std::vector<int64_t> out(ids.size());
  for (int64_t i : ids) out[start[size_t(kLongSubject - db.length(size_t(i)))]++] = i;
  return out;
}

// The inter kernel's features: the word (--algorithm inter+WORD), the shape's flag and the
// kernel's -D (cl/search.cl). A new feature is a row here and a flag of SearchShape.
struct Feature {
  const char* name;
  const char* what;
  bool SearchShape::*flag;
  const char* define;
};
constexpr Feature kFeatures[] = {
    {"prof2", "two profile rows per load", &SearchShape::prof2, "SEARCH_PROF2"},
    {"skew", "two columns as a wavefront", &SearchShape::skew, "SEARCH_SKEW"}};

Defines inter_defines(const Shape& sh, int dpx_level, const DeviceInfo& di) {
  Defines d;
  d.set("LOCAL_SIZE", sh.local).set("STRIPE", sh.stripe);
  for (const Feature& f : kFeatures)
    if (sh.*f.flag) d.set(f.define, 1);
  d.set("ENDS_LOCAL", ends_local(di)).set("ENDS_ROWS", ends_rows(di));
  if (sh.dpx) d.set("DPX_NV", dpx_level);
  return d;
}

/// The kernel's features ("prof2+skew", "plain" or ""), or input_error naming the unknown one.
void parse_features(const std::string& v, SearchShape& sh) {
  for (size_t at = 0; at < v.size();) {
    const size_t end = std::min(v.find_first_of("+,", at), v.size());
    const std::string word = v.substr(at, end - at);
    const Feature* f = std::find_if(std::begin(kFeatures), std::end(kFeatures),
                                    [&](const Feature& k) { return word == k.name; });
    if (f != std::end(kFeatures))
      sh.*f->flag = true;
    else if (word != "plain")
      throw input_error("search: unknown kernel feature '" + word + "' (expected " +
                        search_features_text() + ")");
    at = end + 1;
  }
}

std::string feature_name(const Shape& sh) {
  std::string out;
  for (const Feature& f : kFeatures)
    if (sh.*f.flag) out += (out.empty() ? "" : "+") + std::string(f.name);
  return out.empty() ? "plain" : out;
}

}  // namespace

const std::vector<SearchFeature>& search_features() {
  static const std::vector<SearchFeature> all = [] {
    std::vector<SearchFeature> v;
    for (const Feature& f : kFeatures) v.push_back({f.name, f.what});
    return v;
  }();
  return all;
}

std::string search_features_text() {
  std::string out;
  for (const SearchFeature& f : search_features())
    out += (out.empty() ? "inter+" : ", inter+") + f.name;
  return out;
}

SearchShape detail::search_shape(const DeviceInfo& di, const SearchOptions& o, double residues) {
  const defaults::Search rule = defaults::lookup<defaults::Search>(di);
  SearchShape sh;
  // skew: two dependency chains a step
  const std::string features = algorithm_words(o).features;
  const bool skew = rule.skew_residues > 0 && !o.local_size && !o.stripe && features.empty() &&
                    residues >= rule.skew_residues;
  sh.local = o.local_size ? o.local_size : rule.local_size;
  sh.stripe = o.stripe ? o.stripe : skew ? rule.skew_stripe : rule.stripe;
  if (sh.local < 1 || sh.local > int(di.max_work_group_size) || sh.local > 1024)
    throw input_error("search: local_size must be in [1, " +
                      std::to_string(std::min<size_t>(1024, di.max_work_group_size)) + "]");
  if (sh.stripe < 2 || sh.stripe > 64 || sh.stripe % 2)
    throw input_error("search: stripe must be even and in [2, 64]");
  parse_features(features, sh);
  sh.skew = sh.skew || skew;
  return sh;
}

namespace {

/// The kernel shape and its program: DPX on NVIDIA compute capability >= 9.0 (level 2: its
/// three-input and relu forms; level 1 where the driver's PTX refuses them), else portable.
Shape resolve_shape(Context& ctx, const SearchOptions& o, double residues) {
  const DeviceInfo& di = ctx.info();
  Shape sh;
  static_cast<SearchShape&>(sh) = search_shape(di, o, residues);
  sh.dpx = di.dpx;  // NVIDIA compute capability >= 9.0, unless LOCKSTEP_DPX=0
  // Level 2 (three-input max.s16x2) is refused by ptxas 13.0 ("Arguments mismatch"; two-input
  // max is fused into VIMNMX3 anyway, BENCHMARKS.md): tried only under LOCKSTEP_DPX=2.
  const int top_level = env::dpx_level();
  for (int level : {2, 1}) {
    if (!sh.dpx) break;
    if (level > top_level) continue;
    try {
      sh.defines = inter_defines(sh, level, di);
      ctx.kernel("search.cl", "search_inter", sh.defines);
      sh.dpx_level = level;
      return sh;
    } catch (const opencl_error&) {
      if (level == 1) sh.dpx = false;  // the driver refused the DPX forms: the portable path
    }
  }
  sh.defines = inter_defines(sh, 0, di);
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
  if (detail::algorithm_words(o).base == "cpu") return search_cpu(queries, db, s, o);
  if (!o.devices.empty()) return search_devices(ctx, queries, db, s, o);
  return search_range(ctx, queries, db, s, o, 0, db.size());
}

SearchResult search_share(Context& ctx, const SequenceSet& queries, const SequenceSet& db,
                          const Scoring& s, const SearchOptions& o, size_t begin, size_t end) {
  check_search(queries, db, s, o);
  if (begin > end || end > db.size())
    throw input_error("search: the share [" + std::to_string(begin) + ", " + std::to_string(end) +
                      ") is outside the database's " + std::to_string(db.size()) + " subjects");
  if (detail::algorithm_words(o).base == "cpu")
    throw input_error("search: a share runs on a device, not cpu");
  return search_range(ctx, queries, db, s, o, begin, end);
}

SearchResult detail::search_range(Context& ctx, const SequenceSet& queries, const SequenceSet& db,
                                  const Scoring& s, const SearchOptions& o, size_t begin,
                                  size_t end) {
  if (begin < db.held_begin || end > std::min(db.held_end, db.size()))
    throw input_error("search: subjects [" + std::to_string(begin) + ", " + std::to_string(end) +
                      ") outside the share whose codes the database set holds");
  const std::string alg = detail::algorithm_words(o).base;
  const auto t0 = std::chrono::steady_clock::now();
  SearchResult r;
  const bool inter = alg != "intra" && packed_fits(s);
  const Shape sh = resolve_shape(ctx, o, double(db.residue_count()));
  const std::string features = feature_name(sh);
  r.algorithm = !inter ? "intra" : features == "plain" ? "inter" : "inter+" + features;
  r.dpx = inter && sh.dpx;
  r.local_size = sh.local, r.stripe = sh.stripe;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  r.variant = features;  // one release: the features' old field
#pragma GCC diagnostic pop
  const size_t nq = queries.size(), top = size_t(o.top);
  std::vector<TopK> keep(nq, TopK(top));
  std::map<std::pair<int32_t, int64_t>, ExactJob> known;  // pairs with exact ends
  std::vector<ExactJob> jobs;
  for (size_t i = begin; i < end; ++i) r.cells += double(db.length(i));
  double qres = 0;
  for (size_t q = 0; q < nq; ++q) qres += double(queries.length(q));
  r.cells *= qres;

  // Subjects for the packed kernel (longest first); the rest take the exact path.
  std::vector<int64_t> order;
  for (size_t i = begin; i < end; ++i) {
    const int64_t len = db.length(i);
    const bool packed = inter && len > 0 && len <= kLongSubject;
    if (packed) {
      order.push_back(int64_t(i));
      continue;
    }
    for (size_t q = 0; q < nq; ++q)
      if (queries.length(q) > 0)
        jobs.push_back({int32_t(q), int64_t(i)});
      else
        keep[q].add(0, int64_t(i));
  }
  order = longest_first(db, order);
  for (size_t q = 0; q < nq; ++q)  // an empty query scores 0 against every packed subject
    if (queries.length(q) == 0)
      for (int64_t i : order) keep[q].add(0, i);

  const QueryPairs qp = pair_queries(queries, s, sh.stripe, sh.prof2);
  if (!order.empty() && !qp.a.empty()) {
    r.start_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    run_inter(ctx, sh.local, sh.defines, db, order, qp, s, o, keep, jobs, r);
  }
  exact_into(ctx, sh.defines, queries, db, s, jobs, keep, known);

  // The hits, and the ends of those the exact path has not seen.
  r.hits.resize(nq);
  for (size_t q = 0; q < nq; ++q) {
    for (const auto& [score, id] : keep[q].take()) {
      SearchHit h{int32_t(q), id, score, -1, -1};
      auto it = known.find({int32_t(q), id});
      if (it != known.end())
        h.query_end = it->second.end_q, h.subject_end = it->second.end_s;
      else if (score > 0)
        jobs.push_back({int32_t(q), id});
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

// The registry's search builds: the shapes search_shape() picks with no shape given (the defaults
// table's for a small database and, where it has one, for a large one: the skew feature), on a DPX
// device both at DPX level 1 and portable (LOCKSTEP_DPX=0, or a driver that refuses the DPX forms).
void detail::search_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out) {
  std::vector<std::string> seen;
  for (double residues : {1.0, 1e12}) {
    Shape sh;
    static_cast<SearchShape&>(sh) = search_shape(d, SearchOptions{}, residues);
    for (int level : {1, 0}) {
      sh.dpx = level > 0;
      if (sh.dpx && !d.dpx) continue;
      const std::string o = inter_defines(sh, level, d).options();
      if (std::find(seen.begin(), seen.end(), o) != seen.end()) continue;
      seen.push_back(o);
      out.push_back({"search", "search.cl", o});
    }
  }
}

}  // namespace lockstep
