// Graph readers: Matrix Market (through read_triplets), SNAP edge lists and DIMACS 9th challenge
// .gr files, all through read_input (files, pipes, stdin, gzip) and LineReader (errors name the
// file and line). Vertices are 0-based; a .gr vertex k is k-1.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "lockstep/error.hpp"
#include "lockstep/graph.hpp"
#include "lockstep/io.hpp"
#include "lockstep/matrix_market.hpp"

namespace lockstep {
namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Splits a line on spaces and tabs.
std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> f;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    if (j > i) f.push_back(line.substr(i, j - i));
    i = j;
  }
  return f;
}

// An integer in [lo, hi], or reader.fail().
int64_t integer(const LineReader& r, std::string_view s, int64_t lo, int64_t hi, const char* what) {
  std::string t(s);
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(t.c_str(), &end, 10);
  if (t.empty() || *end != '\0' || errno == ERANGE)
    r.fail(std::string(what) + " '" + t + "' is not an integer");
  if (v < lo || v > hi)
    r.fail(std::string(what) + " " + t + " is outside [" + std::to_string(lo) + ", " +
           std::to_string(hi) + "]");
  return v;
}

double real(const LineReader& r, std::string_view s, const char* what) {
  std::string t(s);
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(t.c_str(), &end);
  if (t.empty() || *end != '\0' || std::isnan(v))
    r.fail(std::string(what) + " '" + t + "' is not a number");
  if (errno == ERANGE && std::isinf(v))  // 1e999: not the explicit "inf" of a missing edge
    r.fail(std::string(what) + " '" + t + "' overflows a double");
  return v;
}

// The weights a shortest-path run of each type can hold (ValueCheck of read_triplets): +inf is
// an explicit missing edge; NaN, -inf and values the type turns into infinity are refused.
const char* any_weight(double w) {
  return std::isnan(w) || w == -HUGE_VAL ? "a weight must be a number below +inf" : nullptr;
}
const char* f32_weight(double w) {
  if (const char* why = any_weight(w)) return why;
  return std::isfinite(w) && std::fabs(w) > std::numeric_limits<float>::max()
             ? "overflows f32 (largest 3.40282e+38): the edge would become infinite, i.e. missing"
             : nullptr;
}
const char* i32_weight(double w) {
  if (const char* why = any_weight(w)) return why;
  if (std::isinf(w)) return nullptr;
  if (w != std::floor(w)) return "is not an integer (use --type f32)";
  return std::fabs(w) >= double(1 << 28) ? "is 2^28 or more (i32 distances stay below 2^28; use "
                                           "--type f32)"
                                         : nullptr;
}
ValueCheck weight_check(WeightType t) {
  return t == WeightType::f32 ? f32_weight : t == WeightType::i32 ? i32_weight : nullptr;
}

double weight(const LineReader& r, std::string_view s, ValueCheck check) {
  const double w = real(r, s, "weight");
  if (const char* why = check ? check(w) : nullptr) r.fail("weight " + std::string(s) + ": " + why);
  return w;
}

// Size checks before allocation: every consumer of an n-vertex graph holds row pointers and a
// value per vertex (read_triplets' rule for an n x n matrix).
void check_vertices(const std::string& where, int64_t n) {
  check_host_memory(where, "a graph of " + std::to_string(n) + " vertices", 12.0 * double(n));
}

constexpr int64_t kMaxId = std::numeric_limits<int32_t>::max() - 1;

bool starts_with_nocase(std::string_view s, std::string_view head) {
  if (s.size() < head.size()) return false;
  for (size_t i = 0; i < head.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != head[i]) return false;
  return true;
}

Graph read_snap(const std::string& path, ValueCheck check) {
  const std::string text = read_input(path);
  LineReader r(path, text);
  Graph g;
  std::string_view line;
  int64_t top = -1;
  int top_line = 0;
  while (r.next(line)) {
    if (starts_with_nocase(line, "%%matrixmarket"))  // its size line would read as an edge
      r.fail(
          "a Matrix Market banner in a SNAP edge list: read it as Matrix Market (--format "
          "mtx, or a .mtx name)");
    auto f = fields(line);
    if (f.empty() || f[0][0] == '#' || f[0][0] == '%') continue;
    if (f.size() != 2 && f.size() != 3)
      r.fail("expected 'u v' or 'u v w' (0-based vertex ids), got " + std::to_string(f.size()) +
             " fields");
    int64_t u = integer(r, f[0], 0, kMaxId, "vertex"), v = integer(r, f[1], 0, kMaxId, "vertex");
    double w = f.size() == 3 ? weight(r, f[2], check) : 1.0;
    if (std::max(u, v) > top) top = std::max(u, v), top_line = r.line();
    g.add_edge(int32_t(u), int32_t(v), w);
  }
  if (top >= 0) check_vertices(path + ":" + std::to_string(top_line), top + 1);
  g.n = int32_t(top + 1);
  return g;
}

Graph read_dimacs(const std::string& path, ValueCheck check) {
  const std::string text = read_input(path);
  LineReader r(path, text);
  Graph g;
  std::string_view line;
  int64_t m = -1;
  while (r.next(line)) {
    auto f = fields(line);
    if (f.empty() || f[0] == "c") continue;
    if (f[0] == "p") {
      if (m >= 0) r.fail("a second problem line");
      if (f.size() != 4 || f[1] != "sp") r.fail("expected the problem line 'p sp N M'");
      g.n = int32_t(integer(r, f[2], 0, kMaxId, "vertex count"));
      check_vertices(path + ":" + std::to_string(r.line()), g.n);
      m = integer(r, f[3], 0, std::numeric_limits<int32_t>::max(), "arc count");
      g.src.reserve(size_t(std::min<int64_t>(m, int64_t(text.size() / 6 + 1))));
    } else if (f[0] == "a") {
      if (m < 0) r.fail("arc before the problem line 'p sp N M'");
      if (f.size() != 4) r.fail("expected 'a U V W'");
      int64_t u = integer(r, f[1], 1, g.n, "vertex"), v = integer(r, f[2], 1, g.n, "vertex");
      g.add_edge(int32_t(u - 1), int32_t(v - 1), weight(r, f[3], check));
    } else {
      r.fail("unknown line type '" + std::string(f[0]) + "' (expected c, p or a)");
    }
  }
  if (m < 0) r.fail("no problem line 'p sp N M'");
  if (int64_t(g.src.size()) != m)
    r.fail("the problem line declares " + std::to_string(m) + " arcs, the file has " +
           std::to_string(g.src.size()));
  return g;
}

Graph read_mm(const std::string& path, ValueCheck check) {
  Triplets t = read_triplets(path, check);
  if (t.rows != t.cols)
    throw input_error(path + ": a graph needs a square matrix, got " + std::to_string(t.rows) +
                      " x " + std::to_string(t.cols));
  Graph g;
  g.n = t.rows;
  g.src = std::move(t.row);
  g.dst = std::move(t.col);
  g.weight = std::move(t.value);
  return g;
}

}  // namespace

GraphFormat parse_graph_format(const std::string& name) {
  if (name == "auto") return GraphFormat::automatic;
  if (name == "mtx" || name == "mm") return GraphFormat::matrix_market;
  if (name == "snap") return GraphFormat::snap;
  if (name == "dimacs" || name == "gr") return GraphFormat::dimacs;
  throw input_error("unknown graph format '" + name + "' (expected auto, mtx, snap or dimacs)");
}

const char* to_string(GraphFormat f) {
  switch (f) {
    case GraphFormat::matrix_market:
      return "mtx";
    case GraphFormat::snap:
      return "snap";
    case GraphFormat::dimacs:
      return "dimacs";
    default:
      return "auto";
  }
}

GraphFormat graph_format_of(const std::string& path) {
  std::string p = path;
  if (ends_with(p, ".gz")) p.resize(p.size() - 3);
  if (ends_with(p, ".mtx") || ends_with(p, ".mm")) return GraphFormat::matrix_market;
  if (ends_with(p, ".gr")) return GraphFormat::dimacs;
  for (const char* e : {".txt", ".el", ".edges", ".snap", ".tsv"})
    if (ends_with(p, e)) return GraphFormat::snap;
  return GraphFormat::matrix_market;  // any other name: Matrix Market, as before
}

Graph read_graph(const std::string& path, GraphFormat format, bool undirected, WeightType weights) {
  if (format == GraphFormat::automatic) format = graph_format_of(path);
  const ValueCheck check = weight_check(weights);
  Graph g = format == GraphFormat::snap     ? read_snap(path, check)
            : format == GraphFormat::dimacs ? read_dimacs(path, check)
                                            : read_mm(path, check);
  if (undirected) g.add_reverse_edges();
  return g;
}

void Graph::add_reverse_edges() {
  const size_t m = src.size();
  for (size_t e = 0; e < m; ++e)
    if (src[e] != dst[e]) add_edge(dst[e], src[e], weight[e]);
}

}  // namespace lockstep
