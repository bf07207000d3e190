// `lockstep makedb DB.fasta[.gz] DB.lsdb [--matrix M | --dna]`: the database read once (as
// search reads it) and written as a prepared database (src/search/database.cpp) that `lockstep
// search` maps instead of parsing: versioned, checksummed, written through a temporary. The
// codes are the scoring's (--matrix's letters, blosum62 by default, U and O as blastp's stand-ins,
// or DNA's: A C G T and every IUPAC letter its own code, as search --dna reads them); a search
// with another scoring maps them to its own letters when it opens the file.
#include <chrono>
#include <iostream>

#include "command.hpp"
#include "lockstep/io.hpp"
#include "lockstep/search.hpp"
#include "report.hpp"

namespace lockstep::cli {
namespace {

int run_makedb(const Args& args) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string usage =
      "lockstep makedb DB.fasta[.gz] DB.lsdb [--matrix "
      "blosum62|blosum45|blosum50|blosum80|pam30|pam70|pam250|FILE | --dna]";
  po::options_description opts("options");
  opts.add_options()("fasta", po::value<std::string>(), "database FASTA (gzip too; - for stdin)")(
      "lsdb", po::value<std::string>(), "the prepared database to write")(
      "matrix", po::value<std::string>(),
      "the letters to encode (blosum62 default, blosum45, blosum50, blosum80, pam30, pam70, "
      "pam250, "
      "or an NCBI-format matrix file)")(
      "dna", "DNA: A C G T and the other IUPAC letters (N R Y ...), each kept as search reads it");
  po::positional_options_description pos;
  pos.add("fasta", 1).add("lsdb", 1);
  po::variables_map vm;
  if (!parse(usage, args, opts, pos, vm)) return 0;
  if (!vm.count("fasta") || !vm.count("lsdb"))
    throw usage_error("a database FASTA and an output path expected\nusage: " + usage);
  if (vm.count("matrix") && vm.count("dna"))
    throw usage_error("--matrix and --dna exclude each other");
  const std::string in = vm["fasta"].as<std::string>(), out = vm["lsdb"].as<std::string>();
  if (out == "-") throw usage_error("DB.lsdb must be a file, not standard output");
  if (same_file(in, out))
    throw usage_error(out + " is the same file as " + in + ": refusing to overwrite an input");
  const Scoring s = vm.count("dna")
                        ? blastn_scoring(2, -3, 7, 2)
                        : matrix_scoring(vm.count("matrix") ? vm["matrix"].as<std::string>()
                                                            : std::string("blosum62"));
  const SequenceSet db = read_sequences(in, s);
  if (db.skipped_empty)
    std::cerr << "lockstep makedb: " << in << ": skipped " << db.skipped_empty
              << " record(s) with no residues\n";
  if (db.stand_ins)
    std::cerr << "lockstep makedb: " << in << ": " << db.stand_ins
              << " residue(s) U or O, which the matrix lacks, stored as blastp scores them (U as "
                 "C, O as X)\n";
  write_database(out, db, s);
  Report kv;
  kv.add("sequences", db.size())
      .add("residues", db.residue_count())
      .add("alphabet", s.dna ? std::string("dna") : s.alphabet)
      .add(
          "ms",
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  std::cout << kv.str() << "\n";
  return 0;
}

}  // namespace
LOCKSTEP_COMMAND("makedb", "a prepared search database: FASTA read once, mapped by search",
                 run_makedb);
}  // namespace lockstep::cli
