// The hit tables of `lockstep search` (see search_report.hpp). E-values as BLAST+ computes them
// from the query's and the subject's lengths and the database's residues and sequences
// (statistics.cpp).
#include "search_report.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <sstream>
#include <string_view>
#include <unordered_map>

#include "exit_codes.hpp"
#include "vocabulary.hpp"

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
                int64_t(db.residue_count()), int64_t(db.size()));
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
  std::unordered_map<std::string_view, size_t> first;  // views of set.names: no copies
  first.reserve(set.size());
  size_t dups = 0;
  for (size_t i = 0; i < set.size(); ++i) {
    const auto [at, fresh] = first.emplace(std::string_view(set.names[i]), i);
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

namespace {

// What one column needs of a hit.
struct Row {
  const std::string &q, &d;
  const SearchHit& h;
  const HitAlignment& a;    // as printed (a minus-strand hit's flipped, as blastn's)
  const HitAlignment& raw;  // as searched: on the query's reverse complement for minus
  int64_t qlen, slen;
  const std::string &evalue, &bits;
  const uint8_t *qcodes, *scodes;  // the whole query and subject
  const std::string& letters;      // the scoring's alphabet
};

// The IUPAC complement of a DNA letter (A-T, C-G, R-Y, M-K, B-V, D-H; N, W, S their own).
char complement(char c) {
  static const std::string from = "ACGTRYMKBVDHNWS", to = "TGCAYRKMVBHDNWS";
  const size_t at = from.find(c);
  return at == std::string::npos ? c : to[at];
}

// The aligned residues of the query (`query`) or the subject, '-' where the other has a gap; a
// minus-strand hit's as blastn prints them: the query's plus strand against the subject's
// reverse complement.
std::string aligned(const Row& r, bool query) {
  std::string out;
  if (!r.raw.qstart) return out;
  const uint8_t* c = query ? r.qcodes + r.raw.qstart - 1 : r.scodes + r.raw.sstart - 1;
  for (const CigarRun& run : parse_cigar(r.raw.cigar)) {
    const bool here = run.op == 'M' || (run.op == 'I') == query;
    for (int64_t k = 0; k < run.length; ++k) out += here ? r.letters[*c++] : '-';
  }
  if (r.h.minus) {
    std::reverse(out.begin(), out.end());
    for (char& l : out) l = complement(l);
  }
  return out;
}
struct Column {
  const char* keyword;
  const char* header;  // BLAST 2.12's name in format 7's "# Fields:" line
  std::function<std::string(const Row&)> text;
};

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

const std::vector<Column>& columns() {
  using S = std::string;
  static const std::vector<Column> all = {
      {"qseqid", "query id", [](const Row& r) { return r.q; }},
      {"qaccver", "query acc.ver", [](const Row& r) { return r.q; }},
      {"sseqid", "subject id", [](const Row& r) { return r.d; }},
      {"saccver", "subject acc.ver", [](const Row& r) { return r.d; }},
      {"pident", "% identity", [](const Row& r) { return fixed(r.a.pident, 3); }},
      {"length", "alignment length", [](const Row& r) { return std::to_string(r.a.length); }},
      {"mismatch", "mismatches", [](const Row& r) { return std::to_string(r.a.mismatch); }},
      {"gapopen", "gap opens", [](const Row& r) { return std::to_string(r.a.gapopen); }},
      {"gaps", "gaps", [](const Row& r) { return std::to_string(r.a.gaps); }},
      {"qstart", "q. start", [](const Row& r) { return std::to_string(r.a.qstart); }},
      {"qend", "q. end", [](const Row& r) { return std::to_string(r.a.qend); }},
      {"sstart", "s. start", [](const Row& r) { return std::to_string(r.a.sstart); }},
      {"send", "s. end", [](const Row& r) { return std::to_string(r.a.send); }},
      {"evalue", "evalue", [](const Row& r) { return r.evalue; }},
      {"bitscore", "bit score", [](const Row& r) { return r.bits; }},
      {"score", "score", [](const Row& r) { return std::to_string(r.h.score); }},
      {"nident", "identical", [](const Row& r) { return std::to_string(r.a.nident); }},
      {"positive", "positives", [](const Row& r) { return std::to_string(r.a.positive); }},
      {"ppos", "% positives",
       [](const Row& r) {
         return fixed(r.a.length ? 100.0 * double(r.a.positive) / double(r.a.length) : 0, 2);
       }},
      {"qseq", "query seq", [](const Row& r) { return aligned(r, true); }},
      {"sseq", "subject seq", [](const Row& r) { return aligned(r, false); }},
      {"qlen", "query length", [](const Row& r) { return std::to_string(r.qlen); }},
      {"slen", "subject length", [](const Row& r) { return std::to_string(r.slen); }},
      {"qcovhsp", "% query coverage per hsp",
       [](const Row& r) {  // rounded, as BLAST, but 100 only for the whole query
         const int64_t span = r.a.qend ? r.a.qend - r.a.qstart + 1 : 0;
         const int64_t pct = int64_t(0.5 + 100.0 * double(span) / double(r.qlen));
         return S(std::to_string(span == r.qlen ? 100 : std::min<int64_t>(99, pct)));
       }},
  };
  return all;
}

const Column& column(const std::string& keyword) {
  for (const Column& c : columns())
    if (keyword == c.keyword) return c;
  throw std::logic_error("search_report: no column " + keyword);
}

const std::vector<std::string> kStd = {"qaccver",  "saccver", "pident", "length",
                                       "mismatch", "gapopen", "qstart", "qend",
                                       "sstart",   "send",    "evalue", "bitscore"};

}  // namespace

const std::vector<std::string>& outfmt_keywords() {
  static const std::vector<std::string> k = [] {
    std::vector<std::string> v{"std"};
    for (const Column& c : columns()) v.push_back(c.keyword);
    return v;
  }();
  return k;
}

Outfmt parse_outfmt(const std::string& spec) {
  std::istringstream in(spec);
  std::string word;
  Outfmt f;
  if (!(in >> word) || (word != "6" && word != "7"))
    throw usage_error(
        "--outfmt: expected 6 (BLAST tabular) or 7 (with comment lines), then "
        "optionally column keywords; got '" +
        spec + "'");
  f.kind = word[0] - '0';
  while (in >> word) {
    if (word == "std") {
      f.fields.insert(f.fields.end(), kStd.begin(), kStd.end());
      continue;
    }
    const auto& k = outfmt_keywords();
    if (std::find(k.begin(), k.end(), word) == k.end())
      throw usage_error("--outfmt: unknown column keyword '" + word + "' (known: " + join(k, " ") +
                        ")");
    f.fields.push_back(word);
  }
  if (f.fields.empty()) f.fields = kStd;
  return f;
}

nlohmann::json write_tabular(std::ostream& out, const SequenceSet& queries, const SequenceSet& db,
                             const Scoring& s, const SearchResult& r, std::ostream& note,
                             const Outfmt& f, const std::string& database, double* traceback_ms) {
  const KarlinAltschul ka = karlin_altschul(s);
  if (!ka)
    note << "lockstep search: NCBI publishes no Karlin-Altschul parameters for this scoring ("
         << (s.dna ? std::string("DNA") : "this matrix") << " with gaps " << s.gap_open << "/"
         << s.gap_extend << ", BLAST's " << s.gap_open - s.gap_extend << "/" << s.gap_extend
         << "): evalue and bitscore are NA\n";
  Outfmt fmt = f;
  if (fmt.fields.empty()) fmt.fields = kStd;
  std::vector<const Column*> cols;
  std::string fields;
  for (const std::string& k : fmt.fields) {
    cols.push_back(&column(k));
    fields += (fields.empty() ? "" : ", ") + std::string(cols.back()->header);
  }
  const auto t0 = std::chrono::steady_clock::now();
  const auto aligned = align_hits(queries, db, s, r);
  if (traceback_ms)
    *traceback_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  nlohmann::json all = nlohmann::json::array();
  std::string line;
  for (size_t qi = 0; qi < r.hits.size(); ++qi) {
    const auto& hits = r.hits[qi];
    if (fmt.kind == 7) {
      out << "# " << (s.dna ? "BLASTN" : "BLASTP")
          << " lockstep-search\n# Query: " << queries.names[qi] << "\n# Database: " << database
          << "\n";
      if (!hits.empty()) out << "# Fields: " << fields << "\n";
      out << "# " << hits.size() << " hits found\n";
    }
    for (size_t k = 0; k < hits.size(); ++k) {
      const SearchHit& h = hits[k];
      const HitAlignment& raw = aligned[qi][k];
      HitAlignment a = raw;
      if (h.minus && h.score > 0) {  // as blastn: query ascending, subject descending
        const int64_t m = queries.length(size_t(h.query));
        a.qstart = m - raw.qend + 1, a.qend = m - raw.qstart + 1;
        a.sstart = raw.send, a.send = raw.sstart;
      }
      const std::string& q = queries.names[size_t(h.query)];
      const std::string& d = db.names[size_t(h.subject)];
      std::string evalue = "NA", bits = "NA";
      nlohmann::json je = nullptr, jb = nullptr;
      const int64_t qlen = queries.length(size_t(h.query));
      if (ka) {
        const double e = hit_evalue(ka, queries, db, h);
        const double b = bit_score(ka, h.score);
        evalue = format_evalue(e), bits = format_bits(b), je = e, jb = b;
      }
      const Row row{q,
                    d,
                    h,
                    a,
                    raw,
                    qlen,
                    db.length(size_t(h.subject)),
                    evalue,
                    bits,
                    queries.data(size_t(h.query)),
                    db.data(size_t(h.subject)),
                    s.alphabet};
      line.clear();
      for (size_t c = 0; c < cols.size(); ++c) (line += c ? "\t" : "") += cols[c]->text(row);
      out << line << '\n';
      all.push_back({{"query", q},
                     {"subject", d},
                     {"score", h.score},
                     {"pident", a.pident},
                     {"length", a.length},
                     {"mismatch", a.mismatch},
                     {"gapopen", a.gapopen},
                     {"gaps", a.gaps},
                     {"nident", a.nident},
                     {"positive", a.positive},
                     {"qstart", a.qstart},
                     {"qend", a.qend},
                     {"sstart", a.sstart},
                     {"send", a.send},
                     {"evalue", je},
                     {"bitscore", jb},
                     {"cigar", a.cigar}});
      if (s.dna) all.back()["strand"] = h.minus ? "minus" : "plus";
    }
  }
  if (fmt.kind == 7) out << "# BLAST processed " << r.hits.size() << " queries\n";
  return all;
}

}  // namespace lockstep::cli
