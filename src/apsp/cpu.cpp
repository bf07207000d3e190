// CPU blocked Floyd-Warshall with std::thread, for the side-by-side with the device: tiles of 64,
// phase 1 on one thread, phases 2 and 3 spread over the threads tile by tile. The inner loop
// (one row of a tile against one row of the lead row) vectorizes.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "apsp/dense.hpp"

namespace lockstep {
namespace {

constexpr int32_t kTile = 64;

template <typename T>
inline T plus(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return std::max(a + b, T(-(1 << 30)));
  else
    return a + b;
}

// C = min(C, A (x) B) over the kTile values of k of tile kb, k outermost (so that A or B may be
// C itself, as in phases 1 and 2).
template <typename T>
void update_tile(T* d, int32_t* next, int32_t N, int32_t bi, int32_t bj, int32_t kb) {
  const size_t r0 = size_t(bi) * kTile, c0 = size_t(bj) * kTile, k0 = size_t(kb) * kTile;
  for (size_t k = k0; k < k0 + kTile; ++k) {
    const T* brow = d + k * N + c0;
    for (size_t i = r0; i < r0 + kTile; ++i) {
      T* crow = d + i * N + c0;
      const T a = d[i * N + k];
      if (next) {
        const int32_t nk = next[i * N + k];
        for (int32_t j = 0; j < kTile; ++j) {
          const T s = plus(a, brow[j]);
          if (s < crow[j]) {
            crow[j] = s;
            next[i * N + c0 + j] = nk;
          }
        }
      } else {
        for (int32_t j = 0; j < kTile; ++j) crow[j] = std::min(crow[j], plus(a, brow[j]));
      }
    }
  }
}

template <typename F>
void parallel_for(int32_t count, unsigned threads, F f) {
  std::atomic<int32_t> at{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < std::min<unsigned>(threads, count); ++t)
    pool.emplace_back([&] {
      for (int32_t i; (i = at.fetch_add(1)) < count;) f(i);
    });
  for (auto& t : pool) t.join();
}

}  // namespace

template <typename T>
ApspResult<T> apsp_cpu(const Graph& g, unsigned threads, bool paths) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  ApspResult<T> result;
  result.config = {ApspAlgorithm::blocked, kTile, 1, paths, 0};
  if (g.n == 0) return result;
  apsp_check_size<T>("apsp", g.n, paths);
  const int32_t N = (g.n + kTile - 1) / kTile * kTile, nb = N / kTile;
  std::vector<T> d;
  std::vector<int32_t> next;
  detail::init_dense<T>(g, N, d, paths ? &next : nullptr);
  T* D = d.data();
  int32_t* P = paths ? next.data() : nullptr;
  auto start = std::chrono::steady_clock::now();
  for (int32_t kb = 0; kb < nb; ++kb) {
    update_tile(D, P, N, kb, kb, kb);
    parallel_for(2 * nb, threads, [&](int32_t t) {
      const int32_t bi = t < nb ? kb : t - nb, bj = t < nb ? t : kb;
      if (bi != kb || bj != kb) update_tile(D, P, N, bi, bj, kb);
    });
    parallel_for(nb, threads, [&](int32_t bi) {
      if (bi == kb) return;
      for (int32_t bj = 0; bj < nb; ++bj)
        if (bj != kb) update_tile(D, P, N, bi, bj, kb);
    });
  }
  result.ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  detail::finish(g, N, d, paths ? &next : nullptr, result);
  return result;
}

template ApspResult<float> apsp_cpu(const Graph&, unsigned, bool);
template ApspResult<int32_t> apsp_cpu(const Graph&, unsigned, bool);

}  // namespace lockstep
