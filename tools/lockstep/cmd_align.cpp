// `lockstep align A.fa B.fa`: Smith-Waterman local alignment of one pair (FASTA, .gz or plain
// text; --record K picks a record, --slice-a/--slice-b OFF,LEN a slice) by DNA match/mismatch
// or a substitution matrix, on the device (barrier: tile diagonals with a global barrier or
// relaunch; pipeline: flag-array stripes), on the CPU (plain Gotoh) or through libssw. Last line:
//   score= end_a= end_b= [start_a= start_b= cigar=] cells= ms= gcups=
// (0-based ends; -1 when nothing scores above 0). --traceback also prints the three-line view
// (up to --view-limit columns); --json writes the same keys.
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "command.hpp"
#include "lockstep/align.hpp"
#include "output.hpp"

namespace lockstep::cli {
namespace {

std::string slice(const std::string& s, const po::variables_map& vm, const char* opt,
                  const std::string& path) {
  if (!vm.count(opt)) return s;
  const std::string spec = vm[opt].as<std::string>();
  long long off = 0, len = 0;
  char comma = 0, extra = 0;
  if (std::sscanf(spec.c_str(), "%lld%c%lld%c", &off, &comma, &len, &extra) != 3 || comma != ',' ||
      off < 0 || len < 1)
    throw usage_error(std::string("--") + opt + " expects OFF,LEN (OFF >= 0, LEN >= 1), got '" +
                      spec + "'");
  if (size_t(off) >= s.size() || size_t(len) > s.size() - size_t(off))
    throw input_error(path + ": --" + opt + " " + spec + " runs past the end of its " +
                      std::to_string(s.size()) + " residues (OFF + LEN must be <= " +
                      std::to_string(s.size()) + ")");
  return s.substr(size_t(off), size_t(len));
}

// Residue codes; a refused residue is named by file, record and position (in the slice, if any).
std::vector<uint8_t> encode(const Scoring& s, const std::string& residues, const std::string& path,
                            const Sequence& seq, int record, const po::variables_map& vm,
                            const char* opt) {
  try {
    return s.encode(residues);
  } catch (const input_error& e) {
    throw input_error(path + ": record " + std::to_string(record) + " ('" + seq.name + "')" +
                      (vm.count(opt) ? std::string(", --") + opt + " " + vm[opt].as<std::string>()
                                     : std::string()) +
                      ": " + e.what());
  }
}

int run_align(const Args& args) {
  const std::string usage =
      "lockstep align A.fa B.fa [--match M --mismatch X | --matrix blosum62|FILE] [--gap-open O "
      "--gap-extend E] [--algorithm auto|barrier|pipeline|cpu|ssw] [--strategy S] [--traceback] "
      "[--record K] [--slice-a OFF,LEN] [--slice-b OFF,LEN] [--json OUT] [--repeat R]";
  po::options_description opts("options");
  opts.add_options()("a", po::value<std::string>(), "first sequence (rows)")(
      "b", po::value<std::string>(), "second sequence (columns)")(
      "match", number<int>(1, 1000), "DNA: score of an A/C/G/T match (default 2)")(
      "mismatch", number<int>(-1000, 1000),
      "DNA: mismatch score, sign ignored: 3 and -3 both score -3 (default -3); N never matches")(
      "matrix", po::value<std::string>(), "substitution matrix: blosum62 or an NCBI-format file")(
      "gap-open", number<int>(0, 100000),
      "a gap of length L scores -(open + (L-1) * extend) (default 5 DNA, 11 matrix)")(
      "gap-extend", number<int>(0, 100000), "(default 2 DNA, 1 matrix)")(
      "algorithm", po::value<std::string>()->default_value("auto"),
      "auto|barrier|pipeline|cpu|ssw")("strategy", po::value<std::string>()->default_value("auto"),
                                       "barrier: auto|relaunch|lock|grouped-lock|lock-free|tree")(
      "local-size", number<int>(0, 1024)->default_value(0), "work-items per group (0 = automatic)")(
      "cells", number<int>(0, 64)->default_value(0), "rows per work-item (0 = automatic)")(
      "tile-cols", number<int>(0, 1 << 24)->default_value(0),
      "columns per tile / pipeline chunk (0 = automatic)")(
      "groups", number<int>(0, 1 << 20)->default_value(0), "work-groups (0 = co-resident)")(
      "threads", number<int>(0, 4096)->default_value(1),
      "ssw: independent slices of B aligned in parallel (0 = all cores)")(
      "record", number<int>(1, 1 << 30)->default_value(1), "FASTA record of both files (1-based)")(
      "slice-a", po::value<std::string>(), "align A[OFF, OFF+LEN) only")(
      "slice-b", po::value<std::string>(), "align B[OFF, OFF+LEN) only")(
      "traceback", "also the start, the CIGAR and the three-line view")(
      "view-limit", number<int>(0, 1 << 30)->default_value(2000),
      "print the view when the alignment has at most this many columns")(
      "json", po::value<std::string>(), "write the summary as JSON")(
      "repeat", number<int>(1, 100000)->default_value(1), "run R times, report the fastest");
  po::positional_options_description pos;
  pos.add("a", 1).add("b", 1);
  po::variables_map vm;
  if (!parse(usage, args, opts, pos, vm)) return 0;
  if (!vm.count("a") || !vm.count("b")) throw usage_error("two sequence files expected\n" + usage);
  const bool matrix = vm.count("matrix");
  if (matrix && (vm.count("match") || vm.count("mismatch")))
    throw usage_error("--matrix and --match/--mismatch exclude each other");
  AlignConfig cfg;
  try {
    cfg.algorithm = parse_align_algorithm(vm["algorithm"].as<std::string>());
  } catch (const input_error& e) {
    throw usage_error(std::string("--algorithm: ") + e.what());
  }
  try {
    cfg.strategy = parse_strategy_choice(vm["strategy"].as<std::string>());
  } catch (const input_error& e) {
    throw usage_error(std::string("--strategy: ") + e.what());
  }
  if (cfg.strategy && cfg.algorithm != AlignAlgorithm::barrier)  // auto never picks barrier
    throw usage_error("--strategy " + vm["strategy"].as<std::string>() +
                      " applies to --algorithm barrier only; --algorithm " +
                      vm["algorithm"].as<std::string>() + " uses no barrier strategy");
  cfg.local_size = vm["local-size"].as<int>();
  cfg.cells = vm["cells"].as<int>();
  cfg.tile_cols = vm["tile-cols"].as<int>();
  cfg.groups = vm["groups"].as<int>();
  cfg.threads = vm["threads"].as<int>();
  if (cfg.threads == 0) cfg.threads = int(std::max(1u, std::thread::hardware_concurrency()));
  cfg.traceback = vm.count("traceback");

  const int open = vm.count("gap-open") ? vm["gap-open"].as<int>() : matrix ? 11 : 5;
  const int extend = vm.count("gap-extend") ? vm["gap-extend"].as<int>() : matrix ? 1 : 2;
  Scoring s;
  if (!matrix) {
    s = dna_scoring(vm.count("match") ? vm["match"].as<int>() : 2,
                    vm.count("mismatch") ? vm["mismatch"].as<int>() : -3, open, extend);
  } else {
    const std::string m = vm["matrix"].as<std::string>();
    s = m == "blosum62" || m == "BLOSUM62" ? blosum62(open, extend)
                                           : read_ncbi_matrix(m, open, extend);
  }
  const std::string pa = vm["a"].as<std::string>(), pb = vm["b"].as<std::string>();
  const int record = vm["record"].as<int>();
  const Sequence sa = read_sequence(pa, record), sb = read_sequence(pb, record);
  const std::string ra = slice(sa.residues, vm, "slice-a", pa);
  const std::string rb = slice(sb.residues, vm, "slice-b", pb);
  const std::vector<uint8_t> a = encode(s, ra, pa, sa, record, vm, "slice-a");
  const std::vector<uint8_t> b = encode(s, rb, pb, sb, record, vm, "slice-b");
  Outputs outs(vm, {"json"}, {{"a", "A"}, {"b", "B"}, {"matrix", "--matrix"}});

  std::unique_ptr<Context> ctx;
  if (cfg.algorithm != AlignAlgorithm::cpu && cfg.algorithm != AlignAlgorithm::ssw)
    ctx = std::make_unique<Context>(device_spec(vm));
  AlignResult r;
  double best = 0;
  for (int rep = 0; rep < vm["repeat"].as<int>(); ++rep) {
    r = ctx ? align(*ctx, a, b, s, cfg) : align(a, b, s, cfg);
    best = rep == 0 ? r.ms : std::min(best, r.ms);
  }
  const double cells = double(a.size()) * double(b.size());
  KeyValues conf;
  conf.add("device", ctx ? ctx->info().name : std::string("cpu"))
      .add("algorithm", to_string(r.config.algorithm))
      .add("n", a.size())
      .add("m", b.size())
      .add("scoring", matrix ? vm["matrix"].as<std::string>() : std::string("dna"))
      .add("gap_open", s.gap_open)
      .add("gap_extend", s.gap_extend);
  if (!r.strategy.empty())
    conf.add("strategy", r.strategy)
        .add("groups", r.groups)
        .add("local_size", r.config.local_size)
        .add("cells_per_item", r.config.cells)
        .add("tile_cols", r.config.tile_cols);
  if (r.config.algorithm == AlignAlgorithm::ssw) conf.add("threads", r.config.threads);
  std::cout << conf.str() << "\n";
  if (cfg.traceback && r.score > 0) {
    std::cout << "traceback_ms=" << r.traceback_ms << " traceback_bytes=" << r.traceback_bytes
              << "\n";
    size_t columns = 0;
    for (size_t p = 0, q; p < r.cigar.size(); p = q + 1) {
      q = r.cigar.find_first_of("MID", p);
      columns += std::stoull(r.cigar.substr(p, q - p));
    }
    if (columns <= size_t(vm["view-limit"].as<int>()))
      std::cout << alignment_view(ra, rb, r.start_a, r.start_b, r.cigar);
  }
  KeyValues kv;
  kv.add("score", r.score).add("end_a", r.end_a).add("end_b", r.end_b);
  if (cfg.traceback)
    kv.add("start_a", r.start_a)
        .add("start_b", r.start_b)
        .add("cigar", r.cigar.empty() ? "*" : r.cigar);
  kv.add("cells", static_cast<long long>(cells)).add("ms", best);
  kv.add("gcups", best > 0 ? cells / (best * 1e6) : 0.0);
  if (vm.count("json")) {
    nlohmann::json j = {{"score", r.score},
                        {"end_a", r.end_a},
                        {"end_b", r.end_b},
                        {"cells", cells},
                        {"ms", best},
                        {"gcups", best > 0 ? cells / (best * 1e6) : 0.0},
                        {"algorithm", to_string(r.config.algorithm)},
                        {"strategy", r.strategy},
                        {"groups", r.groups},
                        {"n", a.size()},
                        {"m", b.size()}};
    if (cfg.traceback)
      j["start_a"] = r.start_a, j["start_b"] = r.start_b, j["cigar"] = r.cigar,
      j["traceback_bytes"] = r.traceback_bytes;
    outs.json("json", j);
  }
  outs.commit();
  std::cout << kv.str() << "\n";
  return 0;
}

}  // namespace
LOCKSTEP_COMMAND("align", "Smith-Waterman local alignment of two long sequences (GPU, CPU, libssw)",
                 run_align);
}  // namespace lockstep::cli
