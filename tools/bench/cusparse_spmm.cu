// cuSPARSE SpMM, the anchor of lockstep's SpMM (lockstep spmm): Y = A X for a CSR A
// (int32 indices) and a dense X of k columns, row- or column-major, every CSR algorithm cuSPARSE
// offers for that order, the median of 20 event-timed runs after 3 warm-ups. One key=value line
// per (k, layout, algorithm), as ../shared/anchors/cuda_anchors.cu prints.
// Build there:  nvcc -O3 -std=c++17 -arch=sm_90 tools/bench/cusparse_spmm.cu -lcusparse -o cusparse_spmm
// Use:          cusparse_spmm FILE.mtx [float|double] [k,k,...] [row|col|both]
//               (default: float 4,8,16,32 row)
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>
#define CK(x) do { auto e_ = (x); if (e_ != 0) { std::fprintf(stderr, "error %d at line %d\n", (int)e_, __LINE__); std::exit(1);} } while (0)

// Minimal Matrix Market reader (as cuda_anchors.cu): coordinate real/integer/pattern,
// general/symmetric/skew-symmetric; duplicates kept (cuSPARSE sums them in the product).
struct Csr { int n = 0, m = 0; std::vector<int> rp, ci; std::vector<double> v; };
static bool readMtx(const char* path, Csr& A) {
  FILE* f = std::fopen(path, "rb"); if (!f) { std::perror(path); return false; }
  std::fseek(f, 0, SEEK_END); long sz = std::ftell(f); std::fseek(f, 0, SEEK_SET);
  std::string s(sz, '\0'); if (std::fread(&s[0], 1, sz, f) != (size_t)sz) { std::fclose(f); return false; } std::fclose(f);
  size_t eol = s.find('\n'); std::string hdr = s.substr(0, eol);
  for (auto& c : hdr) c = (char)std::tolower(c);
  if (hdr.find("coordinate") == std::string::npos) { std::fprintf(stderr, "%s: only coordinate format\n", path); return false; }
  bool pattern = hdr.find("pattern") != std::string::npos, sym = hdr.find("symmetric") != std::string::npos;
  bool skew = hdr.find("skew") != std::string::npos;
  const char* p = s.c_str() + eol + 1;
  while (*p == '%') { p = std::strchr(p, '\n'); if (!p) return false; ++p; }
  char* e; long rows = std::strtol(p, &e, 10), cols = std::strtol(e, &e, 10), nz = std::strtol(e, &e, 10); p = e;
  std::vector<int> I, J; std::vector<double> V; I.reserve(sym ? 2 * nz : nz); J.reserve(I.capacity()); V.reserve(I.capacity());
  for (long k = 0; k < nz; ++k) {
    long i = std::strtol(p, &e, 10) - 1; p = e; long j = std::strtol(p, &e, 10) - 1; p = e;
    double x = 1.0; if (!pattern) { x = std::strtod(p, &e); p = e; }
    I.push_back((int)i); J.push_back((int)j); V.push_back(x);
    if ((sym || skew) && i != j) { I.push_back((int)j); J.push_back((int)i); V.push_back(skew ? -x : x); }
  }
  A.n = (int)rows; A.m = (int)cols; A.rp.assign(A.n + 1, 0);
  for (int i : I) A.rp[i + 1]++;
  for (int r = 0; r < A.n; ++r) A.rp[r + 1] += A.rp[r];
  A.ci.resize(I.size()); A.v.resize(I.size());
  std::vector<int> pos(A.rp.begin(), A.rp.end() - 1);
  for (size_t k = 0; k < I.size(); ++k) { int d = pos[I[k]]++; A.ci[d] = J[k]; A.v[d] = V[k]; }
  for (int r = 0; r < A.n; ++r) {  // sort columns within each row
    std::vector<std::pair<int, double>> row;
    for (int k = A.rp[r]; k < A.rp[r + 1]; ++k) row.push_back({A.ci[k], A.v[k]});
    std::sort(row.begin(), row.end());
    for (int k = A.rp[r]; k < A.rp[r + 1]; ++k) { A.ci[k] = row[k - A.rp[r]].first; A.v[k] = row[k - A.rp[r]].second; }
  }
  return true;
}

template <typename T>
static void run(const char* path, const Csr& A, const std::vector<int>& ks, const std::string& layouts) {
  const cudaDataType dt = sizeof(T) == 8 ? CUDA_R_64F : CUDA_R_32F;
  const long nnz = A.rp.back();
  std::vector<T> hv(A.v.begin(), A.v.end());
  int *drp, *dci; T* dv;
  CK(cudaMalloc(&drp, (A.n + 1) * 4)); CK(cudaMalloc(&dci, nnz * 4 + 4)); CK(cudaMalloc(&dv, nnz * sizeof(T) + 8));
  CK(cudaMemcpy(drp, A.rp.data(), (A.n + 1) * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dci, A.ci.data(), nnz * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dv, hv.data(), nnz * sizeof(T), cudaMemcpyHostToDevice));
  cusparseHandle_t h; CK(cusparseCreate(&h));
  cusparseSpMatDescr_t mA;
  CK(cusparseCreateCsr(&mA, A.n, A.m, nnz, drp, dci, dv, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, dt));
  const char* name = std::strrchr(path, '/'); name = name ? name + 1 : path;
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  for (int k : ks)
    for (const char* lay : {"row", "col"}) {
      if (layouts != "both" && layouts != lay) continue;
      const bool row = std::strcmp(lay, "row") == 0;
      const cusparseOrder_t order = row ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL;
      T *dx, *dy;
      CK(cudaMalloc(&dx, size_t(A.m) * k * sizeof(T))); CK(cudaMalloc(&dy, size_t(A.n) * k * sizeof(T)));
      std::vector<T> hx(size_t(A.m) * k); std::mt19937 rng(1);
      for (auto& x : hx) x = T(rng() % 1000) / T(1000);
      CK(cudaMemcpy(dx, hx.data(), hx.size() * sizeof(T), cudaMemcpyHostToDevice));
      cusparseDnMatDescr_t mX, mY;
      CK(cusparseCreateDnMat(&mX, A.m, k, row ? k : A.m, dx, dt, order));
      CK(cusparseCreateDnMat(&mY, A.n, k, row ? k : A.n, dy, dt, order));
      T al = 1, be = 0;
      std::vector<std::pair<const char*, cusparseSpMMAlg_t>> algs = {{"default", CUSPARSE_SPMM_ALG_DEFAULT}};
      if (row) algs.push_back({"csr_alg2", CUSPARSE_SPMM_CSR_ALG2});
      else algs.push_back({"csr_alg1", CUSPARSE_SPMM_CSR_ALG1});
      algs.push_back({"csr_alg3", CUSPARSE_SPMM_CSR_ALG3});
      for (auto [an, alg] : algs) {
        size_t bs = 0; void* buf = nullptr;
        if (cusparseSpMM_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &al, mA, mX, &be, mY, dt, alg, &bs) != CUSPARSE_STATUS_SUCCESS) {
          std::printf("anchor=cusparse-spmm alg=%s matrix=%s k=%d layout=%s supported=0\n", an, name, k, lay);
          continue;
        }
        CK(cudaMalloc(&buf, bs + 1));
        if (alg == CUSPARSE_SPMM_CSR_ALG3 &&
            cusparseSpMM_preprocess(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &al, mA, mX, &be, mY, dt, alg, buf) != CUSPARSE_STATUS_SUCCESS) {
          std::printf("anchor=cusparse-spmm alg=%s matrix=%s k=%d layout=%s supported=0\n", an, name, k, lay);
          cudaFree(buf); continue;
        }
        std::vector<float> t;
        bool ok = true;
        for (int i = 0; i < 23 && ok; ++i) {
          cudaEventRecord(e0);
          ok = cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &al, mA, mX, &be, mY, dt, alg, buf) == CUSPARSE_STATUS_SUCCESS;
          cudaEventRecord(e1); cudaEventSynchronize(e1);
          float ms; cudaEventElapsedTime(&ms, e0, e1);
          if (i > 2) t.push_back(ms);
        }
        if (!ok) { std::printf("anchor=cusparse-spmm alg=%s matrix=%s k=%d layout=%s supported=0\n", an, name, k, lay); cudaFree(buf); continue; }
        std::sort(t.begin(), t.end());
        const double ms = t[t.size() / 2];
        std::printf("anchor=cusparse-spmm alg=%s matrix=%s rows=%d nnz=%ld k=%d layout=%s precision=%s median_ms=%.5f gflops=%.2f\n",
                    an, name, A.n, nnz, k, lay, sizeof(T) == 8 ? "double" : "float", ms, 2.0 * nnz * k / ms / 1e6);
        cudaFree(buf);
      }
      cusparseDestroyDnMat(mX); cusparseDestroyDnMat(mY); cudaFree(dx); cudaFree(dy);
    }
  cusparseDestroySpMat(mA); cusparseDestroy(h);
  cudaFree(drp); cudaFree(dci); cudaFree(dv);
}

int main(int argc, char** argv) {
  if (argc < 2) { std::fprintf(stderr, "usage: cusparse_spmm FILE.mtx [float|double] [k,k,...] [row|col|both]\n"); return 2; }
  const std::string precision = argc > 2 ? argv[2] : "float";
  std::vector<int> ks;
  for (const char* p = argc > 3 ? argv[3] : "4,8,16,32"; *p;) { char* e; ks.push_back((int)std::strtol(p, &e, 10)); p = *e ? e + 1 : e; }
  const std::string layouts = argc > 4 ? argv[4] : "row";
  Csr A; if (!readMtx(argv[1], A)) return 1;
  if (precision == "double") run<double>(argv[1], A, ks, layouts); else run<float>(argv[1], A, ks, layouts);
  return 0;
}
