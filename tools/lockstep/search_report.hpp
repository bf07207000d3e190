// The hit tables of `lockstep search` (cmd_search.cpp): the default table and BLAST's tabular
// formats (outfmt 6, and 7 with its comment lines) with BLAST's column keywords, each also
// returned as the JSON array of --json.
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "lockstep/search.hpp"

namespace lockstep::cli {

/// `#query subject score query_end subject_end` (DNA: and `strand`, plus or minus), then one
/// tab-separated line per hit (1-based inclusive ends, 0 when the score is 0; a minus-strand
/// hit's query_end counted on the query's reverse complement).
nlohmann::json write_hits(std::ostream& out, const SequenceSet& queries, const SequenceSet& db,
                          const SearchResult& r, bool dna);

/// --outfmt as BLAST takes it: "6" or "7", then optionally column keywords ("std" is the
/// default twelve: qaccver saccver pident length mismatch gapopen qstart qend sstart send evalue
/// bitscore). parse_outfmt throws usage_error naming an unknown format or keyword.
struct Outfmt {
  int kind = 6;  // 6: tab-separated lines; 7: the same with BLAST's comment lines
  std::vector<std::string> fields;
};
Outfmt parse_outfmt(const std::string& spec);
/// The keywords parse_outfmt accepts, in the order of the usage text.
const std::vector<std::string>& outfmt_keywords();

/// One line per hit with the columns of `f`, from a traceback of each hit (align_hits: on the
/// host's threads; a minus-strand hit as blastn: send < sstart, qseq the query's plus strand,
/// sseq the subject's reverse complement); format 7 adds per query "# BLASTP lockstep-search"
/// (BLASTN for DNA), "# Query: ID", "# Database: `database`", "# Fields: ..." (when it has hits)
/// and "# N hits found", and "# BLAST processed N queries" at the end. evalue and bitscore are
/// NA (with one note on `note`) when NCBI publishes no Karlin-Altschul parameters for the
/// scoring. `queries` is the set searched (strand_queries). `traceback_ms`: the tracebacks' wall
/// time.
nlohmann::json write_tabular(std::ostream& out, const SequenceSet& queries, const SequenceSet& db,
                             const Scoring& s, const SearchResult& r, std::ostream& note,
                             const Outfmt& f = {}, const std::string& database = "",
                             double* traceback_ms = nullptr);
/// The E-value BLAST+ gives hit `h` (statistics.cpp's evalue).
double hit_evalue(const KarlinAltschul& ka, const SequenceSet& queries, const SequenceSet& db,
                  const SearchHit& h);
/// Drops the hits whose E-value exceeds `max_evalue` (BLAST's -evalue); returns how many.
size_t keep_evalue(SearchResult& r, const SequenceSet& queries, const SequenceSet& db,
                   const KarlinAltschul& ka, double max_evalue);
/// Each query's hits in BLAST's order (blast_hits.c s_EvalueCompareHSPLists): subjects by their
/// best E-value (all below 1e-180 equal), then their best score, then the later subject first;
/// one subject's hits (DNA: its two strands) together, by E-value, then score.
void order_as_blast(SearchResult& r, const SequenceSet& queries, const SequenceSet& db,
                    const KarlinAltschul& ka);
/// One line on `note` when two sequences of `set` (read from `path`) share a name, naming the
/// first such pair by their 1-based numbers.
void warn_duplicate_names(const SequenceSet& set, const std::string& path, std::ostream& note);

/// BLAST+'s formatting of an E-value ("0.0" below 1e-180, "1.89e-57", "0.003", "0.40", "1.2",
/// "12").
std::string format_evalue(double e);
/// BLAST+'s formatting of a bit score ("45.8", "123", "26700": truncated above 99.9; above
/// 99999 "1.234e+05").
std::string format_bits(double b);

}  // namespace lockstep::cli
