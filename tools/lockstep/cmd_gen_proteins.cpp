// `lockstep gen proteins SOURCE.fa -o DB.fa --residues N [--seed S]`: a large protein database
// for search benchmarks: the source's sequences (e.g. the mmseqs2 example DB) repeated, round
// after round, until N residues are written; round 0 copies them, every later round mutates each
// copy (substitutions to one of the 20 amino acids at --substitution per residue, insertions and
// deletions of 1-3 residues at --indel per residue). Deterministic by seed (splitmix64, no
// library distributions). Streamed through the one output writer: nothing is held but the source.
#include <cmath>
#include <iostream>
#include <limits>

#include "command.hpp"
#include "lockstep/align.hpp"
#include "lockstep/io.hpp"
#include "report.hpp"

namespace lockstep::cli {
namespace {

struct Rng {  // splitmix64: the same stream on every platform
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }
  uint32_t below(uint32_t n) { return uint32_t((next() >> 32) * n >> 32); }
};

constexpr const char kAmino[] = "ACDEFGHIKLMNPQRSTVWY";

std::string mutate(const std::string& src, double sub, double indel, Rng& rng) {
  std::string out;
  out.reserve(src.size() + 16);
  for (size_t i = 0; i < src.size(); ++i) {
    const double u = rng.uniform();
    if (u < sub) {
      out += kAmino[rng.below(20)];
    } else if (u < sub + indel / 2) {  // insertion of 1-3 residues before this one
      for (uint32_t k = 0, n = 1 + rng.below(3); k < n; ++k) out += kAmino[rng.below(20)];
      out += src[i];
    } else if (u < sub + indel) {  // deletion of 1-3 residues
      i += rng.below(3);
    } else {
      out += src[i];
    }
  }
  if (out.empty()) out = src;
  return out;
}

/// The text given after `option` on the command line (for a message).
std::string vm_text(const Args& args, const std::string& option) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == option && i + 1 < args.size()) return args[i + 1];
    if (args[i].rfind(option + "=", 0) == 0) return args[i].substr(option.size() + 1);
  }
  return "";
}

int run_gen_proteins(const Args& args) {
  const std::string usage =
      "lockstep gen proteins SOURCE.fa -o DB.fa --residues N [--seed S] [--substitution P] "
      "[--indel P]";
  po::options_description opts("options");
  opts.add_options()("source", po::value<std::string>(), "protein FASTA to repeat (gzip too)")(
      "output,o", po::value<std::string>()->required(), "the FASTA database to write")(
      "residues", number<double>(1, 1e12)->required(), "residues to write (e.g. 5e8)")(
      "seed", number<long long>(0, std::numeric_limits<long long>::max())->default_value(1),
      "random seed")("substitution", number<double>(0, 1)->default_value(0.15),
                     "substitution rate per residue (rounds after the first)")(
      "indel", number<double>(0, 1)->default_value(0.02),
      "insertion + deletion rate per residue (rounds after the first)");
  po::positional_options_description pos;
  pos.add("source", 1);
  po::variables_map vm;
  if (!parse(usage, args, opts, pos, vm)) return 0;
  if (!vm.count("source")) throw usage_error("a source FASTA expected\nusage: " + usage);
  const std::string src = vm["source"].as<std::string>(), path = vm["output"].as<std::string>();
  const double sub = vm["substitution"].as<double>(), indel = vm["indel"].as<double>();
  if (sub + indel > 1) throw usage_error("--substitution + --indel must be at most 1");
  if (src != "-" && path != "-" && same_file(src, path))
    throw usage_error("-o " + path + " is the same file as SOURCE: refusing to overwrite an input");
  if (path.empty()) throw usage_error("-o: the path is empty");
  if (vm.count("device")) throw usage_error("--device: gen proteins runs on the host, no device");
  const double residues = vm["residues"].as<double>();
  if (residues != std::floor(residues))
    throw usage_error("--residues " + vm_text(args, "--residues") + ": a whole number expected");
  const int64_t want = int64_t(residues);

  std::vector<Sequence> source;
  for_each_fasta_record(src, read_input(src), [&](Sequence& s, int) {
    if (!s.residues.empty()) source.push_back(std::move(s));
    return true;
  });
  if (source.empty()) throw input_error(src + ": no sequence with residues");
  for (Sequence& s : source) s.name = s.name.substr(0, s.name.find_first_of(" \t"));

  OutputFile out(path);
  std::ostream& os = out.stream();
  Rng rng{uint64_t(vm["seed"].as<long long>())};
  int64_t written = 0, sequences = 0;
  std::string line;
  for (int64_t round = 0; written < want; ++round)
    for (size_t i = 0; i < source.size() && written < want; ++i) {
      std::string seq =
          round == 0 ? source[i].residues : mutate(source[i].residues, sub, indel, rng);
      if (int64_t(seq.size()) > want - written) seq.resize(size_t(want - written));  // N exactly
      os << ">g" << round << "_" << i << " " << source[i].name << "\n";
      for (size_t p = 0; p < seq.size(); p += 60)
        os.write(seq.data() + p, std::streamsize(std::min<size_t>(60, seq.size() - p))) << '\n';
      written += int64_t(seq.size());
      ++sequences;
    }
  out.commit();
  Report kv;
  kv.add("file", path).add("sequences", sequences).add("residues", written);
  std::cout << kv.str() << "\n";
  return 0;
}

}  // namespace
LOCKSTEP_COMMAND("gen proteins",
                 "generate a protein FASTA database (a source's sequences repeated with mutations)",
                 run_gen_proteins);
}  // namespace lockstep::cli
