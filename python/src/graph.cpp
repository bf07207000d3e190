// Graphs: BFS on a CSR adjacency, all-pairs shortest paths on an edge list (distances as float64
// with inf, predecessors in SciPy's convention) and the graph reader.
#include <cmath>

#include "common.hpp"

namespace lockstep::python {
namespace {

constexpr int32_t kNoPredecessor = -9999;  // scipy.sparse.csgraph's value

py::tuple bfs_py(const ContextPtr& c, int64_t n, const Array<int32_t>& indptr,
                 const Array<int32_t>& indices, int64_t source, const std::string& algorithm,
                 const std::string& barrier, int local_size) {
  if (n < 0 || n > INT32_MAX - 1) throw input_error("bfs: the graph does not fit 32-bit indices");
  if (source < 0 || source >= n)
    throw input_error("bfs: source " + std::to_string(source) + " outside [0, " +
                      std::to_string(n) + ")");
  check_csr("bfs", n, n, indptr, indices);
  BfsOptions o;
  o.algorithm = parse_bfs_algorithm(algorithm);
  o.barrier = parse_barrier_choice(barrier);
  if (local_size < 0) throw input_error("bfs: local_size must be positive");
  if (local_size > 0) o.local_size = local_size;
  BfsResult r = device_call(*c, [&](Context& ctx) {
    CsrGraph g(int32_t(n), to_vector(indptr), to_vector(indices), true);
    return bfs(ctx, g, int32_t(source), o);
  });
  return py::make_tuple(to_numpy(std::move(r.levels)), to_numpy(std::move(r.parents)));
}

/// SciPy's predecessor matrix from lockstep's next-hop matrix: pred(u, v) is the vertex before v
/// on the path u -> v, which is pred(next(u, v), v) unless next(u, v) is v itself.
std::vector<int32_t> predecessors(const std::vector<int32_t>& next, int32_t n) {
  std::vector<int32_t> pred(size_t(n) * n, kNoPredecessor), chain;
  std::vector<char> known(static_cast<size_t>(n));
  for (int32_t v = 0; v < n; ++v) {
    std::fill(known.begin(), known.end(), 0);
    known[size_t(v)] = 1;
    for (int32_t u = 0; u < n; ++u) {
      chain.clear();
      int32_t x = u, found = kNoPredecessor;
      for (int32_t steps = 0; !known[size_t(x)] && steps <= n; ++steps) {
        const int32_t h = next[size_t(x) * n + v];
        if (h < 0) break;  // unreachable
        chain.push_back(x);
        if (h == v) {
          found = x;
          break;
        }
        x = h;
      }
      if (found == kNoPredecessor && !chain.empty() && known[size_t(x)])
        found = pred[size_t(x) * n + v];
      for (int32_t y : chain) pred[size_t(y) * n + v] = found, known[size_t(y)] = 1;
    }
  }
  return pred;
}

template <typename T>
py::tuple apsp_typed(SharedContext& c, Graph& g, ApspConfig config) {
  ApspResult<T> r = device_call(c, [&](Context& ctx) { return apsp<T>(ctx, g, config); });
  const int32_t n = g.n;
  py::array_t<double> dist({py::ssize_t(n), py::ssize_t(n)});
  double* d = dist.mutable_data();
  for (size_t i = 0; i < r.dist.size(); ++i)
    d[i] = r.dist[i] == apsp_infinity<T>() ? INFINITY : double(r.dist[i]);
  if (!config.paths) return py::make_tuple(dist, py::none());
  return py::make_tuple(dist, to_numpy(predecessors(r.next, n), n, n));
}

py::tuple apsp_py(const ContextPtr& c, int64_t n, const Array<int32_t>& src,
                  const Array<int32_t>& dst, const Array<double>& weight, bool integer, bool paths,
                  const std::string& algorithm) {
  if (n < 0 || n > 46340) throw input_error("apsp: n x n distances must fit 32-bit indices");
  if (src.size() != dst.size() || src.size() != weight.size())
    throw input_error("apsp: src, dst and weight differ in length");
  Graph g;
  g.n = int32_t(n);
  g.src = to_vector(src), g.dst = to_vector(dst), g.weight = to_vector(weight);
  for (size_t e = 0; e < g.src.size(); ++e)
    if (g.src[e] < 0 || g.src[e] >= n || g.dst[e] < 0 || g.dst[e] >= n)
      throw input_error("apsp: edge " + std::to_string(e) + " leaves [0, " + std::to_string(n) +
                        ")");
  ApspConfig config;
  if (algorithm != "auto") config.algorithm = parse_apsp_algorithm(algorithm);
  config.paths = paths;
  if (n == 0) {
    const std::vector<py::ssize_t> shape{0, 0};
    py::object pred = paths ? py::object(py::array_t<int32_t>(shape)) : py::object(py::none());
    return py::make_tuple(py::array_t<double>(shape), pred);
  }
  return integer ? apsp_typed<int32_t>(*c, g, config) : apsp_typed<float>(*c, g, config);
}

}  // namespace

void bind_graph(py::module_& m) {
  m.def("bfs", &bfs_py);
  m.def("apsp", &apsp_py);
  m.def("read_graph", [](const std::string& path, const std::string& format, bool undirected) {
    Csr<double> a = [&] {
      py::gil_scoped_release nogil;
      Graph g = read_graph(path, parse_graph_format(format), undirected);
      Triplets t;
      t.rows = t.cols = g.n;
      t.row = std::move(g.src), t.col = std::move(g.dst), t.value = std::move(g.weight);
      return to_csr<double>(t, Duplicates::min);
    }();
    return py::make_tuple(a.rows, a.cols, to_numpy(std::move(a.row_ptr)),
                          to_numpy(std::move(a.col_idx)), to_numpy(std::move(a.values)));
  });
}

}  // namespace lockstep::python
