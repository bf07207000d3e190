// Graph readers: Matrix Market (through read_triplets), SNAP edge lists and DIMACS 9th challenge
// .gr files, all through read_input (files, pipes, stdin, gzip) and LineReader (errors name the
// file and line). Vertices are 0-based; a .gr vertex k is k-1.
#include <algorithm>
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
  double v = std::strtod(t.c_str(), &end);
  if (t.empty() || *end != '\0' || std::isnan(v))
    r.fail(std::string(what) + " '" + t + "' is not a number");
  return v;
}

constexpr int64_t kMaxId = std::numeric_limits<int32_t>::max() - 1;

Graph read_snap(const std::string& path) {
  const std::string text = read_input(path);
  LineReader r(path, text);
  Graph g;
  std::string_view line;
  int64_t top = -1;
  while (r.next(line)) {
    auto f = fields(line);
    if (f.empty() || f[0][0] == '#' || f[0][0] == '%') continue;
    if (f.size() != 2 && f.size() != 3)
      r.fail("expected 'u v' or 'u v w' (0-based vertex ids), got " + std::to_string(f.size()) +
             " fields");
    int64_t u = integer(r, f[0], 0, kMaxId, "vertex"), v = integer(r, f[1], 0, kMaxId, "vertex");
    double w = f.size() == 3 ? real(r, f[2], "weight") : 1.0;
    top = std::max(top, std::max(u, v));
    g.add_edge(int32_t(u), int32_t(v), w);
  }
  g.n = int32_t(top + 1);
  return g;
}

Graph read_dimacs(const std::string& path) {
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
      m = integer(r, f[3], 0, std::numeric_limits<int32_t>::max(), "arc count");
      g.src.reserve(size_t(std::min<int64_t>(m, int64_t(text.size() / 6 + 1))));
    } else if (f[0] == "a") {
      if (m < 0) r.fail("arc before the problem line 'p sp N M'");
      if (f.size() != 4) r.fail("expected 'a U V W'");
      int64_t u = integer(r, f[1], 1, g.n, "vertex"), v = integer(r, f[2], 1, g.n, "vertex");
      g.add_edge(int32_t(u - 1), int32_t(v - 1), real(r, f[3], "weight"));
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

Graph read_mm(const std::string& path) {
  Triplets t = read_triplets(path);
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

Graph read_graph(const std::string& path, GraphFormat format, bool undirected) {
  if (format == GraphFormat::automatic) format = graph_format_of(path);
  Graph g = format == GraphFormat::snap     ? read_snap(path)
            : format == GraphFormat::dimacs ? read_dimacs(path)
                                            : read_mm(path);
  if (undirected) g.add_reverse_edges();
  return g;
}

void Graph::add_reverse_edges() {
  const size_t m = src.size();
  for (size_t e = 0; e < m; ++e)
    if (src[e] != dst[e]) add_edge(dst[e], src[e], weight[e]);
}

}  // namespace lockstep
