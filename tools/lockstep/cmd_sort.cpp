// `lockstep sort [--n N | --input FILE [--binary]] [--type u32|i32|f32|u64] [--pairs]
// [--descending] [--algorithm auto|bitonic|radix] [--strategy auto|relaunch|lock|grouped-lock|
// lock-free|tree] [--verify] [--repeat R] [--json OUT]`: sorts N random keys (fixed --seed) or
// the keys of a file on the device, R times from the same input, and reports the fastest run.
// The last line: n= type= pairs= descending= algorithm= strategy= groups= tile= phases= ms=
// gkeys_per_s= ms_KERNEL= (device time per kernel, radix) and with --verify verified=1|0 (keys equal, bit for bit, to std::stable_sort's on
// the host; with --pairs the multiset of (key, value) pairs unchanged). Exit 1 when verification
// fails or the input is bad, 2 for usage mistakes.
#include <algorithm>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "command.hpp"
#include "lockstep/sort.hpp"
#include "output.hpp"

namespace lockstep::cli {
namespace {

template <typename K>
std::vector<K> random_keys(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<K> v(n);
  for (auto& x : v) {
    const uint64_t r = rng();
    if constexpr (std::is_same_v<K, float>)
      x = float(double(int64_t(r >> 11)) / double(1ull << 53) * 2e6 - 1e6);
    else
      x = K(r);
  }
  return v;
}

template <typename K>
uint64_t key_bits(K k) {
  uint64_t b = 0;
  std::memcpy(&b, &k, sizeof(K));
  return b;
}

// Keys bitwise equal to the host reference; with values, the multiset of pairs unchanged.
template <typename K>
bool verify(const std::vector<K>& in, std::vector<K> want, const std::vector<K>& got,
            const std::vector<uint32_t>* vals, bool descending) {
  sort_cpu(want, nullptr, descending);
  for (size_t i = 0; i < got.size(); ++i)
    if (key_bits(got[i]) != key_bits(want[i])) return false;
  if (!vals) return true;
  std::vector<std::pair<uint64_t, uint32_t>> a(in.size()), b(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    std::vector<K> one{in[i]};
    sort_cpu(one, nullptr, false);  // canonical NaN
    a[i] = {key_bits(one[0]), uint32_t(i)};
    b[i] = {key_bits(got[i]), (*vals)[i]};
  }
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

template <typename K>
int run_typed(const po::variables_map& vm, std::vector<K> in, const SortOptions& opts,
              Outputs& outs) {
  const bool pairs = vm.count("pairs"), want_verify = vm.count("verify");
  const size_t n = in.size();
  Context ctx(device_spec(vm));
  cl::CommandQueue& q = ctx.queue();
  cl::Buffer kb = upload(q, in);
  std::vector<uint32_t> iota(pairs ? n : 0);
  for (size_t i = 0; i < iota.size(); ++i) iota[i] = uint32_t(i);
  cl::Buffer vb = upload(q, iota);
  SortResult r, best;
  for (int rep = 0; rep < vm["repeat"].as<int>(); ++rep) {
    if (rep && n) {
      check(q.enqueueWriteBuffer(kb, CL_TRUE, 0, n * sizeof(K), in.data()), "clEnqueueWriteBuffer");
      if (pairs)
        check(q.enqueueWriteBuffer(vb, CL_TRUE, 0, n * 4, iota.data()), "clEnqueueWriteBuffer");
    }
    r = sort(ctx, key_type_of<K>(), kb, n, opts, pairs ? &vb : nullptr);
    if (rep == 0 || r.ms < best.ms) best = r;
  }
  KeyValues kv;
  kv.add("n", n).add("type", to_string(key_type_of<K>())).add("pairs", pairs ? 1 : 0);
  kv.add("descending", opts.descending ? 1 : 0).add("algorithm", to_string(best.algorithm));
  kv.add("strategy", best.strategy).add("groups", best.groups).add("tile", best.tile);
  kv.add("phases", best.phases).add("ms", best.ms);
  const double gkeys = best.ms > 0 ? double(n) / (best.ms * 1e6) : 0.0;
  kv.add("gkeys_per_s", gkeys);
  for (auto& [kernel, ms] : best.kernel_ms) kv.add("ms_" + kernel, ms);
  bool ok = true;
  if (want_verify) {
    std::vector<K> got = download<K>(q, kb, n);
    std::vector<uint32_t> vals = download<uint32_t>(q, vb, pairs ? n : 0);
    ok = verify(in, in, got, pairs ? &vals : nullptr, opts.descending);
    kv.add("verified", ok ? 1 : 0);
  }
  std::cout << "device=\"" << ctx.info().name << "\"\n" << kv.str() << "\n";
  if (vm.count("json")) {
    nlohmann::json j = {{"n", n},
                        {"type", to_string(key_type_of<K>())},
                        {"pairs", pairs},
                        {"descending", opts.descending},
                        {"algorithm", to_string(best.algorithm)},
                        {"strategy", best.strategy},
                        {"groups", best.groups},
                        {"tile", best.tile},
                        {"phases", best.phases},
                        {"ms", best.ms},
                        {"gkeys_per_s", gkeys},
                        {"device", ctx.info().name}};
    for (auto& [kernel, ms] : best.kernel_ms) j["ms_" + kernel] = ms;
    if (want_verify) j["verified"] = ok;
    outs.json("json", j);  // also when verification failed: the report says so
  }
  outs.commit();
  if (!ok) std::cerr << "lockstep sort: verification FAILED\n";
  return ok ? 0 : 1;
}

template <typename K>
int run_keys(const po::variables_map& vm, const SortOptions& opts, Outputs& outs) {
  std::vector<K> keys =
      vm.count("input")
          ? read_keys<K>(vm["input"].as<std::string>(), vm.count("binary"))
          : random_keys<K>(size_t(vm["n"].as<long long>()), uint64_t(vm["seed"].as<long long>()));
  if (keys.size() >= (size_t(1) << 30))
    throw input_error("sort: " + std::to_string(keys.size()) + " keys; at most 2^30 - 1");
  return run_typed<K>(vm, std::move(keys), opts, outs);
}

int run_sort(const Args& args) {
  const std::string usage =
      "lockstep sort [--n N | --input FILE [--binary]] [--type u32|i32|f32|u64] [--pairs] "
      "[--descending] [--algorithm auto|bitonic|radix] [--strategy auto|relaunch|lock|"
      "grouped-lock|lock-free|tree] [--verify] [--repeat R] [--json OUT]";
  po::options_description opts("options");
  opts.add_options()("n", number<long long>(0, (1ll << 30) - 1), "random keys (fixed --seed)")(
      "input", po::value<std::string>(), "keys from a file: one number a line (or --binary)")(
      "binary", "--input is raw little-endian keys of --type")(
      "type", po::value<std::string>()->default_value("u32"), "u32|i32|f32|u64")(
      "pairs", "sort u32 values (the input positions) along with the keys")(
      "descending", "largest first (f32 NaNs still last)")(
      "algorithm", po::value<std::string>()->default_value("auto"), "auto|bitonic|radix")(
      "strategy", po::value<std::string>()->default_value("auto"),
      "bitonic: auto|relaunch|lock|grouped-lock|lock-free|tree")(
      "tile", number<int>(0, 1 << 16)->default_value(0), "bitonic tile (0 = rule)")(
      "local-size", number<int>(0, 1024)->default_value(0), "bitonic work-group size (0 = rule)")(
      "fuse", number<int>(0, 3)->default_value(0), "bitonic strides fused per pass (0 = rule)")(
      "groups", number<int>(0, 1 << 20)->default_value(0),
      "bitonic persistent work-groups (0 = automatic)")(
      "items", number<int>(0, 32)->default_value(0), "radix keys per work-item (0 = rule)")(
      "seed", number<long long>(0, std::numeric_limits<long long>::max())->default_value(1),
      "random seed")("verify", "compare with std::stable_sort on the host")(
      "repeat", number<int>(1, 100000)->default_value(1), "run R times, report the fastest")(
      "json", po::value<std::string>(), "write the summary as JSON");
  po::positional_options_description pos;
  po::variables_map vm;
  if (!parse(usage, args, opts, pos, vm)) return 0;
  if (vm.count("n") == vm.count("input"))
    throw usage_error("give exactly one of --n N and --input FILE\nusage: " + usage);
  if (vm.count("binary") && !vm.count("input")) throw usage_error("--binary needs --input");
  SortOptions o;
  KeyType type;
  const char* option = "--type";
  try {
    type = parse_key_type(vm["type"].as<std::string>());
    option = "--algorithm";
    o.algorithm = parse_sort_algorithm(vm["algorithm"].as<std::string>());
    option = "--strategy";
    o.strategy = parse_strategy_choice(vm["strategy"].as<std::string>());
  } catch (const input_error& e) {
    throw usage_error(std::string(option) + ": " + e.what());
  }
  if (o.algorithm == SortAlgorithm::radix && o.strategy)
    throw usage_error("--strategy " + vm["strategy"].as<std::string>() +
                      " applies to --algorithm bitonic only; --algorithm radix (onesweep) has no "
                      "barrier strategy");
  const int tile = vm["tile"].as<int>(), local = vm["local-size"].as<int>();
  if (local & (local - 1))
    throw usage_error("--local-size must be 0 (the rule) or a power of two up to 1024, got " +
                      std::to_string(local));
  if (tile && (tile < 2 || (tile & (tile - 1)) || tile < local))
    throw usage_error("--tile must be 0 (the rule) or a power of two >= 2 and >= --local-size, got " +
                      std::to_string(tile));
  o.descending = vm.count("descending");
  o.tile = vm["tile"].as<int>();
  o.local_size = vm["local-size"].as<int>();
  o.fuse = vm["fuse"].as<int>();
  o.groups = vm["groups"].as<int>();
  o.items = vm["items"].as<int>();
  Outputs outs(vm, {"json"}, {{"input", "--input"}});
  switch (type) {
    case KeyType::u32:
      return run_keys<uint32_t>(vm, o, outs);
    case KeyType::i32:
      return run_keys<int32_t>(vm, o, outs);
    case KeyType::f32:
      return run_keys<float>(vm, o, outs);
    default:
      return run_keys<uint64_t>(vm, o, outs);
  }
}

}  // namespace
LOCKSTEP_COMMAND("sort", "sort keys (and pairs) on the device: persistent bitonic or radix",
                 run_sort);
}  // namespace lockstep::cli
