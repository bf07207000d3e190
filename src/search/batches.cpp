// The packed kernel over the whole database (cl/search.cl search_inter), as a pipeline: the
// database is cut into batches (whole chunks, longest first, at most the device budget and, for a
// large database, about an eighth of it each), and while the device runs batch b's launches the
// host packs batch b+1 into the other of two pinned staging buffers, uploads it without blocking
// on a queue of its own (the kernels of b+1 wait for it), and ranks the scores of launch n while
// launch n+1 runs, so that the host's packing and ranking hide behind the kernels. The scores'
// reads are on a third queue, each behind its launch, from a buffer of that launch's own: on the
// kernels' in-order queue each read held the next launch back until it ended, and on the uploads'
// queue an upload would wait for the reads (and so the kernels) queued before it. Only a batch's
// first launch waits on another queue (its upload).
#include <algorithm>
#include <chrono>
#include <future>
#include <memory>
#include <thread>

#include "runtime/pinned.hpp"
#include "search/search_impl.hpp"

namespace lockstep::detail {

namespace {

// One batch: its layout, its device copy and two score buffers (launch parity) with their
// host copies.
struct Batch {
  size_t begin = 0, end = 0;
  PackedBatch pb;
  size_t pairs_per_launch = 1;
  cl::Buffer words, chunks;
  std::vector<cl::Buffer> score;  // one per launch: no launch waits for an earlier one's read
  cl::Event uploaded_chunks;
};

struct Pending {
  Batch* batch = nullptr;
  size_t first = 0, count = 0;
  int buf = 0;  // the scores' host buffer (scores[buf]: launches alternate, across batches too)
  cl::Event read, kernel;
};

}  // namespace

void run_inter(Context& ctx, int local, const Defines& defines, const SequenceSet& db,
               const std::vector<int64_t>& order, const QueryPairs& qp, const Scoring& s,
               const SearchOptions& o, std::vector<TopK>& keep, std::vector<ExactJob>& jobs,
               SearchResult& r) {
  const auto entry = std::chrono::steady_clock::now();
  const DeviceInfo& di = ctx.info();
  auto& queue = ctx.queue();
  cl_int err = CL_SUCCESS;
  cl::CommandQueue uploads(ctx.context(), ctx.device(), CL_QUEUE_PROFILING_ENABLE, &err);
  check(err, "clCreateCommandQueue(search uploads)");
  cl::CommandQueue reads(ctx.context(), ctx.device(), CL_QUEUE_PROFILING_ENABLE, &err);
  check(err, "clCreateCommandQueue(search reads)");
  const size_t npairs = qp.a.size();
  cl::Buffer dprof = upload(queue, qp.profile, CL_MEM_READ_ONLY);
  cl::Buffer dinfo = upload(queue, qp.info, CL_MEM_READ_ONLY);
  int64_t total = 0;  // padded columns x lanes of the whole database
  for (size_t at = 0; at < order.size(); at += size_t(local))
    total += (db.length(size_t(order[at])) + 3) / 4 * 4 * local;
  const int64_t budget =
      o.max_device_mib > 0
          ? o.max_device_mib << 20
          : std::min<int64_t>(
                int64_t(std::min<cl_ulong>(di.global_mem_bytes / 8, di.max_alloc_bytes / 2)),
                std::max<int64_t>(int64_t(64) << 20, total / 8));
  const int64_t bmax = int64_t(std::min<cl_ulong>(di.max_alloc_bytes, di.global_mem_bytes / 4));
  const int64_t target = int64_t(di.compute_units) * (di.is_gpu() ? 2048 : 4 * local);
  const int32_t limit = packed_limit(s);
  const uint32_t neg_open = uint16_t(-s.gap_open) * 0x10001u,
                 neg_ext = uint16_t(-s.gap_extend) * 0x10001u;
  const unsigned threads = host_threads();

  // Batches: whole chunks (the longest subject of a chunk is its first) up to the budget.
  std::vector<std::unique_ptr<Batch>> batches;
  int64_t columns = 0;
  for (size_t at = 0; at < order.size(); at += size_t(local)) {
    const int64_t chunk = (db.length(size_t(order[at])) + 3) / 4 * 4 * local;
    if (batches.empty() || (columns > 0 && columns + chunk > budget)) {
      if (!batches.empty()) batches.back()->end = at;
      batches.push_back(std::make_unique<Batch>());
      batches.back()->begin = at;
      columns = 0;
    }
    columns += chunk;
  }
  batches.back()->end = order.size();
  r.batches += batches.size();
  size_t launches_done = 0, launches_total = 0;
  int64_t max_words = 0;
  size_t max_scratch = 8, max_scores = 1;
  for (auto& b : batches) {
    b->pb = layout_batch(db, order, b->begin, b->end, local);
    const size_t slots = b->pb.subjects.size();
    // Enough work-items to fill the device, and at most 4 launches per batch: a launch's
    // longest chunk (started first) then overlaps the rest instead of ending it alone.
    const size_t fill = size_t((target + int64_t(slots) - 1) / int64_t(slots));
    const size_t fits = size_t(std::max<int64_t>(1, bmax / (8 * b->pb.boundary_columns)));
    b->pairs_per_launch =
        std::clamp<size_t>(std::max(fill, (npairs + 3) / 4), 1, std::min(npairs, fits));
    launches_total += (npairs + b->pairs_per_launch - 1) / b->pairs_per_launch;
    max_words = std::max(max_words, b->pb.words);
    max_scratch = std::max(max_scratch, size_t(b->pb.boundary_columns) * 8 * b->pairs_per_launch);
    max_scores = std::max(max_scores, b->pb.subjects.size() * b->pairs_per_launch);
  }
  const cl::Buffer& dbnd = ctx.scratch(0, max_scratch);
  // Two pinned staging buffers (one for a single batch), mapped on the uploads' queue: the
  // packer writes the next batch into the one whose upload has completed. The first is pinned
  // and packed (on every thread) before the first launch; the second is pinned by the task that
  // packs batch 1, while batch 0 runs (pinning costs ~0.4-0.7 ms a MiB on the H200).
  std::shared_ptr<uint32_t> staging[2];
  cl::Event uploaded[2];
  staging[0] = pinned<uint32_t>(uploads, size_t(max_words));
  auto pack = [&](size_t b, unsigned nthreads) {
    if (!staging[b % 2]) staging[b % 2] = pinned<uint32_t>(uploads, size_t(max_words));
    fill_batch(db, batches[b]->pb, local, staging[b % 2].get(), nthreads);
  };
  std::future<void> packing = std::async(std::launch::async, pack, size_t(0), threads);
  // The scores of launch g land in scores[g % 2], pinned: a read into pageable memory held
  // NVIDIA's in-order queue, and so the next launch behind it, until the host waited for it
  // (seen with pipelined CG's sums reads on 4 H200s).
  std::shared_ptr<uint32_t> scores[2] = {pinned<uint32_t>(queue, max_scores),
                                         pinned<uint32_t>(queue, max_scores)};
  size_t launched = 0;
  const unsigned pack_threads = std::max(1u, threads / 2);  // beside the ranking of scores
  cl::Kernel k = ctx.kernel("search.cl", "search_inter", defines);
  std::vector<Pending> pending;
  std::vector<std::vector<ExactJob>> sat(threads);
  auto consume = [&](Pending& pd) {
    check(pd.read.wait(), "clWaitForEvents(search scores)");
    r.kernel_ms += event_ms(pd.kernel);
    const Batch& b = *pd.batch;
    const size_t slots = b.pb.subjects.size();
    const uint32_t* sc = scores[pd.buf].get();
    auto work = [&](unsigned t) {
      for (size_t p = t; p < pd.count; p += threads) {
        const size_t pair = pd.first + p;
        const int32_t qa = qp.a[pair], qb = qp.b[pair];
        const uint32_t* row = sc + p * slots;
        for (size_t slot = 0; slot < slots; ++slot) {
          const int64_t id = b.pb.subjects[slot];
          if (id < 0) continue;
          const int32_t lo = int16_t(row[slot] & 0xffff), hi = int16_t(row[slot] >> 16);
          if (lo > limit)
            sat[t].push_back({qa, id});
          else
            keep[size_t(qa)].add(lo, id);
          if (qb < 0) continue;
          if (hi > limit)
            sat[t].push_back({qb, id});
          else
            keep[size_t(qb)].add(hi, id);
        }
      }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t);
    work(0);
    for (auto& th : pool) th.join();
    if (o.progress) o.progress(double(++launches_done) / double(launches_total));
  };
  try {
    for (size_t bi = 0; bi < batches.size(); ++bi) {
      Batch& b = *batches[bi];
      packing.get();  // batch bi is in staging[bi % 2]
      const size_t slots = b.pb.subjects.size(), nchunks = b.pb.chunks.size() / 4;
      const size_t P = b.pairs_per_launch;
      b.words = make_buffer(ctx.context(), CL_MEM_READ_ONLY, size_t(b.pb.words) * 4);
      b.chunks = make_buffer(ctx.context(), CL_MEM_READ_ONLY, b.pb.chunks.size() * 4);
      check(uploads.enqueueWriteBuffer(b.words, CL_FALSE, 0, size_t(b.pb.words) * 4,
                                       staging[bi % 2].get(), nullptr, &uploaded[bi % 2]),
            "clEnqueueWriteBuffer(search database)");
      check(uploads.enqueueWriteBuffer(b.chunks, CL_FALSE, 0, b.pb.chunks.size() * 4,
                                       b.pb.chunks.data(), nullptr, &b.uploaded_chunks),
            "clEnqueueWriteBuffer(search chunks)");
      check(uploads.flush(), "clFlush");
      for (size_t first = 0; first < npairs; first += P)
        b.score.push_back(make_buffer(ctx.context(), CL_MEM_WRITE_ONLY, slots * P * 4));
      if (bi + 1 < batches.size()) {  // its staging buffer is free once batch bi-1 is uploaded
        if (uploaded[(bi + 1) % 2]()) check(uploaded[(bi + 1) % 2].wait(), "clWaitForEvents");
        packing = std::async(std::launch::async, pack, bi + 1, pack_threads);
      }
      // Launch n+1 runs while the host ranks the scores of launch n (across batches too).
      for (size_t first = 0, n = 0; first < npairs; first += P, ++n) {
        const int cnt = int(std::min(P, npairs - first)), base = int(first), nslots = int(slots);
        set_args(k, b.words, b.chunks, cnt, base, dprof, dinfo, dbnd, b.score[n], nslots, neg_open,
                 neg_ext);
        Pending pd{&b, first, size_t(cnt), int(launched++ % 2), {}, {}};
        // The batch's first launch waits for its upload; the in-order queue holds the others
        // behind it (each waiting only on the queue, not on another queue's events).
        std::vector<cl::Event> after{uploaded[bi % 2], b.uploaded_chunks};
        pd.kernel = launch(queue, k, nchunks * size_t(cnt) * size_t(local), size_t(local),
                           n == 0 ? &after : nullptr);
        check(queue.flush(), "clFlush");  // the read below waits for it
        if (launched == 1)
          r.start_ms +=
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - entry)
                  .count();
        const std::vector<cl::Event> ran{pd.kernel};
        check(reads.enqueueReadBuffer(b.score[n], CL_FALSE, 0, slots * size_t(cnt) * 4,
                                      scores[pd.buf].get(), &ran, &pd.read),
              "clEnqueueReadBuffer(search scores)");
        check(reads.flush(), "clFlush");
        pending.push_back(pd);
        if (pending.size() == 2) {
          consume(pending[0]);
          pending.erase(pending.begin());
        }
        if (n == 0 && bi + 1 == batches.size()) {  // unpin the staging while the last batch runs
          check(uploaded[bi % 2].wait(), "clWaitForEvents(search database)");
          staging[0].reset(), staging[1].reset();
        }
      }
      // The queued commands keep what they use; the budget holds one batch (and the next one's
      // upload) on the device.
      b.words = b.chunks = cl::Buffer();
      b.score.clear();
    }
    for (Pending& pd : pending) consume(pd);
  } catch (...) {
    if (packing.valid()) packing.wait();
    queue.finish();
    uploads.finish();
    reads.finish();
    throw;
  }
  for (auto& v : sat) {
    r.recomputed += v.size();
    jobs.insert(jobs.end(), v.begin(), v.end());
  }
}

}  // namespace lockstep::detail
