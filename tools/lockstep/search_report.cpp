// The hit tables of `lockstep search` (see search_report.hpp). E-values use the query's length
// and the database's residues and sequences with BLAST's length adjustment (statistics.cpp).
#include "search_report.hpp"

#include <cstdio>

namespace lockstep::cli {

std::string format_evalue(double e) {  // as BLAST+ 2.12's tabular output (blastp -outfmt 6)
  char buf[32];
  if (e < 1.0e-180) return "0.0";
  if (e < 0.0009)
    std::snprintf(buf, sizeof buf, "%.2le", e);
  else if (e < 0.1)
    std::snprintf(buf, sizeof buf, "%4.3lf", e);
  else if (e < 1.0)
    std::snprintf(buf, sizeof buf, "%3.2lf", e);
  else if (e < 10.0)
    std::snprintf(buf, sizeof buf, "%2.1lf", e);
  else
    std::snprintf(buf, sizeof buf, "%.0lf", e);
  return buf;
}

std::string format_bits(double b) {
  char buf[32];
  if (b > 9999)
    std::snprintf(buf, sizeof buf, "%4.3le", b);
  else if (b > 99.9)  // truncated, as BLAST
    std::snprintf(buf, sizeof buf, "%ld", long(b));
  else
    std::snprintf(buf, sizeof buf, "%4.1lf", b);
  return buf;
}

nlohmann::json write_hits(std::ostream& out, const SequenceSet& queries, const SequenceSet& db,
                          const SearchResult& r) {
  nlohmann::json all = nlohmann::json::array();
  out << "#query\tsubject\tscore\tquery_end\tsubject_end\n";
  for (const auto& hits : r.hits)
    for (const SearchHit& h : hits) {
      const std::string& q = queries.names[size_t(h.query)];
      const std::string& d = db.names[size_t(h.subject)];
      out << q << '\t' << d << '\t' << h.score << '\t' << h.query_end + 1 << '\t'
          << h.subject_end + 1 << '\n';
      all.push_back({{"query", q},
                     {"subject", d},
                     {"score", h.score},
                     {"query_end", h.query_end + 1},
                     {"subject_end", h.subject_end + 1}});
    }
  return all;
}

nlohmann::json write_tabular(std::ostream& out, const SequenceSet& queries, const SequenceSet& db,
                             const Scoring& s, const SearchResult& r, std::ostream& note) {
  const KarlinAltschul ka = karlin_altschul(s);
  if (!ka)
    note << "lockstep search: NCBI publishes no Karlin-Altschul parameters for this scoring ("
         << (s.dna ? std::string("DNA") : "this matrix") << " with gaps " << s.gap_open << "/"
         << s.gap_extend << "): evalue and bitscore are NA\n";
  nlohmann::json all = nlohmann::json::array();
  const int64_t n = int64_t(db.residues.size()), subjects = int64_t(db.size());
  for (const auto& hits : r.hits)
    for (const SearchHit& h : hits) {
      const HitAlignment a = align_hit(queries, db, s, h);
      const std::string& q = queries.names[size_t(h.query)];
      const std::string& d = db.names[size_t(h.subject)];
      std::string evalue = "NA", bits = "NA";
      nlohmann::json je = nullptr, jb = nullptr;
      if (ka) {
        const double e =
            lockstep::evalue(ka, h.score, queries.length(size_t(h.query)), n, subjects);
        const double b = bit_score(ka, h.score);
        evalue = format_evalue(e), bits = format_bits(b), je = e, jb = b;
      }
      char pident[32];
      std::snprintf(pident, sizeof pident, "%.3f", a.pident);
      out << q << '\t' << d << '\t' << pident << '\t' << a.length << '\t' << a.mismatch << '\t'
          << a.gapopen << '\t' << a.qstart << '\t' << a.qend << '\t' << a.sstart << '\t' << a.send
          << '\t' << evalue << '\t' << bits << '\n';
      all.push_back({{"query", q},
                     {"subject", d},
                     {"score", h.score},
                     {"pident", a.pident},
                     {"length", a.length},
                     {"mismatch", a.mismatch},
                     {"gapopen", a.gapopen},
                     {"qstart", a.qstart},
                     {"qend", a.qend},
                     {"sstart", a.sstart},
                     {"send", a.send},
                     {"evalue", je},
                     {"bitscore", jb},
                     {"cigar", a.cigar}});
    }
  return all;
}

}  // namespace lockstep::cli
