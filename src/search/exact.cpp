// The exact 32-bit path of the device search: pairs whose 16-bit best saturated, subjects too long
// for the packed kernel, and the ends of the reported hits. Pairs up to kWavefrontCells run one per
// work-group, all in one launch (search_ends, a wavefront over the group); larger ones through
// align() (on a GPU its intra-sequence pipeline), one at a time.
#include <algorithm>
#include <climits>

#include "search/search_impl.hpp"

namespace lockstep::detail {

namespace {

constexpr double kWavefrontCells = double(1 << 26);    // larger pairs: align(), one at a time
constexpr int kEndsTable = 64;                         // cl/search.cl ENDS_TABLE
constexpr int64_t kScratchColumns = int64_t(1) << 26;  // (H, F) pairs per launch (512 MiB)

std::vector<uint8_t> codes(const SequenceSet& set, size_t i) {
  return std::vector<uint8_t>(set.data(i), set.data(i) + set.length(i));
}

}  // namespace

void run_exact(Context& ctx, const Defines& defines, const SequenceSet& queries,
               const SequenceSet& db, const Scoring& s, std::vector<ExactJob>& jobs) {
  const bool gpu = ctx.info().is_gpu();
  std::vector<size_t> small;
  for (size_t k = 0; k < jobs.size(); ++k) {
    ExactJob& j = jobs[k];
    const int64_t n = queries.length(size_t(j.query)), m = db.length(size_t(j.subject));
    if (n == 0 || m == 0) {
      j.score = 0, j.end_q = j.end_s = -1;
    } else if (double(n) * double(m) <= kWavefrontCells && s.size() <= kEndsTable &&
               m <= kScratchColumns / 2) {
      small.push_back(k);
    } else {
      const auto a = codes(queries, size_t(j.query)), b = codes(db, size_t(j.subject));
      const AlignResult r = gpu ? align(ctx, a, b, s, AlignConfig{}) : align_cpu(a, b, s);
      j.score = r.score, j.end_q = r.end_a, j.end_s = r.end_b;
    }
  }
  // The largest first, so that the long work-groups start first.
  std::stable_sort(small.begin(), small.end(), [&](size_t x, size_t y) {
    return queries.length(size_t(jobs[x].query)) * db.length(size_t(jobs[x].subject)) >
           queries.length(size_t(jobs[y].query)) * db.length(size_t(jobs[y].subject));
  });
  auto& q = ctx.queue();
  cl::Buffer dtable;
  cl::Kernel k;
  const size_t local = size_t(ends_local(ctx.info()));
  for (size_t at = 0; at < small.size();) {
    // One launch per scratch budget: the residues and 2 x subject length (H, F) per job.
    std::vector<uint8_t> seqs;
    std::vector<int32_t> desc;
    int64_t scratch = 0;
    const size_t from = at;
    for (; at < small.size(); ++at) {
      const ExactJob& j = jobs[small[at]];
      const int64_t n = queries.length(size_t(j.query)), m = db.length(size_t(j.subject));
      if (at > from &&
          (scratch + 2 * m > kScratchColumns || int64_t(seqs.size()) + n + m > int64_t(INT32_MAX)))
        break;
      desc.insert(desc.end(), {int32_t(seqs.size()), int32_t(n), int32_t(seqs.size() + n),
                               int32_t(m), int32_t(scratch)});
      seqs.insert(seqs.end(), queries.data(size_t(j.query)), queries.data(size_t(j.query)) + n);
      seqs.insert(seqs.end(), db.data(size_t(j.subject)), db.data(size_t(j.subject)) + m);
      scratch += 2 * m;
    }
    if (!k()) {
      dtable = upload(q, s.table, CL_MEM_READ_ONLY);
      k = ctx.kernel("search.cl", "search_ends", defines);  // the inter kernel's program
    }
    const size_t count = at - from;
    cl::Buffer dseqs = upload(q, seqs, CL_MEM_READ_ONLY), djobs = upload(q, desc, CL_MEM_READ_ONLY);
    cl::Buffer dscratch = make_buffer(ctx.context(), CL_MEM_READ_WRITE, size_t(scratch) * 8);
    cl::Buffer dout = make_buffer(ctx.context(), CL_MEM_WRITE_ONLY, count * 16);
    set_args(k, dseqs, djobs, dtable, cl_int(s.size()), cl_int(s.gap_open), cl_int(s.gap_extend),
             dscratch, dout);
    launch(q, k, count * local, local);
    const auto out = download<cl_int4>(q, dout, count);
    for (size_t i = 0; i < count; ++i) {
      ExactJob& j = jobs[small[from + i]];
      j.score = out[i].s[0], j.end_q = out[i].s[1], j.end_s = out[i].s[2];
    }
  }
}

}  // namespace lockstep::detail
