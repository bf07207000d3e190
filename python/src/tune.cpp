// The SpMV tuner from Python (the one tuning engine, as `lockstep tune FILE`) and the CSR
// pattern check every matrix binding shares.
#include "common.hpp"
#include "lockstep/tuning.hpp"

namespace lockstep::python {

Csr<double> csr_of(int64_t rows, int64_t cols, const Array<int32_t>& indptr,
                   const Array<int32_t>& indices) {
  if (rows < 0 || cols < 0 || rows > INT32_MAX - 1 || cols > INT32_MAX - 1)
    throw input_error("matrix shape does not fit 32-bit indices");
  check_csr("matrix", rows, cols, indptr, indices);
  Csr<double> a;
  a.rows = int32_t(rows), a.cols = int32_t(cols);
  a.row_ptr = to_vector(indptr), a.col_idx = to_vector(indices);
  return a;
}

namespace {

template <typename T>
py::dict tune_py(const ContextPtr& c, int64_t rows, int64_t cols, const Array<int32_t>& indptr,
                 const Array<int32_t>& indices, const Array<T>& data, double budget,
                 bool exhaustive) {
  Csr<T> host = csr_of(rows, cols, indptr, indices).cast<T>();
  if (data.size() != py::ssize_t(host.col_idx.size()))
    throw input_error("tune: data and indices differ in length");
  host.values = to_vector(data);
  if (host.rows == 0 || host.nnz() == 0) throw input_error("tune: the matrix has no entries");
  tuning::Options o;  // the one tuning engine, as `lockstep tune FILE`
  o.budget_s = budget, o.exhaustive = exhaustive;
  const tuning::Outcome r = device_call(
      *c, [&](Context& ctx) { return tuning::tune(ctx, *spmv_family<T>(ctx, host), o); });
  auto one = [](const tuning::Measured& m) {
    py::dict d;
    d["config"] = tuning::str(m.params);
    d["algorithm"] = m.params.value("algorithm", std::string());
    d["ms"] = m.ms, d["verified"] = m.verified;
    for (const char* k : {"gflops", "gbs", "pct_copy_bw"})
      if (m.metrics.contains(k)) d[k] = m.metrics[k].get<double>();
    return d;
  };
  py::dict d;
  d["best"] = one(r.best);
  if (const tuning::Measured* s = r.find(spmv_params(SpmvConfig{SpmvAlgorithm::scalar})))
    d["scalar"] = one(*s);
  d["timed"] = r.candidates.size(), d["search_space"] = r.search_space, d["stored"] = r.stored;
  return d;
}

}  // namespace

void bind_tune(py::module_& m) {
  m.def("tune_32", &tune_py<float>);
  m.def("tune_64", &tune_py<double>);
}

}  // namespace lockstep::python
