// The pieces of `lockstep search` (cmd_search.cpp) that its one-process run and its
// `--distributed` run (tools/lockstep/mpi/search.cpp) share: the options as parsed, the inputs as
// read, and the report of the hits (the output files and the summary line).
#pragma once
#include <chrono>
#include <memory>
#include <string>

#include "command.hpp"
#include "lockstep/search.hpp"
#include "output.hpp"
#include "search_report.hpp"

namespace lockstep::cli {

struct SearchSetup {
  SearchOptions o;
  Scoring s;
  std::string label;  // the scoring's name: blosum62, dna, a matrix file
  bool tabular = false;
  Outfmt outfmt;
  std::string strand = "both", qpath, dpath;
  double max_evalue = 10;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
};

struct SearchInputs {
  SequenceSet db, queries_read;
  SequenceSet queries;  // the set searched: DNA's strands (strand_queries), else queries_read
  double read_ms = 0;
};
/// Reads DB and QUERIES (FASTA or prepared databases); the notes (records skipped, U/O stand-ins,
/// duplicate names) on standard error when `notes`. With parts > 1: DB's share `part` only
/// (read_database).
SearchInputs read_search_inputs(const SearchSetup& st, bool notes, size_t parts = 1,
                                size_t part = 0);

/// How the search ran, for the summary line.
struct SearchRun {
  std::string device;  // the (first) device's name, or cpu
  int devices = 1;     // devices of this process (--devices), or ranks (--distributed)
  int ranks = 0;       // --distributed: the ranks; 0 otherwise
  double context_ms = 0;
};
/// The hits of `r` (the search of in.queries) through E-value cutoff and BLAST's order into
/// --out or standard output, --json, and the summary line; commits `outs`.
int report_search(const po::variables_map& vm, const SearchSetup& st, const SearchInputs& in,
                  SearchResult& r, const SearchRun& run, Outputs& outs);
/// The output options and the inputs they may not overwrite.
std::unique_ptr<Outputs> search_outputs(const po::variables_map& vm);

}  // namespace lockstep::cli
