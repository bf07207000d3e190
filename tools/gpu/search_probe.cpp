// A first throughput probe of the device search (issue 34) until `lockstep search` lands: reads
// QUERIES and DB (FASTA, gzip), runs lockstep::search with top K once to build the kernels, then
// times each shape of SHAPES ("local:stripe,..."; default the automatic one) twice, and prints
// one line per run: shape, dpx, milliseconds, GCUPS (sum of query lengths x DB residues / s),
// recomputed pairs. Writes the hits of the first timed run as TSV (query subject score qend send,
// 1-based ends) to OUT_TSV when given.
//   search_probe QUERY.fasta.gz DB.fasta.gz [top] [OUT_TSV]
// GROW=N: the database's records repeated with 10 % substitutions (a fixed LCG, deterministic)
// until N residues, written as FASTA to GROW_FASTA when set (for CUDASW++); QUERIES=K: the first K
// queries only. DPX2_LOG=1: builds the three-input DPX variant (SW_DPX=2) and prints why the
// driver refuses it, when it does.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "lockstep/io.hpp"
#include "lockstep/search.hpp"

using namespace lockstep;

static SequenceSet read_fasta(const std::string& path, const Scoring& s) {
  std::istringstream in(read_input(path));
  SequenceSet set;
  std::string line, name, res;
  auto flush = [&] {
    if (!name.empty() && !res.empty()) set.add(name, s.encode(res));
    name.clear(), res.clear();
  };
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] == '>') {
      flush();
      name = line.substr(1, line.find_first_of(" \t") - 1);
    } else {
      for (char c : line)
        if (!std::isspace(static_cast<unsigned char>(c))) res += c;
    }
  }
  flush();
  return set;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: search_probe QUERY.fasta[.gz] DB.fasta[.gz] [top] [OUT_TSV]\n";
    return 2;
  }
  try {
    const Scoring s = blosum62(11, 1);
    const auto t0 = std::chrono::steady_clock::now();
    SequenceSet q = read_fasta(argv[1], s), db = read_fasta(argv[2], s);
    if (const char* e = std::getenv("QUERIES"); e && std::atoll(e) > 0) {
      SequenceSet part;
      for (size_t i = 0; i < std::min<size_t>(q.size(), size_t(std::atoll(e))); ++i)
        part.add(q.names[i], std::vector<uint8_t>(q.data(i), q.data(i) + q.length(i)));
      q = std::move(part);
    }
    if (const char* e = std::getenv("GROW"); e && std::atoll(e) > 0) {
      const int64_t want = std::atoll(e);
      SequenceSet big;
      uint64_t x = 0x9e3779b97f4a7c15ull;
      std::vector<uint8_t> codes;
      const int letters = 20;  // substitutions among the 20 standard amino acids (codes 0-19)
      for (int copy = 0; int64_t(big.residues.size()) < want; ++copy)
        for (size_t i = 0; i < db.size() && int64_t(big.residues.size()) < want; ++i) {
          codes.assign(db.data(i), db.data(i) + db.length(i));
          if (copy > 0)
            for (uint8_t& c : codes) {
              x = x * 6364136223846793005ull + 1442695040888963407ull;
              if ((x >> 33) % 10 == 0) c = uint8_t((x >> 40) % letters);
            }
          big.add(db.names[i] + "_" + std::to_string(copy), codes);
        }
      db = std::move(big);
      if (const char* f = std::getenv("GROW_FASTA"); f && *f) {
        std::ofstream out(f);
        std::string line;
        for (size_t i = 0; i < db.size(); ++i) {
          line.assign(1, '>').append(db.names[i]).append(1, '\n');
          for (int64_t j = 0; j < db.length(i); ++j) line += s.alphabet[db.data(i)[j]];
          out << line << '\n';
        }
      }
    }
    const double read_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    int64_t qres = 0;
    for (size_t i = 0; i < q.size(); ++i) qres += q.length(i);
    std::printf("queries %zu (%lld residues), db %zu (%zu residues), read %.0f ms\n", q.size(),
                (long long)qres, db.size(), db.residues.size(), read_ms);
    Context ctx;
    std::printf("device: %s\n", ctx.info().name.c_str());
    SearchOptions o;
    o.top = argc > 3 ? std::atoi(argv[3]) : 10;
    std::vector<std::pair<int, int>> shapes{{0, 0}};
    if (const char* e = std::getenv("SHAPES"); e && *e) {
      shapes.clear();
      std::string list = e;
      for (size_t at = 0; at < list.size();) {
        size_t end = list.find(',', at);
        if (end == std::string::npos) end = list.size();
        const std::string item = list.substr(at, end - at);
        shapes.push_back({std::atoi(item.c_str()), std::atoi(item.c_str() + item.find(':') + 1)});
        at = end + 1;
      }
    }
    if (const char* e = std::getenv("DPX2_LOG"); e && *e == '1') {
      try {
        Defines d;
        d.set("LOCAL_SIZE", 128).set("STRIPE", 64).set("SW_DPX", 2);
        d.set("ENDS_LOCAL", 64).set("ENDS_ROWS", 8);
        ctx.kernel("search.cl", "search_inter", d);
        std::printf("SW_DPX=2 builds\n");
      } catch (const std::exception& ex) {
        std::printf("SW_DPX=2 refused: %s\n", ex.what());
      }
    }
    bool wrote = false;
    for (auto [local, stripe] : shapes) {
      o.local_size = local, o.stripe = stripe;
      SequenceSet warm;  // builds the kernels outside the timing
      for (size_t i = 0; i < std::min<size_t>(2, q.size()); ++i)
        warm.add(q.names[i], std::vector<uint8_t>(q.data(i), q.data(i) + q.length(i)));
      search(ctx, warm, db, s, o);
      for (int rep = 0; rep < 2; ++rep) {
        const SearchResult r = search(ctx, q, db, s, o);
        std::printf(
            "shape %d:%d dpx %d  %.1f ms  %.1f GCUPS  (kernels %.1f ms, ends %.1f ms)"
            "  recomputed %zu\n",
            local, stripe, int(r.dpx), r.ms, r.cells / r.ms * 1e-6, r.kernel_ms, r.ends_ms,
            r.recomputed);
        std::fflush(stdout);
        if (!wrote && argc > 4) {
          std::ofstream out(argv[4]);
          out << "#query\tsubject\tscore\tquery_end\tsubject_end\n";
          for (const auto& hits : r.hits)
            for (const SearchHit& h : hits)
              out << q.names[size_t(h.query)] << '\t' << db.names[size_t(h.subject)] << '\t'
                  << h.score << '\t' << h.query_end + 1 << '\t' << h.subject_end + 1 << '\n';
          wrote = true;
        }
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "search_probe: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
