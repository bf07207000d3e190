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
  // Row by row of the chunk (word w of every lane): the writes sequential, the lanes' residues
  // read as LOCAL_SIZE sequential streams, four bytes at a time away from a subject's end.
  const size_t nchunks = p.chunks.size() / 4;
  auto fill = [&](size_t c0, size_t c1) {
    std::vector<const uint8_t*> src(size_t(local), nullptr);
    std::vector<int64_t> len(size_t(local), 0);
    for (size_t c = c0; c < c1; ++c) {
      uint32_t* out = words + p.chunks[4 * c];
      const int64_t nw = p.chunks[4 * c + 1] / 4;
      for (int l = 0; l < local; ++l) {
        const int64_t id = p.subjects[c * local + size_t(l)];
        src[size_t(l)] = id < 0 ? nullptr : db.data(size_t(id));
        len[size_t(l)] = id < 0 ? 0 : db.length(size_t(id));
      }
      for (int64_t w = 0; w < nw; ++w, out += local) {
        const int64_t j = 4 * w;
        for (int l = 0; l < local; ++l) {
          const uint8_t* r = src[size_t(l)];  // null for a pad lane (length 0)
          const int64_t left = len[size_t(l)] - j;
          uint32_t v;
          if (left >= 4) {
            v = uint32_t(r[j]) | uint32_t(r[j + 1]) << 8 | uint32_t(r[j + 2]) << 16 |
                uint32_t(r[j + 3]) << 24;
          } else {
            v = 0;
            for (int b = 0; b < 4; ++b) v |= uint32_t(b < left ? r[j + b] : kPadCode) << (8 * b);
          }
          out[l] = v;
        }
      }
    }
  };
  split_over(nchunks, std::min(threads, unsigned(nchunks / 64 + 1)), fill);
}

namespace {
queries_too_long too_long(const SequenceSet& queries) {
  const size_t residues = queries.residue_count();
  return queries_too_long("search: the " + std::to_string(queries.size()) + " queries' " +
                          std::to_string(residues) +
                          " residues need profiles of more than 2^31 words (about 67 M query "
                          "residues a search): split the queries into several searches");
}
}  // namespace

QueryPairs pair_queries(const SequenceSet& queries, const Scoring& s, int stripe, bool row_pairs) {
  std::vector<int32_t> order;
  for (size_t q = 0; q < queries.size(); ++q)
    if (queries.length(q) > 0) order.push_back(int32_t(q));
  std::stable_sort(order.begin(), order.end(), [&](int32_t x, int32_t y) {
    return queries.length(size_t(x)) > queries.length(size_t(y));
  });
  QueryPairs qp;
  const int A = s.size();
  int64_t words = 0;
  for (size_t k = 0; k < order.size(); k += 2) {
    const int32_t a = order[k], b = k + 1 < order.size() ? order[k + 1] : -1;
    const int64_t real = queries.length(size_t(a));  // the longer of the pair: sorted
    const int64_t rows = (real + stripe - 1) / stripe * stripe;
    qp.a.push_back(a);
    qp.b.push_back(b);
    if (words > INT32_MAX) throw too_long(queries);
    qp.info.insert(qp.info.end(),
                   {int32_t(words), int32_t(rows / stripe), last_stripe_rows(real, stripe), 0});
    words += rows * kSwCodes;
  }
  if (words > INT32_MAX) throw too_long(queries);
  qp.profile.resize(size_t(words));
  // The 16-bit scores of query Q's row ROW against every code (pad past its end or the alphabet).
  auto row_scores = [&](int32_t q, int64_t row, uint32_t* out) {
    const int32_t* t = q >= 0 && row < queries.length(size_t(q))
                           ? s.table.data() + size_t(queries.data(size_t(q))[row]) * size_t(A)
                           : nullptr;
    for (int c = 0; c < kSwCodes; ++c) out[c] = uint16_t(int16_t(t && c < A ? t[c] : kPadScore));
  };
  auto fill = [&](size_t p0, size_t p1) {
    uint32_t sa[kSwCodes], sb[kSwCodes];
    for (size_t p = p0; p < p1; ++p) {
      uint32_t* out = qp.profile.data() + qp.info[4 * p];
      const int64_t rows = int64_t(qp.info[4 * p + 1]) * stripe;
      for (int64_t r = 0; r < rows; ++r) {
        row_scores(qp.a[p], r, sa);
        row_scores(qp.b[p], r, sb);
        // [row][code], or with row_pairs [row / 2][code][2] (rows is a multiple of the even stripe)
        uint32_t* o = row_pairs ? out + (r >> 1) * 2 * kSwCodes + (r & 1) : out + r * kSwCodes;
        const int step = row_pairs ? 2 : 1;
        for (int c = 0; c < kSwCodes; ++c) o[c * step] = sa[c] | sb[c] << 16;
      }
    }
  };
  split_over(qp.a.size(), unsigned(std::min<size_t>(qp.a.size() / 8 + 1, host_threads())), fill);
  return qp;
}

}  // namespace lockstep::detail
