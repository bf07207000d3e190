// The exact 32-bit path of the device search: pairs whose 16-bit best saturated, and the ends of
// the reported hits. Pairs up to kSerialCells run one per work-item (search_exact, the loop of
// align_cpu); larger ones through align() (on a GPU its intra-sequence pipeline), one at a time.
#include <algorithm>
#include <climits>

#include "search/search_impl.hpp"

namespace lockstep::detail {

namespace {

constexpr double kSerialCells = double(1 << 22);

std::vector<uint8_t> codes(const SequenceSet& set, size_t i) {
  return std::vector<uint8_t>(set.data(i), set.data(i) + set.length(i));
}

}  // namespace

void run_exact(Context& ctx, const Defines& defines, const SequenceSet& queries,
               const SequenceSet& db, const Scoring& s,
               std::vector<ExactJob>& jobs) {
  std::vector<size_t> small;
  for (size_t k = 0; k < jobs.size(); ++k) {
    ExactJob& j = jobs[k];
    const int64_t n = queries.length(size_t(j.query)), m = db.length(size_t(j.subject));
    if (n == 0 || m == 0) {
      j.score = 0, j.end_q = j.end_s = -1;
    } else if (double(n) * double(m) <= kSerialCells) {
      small.push_back(k);
    } else {
      const auto a = codes(queries, size_t(j.query)), b = codes(db, size_t(j.subject));
      AlignConfig c;
      const AlignResult r = ctx.info().is_gpu() ? align(ctx, a, b, s, c) : align_cpu(a, b, s);
      j.score = r.score, j.end_q = r.end_a, j.end_s = r.end_b;
    }
  }
  if (small.empty()) return;
  // The longest first, so that the long work-items start first.
  std::stable_sort(small.begin(), small.end(), [&](size_t x, size_t y) {
    return queries.length(size_t(jobs[x].query)) * db.length(size_t(jobs[x].subject)) >
           queries.length(size_t(jobs[y].query)) * db.length(size_t(jobs[y].subject));
  });
  std::vector<uint8_t> seqs;
  std::vector<int32_t> desc;
  int64_t scratch = 0;
  for (size_t k : small) {
    const ExactJob& j = jobs[k];
    const int64_t n = queries.length(size_t(j.query)), m = db.length(size_t(j.subject));
    desc.insert(desc.end(), {int32_t(seqs.size()), int32_t(n), int32_t(seqs.size() + n),
                             int32_t(m), int32_t(scratch), j.known > 0 ? j.known : INT32_MAX});
    seqs.insert(seqs.end(), queries.data(size_t(j.query)), queries.data(size_t(j.query)) + n);
    seqs.insert(seqs.end(), db.data(size_t(j.subject)), db.data(size_t(j.subject)) + m);
    scratch += m;
    if (seqs.size() > size_t(INT32_MAX) || scratch > INT32_MAX)
      throw input_error("search: the exact recomputation exceeds 2^31 residues");
  }
  auto& q = ctx.queue();
  cl::Buffer dseqs = upload(q, seqs, CL_MEM_READ_ONLY), djobs = upload(q, desc, CL_MEM_READ_ONLY),
             dtable = upload(q, s.table, CL_MEM_READ_ONLY);
  cl::Buffer dscratch = make_buffer(ctx.context(), CL_MEM_READ_WRITE, size_t(scratch) * 8);
  cl::Buffer dout = make_buffer(ctx.context(), CL_MEM_WRITE_ONLY, small.size() * 16);
  cl::Kernel k = ctx.kernel("search.cl", "search_exact", defines);  // the inter kernel's program
  const int njobs = int(small.size());
  set_args(k, dseqs, djobs, njobs, dtable, cl_int(s.size()), cl_int(s.gap_open),
           cl_int(s.gap_extend), dscratch, dout);
  const size_t local = 64;
  launch(q, k, (small.size() + local - 1) / local * local, local);
  const auto out = download<cl_int4>(q, dout, small.size());
  for (size_t i = 0; i < small.size(); ++i) {
    ExactJob& j = jobs[small[i]];
    j.score = out[i].s[0], j.end_q = out[i].s[1], j.end_s = out[i].s[2];
  }
}

}  // namespace lockstep::detail
