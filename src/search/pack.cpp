// The device search's data layouts (see cl/search.cl): database chunks, interleaved residues,
// query pairs with their packed profiles; and the top-K keeper.
#include <algorithm>
#include <numeric>

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

PackedBatch pack_batch(const SequenceSet& db, const std::vector<int64_t>& order, size_t begin,
                       size_t end, int local) {
  PackedBatch p;
  const size_t n = end - begin, nchunks = (n + local - 1) / local;
  p.subjects.assign(nchunks * local, -1);
  int64_t words = 0;
  for (size_t c = 0; c < nchunks; ++c) {
    int64_t longest = 0;
    for (size_t l = 0; l < size_t(local) && c * local + l < n; ++l) {
      const int64_t id = order[begin + c * local + l];
      p.subjects[c * local + l] = id;
      longest = std::max(longest, db.length(size_t(id)));
      p.residues += db.length(size_t(id));
    }
    const int64_t padded = std::max<int64_t>(4, (longest + 3) / 4 * 4);
    p.chunks.insert(p.chunks.end(), {int32_t(words), int32_t(padded),
                                     int32_t(p.boundary_columns), int32_t(c * local)});
    words += padded / 4 * local;
    p.boundary_columns += padded * local;
  }
  if (words > INT32_MAX || p.boundary_columns > INT32_MAX)
    throw input_error("search: a database batch exceeds 2^31 words (lower --max-device-mib)");
  const uint32_t pad4 = kPadCode * 0x01010101u;
  p.words.assign(size_t(words), pad4);
  for (size_t c = 0; c < nchunks; ++c) {
    const int64_t base = p.chunks[4 * c];
    for (int l = 0; l < local; ++l) {
      const int64_t id = p.subjects[c * local + l];
      if (id < 0) continue;
      const uint8_t* r = db.data(size_t(id));
      const int64_t len = db.length(size_t(id));
      for (int64_t j = 0; j < len; ++j) {
        uint32_t& w = p.words[size_t(base + (j / 4) * local + l)];
        const int shift = int(8 * (j % 4));
        w = (w & ~(0xffu << shift)) | (uint32_t(r[j]) << shift);
      }
    }
  }
  return p;
}

QueryPairs pair_queries(const SequenceSet& queries, const Scoring& s, int stripe) {
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
