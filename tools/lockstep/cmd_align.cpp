// `lockstep align A.fa B.fa`: Smith-Waterman local alignment of one pair (FASTA, .gz or plain
// text; --record K picks a record, --slice-a/--slice-b OFF,LEN a slice) by DNA match/mismatch
// or a substitution matrix, on the device (barrier: tile diagonals with a global barrier or
// relaunch; pipeline: flag-array stripes), on the CPU (plain Gotoh) or through libssw. Last line:
//   score= end_a= end_b= [start_a= start_b= cigar=] cells= ms= gcups=
// (0-based ends; -1 when nothing scores above 0). --traceback also prints the three-line view
// (up to --view-limit columns); --json writes the configuration line's keys and these.
#include <cctype>
#include <cstdio>
#include <iostream>
#include <thread>

#include "command.hpp"
#include "lockstep/align.hpp"
#include "lockstep/io.hpp"
#include "output.hpp"
#include "vocabulary.hpp"

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
                      std::to_string(s.size()) +
                      " residues (OFF + LEN must be <= " + std::to_string(s.size()) + ")");
  return s.substr(size_t(off), size_t(len));
}

// The line of `path` that holds residue `index` (0-based, in the whole record) of record
// `record`, counted as read_sequence counts residues (letters and '*'); 0 when not found.
int line_of_residue(const std::string& path, int record, size_t index) {
  const std::string text = read_input(path);
  LineReader lines(path, text);
  std::string_view line;
  int seen = 0;
  size_t count = 0;
  while (lines.next(line)) {
    if (!line.empty() && line[0] == '>') {
      if (seen++ == record) return 0;
      continue;
    }
    if ((!line.empty() && line[0] == ';') || (seen != record && seen != 0)) continue;
    if (seen == 0 && record != 1) continue;
    for (char c : line)
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '*')
        if (count++ == index) return lines.line();
  }
  return 0;
}

// Residue codes; a refused residue is named by file and line, record and position (in the
// slice, if any).
std::vector<uint8_t> encode(const Scoring& s, const std::string& residues, const std::string& path,
                            const Sequence& seq, int record, const po::variables_map& vm,
                            const char* opt) {
  try {
    return s.encode(residues);
  } catch (const input_error& e) {
    // The first refused residue, each letter asked once; then its line in the file.
    signed char verdict[256] = {};  // 0 not asked, 1 accepted, -1 refused
    size_t bad = 0;
    for (; bad < residues.size(); ++bad) {
      signed char& v = verdict[static_cast<unsigned char>(residues[bad])];
      if (!v) {
        try {
          s.encode(residues.substr(bad, 1));
          v = 1;
        } catch (const input_error&) {
          v = -1;
        }
      }
      if (v < 0) break;
    }
    long long offset = 0;
    if (vm.count(opt)) std::sscanf(vm[opt].as<std::string>().c_str(), "%lld", &offset);
    const int line =
        bad < residues.size() ? line_of_residue(path, record, size_t(offset) + bad) : 0;
    throw input_error(path + (line ? ":" + std::to_string(line) : std::string()) + ": record " +
                      std::to_string(record) + " ('" + seq.name + "')" +
                      (vm.count(opt) ? std::string(", --") + opt + " " + vm[opt].as<std::string>()
                                     : std::string()) +
                      ": " + e.what());
  }
}

const std::vector<std::string> kAlgorithms =
    names_of({AlignAlgorithm::automatic, AlignAlgorithm::barrier, AlignAlgorithm::pipeline,
              AlignAlgorithm::cpu, AlignAlgorithm::ssw});

void declare(po::options_description& opts, Deprecated& old) {
  opts.add_options()("a", po::value<std::string>(), "first sequence (rows)")(
      "b", po::value<std::string>(), "second sequence (columns)")(
      "match", number<int>(1, 1000), "DNA: score of an A/C/G/T match (default 2)")(
      "mismatch", number<int>(-1000, 1000),
      "DNA: mismatch score, sign ignored: 3 and -3 both score -3 (default -3); N never matches")(
      "matrix", po::value<std::string>(),
      "substitution matrix: blosum62, blosum45, blosum50, blosum80 or an NCBI-format file")(
      "gap-open", number<int>(0, 100000),
      "a gap of length L scores -(open + (L-1) * extend) (default 5 DNA, 11 matrix)")(
      "gap-extend", number<int>(0, 100000), "(default 2 DNA, 1 matrix)");
  add_algorithm_option(opts, kAlgorithms, "auto");
  add_barrier_option(opts, "--algorithm barrier's global barrier");
  old.alias("strategy", "barrier");
  add_local_size_option(opts, number<int>(0, 1024)->default_value(0),
                        "work-items per group (0 = automatic)");
  opts.add_options()("cells", number<int>(0, 64)->default_value(0),
                     "rows per work-item (0 = automatic)")(
      "tile-cols", number<int>(0, 1 << 24)->default_value(0),
      "columns per tile / pipeline chunk (0 = automatic)")(
      "groups", number<int>(0, 1 << 20)->default_value(0), "work-groups (0 = co-resident)")(
      "score-bits", number<int>(0, 32)->default_value(0),
      "pipeline: 16 (packed lanes, rerun in 32 bits when a score leaves them), 32, or 0 (16 "
      "where scores and shape allow)")(
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
}

AlignConfig config(const po::variables_map& vm) {
  AlignConfig cfg;
  cfg.algorithm = parse_option(vm, "algorithm", parse_align_algorithm);
  cfg.barrier = parse_option(vm, "barrier", parse_barrier_choice);
  if (cfg.barrier && cfg.algorithm != AlignAlgorithm::barrier)  // auto never picks barrier
    throw usage_error("--barrier " + vm["barrier"].as<std::string>() +
                      " applies to --algorithm barrier only; --algorithm " +
                      vm["algorithm"].as<std::string>() + " uses no global barrier");
  cfg.local_size = vm["local-size"].as<int>();
  cfg.cells = vm["cells"].as<int>();
  cfg.tile_cols = vm["tile-cols"].as<int>();
  cfg.groups = vm["groups"].as<int>();
  cfg.score_bits = vm["score-bits"].as<int>();
  if (cfg.score_bits != 0 && cfg.score_bits != 16 && cfg.score_bits != 32)
    throw usage_error("--score-bits must be 0, 16 or 32");
  cfg.threads = vm["threads"].as<int>();
  if (cfg.threads == 0) cfg.threads = int(std::max(1u, std::thread::hardware_concurrency()));
  cfg.traceback = vm.count("traceback");
  return cfg;
}

Scoring scoring(const po::variables_map& vm) {
  const bool matrix = vm.count("matrix");
  if (matrix && (vm.count("match") || vm.count("mismatch")))
    throw usage_error("--matrix and --match/--mismatch exclude each other");
  const int open = vm.count("gap-open") ? vm["gap-open"].as<int>() : matrix ? 11 : 5;
  const int extend = vm.count("gap-extend") ? vm["gap-extend"].as<int>() : matrix ? 1 : 2;
  if (!matrix)
    return dna_scoring(vm.count("match") ? vm["match"].as<int>() : 2,
                       vm.count("mismatch") ? vm["mismatch"].as<int>() : -3, open, extend);
  return matrix_scoring(vm["matrix"].as<std::string>(), open, extend);  // built-in or a file
}

// The pair to align: the residues (for the view) and their codes.
struct Pair {
  std::string ra, rb;
  std::vector<uint8_t> a, b;
};

Pair read_pair(const po::variables_map& vm, const Scoring& s) {
  const std::string pa = vm["a"].as<std::string>(), pb = vm["b"].as<std::string>();
  const int record = vm["record"].as<int>();
  const Sequence sa = read_sequence(pa, record), sb = read_sequence(pb, record);
  Pair p;
  p.ra = slice(sa.residues, vm, "slice-a", pa);
  p.rb = slice(sb.residues, vm, "slice-b", pb);
  p.a = encode(s, p.ra, pa, sa, record, vm, "slice-a");
  p.b = encode(s, p.rb, pb, sb, record, vm, "slice-b");
  return p;
}

// The configuration line: what ran, with which scoring and shape.
Report configuration(const po::variables_map& vm, const Context* ctx, const Pair& p,
                     const Scoring& s, const AlignResult& r) {
  Report conf;
  conf.add("device", ctx ? ctx->info().name : std::string("cpu"))
      .add("algorithm", to_string(r.config.algorithm))
      .add("n", p.a.size())
      .add("m", p.b.size())
      .add("scoring", vm.count("matrix") ? vm["matrix"].as<std::string>() : std::string("dna"))
      .add("gap_open", s.gap_open)
      .add("gap_extend", s.gap_extend);
  if (!r.barrier.empty())
    conf.add("barrier", r.barrier)
        .add("groups", r.groups)
        .add("local_size", r.config.local_size)
        .add("cells_per_item", r.config.cells)
        .add("tile_cols", r.config.tile_cols);
  if (r.config.algorithm == AlignAlgorithm::pipeline) conf.add("score_bits", r.config.score_bits);
  if (r.config.algorithm == AlignAlgorithm::ssw) conf.add("threads", r.config.threads);
  return conf;
}

// --traceback: its cost, and the three-line view when it has at most --view-limit columns.
Report traceback(const po::variables_map& vm, const Pair& p, const AlignResult& r) {
  Report t;
  if (!vm.count("traceback") || r.score <= 0) return t;
  t.add("traceback_ms", r.traceback_ms).add("traceback_bytes", r.traceback_bytes);
  std::cout << t.str() << "\n";
  size_t columns = 0;
  for (size_t i = 0, q; i < r.cigar.size(); i = q + 1) {
    q = r.cigar.find_first_of("MID", i);
    columns += std::stoull(r.cigar.substr(i, q - i));
  }
  if (columns <= size_t(vm["view-limit"].as<int>()))
    std::cout << alignment_view(p.ra, p.rb, r.start_a, r.start_b, r.cigar);
  return t;
}

Report result(const Pair& p, const AlignResult& r, double best, bool traceback) {
  const double cells = double(p.a.size()) * double(p.b.size());
  Report kv;
  kv.add("score", r.score).add("end_a", r.end_a).add("end_b", r.end_b);
  if (traceback)
    kv.add("start_a", r.start_a)
        .add("start_b", r.start_b)
        .add("cigar", r.cigar.empty() ? "*" : r.cigar);
  kv.add("cells", static_cast<long long>(cells)).add("ms", best);
  kv.add("gcups", best > 0 ? cells / (best * 1e6) : 0.0);
  return kv;
}

int run_align(const Args& args) {
  const std::string usage =
      "lockstep align A.fa B.fa [--match M --mismatch X | --matrix blosum62|FILE] [--gap-open O "
      "--gap-extend E] [--algorithm " +
      join(kAlgorithms) +
      "] [--barrier B] [--traceback] "
      "[--record K] [--slice-a OFF,LEN] [--slice-b OFF,LEN] [--json OUT] [--repeat R]";
  po::options_description opts("options");
  Deprecated old;
  declare(opts, old);
  po::positional_options_description pos;
  pos.add("a", 1).add("b", 1);
  po::variables_map vm;
  if (!parse(usage, args, opts, pos, vm, old)) return 0;
  if (!vm.count("a") || !vm.count("b")) throw usage_error("two sequence files expected\n" + usage);
  const AlignConfig cfg = config(vm);
  const Scoring s = scoring(vm);
  const Pair p = read_pair(vm, s);
  Outputs outs(vm, {"json"}, {{"a", "A"}, {"b", "B"}, {"matrix", "--matrix"}});

  std::unique_ptr<Context> ctx;
  if (cfg.algorithm != AlignAlgorithm::cpu && cfg.algorithm != AlignAlgorithm::ssw)
    ctx = std::make_unique<Context>(device_spec(vm));
  AlignResult r;
  double best = 0;
  for (int rep = 0; rep < vm["repeat"].as<int>(); ++rep) {
    r = ctx ? align(*ctx, p.a, p.b, s, cfg) : align(p.a, p.b, s, cfg);
    best = rep == 0 ? r.ms : std::min(best, r.ms);
  }
  const Report conf = configuration(vm, ctx.get(), p, s, r);
  std::cout << conf.str() << "\n";
  const Report t = traceback(vm, p, r);
  Report kv = result(p, r, best, cfg.traceback);
  if (ctx) kv.add("build_ms", program_cache_stats().build_ms);  // a cold compile: see sort
  nlohmann::json j = conf.json();
  j.update(t.json());
  j.update(kv.json());
  outs.json("json", j);
  outs.commit();
  std::cout << kv.str() << "\n";
  return 0;
}

}  // namespace
LOCKSTEP_COMMAND("align", "Smith-Waterman local alignment of two long sequences (GPU, CPU, libssw)",
                 run_align);
}  // namespace lockstep::cli
