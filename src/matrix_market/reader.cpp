// Matrix Market reader. The whole input is read at once by read_input (so pipes, stdin and .gz
// files work; directories and unreadable paths are refused by name), split into lines by
// LineReader and parsed with std::from_chars; every error names FILE:LINE and what was
// expected. Sizes are checked against 32-bit index limits
// before anything is allocated, and memory is reserved only for as many entries as the text
// can hold.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include "lockstep/error.hpp"
#include "lockstep/io.hpp"
#include "lockstep/matrix_market.hpp"

namespace lockstep {
namespace {

class Parser {
 public:
  Parser(const std::string& path, std::string text) : text_(std::move(text)), lines_(path, text_) {}

  [[noreturn]] void fail(const std::string& what) const { lines_.fail(what); }

  // The current line as [b, e) without the line break; advances past it. False at end of file.
  bool next_line(const char*& b, const char*& e) {
    std::string_view line;
    if (!lines_.next(line)) return false;
    b = line.data();
    e = line.data() + line.size();
    return true;
  }
  // Next line that is neither blank nor a comment.
  bool next_data_line(const char*& b, const char*& e) {
    while (next_line(b, e)) {
      const char* s = skip_space(b, e);
      if (s != e && *s != '%') return true;
    }
    return false;
  }
  static const char* skip_space(const char* b, const char* e) {
    while (b < e && (*b == ' ' || *b == '\t')) ++b;
    return b;
  }
  template <typename N>
  bool number(const char*& b, const char* e, N& out) {
    b = skip_space(b, e);
    if (b == e) return false;
    const char* s = b;
    if constexpr (std::is_floating_point_v<N>) {
      if (*s == '+') ++s;  // from_chars rejects a leading '+'
    }
    auto [ptr, ec] = std::from_chars(s, e, out);
    if (ec != std::errc() || (ptr < e && *ptr != ' ' && *ptr != '\t')) return false;
    b = ptr;
    return true;
  }
  size_t size() const { return text_.size(); }
  std::string where() const { return lines_.path() + ":" + std::to_string(lines_.line()); }

 private:
  std::string text_;
  LineReader lines_;  // over text_
};

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

MatrixMarketBanner parse_banner(Parser& ps, const char* b, const char* e) {
  std::string line = lower(std::string(b, e));
  char obj[64] = {}, fmt[64] = {}, field[64] = {}, sym[64] = {};
  if (line.rfind("%%matrixmarket", 0) != 0 ||
      std::sscanf(line.c_str(), "%%%%matrixmarket %63s %63s %63s %63s", obj, fmt, field, sym) != 4)
    ps.fail(
        "expected the banner '%%MatrixMarket matrix coordinate|array real|integer|pattern "
        "general|symmetric|skew-symmetric'");
  if (std::string(obj) != "matrix")
    ps.fail("unsupported object '" + std::string(obj) + "' (expected 'matrix')");
  MatrixMarketBanner m{fmt, field, sym};
  if (m.format != "coordinate" && m.format != "array")
    ps.fail("unsupported format '" + m.format + "' (expected 'coordinate' or 'array')");
  if (m.field == "complex")
    ps.fail("unsupported field 'complex' (lockstep reads real, integer and pattern)");
  if (m.field != "real" && m.field != "integer" && m.field != "pattern" && m.field != "double")
    ps.fail("unsupported field '" + m.field + "' (expected real, integer or pattern)");
  if (m.field == "double") m.field = "real";
  if (m.symmetry == "hermitian")
    ps.fail("unsupported symmetry 'hermitian' (lockstep reads general, symmetric, skew-symmetric)");
  if (m.symmetry != "general" && m.symmetry != "symmetric" && m.symmetry != "skew-symmetric")
    ps.fail("unsupported symmetry '" + m.symmetry +
            "' (expected general, symmetric or skew-symmetric)");
  if (m.format == "array" && m.field == "pattern") ps.fail("'array' files cannot be 'pattern'");
  return m;
}

}  // namespace

const char* fits_float(double v) {
  return std::isfinite(v) && std::fabs(v) > double(std::numeric_limits<float>::max())
             ? "overflows f32 (largest 3.40282e+38): it would become infinite (read it in double "
               "precision)"
             : nullptr;
}

Triplets read_triplets(const std::string& path, ValueCheck check) {
  Parser ps(path, read_input(path));
  const char *b, *e;
  if (!ps.next_line(b, e)) ps.fail("empty file (expected the %%MatrixMarket banner)");
  Triplets t;
  t.banner = parse_banner(ps, b, e);
  const bool coord = t.banner.format == "coordinate", pattern = t.banner.field == "pattern";
  const bool integer = t.banner.field == "integer";
  const bool sym = t.banner.symmetry != "general", skew = t.banner.symmetry == "skew-symmetric";

  if (!ps.next_data_line(b, e))
    ps.fail("missing size line (expected 'rows cols" + std::string(coord ? " nnz'" : "'") + ")");
  long long rows = -1, cols = -1, nnz = -1;
  if (!ps.number(b, e, rows) || !ps.number(b, e, cols) || (coord && !ps.number(b, e, nnz)) ||
      Parser::skip_space(b, e) != e)
    ps.fail(std::string("bad size line (expected 'rows cols") + (coord ? " nnz'" : "'") +
            " as non-negative integers)");
  constexpr long long kMax = std::numeric_limits<int32_t>::max();
  if (rows < 0 || cols < 0 || (coord && nnz < 0)) ps.fail("negative size in size line");
  if (rows > kMax || cols > kMax)
    ps.fail("matrix of " + std::to_string(rows) + " x " + std::to_string(cols) +
            " exceeds lockstep's 32-bit index limit (" + std::to_string(kMax) + ")");
  if (!coord)  // array files list every entry; symmetric ones the lower triangle only (< 2^62)
    nnz = t.banner.symmetry == "general"     ? rows * cols
          : t.banner.symmetry == "symmetric" ? rows * (rows + 1) / 2
                                             : rows * (rows > 0 ? rows - 1 : 0) / 2;
  // Checked in this order, no product or sum here can overflow.
  const long long stored = nnz > kMax ? nnz : sym ? 2 * nnz : nnz;
  if (stored > kMax)
    ps.fail(std::to_string(nnz) + " entries exceed lockstep's 32-bit index limit (" +
            std::to_string(kMax) + ")");
  if (coord && rows > 0 && cols > 0 && nnz > rows * cols && !sym)
    ps.fail("declares " + std::to_string(nnz) + " entries, more than rows*cols");
  if (sym && rows != cols) ps.fail("a " + t.banner.symmetry + " matrix must be square");
  check_host_memory(ps.where(),
                    "a matrix of " + std::to_string(rows) + " x " + std::to_string(cols),
                    4.0 * double(rows + 1) + 4.0 * double(rows + cols));
  t.rows = int32_t(rows);
  t.cols = int32_t(cols);
  // Reserve no more than the text can hold (an entry takes at least two bytes, "1\n"), so a
  // size line that lies costs no memory before the missing entries are noticed.
  const size_t room = std::min(size_t(stored), (sym ? 2 : 1) * (ps.size() / 2 + 1));
  t.row.reserve(room);
  t.col.reserve(room);
  t.value.reserve(room);

  auto add = [&](long long i, long long j, double v) {
    t.row.push_back(int32_t(i));
    t.col.push_back(int32_t(j));
    t.value.push_back(v);
    if (sym && i != j) {
      t.row.push_back(int32_t(j));
      t.col.push_back(int32_t(i));
      t.value.push_back(skew ? -v : v);
    }
  };
  long long ai = skew ? 1 : 0, aj = 0;  // position in a symmetric array file
  const char* expect = coord ? (pattern ? "'row col'" : "'row col value'") : "'value'";
  for (long long k = 0; k < nnz; ++k) {
    if (!ps.next_data_line(b, e))
      ps.fail("truncated file: " + std::to_string(k) + " of " + std::to_string(nnz) +
              " entries read");
    long long i = 0, j = 0;
    double v = 1;
    if (coord) {
      if (!ps.number(b, e, i) || !ps.number(b, e, j))
        ps.fail("bad index (expected " + std::string(expect) + ")");
      if (i < 1 || i > rows || j < 1 || j > cols)
        ps.fail("index (" + std::to_string(i) + ", " + std::to_string(j) + ") out of range 1.." +
                std::to_string(rows) + " x 1.." + std::to_string(cols));
      --i, --j;
      if (sym && j > i)
        ps.fail("entry above the diagonal in a " + t.banner.symmetry +
                " file (expected row >= col)");
      if (skew && i == j) ps.fail("diagonal entry in a skew-symmetric file");
    } else if (!sym) {  // array: column-major
      i = k % rows, j = k / rows;
    } else {  // symmetric array: the lower triangle, column by column
      i = ai, j = aj;
      if (++ai == rows) ++aj, ai = aj + (skew ? 1 : 0);
    }
    if (!pattern) {
      bool ok;
      if (integer) {
        long long iv = 0;
        ok = ps.number(b, e, iv);
        v = double(iv);
      } else {
        ok = ps.number(b, e, v);
      }
      if (!ok)
        ps.fail(std::string("bad ") + (integer ? "integer" : "real") + " value (expected " +
                expect + ")");
      if (const char* why = check ? check(v) : nullptr) {
        std::ostringstream s;
        s << "value " << v << ": " << why;
        ps.fail(s.str());
      }
    }
    if (Parser::skip_space(b, e) != e)
      ps.fail("unexpected text after the entry (expected " + std::string(expect) + ")");
    add(i, j, v);
  }
  if (ps.next_data_line(b, e))
    ps.fail("extra entry: the size line declared " + std::to_string(nnz) + " entries");
  return t;
}

}  // namespace lockstep
