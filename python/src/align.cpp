// Alignment: Smith-Waterman of one pair (on the context's device, or on the host without one)
// and the FASTA reader.
#include "common.hpp"

namespace lockstep::python {
namespace {

Scoring scoring(const std::optional<std::string>& matrix, int match, int mismatch, int gap_open,
                int gap_extend) {
  if (gap_open < 0 || gap_extend < 0)
    throw input_error("align: gap_open and gap_extend are penalties (>= 0)");
  if (!matrix) return dna_scoring(match, mismatch, gap_open, gap_extend);
  return matrix_scoring(*matrix, gap_open, gap_extend);  // a built-in name or a file
}

py::tuple align_py(const std::optional<ContextPtr>& c, const py::bytes& a_in, const py::bytes& b_in,
                   int match, int mismatch, int gap_open, int gap_extend,
                   const std::optional<std::string>& matrix, bool traceback,
                   const std::string& algorithm, const std::string& barrier, int local_size) {
  const std::string a_text = a_in, b_text = b_in;
  AlignConfig config;
  config.algorithm = parse_align_algorithm(algorithm);
  config.barrier = parse_barrier_choice(barrier);
  if (local_size < 0) throw input_error("align: local_size must be positive");
  config.local_size = local_size;
  config.traceback = traceback;
  AlignResult r;
  {
    py::gil_scoped_release nogil;
    const Scoring s = scoring(matrix, match, mismatch, gap_open, gap_extend);
    std::vector<uint8_t> a = s.encode(a_text), b = s.encode(b_text);
    if (a.empty() || b.empty()) {
      r.score = 0;  // nothing aligns; the library's kernels want at least one residue
    } else if (c) {
      std::lock_guard<std::mutex> lock((*c)->mu);
      r = align((*c)->ctx, a, b, s, config);
    } else {
      r = align(a, b, s, config);
    }
  }
  py::object start_a = py::none(), start_b = py::none(), cigar = py::none();
  if (traceback && r.score > 0)
    start_a = py::int_(r.start_a), start_b = py::int_(r.start_b), cigar = py::str(r.cigar);
  else if (traceback)
    cigar = py::str("");
  auto end = [](int64_t e) { return e < 0 ? py::object(py::none()) : py::object(py::int_(e)); };
  return py::make_tuple(r.score, end(r.end_a), end(r.end_b), start_a, start_b, cigar,
                        to_string(r.config.algorithm));
}

}  // namespace

void bind_align(py::module_& m) {
  m.def("align", &align_py);
  m.def("read_fasta", [](const std::string& path, int record) {
    Sequence s = [&] {
      py::gil_scoped_release nogil;
      return read_sequence(path, record);
    }();
    return py::make_tuple(s.name, s.residues);
  });
}

}  // namespace lockstep::python
