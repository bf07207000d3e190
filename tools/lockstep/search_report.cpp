// The hit tables of `lockstep search` (see search_report.hpp). E-values as BLAST+ computes them
// from the query's and the subject's lengths and the database's residues and sequences
// (statistics.cpp).
#include "search_report.hpp"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

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

std::string format_bits(double b) {  // BLAST+ 2.12: 26700 prints whole, 102900 as 1.029e+05
  char buf[32];
  if (b > 99999)
    std::snprintf(buf, sizeof buf, "%5.3le", b);
  else if (b > 99.9)  // truncated, as BLAST
    std::snprintf(buf, sizeof buf, "%ld", long(b));
  else
    std::snprintf(buf, sizeof buf, "%4.1lf", b);
  return buf;
}

double hit_evalue(const KarlinAltschul& ka, const SequenceSet& queries, const SequenceSet& db,
                  const SearchHit& h) {
  return evalue(ka, h.score, queries.length(size_t(h.query)), db.length(size_t(h.subject)),
                int64_t(db.residues.size()), int64_t(db.size()));
}

size_t keep_evalue(SearchResult& r, const SequenceSet& queries, const SequenceSet& db,
                   const KarlinAltschul& ka, double max_evalue) {
  size_t dropped = 0;
  for (auto& hits : r.hits) {
    const size_t before = hits.size();
    hits.erase(std::remove_if(
                   hits.begin(), hits.end(),
                   [&](const SearchHit& h) { return hit_evalue(ka, queries, db, h) > max_evalue; }),
               hits.end());
    dropped += before - hits.size();
  }
  return dropped;
}

namespace {
int compare_evalues(double a, double b) {  // blast_hits.c s_EvalueComp: all below 1e-180 equal
  if (a < 1.0e-180 && b < 1.0e-180) return 0;
  return a < b ? -1 : a > b ? 1 : 0;
}
}  // namespace

void order_as_blast(SearchResult& r, const SequenceSet& queries, const SequenceSet& db,
                    const KarlinAltschul& ka) {
  struct Best {
    double e = 0;
    int32_t score = 0;
    bool set = false;
  };
  for (auto& hits : r.hits) {
    std::vector<double> e(hits.size());
    std::unordered_map<int64_t, Best> best;  // per subject: its best E-value and score
    for (size_t i = 0; i < hits.size(); ++i) {
      e[i] = hit_evalue(ka, queries, db, hits[i]);
      Best& b = best[hits[i].subject];
      if (!b.set || e[i] < b.e) b.e = e[i];
      b.score = b.set ? std::max(b.score, hits[i].score) : hits[i].score;
      b.set = true;
    }
    std::vector<size_t> order(hits.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
      const SearchHit &a = hits[x], &b = hits[y];
      if (a.subject != b.subject) {  // s_EvalueCompareHSPLists: E, score, then the later subject
        const Best &ba = best[a.subject], &bb = best[b.subject];
        if (const int c = compare_evalues(ba.e, bb.e)) return c < 0;
        if (ba.score != bb.score) return ba.score > bb.score;
        return a.subject > b.subject;
      }
      if (const int c = compare_evalues(e[x], e[y])) return c < 0;  // one subject's HSPs
      return a.score > b.score;
    });
    std::vector<SearchHit> sorted;
    sorted.reserve(hits.size());
    for (size_t i : order) sorted.push_back(hits[i]);
    hits = std::move(sorted);
  }
}

void warn_duplicate_names(const SequenceSet& set, const std::string& path, std::ostream& note) {
  std::unordered_map<std::string, size_t> first;
  size_t dups = 0;
  for (size_t i = 0; i < set.size(); ++i) {
    const auto [at, fresh] = first.emplace(set.names[i], i);
    if (fresh || dups++) continue;
    note << "lockstep search: " << path << ": sequences " << at->second + 1 << " and " << i + 1
         << " are both named '" << set.names[i] << "': their hits cannot be told apart";
  }
  if (dups > 1) note << " (and " << dups - 1 << " more duplicate name(s))";
  if (dups) note << "\n";
}

nlohmann::json write_hits(std::ostream& out, const SequenceSet& queries, const SequenceSet& db,
                          const SearchResult& r, bool dna) {
  nlohmann::json all = nlohmann::json::array();
  out << "#query\tsubject\tscore\tquery_end\tsubject_end" << (dna ? "\tstrand\n" : "\n");
  for (const auto& hits : r.hits)
    for (const SearchHit& h : hits) {
      const std::string& q = queries.names[size_t(h.query)];
      const std::string& d = db.names[size_t(h.subject)];
      out << q << '\t' << d << '\t' << h.score << '\t' << h.query_end + 1 << '\t'
          << h.subject_end + 1;
      if (dna) out << '\t' << (h.minus ? "minus" : "plus");
      out << '\n';
      all.push_back({{"query", q},
                     {"subject", d},
                     {"score", h.score},
                     {"query_end", h.query_end + 1},
                     {"subject_end", h.subject_end + 1}});
      if (dna) all.back()["strand"] = h.minus ? "minus" : "plus";
    }
  return all;
}

nlohmann::json write_tabular(std::ostream& out, const SequenceSet& queries, const SequenceSet& db,
                             const Scoring& s, const SearchResult& r, std::ostream& note) {
  const KarlinAltschul ka = karlin_altschul(s);
  if (!ka)
    note << "lockstep search: NCBI publishes no Karlin-Altschul parameters for this scoring ("
         << (s.dna ? std::string("DNA") : "this matrix") << " with gaps " << s.gap_open << "/"
         << s.gap_extend << ", BLAST's " << s.gap_open - s.gap_extend << "/" << s.gap_extend
         << "): evalue and bitscore are NA\n";
  nlohmann::json all = nlohmann::json::array();
  for (const auto& hits : r.hits)
    for (const SearchHit& h : hits) {
      HitAlignment a = align_hit(queries, db, s, h);
      if (h.minus && h.score > 0) {  // as blastn: query ascending, subject descending
        const int64_t m = queries.length(size_t(h.query));
        const HitAlignment rc = a;
        a.qstart = m - rc.qend + 1, a.qend = m - rc.qstart + 1;
        a.sstart = rc.send, a.send = rc.sstart;
      }
      const std::string& q = queries.names[size_t(h.query)];
      const std::string& d = db.names[size_t(h.subject)];
      std::string evalue = "NA", bits = "NA";
      nlohmann::json je = nullptr, jb = nullptr;
      if (ka) {
        const double e = hit_evalue(ka, queries, db, h);
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
      if (s.dna) all.back()["strand"] = h.minus ? "minus" : "plus";
    }
  return all;
}

}  // namespace lockstep::cli
