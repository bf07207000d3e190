// Database search: lockstep::search (on the context's device) or search_cpu (no context), the
// sequence sets from FASTA paths (or `lockstep makedb`'s prepared databases) or from lists of
// residues (bytes, or (name, bytes) pairs), the hits returned as flat NumPy columns
// (python/lockstep/_search.py makes the structured array).
#include <algorithm>
#include <cmath>
#include <mutex>

#include "common.hpp"

namespace lockstep::python {
namespace {

// A path (str): a FASTA file or a prepared database (read_database), or a list of residues encoded
// with encode_exact.
SequenceSet sequences(const py::object& src, const Scoring& s, const char* what) {
  if (py::isinstance<py::str>(src)) {
    const std::string path = src.cast<std::string>();
    py::gil_scoped_release nogil;
    return read_database(path, s);
  }
  SequenceSet set;
  size_t i = 0;
  for (const py::handle item : src) {
    std::string name = std::to_string(i), residues;
    if (py::isinstance<py::tuple>(item)) {
      const py::tuple t = py::reinterpret_borrow<py::tuple>(item);
      name = t[0].cast<std::string>();
      residues = t[1].cast<std::string>();
    } else {
      residues = item.cast<std::string>();
    }
    try {
      set.add(std::move(name), encode_exact(s, residues));
    } catch (const input_error& e) {
      throw input_error(std::string(what) + "[" + std::to_string(i) + "]: " + e.what());
    }
    ++i;
  }
  return set;
}

py::tuple search_py(const std::optional<ContextPtr>& c, const py::object& queries_in,
                    const py::object& db_in, int top, const std::string& matrix, bool dna,
                    int match, int mismatch, int gap_open, int gap_extend,
                    const std::string& algorithm, long long max_device_mib, double max_evalue,
                    const std::string& strand, const std::vector<ContextPtr>& devices) {
  const Scoring s = dna ? blastn_scoring(match, mismatch, gap_open < 0 ? 7 : gap_open,
                                         gap_extend < 0 ? 2 : gap_extend)
                        : matrix_scoring(matrix, gap_open, gap_extend);
  const SequenceSet read = sequences(queries_in, s, "queries");
  const SequenceSet queries = dna ? strand_queries(read, strand) : read;
  const SequenceSet db = sequences(db_in, s, "db");
  SearchOptions o;
  o.top = top;
  o.algorithm = algorithm;
  o.max_device_mib = max_device_mib;
  SearchResult r;
  if (devices.size() > 1) {  // every context locked (in one order), the search over them all
    std::vector<SharedContext*> order;
    for (const ContextPtr& d : devices) order.push_back(d.get());
    std::sort(order.begin(), order.end());
    if (std::adjacent_find(order.begin(), order.end()) != order.end())
      throw input_error(
          "search: devices: a context listed twice (two contexts of one device: "
          "lockstep.Context(0) twice)");
    for (size_t k = 1; k < devices.size(); ++k) o.devices.push_back(&devices[k]->ctx);
    py::gil_scoped_release nogil;
    std::vector<std::unique_lock<std::mutex>> locks;
    for (SharedContext* d : order) locks.emplace_back(d->mu);
    r = search(devices[0]->ctx, queries, db, s, o);
  } else if (c) {
    r = device_call(**c, [&](Context& ctx) { return search(ctx, queries, db, s, o); });
  } else {
    py::gil_scoped_release nogil;
    r = search_cpu(queries, db, s, o);
  }
  if (dna) merge_strands(r, read.size(), strand, top);
  const KarlinAltschul ka = karlin_altschul(s);
  std::vector<int32_t> query, score;
  std::vector<int64_t> subject, qend, send;
  std::vector<double> evalues, bits;
  std::vector<uint8_t> minus;
  for (size_t q = 0; q < r.hits.size(); ++q)
    for (const SearchHit& h : r.hits[q]) {
      const double e =
          ka ? evalue(ka, h.score, queries.length(size_t(h.query)), db.length(size_t(h.subject)),
                      int64_t(db.residue_count()), int64_t(db.size()))
             : std::nan("");
      if (ka && max_evalue > 0 && e > max_evalue) continue;
      query.push_back(int32_t(q));
      subject.push_back(h.subject);
      score.push_back(h.score);
      qend.push_back(h.query_end);
      send.push_back(h.subject_end);
      evalues.push_back(e);
      bits.push_back(ka ? bit_score(ka, h.score) : std::nan(""));
      minus.push_back(h.minus);
    }
  return py::make_tuple(to_numpy(std::move(query)), to_numpy(std::move(subject)),
                        to_numpy(std::move(score)), to_numpy(std::move(qend)),
                        to_numpy(std::move(send)), read.names, db.names, r.algorithm, r.ms, r.cells,
                        read.skipped_empty + db.skipped_empty, to_numpy(std::move(evalues)),
                        to_numpy(std::move(bits)), to_numpy(std::move(minus)));
}

}  // namespace

void bind_search(py::module_& m) {
  m.def("search", &search_py);
  m.def("_select_devices", [](const std::string& spec) {  // indices into lockstep.devices()
    std::vector<int> out;
    for (const cl::Device& d : select_devices(spec)) out.push_back(describe(d).index);
    return out;
  });
  m.def("_is_builtin_matrix", &is_builtin_matrix);
}

}  // namespace lockstep::python
