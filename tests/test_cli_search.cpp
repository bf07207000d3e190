// `lockstep search` through the CLI: the default table, BLAST tabular (--outfmt 6) with NCBI's
// statistics, --json, standard input, DNA, a matrix file, and every bad input search refuses (an
// empty database, a record with no residues, a letter the matrix lacks, a truncated gzip,
// --top 0, a database larger than host memory allows): a one-line error, exit 1 or 2, and no
// output file written or replaced. Everything runs on the host (--algorithm cpu) but one case,
// which takes the default algorithm on the test device.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support.hpp"

namespace {
using lockstep::test::slurp;
using lockstep::test::write;

bool has(const std::string& out, const std::string& what) {
  return out.find(what) != std::string::npos;
}

// MKVLAW scores 5+5+4+4+4+11 = 33 against itself under BLOSUM62; GGGG scores nothing.
const char* kQueries = ">q1 first query\nMKV\nLAW\n";
const char* kDb = ">s1\nMKVLAW\n>s2 two\nGGGG\n>s3\nAAMKVLAWAA\n";

}  // namespace

TEST_CASE("search cli: the default table, ties by database order, 1-based ends") {
  lockstep::test::TempDir d;
  const std::string q = write(d, "q.fa", kQueries), db = write(d, "db.fa", kDb);
  const std::string out = (d.path / "hits.tsv").string();
  std::string log;
  REQUIRE(lockstep::test::run_cli(
              "search " + q + " " + db + " --top 2 --algorithm cpu --out " + out, log) == 0);
  CHECK(slurp(out) ==
        "#query\tsubject\tscore\tquery_end\tsubject_end\n"
        "q1\ts1\t33\t6\t6\n"
        "q1\ts3\t33\t6\t8\n");
  CHECK(lockstep::test::last_line(log)["subjects"] == "3");
  // --top larger than the database: every subject, a zero score with ends 0 (its E-value, about
  // 200, needs a cutoff above BLAST's default 10)
  REQUIRE(lockstep::test::run_cli("search " + q + " " + db + " --algorithm cpu", log) == 0);
  CHECK(!has(log, "q1\ts2\t"));
  REQUIRE(lockstep::test::run_cli("search " + q + " " + db + " --algorithm cpu --evalue 1000",
                                  log) == 0);
  CHECK(has(log, "q1\ts2\t0\t0\t0\n"));
  // queries from standard input
  REQUIRE(lockstep::test::run_shell("cat " + q + " | " + lockstep::test::cli_path() + " search - " +
                                        db + " --top 1 --algorithm cpu",
                                    log) == 0);
  CHECK(has(log, "q1\ts1\t33\t6\t6\n"));
}

// With cold caches, so the run compiles its kernels: a first search says nothing but its table
// and summary (PoCL's compiler prints "N warnings generated." to stderr while it builds; only
// LOCKSTEP_SHOW_BUILDS shows builds and their logs).
TEST_CASE("search cli: the default algorithm on the device gives the same table, quietly") {
  lockstep::test::TempDir d;
  const std::string q = write(d, "q.fa", kQueries), db = write(d, "db.fa", kDb);
  lockstep::test::ScopedEnv quiet("LOCKSTEP_SHOW_BUILDS", nullptr);
  lockstep::test::ScopedEnv pocl("POCL_CACHE_DIR", (d.path / "pocl").string());
  lockstep::test::ScopedEnv cache("LOCKSTEP_CACHE_DIR", (d.path / "cache").string());
  std::string log;
  REQUIRE(lockstep::test::run_cli("search " + q + " " + db + " --top 2", log) == 0);
  CHECK(has(log, "q1\ts1\t33\t6\t6\nq1\ts3\t33\t6\t8\n"));
  CHECK_MESSAGE(!has(log, "generated."), log);
  CHECK_MESSAGE(!has(log, "warning"), log);
  CHECK(std::count(log.begin(), log.end(), '\n') == 4);  // summary, header, two hits
}

// The kernel's features are named in --algorithm (inter+skew), and the summary says them there.
TEST_CASE("search cli: --algorithm inter+skew gives the same table and says algorithm=inter+skew") {
  lockstep::test::TempDir d;
  const std::string q = write(d, "q.fa", kQueries), db = write(d, "db.fa", kDb);
  std::string log;
  REQUIRE(lockstep::test::run_cli("search " + q + " " + db +
                                      " --top 2 --algorithm inter+skew --local-size 32 --stripe 16",
                                  log) == 0);
  CHECK(has(log, "q1\ts1\t33\t6\t6\nq1\ts3\t33\t6\t8\n"));
  CHECK_MESSAGE(has(log, " algorithm=inter+skew "), log);
  CHECK_MESSAGE(!has(log, "variant"), log);
}

TEST_CASE("search cli: --outfmt 6 and --json") {
  lockstep::test::TempDir d;
  const std::string q = write(d, "q.fa", kQueries), db = write(d, "db.fa", kDb);
  const std::string out = (d.path / "hits.m8").string(), json = (d.path / "s.json").string();
  std::string log;
  REQUIRE(lockstep::test::run_cli("search " + q + " " + db +
                                      " --top 2 --algorithm cpu --outfmt 6 --out " + out +
                                      " --json " + json,
                                  log) == 0);
  // blastp's default gaps (BLOSUM62 11/1, lockstep's 12/1): lambda 0.267, K 0.041, and E-values
  // with Spouge's finite-size correction, as `blastp -comp_based_stats 0` prints them for these
  // hits, in its order (the longer subject s3 has the smaller E-value: first)
  CHECK(slurp(out) ==
        "q1\ts3\t100.000\t6\t0\t0\t1\t6\t3\t8\t8.40e-05\t17.3\n"
        "q1\ts1\t100.000\t6\t0\t0\t1\t6\t1\t6\t1.02e-04\t17.3\n");
  // lockstep's 11/1 is BLAST's gap existence 10, extension 1: lambda 0.243, K 0.024
  REQUIRE(lockstep::test::run_cli(
              "search " + q + " " + db + " --top 1 --algorithm cpu --outfmt 6 --gap-open 11",
              log) == 0);
  CHECK(has(log, "q1\ts1\t100.000\t6\t0\t0\t1\t6\t1\t6\t"));
  CHECK(has(log, "\t16.9\n"));
  const nlohmann::json j = nlohmann::json::parse(slurp(json));
  REQUIRE(j["hits"].size() == 2);
  CHECK(j["hits"][0]["sstart"] == 3);
  CHECK(j["hits"][1]["evalue"].get<double>() == doctest::Approx(1.016e-4).epsilon(0.001));
  CHECK(j["subjects"] == 3);

  // DNA gaps NCBI publishes no parameters for (BLAST's 3/2 with 2/-3): NA, and one note
  const std::string dq = write(d, "dq.fa", ">d\nACGTACGGTAC\n");
  const std::string ddb = write(d, "ddb.fa", ">x\nTTACGTACGTACTT\n>y\nGGGG\n");
  REQUIRE(lockstep::test::run_cli(
              "search " + dq + " " + ddb + " --dna --gap-open 5 --top 1 --algorithm cpu --outfmt 6",
              log) == 0);
  CHECK(has(log, "\tNA\tNA\n"));
  CHECK(has(log, "no Karlin-Altschul parameters"));
  CHECK(has(log, "d\tx\t"));
}

TEST_CASE("search cli: matrices: built-in names, a file, letters outside it") {
  lockstep::test::TempDir d;
  const std::string q = write(d, "q.fa", kQueries), db = write(d, "db.fa", kDb);
  std::string log;
  // BLOSUM45's diagonal: M 6, K 5, V 5, L 5, A 5, W 15 = 41, with blastp's gaps 14/2 (16/2)
  REQUIRE(lockstep::test::run_cli(
              "search " + q + " " + db + " --matrix blosum45 --top 1 --algorithm cpu", log) == 0);
  CHECK(has(log, "q1\ts1\t41\t6\t6\n"));
  CHECK(has(log, "gap_open=16 gap_extend=2 blast_gapopen=14 blast_gapextend=2"));
  const std::string m = write(d, "tiny.mat", "# two letters\n   A  W\nA  1 -2\nW -2  3\n");
  const std::string aw = write(d, "aw.fa", ">t\nAWWA\n");
  REQUIRE(lockstep::test::run_cli("search " + aw + " " + aw + " --matrix " + m + " --algorithm cpu",
                                  log) == 0);
  CHECK(has(log, "t\tt\t8\t4\t4\n"));
  const std::string out = (d.path / "never.tsv").string();
  CHECK(lockstep::test::run_cli(
            "search " + q + " " + aw + " --matrix " + m + " --algorithm cpu --out " + out, log) ==
        1);
  CHECK(has(log, q + ":2: record 1 ('q1'), residue 1: 'M' is not in the matrix (letters AW)"));
  CHECK(!std::filesystem::exists(out));
}

TEST_CASE("search cli: bad input is one line, exit 1 or 2, and no output file") {
  lockstep::test::TempDir d;
  const std::string q = write(d, "q.fa", kQueries), db = write(d, "db.fa", kDb);
  const std::string out = write(d, "old.tsv", "old\n");
  auto refused = [&](const std::string& args, int code, const std::string& what) {
    std::string log;
    CHECK(lockstep::test::run_cli("search " + args + " --algorithm cpu --out " + out, log) == code);
    CHECK_MESSAGE(has(log, what), log);
    CHECK(std::count(log.begin(), log.end(), '\n') <=
          2 + int(code == 2) * 2);  // one line (+ usage)
    CHECK(slurp(out) == "old\n");
    CHECK(lockstep::test::count_files(d.path, ".tmp") == 0);
  };
  refused(q + " " + write(d, "empty.fa", ""), 1, "empty.fa: no sequence (empty file)");
  refused(q + " " + write(d, "hollow.fa", ">a\n>b\n\n"), 1,
          "no residues in any of its 2 record(s)");
  const std::string aw = write(d, "aw.mat", "   A  W\nA  1 -2\nW -2  3\n");
  refused(q + " " + write(d, "j.fa", ">a\nAWA\n>b desc\nAW\nAJW\n") + " --matrix " + aw, 1,
          "j.fa:5: record 2 ('b'), residue 4: 'J' is not in the matrix (letters AW)");
  refused(q + " " + d.path.string(), 1, d.path.string() + ": is a directory");
  refused(q + " " + (d.path / "missing.fa").string(), 1, "missing.fa: cannot open");
  refused(q + " " + db + " --top 0", 2, "--top must be in [1, ");
  refused(q + " " + db + " --outfmt 5", 2, "--outfmt: expected 6 (BLAST tabular) or 7");
  refused(q + " " + db + " --outfmt '6 qseqid qframe'", 2, "unknown column keyword 'qframe'");
  refused(q + " " + db + " --matrix blosum62 --dna", 2, "exclude each other");
  {  // queries too long together for the device's profiles: named by their file
    std::string big = ">q\n", log;
    big.append(size_t(70) << 20, 'A');
    const std::string bq = write(d, "bigq.fa", big + "\n");
    CHECK(lockstep::test::run_cli("search " + bq + " " + db + " --out " + out, log) == 1);
    CHECK_MESSAGE(
        has(log, "bigq.fa: the 1 queries' 73400320 residues need profiles of more than 2^31 words"),
        log);
    CHECK(slurp(out) == "old\n");
  }
  // kernel shape options: usage errors, said once ("search: search: ..." and exit 1 before)
  refused(q + " " + db + " --stripe 3", 2,
          "lockstep search: --stripe: rows a work-item must be even");
  std::string log;  // features name the inter kernel's (--algorithm inter+F)
  CHECK(lockstep::test::run_cli("search " + q + " " + db + " --algorithm inter+fast", log) == 2);
  CHECK_MESSAGE(has(log, "lockstep search: --algorithm: unknown kernel feature 'fast'"), log);
  CHECK(lockstep::test::run_cli("search " + q + " " + db + " --algorithm cpu+skew", log) == 2);
  CHECK_MESSAGE(has(log, "lockstep search: --algorithm: only inter takes kernel features"), log);
  const std::string gz = (d.path / "db.fa.gz").string();
  REQUIRE(lockstep::test::run_shell(
              "seq 1 3000 | sed 's/^/>s/;s/$/\\nMKVLAWGGHHPPKKLLVV/' | gzip -c > " + gz +
                  " && truncate -s -12 " + gz,
              log) == 0);
  refused(q + " " + gz, 1, "corrupt gzip data");
  // a database larger than host memory allows (LOCKSTEP_HOST_MEMORY_MIB, 1 MiB here)
  const std::string big = write(d, "big.fa", ">big\n" + std::string(800000, 'A') + "\n");
  {
    lockstep::test::ScopedEnv env("LOCKSTEP_HOST_MEMORY_MIB", "1");
    refused(q + " " + big, 1, "MiB of host memory");
  }
  // the output may not be an input
  CHECK(lockstep::test::run_cli("search " + q + " " + db + " --algorithm cpu --out " + db, log) ==
        2);
  CHECK(has(log, "refusing to overwrite an input"));
  CHECK(slurp(db) == kDb);
}

TEST_CASE("search cli: records with no residues are skipped and counted") {
  lockstep::test::TempDir d;
  const std::string q = write(d, "q.fa", kQueries);
  const std::string db = write(d, "db.fa", ">e1\n>s1\nMKVLAW\n>e2\n\n>s2\nGG\n");
  std::string log;
  REQUIRE(lockstep::test::run_cli("search " + q + " " + db + " --algorithm cpu", log) == 0);
  CHECK(has(log, db + ": skipped 2 record(s) with no residues"));
  CHECK(has(log, "q1\ts1\t33\t6\t6\n"));
  CHECK(has(log, "subjects=2"));
}

TEST_CASE("gen proteins: a mutated, seeded database of the requested size that search reads") {
  lockstep::test::TempDir d;
  const std::string src =
      write(d, "src.fa", ">a x\nMKVLAWGGHHPPKKLLVVCCDDEE\n>b\nWWYYFFMMKK\n>e\n");
  const std::string one = (d.path / "one.fa").string(), two = (d.path / "two.fa").string();
  std::string log;
  REQUIRE(lockstep::test::run_cli(
              "gen proteins " + src + " -o " + one + " --residues 1000 --seed 3", log) == 0);
  const int64_t residues = std::stoll(lockstep::test::last_line(log)["residues"]);
  CHECK(residues >= 1000);
  CHECK(residues < 1000 + 40);
  REQUIRE(lockstep::test::run_cli(
              "gen proteins " + src + " -o " + two + " --residues 1000 --seed 3", log) == 0);
  CHECK(slurp(one) == slurp(two));
  REQUIRE(lockstep::test::run_cli(
              "gen proteins " + src + " -o " + two + " --residues 1000 --seed 4", log) == 0);
  CHECK(slurp(one) != slurp(two));
  CHECK(slurp(one).rfind(">g0_0 a\nMKVLAWGGHHPPKKLLVVCCDDEE\n>g0_1 b\nWWYYFFMMKK\n>g1_0 a\n", 0) ==
        0);
  REQUIRE(lockstep::test::run_cli("search " + src + " " + one + " --top 1 --algorithm cpu", log) ==
          0);
  CHECK(has(log, "a\tg0_0\t"));
  const std::string text = slurp(one);
  CHECK(lockstep::test::last_line(log)["subjects"] ==
        std::to_string(std::count(text.begin(), text.end(), '>')));
  CHECK(lockstep::test::run_cli("gen proteins " + src + " -o " + src + " --residues 10", log) == 2);
  CHECK(has(log, "refusing to overwrite an input"));
}
