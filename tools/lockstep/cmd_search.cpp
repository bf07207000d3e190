// `lockstep search QUERIES DB`: every query against every database sequence (Smith-Waterman,
// affine gaps), the top K hits per query (ties by database order), those with an E-value above
// --evalue dropped, as BLAST's -evalue and -max_target_seqs. Scoring: --matrix (NCBI's blosum62
// by default, blosum45|50|80, pam30|70|250 or an NCBI-format file, every letter scored as
// written, U and O as blastp scores them, another letter outside it an error) with blastp's
// default gaps per matrix, or DNA (--dna, implied by --match/--mismatch; A C G T and every IUPAC
// letter scored as blastn scores it; both strands unless --strand says). Output (--out FILE,
// else standard output): a header `#query subject score query_end subject_end` (DNA: `strand`)
// then one line per hit (ids: the first word of each header; 1-based inclusive ends; 0 when the
// score is 0), or with --outfmt 6 (7: with BLAST's comment lines) BLAST's tabular columns,
// chosen by BLAST's keywords, from a traceback of each hit, E-value and bit score as BLAST+
// computes them (search_report.cpp, src/search/statistics.cpp). QUERIES and DB may be prepared
// databases (`lockstep makedb`). --devices all|LIST searches on several devices of the host and
// --distributed (under mpirun) on one device per rank, the database split by residues and the
// hits merged: the same output as one device (tools/lockstep/mpi/search.cpp). The
// summary key=value line goes to standard output when the hits go to a file (--out FILE) and
// --json is not -, else to stderr.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <iostream>

#include "command.hpp"
#include "distributed.hpp"
#include "lockstep/io.hpp"
#include "lockstep/search.hpp"
#include "output.hpp"
#include "search_command.hpp"
#include "vocabulary.hpp"

namespace lockstep::cli {
namespace {

const std::vector<std::string> kAlgorithms = {"auto", "inter", "intra", "cpu"};

void declare(po::options_description& opts) {
  opts.add_options()("queries", po::value<std::string>(),
                     "query FASTA (gzip too; - for stdin) or `lockstep makedb`'s file")(
      "db", po::value<std::string>(), "database FASTA (gzip too) or `lockstep makedb`'s file")(
      "top", number<int>(1, 1 << 20)->default_value(10),
      "hits per query (one per subject; DNA: per subject and strand)")(
      "max-target-seqs", number<int>(1, 1 << 20),
      "BLAST's name for --top (BLAST's default is 500, lockstep's 10)")(
      "evalue", po::value<double>()->default_value(10.0, "10"),
      "report hits with an E-value at most E (as BLAST's -evalue; none where NCBI publishes no "
      "statistics for the scoring)")(
      "matrix", po::value<std::string>(),
      "NCBI's blosum62 (default), blosum45, blosum50, blosum80, pam30, pam70, pam250, or an "
      "NCBI-format matrix file")(
      "dna",
      "DNA: A C G T score --match, other pairs --mismatch, IUPAC letters (N, R, ...) as "
      "blastn scores them")("match", number<int>(1, 1000),
                            "DNA (implies --dna): match score (default 2, as blastn)")(
      "mismatch", number<int>(-1000, 1000),
      "DNA (implies --dna): mismatch, sign ignored (default -3, as blastn)")(
      "strand", po::value<std::string>(),
      "DNA: both (default, as blastn), plus or minus: the query strands searched")(
      "gap-open", number<int>(0, 100000),
      "a gap of length L costs open + (L-1) * extend, i.e. BLAST's -gapopen open-extend "
      "-gapextend extend (default: blastp's for the matrix: BLOSUM62 12 (BLAST 11/1), BLOSUM45 16 "
      "(14/2), BLOSUM50 15 (13/2), BLOSUM80 11 (10/1), PAM30 10 (9/1), PAM70 11 (10/1), PAM250 "
      "16 (14/2), a file 12; DNA 7 (blastn 5/2))")(
      "gap-extend", number<int>(0, 100000),
      "(default: BLOSUM62 1, 45 2, 50 2, 80 1, PAM30 1, 70 1, 250 2, a file 1; DNA 2)");
  std::string features;  // the library's list, with what each does
  for (const SearchFeature& f : search_features())
    features += "inter+" + f.name + " (" + f.what + "), ";
  add_algorithm_option(
      opts, kAlgorithms, "auto",
      "(inter: one subject per work-item, with the kernel's features after '+': " + features +
          "several joined by '+'; plain inter takes skew and 32 rows on a GPU "
          "for a database of at least 10^8 residues when no shape is given; "
          "intra: long subjects; cpu: the host)");
  add_local_size_option(opts, number<int>(0, 1024)->default_value(0),
                        "inter: subjects per work-group (0 = automatic)");
  opts.add_options()("stripe", number<int>(0, 64)->default_value(0),
                     "inter: query rows per work-item, even (0 = automatic)")(
      "max-device-mib", number<long long>(0, 1ll << 40)->default_value(0),
      "database MiB on the device per batch (0 = automatic)")(
      "out", po::value<std::string>(), "write the hits to FILE (default: standard output)")(
      "outfmt", po::value<std::string>(),
      "6: BLAST tabular, 7: with BLAST's comment lines; then optionally BLAST's column keywords "
      "in the same argument (\"6 qseqid sseqid pident evalue\"; default std: qaccver saccver "
      "pident length mismatch gapopen qstart qend sstart send evalue bitscore)")(
      "json", po::value<std::string>(), "write the summary and the hits as JSON (- for stdout)")(
      "devices", po::value<std::string>(),
      "search on several devices of this host: all (every GPU; none: the default device) or a "
      "list of --device words (0,1; 0,0: two contexts on device 0), the database split by "
      "residues, the same hits as one device")(
      "distributed",
      "under mpirun: one device per rank (--device, by local rank), each searching its share of "
      "the database, the hits merged on rank 0, which writes the output");
}

Scoring scoring(const po::variables_map& vm, std::string& label) {
  const bool dna = vm.count("dna") || vm.count("match") || vm.count("mismatch");
  if (dna && vm.count("matrix"))
    throw usage_error("--matrix and --dna (or --match/--mismatch) exclude each other");
  if (!dna && vm.count("strand")) throw usage_error("--strand: only for DNA (--dna)");
  const int open = vm.count("gap-open") ? vm["gap-open"].as<int>() : dna ? 7 : -1;
  const int extend = vm.count("gap-extend") ? vm["gap-extend"].as<int>() : dna ? 2 : -1;
  if (dna) {
    label = "dna";
    return blastn_scoring(vm.count("match") ? vm["match"].as<int>() : 2,
                          vm.count("mismatch") ? vm["mismatch"].as<int>() : -3, open, extend);
  }
  label = vm.count("matrix") ? vm["matrix"].as<std::string>() : "blosum62";
  return matrix_scoring(label, open, extend);
}

// A bar on standard error, drawn only when it is a terminal and the run passed 2 seconds.
class Progress {
 public:
  Progress() : tty_(isatty(STDERR_FILENO) == 1), t0_(std::chrono::steady_clock::now()) {}
  ~Progress() {
    if (drawn_) std::cerr << "\r\033[K" << std::flush;
  }
  std::function<void(double)> callback() {
    if (!tty_) return nullptr;
    return [this](double f) {
      const double s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
      if (s < 2.0) return;
      drawn_ = true;
      const int width = 40, done = int(f * width + 0.5);
      char eta[64];
      std::snprintf(eta, sizeof eta, "] %3.0f%% %.0f s", 100 * f, f > 0 ? s / f - s : 0.0);
      std::cerr << "\rsearch [" << std::string(size_t(done), '=')
                << std::string(size_t(width - done), ' ') << eta << " left" << std::flush;
    };
  }

 private:
  bool tty_, drawn_ = false;
  std::chrono::steady_clock::time_point t0_;
};

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::unique_ptr<Outputs> search_outputs(const po::variables_map& vm) {
  return std::make_unique<Outputs>(
      vm, std::vector<std::string>{"out", "json"},
      std::vector<InputOption>{{"queries", "QUERIES"}, {"db", "DB"}, {"matrix", "--matrix"}});
}

SearchInputs read_search_inputs(const SearchSetup& st, bool notes, size_t parts, size_t part) {
  SearchInputs in;
  in.db = read_database(st.dpath, st.s, parts, part);  // FASTA or a prepared database (makedb)
  in.queries_read = read_database(st.qpath, st.s);
  for (const auto& [set, path] :
       {std::pair{&in.db, &st.dpath}, std::pair{&in.queries_read, &st.qpath}}) {
    if (!notes) break;
    if (set->skipped_empty)
      std::cerr << "lockstep search: " << *path << ": skipped " << set->skipped_empty
                << " record(s) with no residues\n";
    if (set->stand_ins)
      std::cerr << "lockstep search: " << *path << ": " << set->stand_ins
                << " residue(s) U or O, which the matrix lacks, scored as blastp scores them (U "
                   "as C, O as X)\n";
    warn_duplicate_names(*set, *path, std::cerr);
  }
  if (st.s.dna) in.queries = strand_queries(in.queries_read, st.strand);
  in.read_ms = ms_since(st.t0);
  return in;
}

int report_search(const po::variables_map& vm, const SearchSetup& st, const SearchInputs& in,
                  SearchResult& r, const SearchRun& run, Outputs& outs) {
  const SearchOptions& o = st.o;
  const Scoring& s = st.s;
  const SequenceSet &db = in.db, &queries = st.s.dna ? in.queries : in.queries_read;
  if (s.dna) merge_strands(r, in.queries_read.size(), st.strand, o.top);
  const KarlinAltschul ka = karlin_altschul(s);
  if (ka)
    keep_evalue(r, queries, db, ka, st.max_evalue);
  else if (!vm["evalue"].defaulted())
    std::cerr << "lockstep search: --evalue ignored: NCBI publishes no statistics for this "
                 "scoring\n";
  if (ka && st.tabular) order_as_blast(r, queries, db, ka);  // BLAST's format, BLAST's order

  std::ostream& out = outs.has("out") ? outs["out"] : std::cout;
  double traceback_ms = 0;
  nlohmann::json hits = st.tabular ? write_tabular(out, queries, db, s, r, std::cerr, st.outfmt,
                                                   st.dpath, &traceback_ms)
                                   : write_hits(out, queries, db, r, s.dna);
  Report kv;
  kv.add("device", run.device).add("devices", run.devices);
  if (run.ranks) kv.add("ranks", run.ranks);
  kv.add("algorithm", r.algorithm)
      .add("scoring", st.label)
      .add("gap_open", s.gap_open)
      .add("gap_extend", s.gap_extend)
      .add("blast_gapopen", s.gap_open - s.gap_extend)
      .add("blast_gapextend", s.gap_extend)
      .add("evalue", st.max_evalue)
      .add("strand", s.dna ? st.strand : std::string("NA"))
      .add("queries", in.queries_read.size())
      .add("subjects", db.size())
      .add("residues", db.residue_count())
      .add("top", o.top)
      .add("recomputed", r.recomputed)
      .add("batches", r.batches)
      .add("local_size", r.local_size)
      .add("stripe", r.stripe)
      .add("kernel_ms", r.kernel_ms)
      .add("start_ms", r.start_ms)
      .add("ends_ms", r.ends_ms)
      .add("cells", r.cells)
      .add("read_ms", in.read_ms)
      .add("context_ms", run.context_ms)
      .add("ms", r.ms)
      .add("traceback_ms", traceback_ms)
      .add("gcups", r.ms > 0 ? r.cells / (r.ms * 1e6) : 0.0);
  const double total_ms = ms_since(st.t0);
  kv.add("total_ms", total_ms).add("total_gcups", r.cells / (total_ms * 1e6));
  nlohmann::json j = kv.json();
  j["hits"] = std::move(hits);
  outs.json("json", j);
  outs.commit();
  const bool stdout_free = outs.has("out") && vm["out"].as<std::string>() != "-" &&
                           !(vm.count("json") && vm["json"].as<std::string>() == "-");
  (stdout_free ? std::cout : std::cerr) << kv.str() << "\n";
  return 0;
}

namespace {

int run_search(const Args& args) {
  SearchSetup st;
  const std::string usage =
      "lockstep search QUERIES DB [--top K | --max-target-seqs K] [--evalue E] [--matrix "
      "blosum62|blosum45|blosum50|blosum80|pam30|pam70|pam250|FILE | --dna [--match M --mismatch "
      "X] [--strand both|plus|minus]] [--gap-open O --gap-extend E] [--algorithm " +
      join(kAlgorithms) +
      "] [--local-size L --stripe S] [--max-device-mib N] [--devices all|LIST | --distributed] "
      "[--out FILE] [--outfmt '6|7 [KEYWORDS]'] [--json FILE|-]";
  po::options_description opts("options");
  declare(opts);
  po::positional_options_description pos;
  pos.add("queries", 1).add("db", 1);
  po::variables_map vm;
  Deprecated old;  // --variant V: --algorithm inter+V ("prof2,skew" was also written)
  old.alias("variant", "algorithm", nullptr, [](const boost::any& v) -> boost::any {
    std::string f = boost::any_cast<std::string>(v);
    std::replace(f.begin(), f.end(), ',', '+');
    return f.empty() ? std::string("auto") : "inter+" + f;
  });
  if (!parse(usage, args, opts, pos, vm, old)) return 0;
  if (!vm.count("queries") || !vm.count("db"))
    throw usage_error("a query file and a database file expected\nusage: " + usage);
  st.qpath = vm["queries"].as<std::string>(), st.dpath = vm["db"].as<std::string>();
  if (st.qpath == "-" && st.dpath == "-")
    throw usage_error("QUERIES and DB cannot both be - (stdin)");
  st.tabular = vm.count("outfmt");
  if (st.tabular) st.outfmt = parse_outfmt(vm["outfmt"].as<std::string>());
  if (!vm.count("out") && vm.count("json") && vm["json"].as<std::string>() == "-")
    throw usage_error("--json - needs --out FILE: the hits go to standard output");
  SearchOptions& o = st.o;
  o.top = vm["top"].as<int>();
  if (vm.count("max-target-seqs")) {
    if (!vm["top"].defaulted() && vm["top"].as<int>() != vm["max-target-seqs"].as<int>())
      throw usage_error("--top and --max-target-seqs name the same cutoff: give one");
    o.top = vm["max-target-seqs"].as<int>();
  }
  st.max_evalue = vm["evalue"].as<double>();
  if (!(st.max_evalue > 0))
    throw usage_error("--evalue: must be > 0, got " + std::to_string(st.max_evalue));
  st.strand = vm.count("strand") ? vm["strand"].as<std::string>() : "both";
  if (st.strand != "both" && st.strand != "plus" && st.strand != "minus")
    throw usage_error("--strand: expected both, plus or minus, got '" + st.strand + "'");
  o.max_device_mib = vm["max-device-mib"].as<long long>();
  o.local_size = vm["local-size"].as<int>();
  o.stripe = vm["stripe"].as<int>();
  if (o.stripe % 2)
    throw usage_error("--stripe: rows a work-item must be even (2 to 64; 0: automatic), not " +
                      std::to_string(o.stripe));
  o.algorithm = vm["algorithm"].as<std::string>();
  const size_t plus = o.algorithm.find('+');
  if (std::find(kAlgorithms.begin(), kAlgorithms.end(), o.algorithm.substr(0, plus)) ==
      kAlgorithms.end())
    throw usage_error("--algorithm: unknown search algorithm '" + o.algorithm + "' (expected " +
                      join(kAlgorithms, ", ") + "; " + search_features_text() + ")");
  for (size_t at = plus; at != std::string::npos;) {  // the features detail::search_shape takes
    if (o.algorithm.compare(0, plus, "inter"))
      throw usage_error("--algorithm: only inter takes kernel features, not '" + o.algorithm + "'");
    const size_t end = o.algorithm.find('+', at + 1);
    const std::string word = o.algorithm.substr(at + 1, end - at - 1);
    const std::vector<SearchFeature>& known = search_features();
    if (word != "plain" && std::none_of(known.begin(), known.end(),
                                        [&](const SearchFeature& f) { return f.name == word; }))
      throw usage_error("--algorithm: unknown kernel feature '" + word + "' (expected " +
                        search_features_text() + ")");
    at = end;
  }
  const bool several = vm.count("devices"), distributed = vm.count("distributed");
  if (several && vm.count("device"))
    throw usage_error("--device and --devices exclude each other: give one");
  if (several && distributed)
    throw usage_error(
        "--devices and --distributed exclude each other (--distributed: one device "
        "per rank, --device picks it)");
  if ((several || distributed) && o.algorithm == "cpu")
    throw usage_error(std::string(several ? "--devices" : "--distributed") +
                      " runs on devices, not --algorithm cpu");
  if (distributed && (st.qpath == "-" || st.dpath == "-"))
    throw usage_error("--distributed reads QUERIES and DB on every rank: files, not - (stdin)");
  st.s = scoring(vm, st.label);
  if (distributed) return distributed_search(vm, st);
  auto outs = search_outputs(vm);

  // The devices' contexts (the driver's start-up: ~0.2-0.5 s on NVIDIA) come up on another
  // thread while the files are read: end to end is then the longer of the two, not their sum.
  SearchRun run;
  std::future<std::vector<std::unique_ptr<Context>>> pending;
  if (o.algorithm != "cpu")
    pending = std::async(std::launch::async, [&vm, &run, several] {
      const auto c0 = std::chrono::steady_clock::now();
      std::vector<std::unique_ptr<Context>> c;
      if (several)
        for (const cl::Device& d : select_devices(vm["devices"].as<std::string>()))
          c.push_back(std::make_unique<Context>(d));
      else
        c.push_back(std::make_unique<Context>(device_spec(vm)));
      run.context_ms = ms_since(c0);
      return c;
    });
  const SearchInputs in = read_search_inputs(st, true);
  const SequenceSet& queries = st.s.dna ? in.queries : in.queries_read;

  Progress progress;
  o.progress = progress.callback();
  std::vector<std::unique_ptr<Context>> ctx;
  if (pending.valid()) ctx = pending.get();
  for (size_t k = 1; k < ctx.size(); ++k) o.devices.push_back(ctx[k].get());
  SearchResult r;
  try {
    r = ctx.empty() ? search_cpu(queries, in.db, st.s, o)
                    : search(*ctx[0], queries, in.db, st.s, o);
  } catch (const queries_too_long& e) {  // named by its file
    throw input_error(st.qpath + ": " + said_once("search", e.what()));
  }
  o.progress = nullptr;
  o.devices.clear();
  run.device = ctx.empty() ? std::string("cpu") : ctx[0]->info().name;
  run.devices = int(std::max<size_t>(1, ctx.size()));
  return report_search(vm, st, in, r, run, *outs);
}

}  // namespace
LOCKSTEP_COMMAND("search", "database search: the top K Smith-Waterman hits of each query",
                 run_search);
}  // namespace lockstep::cli
