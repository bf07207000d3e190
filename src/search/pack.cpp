// The device search's data layouts (see cl/search.cl): database chunks, interleaved residues,
// query pairs with their packed profiles; and the top-K keeper.
#include <algorithm>
#include <numeric>
#include <thread>

#include "search/search_impl.hpp"

namespace lockstep::detail {

bool packed_fits(const Scoring& s) {
  if (s.size() < 1 || s.size() > kPadCode) return false;
  for (int32_t v : s.table)
    if (v < -8192 || v > 8192) return false;
  return s.gap_open >= 0 && s.gap_extend >= 0 && int64_t(s.gap_open) + s.gap_extend <= 8192;
}

int32_t packed_limit(const Scoring& s) {
  return 32767 - std::max(0, *std::max_element(s.table.begin(), s.table.end()));
}

PackedBatch layout_batch(const SequenceSet& db, const std::vector<int64_t>& order, size_t begin,
                         size_t end, int local) {
  PackedBatch p;
  const size_t n = end - begin, nchunks = (n + local - 1) / local;
  p.subjects.assign(nchunks * local, -1);
  for (size_t c = 0; c < nchunks; ++c) {
    int64_t longest = 0;
    for (size_t l = 0; l < size_t(local) && c * local + l < n; ++l) {
      const int64_t id = order[begin + c * local + l];
      p.subjects[c * local + l] = id;
      longest = std::max(longest, db.length(size_t(id)));
      p.residues += db.length(size_t(id));
    }
    const int64_t padded = std::max<int64_t>(4, (longest + 3) / 4 * 4);
    p.chunks.insert(p.chunks.end(), {int32_t(p.words), int32_t(padded), int32_t(p.boundary_columns),
                                     int32_t(c * local)});
    p.words += padded / 4 * local;
    p.boundary_columns += padded * local;
    if (p.words > INT32_MAX || p.boundary_columns > INT32_MAX)
      throw input_error("search: a database batch exceeds 2^31 words (lower --max-device-mib)");
  }
  return p;
}

void fill_batch(const SequenceSet& db, const PackedBatch& p, int local, uint32_t* words,
                unsigned threads) {
  // Word by word (the writes sequential, each lane's residues read in order), chunks split over
  // the threads: a 500 M-residue database packs in a fraction of the byte-wise time.
  const size_t nchunks = p.chunks.size() / 4;
  auto fill = [&](size_t c0, size_t c1) {
    for (size_t c = c0; c < c1; ++c) {
      uint32_t* out = words + p.chunks[4 * c];
      const int64_t nw = p.chunks[4 * c + 1] / 4;
      for (int l = 0; l < local; ++l) {
        const int64_t id = p.subjects[c * local + size_t(l)];
        const uint8_t* r = id < 0 ? nullptr : db.data(size_t(id));
        const int64_t len = id < 0 ? 0 : db.length(size_t(id));
        for (int64_t w = 0; w < nw; ++w) {
          uint32_t v = 0;
          for (int b = 0; b < 4; ++b) {
            const int64_t j = 4 * w + b;
            v |= uint32_t(j < len ? r[j] : kPadCode) << (8 * b);
          }
          out[w * local + l] = v;
        }
      }
    }
  };
  threads = std::max(1u, std::min(threads, unsigned(nchunks / 64 + 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back(fill, nchunks * t / threads, nchunks * (t + 1) / threads);
  fill(0, nchunks / threads);
  for (auto& th : pool) th.join();
}

QueryPairs pair_queries(const SequenceSet& queries, const Scoring& s, int stripe, bool row_pairs) {
  std::vector<int32_t> order;
  for (size_t q = 0; q < queries.size(); ++q)
    if (queries.length(q) > 0) order.push_back(int32_t(q));
  std::stable_sort(order.begin(), order.end(), [&](int32_t x, int32_t y) {
    return queries.length(size_t(x)) > queries.length(size_t(y));
  });
  QueryPairs qp;
  const int A = s.size();
  auto score = [&](int32_t q, int64_t row, int code) -> uint32_t {
    if (q < 0 || row >= queries.length(size_t(q)) || code >= A) return uint16_t(kPadScore);
    return uint16_t(int16_t(s.table[size_t(queries.data(size_t(q))[row]) * A + code]));
  };
  for (size_t k = 0; k < order.size(); k += 2) {
    const int32_t a = order[k], b = k + 1 < order.size() ? order[k + 1] : -1;
    const int64_t rows = (queries.length(size_t(a)) + stripe - 1) / stripe * stripe;
    qp.a.push_back(a);
    qp.b.push_back(b);
    qp.info.push_back(int32_t(qp.profile.size()));
    qp.info.push_back(int32_t(rows / stripe));
    if (row_pairs)  // rows is a multiple of the (even) stripe
      for (int64_t r = 0; r < rows; r += 2)
        for (int c = 0; c < kSwCodes; ++c)
          for (int64_t k : {r, r + 1})
            qp.profile.push_back(score(a, k, c) | (score(b, k, c) << 16));
    else
      for (int64_t r = 0; r < rows; ++r)
        for (int c = 0; c < kSwCodes; ++c)
          qp.profile.push_back(score(a, r, c) | (score(b, r, c) << 16));
  }
  if (qp.profile.size() > size_t(INT32_MAX))
    throw input_error("search: the query profiles exceed 2^31 words");
  return qp;
}

void TopK::shrink() {
  if (c_.size() > top_) {
    std::nth_element(c_.begin(), c_.begin() + (top_ - 1), c_.end(), better);
    c_.resize(top_);
  }
  if (c_.size() == top_) {
    full_ = true;
    floor_ = *std::max_element(c_.begin(), c_.end(), better);  // the worst kept
  }
}

std::vector<std::pair<int32_t, int64_t>> TopK::take() {
  std::sort(c_.begin(), c_.end(), better);
  if (c_.size() > top_) c_.resize(top_);
  return c_;
}

}  // namespace lockstep::detail
