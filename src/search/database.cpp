// Prepared databases (`lockstep makedb`): a sequence set as read_sequences returns it, stored so
// that opening it is a memory map and a copy, no parsing. Layout (little-endian, every section
// at a multiple of 64 bytes):
//   header (128 bytes): magic "LSDB\r\n\x1a\n", format version, the set's counts, the sections'
//     offsets, the file's size, the alphabet the codes are in (and whether it is DNA), a
//     checksum of the content and one of the header itself
//   offsets: int64 x (sequences + 1); name offsets: uint64 x (sequences + 1); residues: the
//     codes; names: each name and a '\0'; block hashes: uint64 for each 4 MiB block of the
//     content (offsets to names, padding included)
// Opening maps the file and copies the offsets and names; the codes stay in the map (no copy)
// when the file was made for the search's scoring's letters, else they are mapped to its codes.
// The content checksum is the hash of the block hashes, so that opening checks the blocks on
// every host thread, and a share (open_database with parts > 1: one rank of a distributed
// search) reads and checks only the blocks of its codes, the offsets and the names. A file whose
// magic is right but whose version, size or checksums are not is refused with input_error naming
// it; a file without the magic is read as FASTA.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "lockstep/io.hpp"
#include "lockstep/search.hpp"
#include "search/search_impl.hpp"

namespace lockstep {
namespace {

constexpr char kMagic[8] = {'L', 'S', 'D', 'B', '\r', '\n', '\x1a', '\n'};
constexpr uint32_t kVersion = 2;
constexpr size_t kBlock = size_t(4) << 20;

struct Header {
  char magic[8];
  uint32_t version, header_bytes;
  uint64_t sequences, residues, names_bytes, skipped_empty;
  uint64_t offsets_at, name_offsets_at, residues_at, names_at, file_bytes;
  uint8_t dna, alphabet_size, pad[6];
  char alphabet[32];
  uint64_t blocks_at, blocks;  // the block hashes
  uint64_t content_hash, header_hash;
};
static_assert(sizeof(Header) == 160, "the header's layout is the file's");

uint64_t mix(uint64_t h, uint64_t w) {
  h ^= w * 0x9E3779B97F4A7C15ull;
  h = (h << 31) | (h >> 33);
  return h * 0xC2B2AE3D27D4EB4Full;
}

// A 64-bit hash of bytes (four independent lanes of 8-byte words, then the tail).
uint64_t hash_bytes(const uint8_t* p, size_t n, uint64_t seed) {
  uint64_t l[4] = {seed, seed + 1, seed + 2, seed + 3};
  size_t i = 0;
  for (; i + 32 <= n; i += 32)
    for (int k = 0; k < 4; ++k) {
      uint64_t w;
      std::memcpy(&w, p + i + 8 * k, 8);
      l[k] = mix(l[k], w);
    }
  uint64_t h = mix(mix(mix(mix(n, l[0]), l[1]), l[2]), l[3]);
  for (; i < n; ++i) h = mix(h, p[i]);
  return h;
}

// The hash of each kBlock block of `n` bytes at `p`, blocks [first, last) only (on the host's
// threads; the others 0).
std::vector<uint64_t> block_hashes(const uint8_t* p, size_t n, size_t first = 0,
                                   size_t last = SIZE_MAX) {
  std::vector<uint64_t> h((n + kBlock - 1) / kBlock);
  last = std::min(last, h.size());
  detail::split_over(last > first ? last - first : 0, detail::host_threads(),
                     [&](size_t b, size_t e) {
                       for (size_t k = first + b; k < first + e; ++k)
                         h[k] = hash_bytes(p + k * kBlock, std::min(kBlock, n - k * kBlock), k);
                     });
  return h;
}

// The content hash of `n` bytes whose blocks hash to `h`.
uint64_t content_hash(const std::vector<uint64_t>& h, size_t n) {
  return hash_bytes(reinterpret_cast<const uint8_t*>(h.data()), h.size() * 8, n);
}

uint64_t header_hash(const Header& h) {
  return hash_bytes(reinterpret_cast<const uint8_t*>(&h), offsetof(Header, header_hash), 7);
}

uint64_t aligned(uint64_t at) { return (at + 63) / 64 * 64; }

// A read-only map of a whole file, unmapped when dropped.
struct Mapping {
  const uint8_t* data = nullptr;
  size_t size = 0;
  ~Mapping() {
    if (data) munmap(const_cast<uint8_t*>(data), size);
  }
};

// (populate: read every page now, else each page as it is first touched)
std::unique_ptr<Mapping> map_file(const std::string& path, bool populate) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw input_error(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    throw input_error(path + ": not a regular file");
  }
  auto m = std::make_unique<Mapping>();
  m->size = size_t(st.st_size);
  if (m->size > 0) {
    void* p = mmap(nullptr, m->size, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0), fd, 0);
    if (p == MAP_FAILED) {
      const int e = errno;
      close(fd);
      throw input_error(path + ": cannot map: " + std::strerror(e));
    }
    m->data = static_cast<const uint8_t*>(p);
  }
  close(fd);
  return m;
}

}  // namespace

bool is_database(const std::string& path) {
  if (path == "-") return false;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char head[sizeof kMagic];
  const ssize_t n = read(fd, head, sizeof head);
  close(fd);
  return n == ssize_t(sizeof head) && std::memcmp(head, kMagic, sizeof head) == 0;
}

void write_database(const std::string& path, const SequenceSet& db, const Scoring& s) {
  if (s.alphabet.size() > sizeof(Header::alphabet))
    throw input_error(path + ": the scoring's alphabet has more than 32 letters");
  std::string names;
  std::vector<uint64_t> name_at{0};
  for (const std::string& n : db.names) names += n, names += '\0', name_at.push_back(names.size());
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kVersion;
  h.header_bytes = sizeof(Header);
  h.sequences = db.size();
  h.residues = db.residue_count();
  h.names_bytes = names.size();
  h.skipped_empty = db.skipped_empty;
  h.offsets_at = aligned(sizeof(Header));
  h.name_offsets_at = aligned(h.offsets_at + 8 * (h.sequences + 1));
  h.residues_at = aligned(h.name_offsets_at + 8 * (h.sequences + 1));
  h.names_at = aligned(h.residues_at + h.residues);
  const uint64_t content = h.names_at + h.names_bytes - h.offsets_at;
  h.blocks = (content + kBlock - 1) / kBlock;
  h.blocks_at = aligned(h.names_at + h.names_bytes);
  h.file_bytes = h.blocks_at + 8 * h.blocks;
  h.dna = s.dna;
  h.alphabet_size = uint8_t(s.alphabet.size());
  std::memcpy(h.alphabet, s.alphabet.data(), s.alphabet.size());
  // the content: everything after the header, padding included, as it will be in the file
  std::vector<uint8_t> body(h.file_bytes - h.offsets_at, 0);
  uint8_t* const hashes = body.data() + (h.blocks_at - h.offsets_at);
  std::memcpy(body.data(), db.offsets.data(), 8 * db.offsets.size());
  std::memcpy(body.data() + (h.name_offsets_at - h.offsets_at), name_at.data(), 8 * name_at.size());
  std::memcpy(body.data() + (h.residues_at - h.offsets_at), db.codes(), h.residues);
  std::memcpy(body.data() + (h.names_at - h.offsets_at), names.data(), names.size());
  const std::vector<uint64_t> blocks = block_hashes(body.data(), content);
  std::memcpy(hashes, blocks.data(), 8 * blocks.size());
  h.content_hash = content_hash(blocks, content);
  h.header_hash = header_hash(h);
  OutputFile out(path);
  std::ostream& o = out.stream();
  o.write(reinterpret_cast<const char*>(&h), sizeof h);
  o.write(std::string(h.offsets_at - sizeof h, '\0').data(),
          std::streamsize(h.offsets_at - sizeof h));
  o.write(reinterpret_cast<const char*>(body.data()), std::streamsize(body.size()));
  out.commit();
}

SequenceSet open_database(const std::string& path, const Scoring& s, size_t parts, size_t part) {
  parts = std::max<size_t>(parts, 1);
  if (part >= parts)
    throw input_error(path + ": share " + std::to_string(part) + " of " + std::to_string(parts));
  auto m = map_file(path, parts == 1);
  Header h{};
  if (m->size < sizeof kMagic || std::memcmp(m->data, kMagic, sizeof kMagic) != 0)
    throw input_error(path +
                      ": not a lockstep database (no LSDB magic; make one with lockstep "
                      "makedb)");
  if (m->size < sizeof(Header))
    throw input_error(path + ": truncated lockstep database (" + std::to_string(m->size) +
                      " bytes, less than its header)");
  std::memcpy(&h, m->data, sizeof h);
  if (h.version != kVersion)
    throw input_error(path + ": lockstep database format version " + std::to_string(h.version) +
                      ", this lockstep reads version " + std::to_string(kVersion) +
                      ": make it again with lockstep makedb");
  if (h.header_hash != header_hash(h))
    throw input_error(path + ": corrupt lockstep database (its header's checksum differs)");
  const uint64_t n1 = h.sequences + 1;
  if (h.header_bytes != sizeof(Header) || h.alphabet_size > sizeof h.alphabet ||
      h.offsets_at != aligned(sizeof(Header)) ||
      h.name_offsets_at != aligned(h.offsets_at + 8 * n1) ||
      h.residues_at != aligned(h.name_offsets_at + 8 * n1) ||
      h.names_at != aligned(h.residues_at + h.residues) ||
      h.blocks != (h.names_at + h.names_bytes - h.offsets_at + kBlock - 1) / kBlock ||
      h.blocks_at != aligned(h.names_at + h.names_bytes) ||
      h.file_bytes != h.blocks_at + 8 * h.blocks)
    throw input_error(path + ": corrupt lockstep database (its header's sections disagree)");
  if (h.file_bytes != m->size)
    throw input_error(path + ": truncated or extended lockstep database (" +
                      std::to_string(m->size) + " bytes, its header says " +
                      std::to_string(h.file_bytes) + ")");
  // the blocks that cover [from, to) of the file checked against their stored hashes
  const uint64_t content = h.names_at + h.names_bytes - h.offsets_at;
  const auto* stored_hashes = reinterpret_cast<const uint64_t*>(m->data + h.blocks_at);
  const std::vector<uint64_t> table(stored_hashes, stored_hashes + h.blocks);
  const auto check = [&](uint64_t from, uint64_t to) {
    if (to <= from) return;
    const size_t first = (from - h.offsets_at) / kBlock,
                 last = (to - h.offsets_at - 1) / kBlock + 1;
    const std::vector<uint64_t> got = block_hashes(m->data + h.offsets_at, content, first, last);
    if (!std::equal(got.begin() + std::ptrdiff_t(first), got.begin() + std::ptrdiff_t(last),
                    table.begin() + std::ptrdiff_t(first)))
      throw input_error(path + ": corrupt lockstep database (its content's checksum differs)");
  };
  if (h.content_hash != content_hash(table, content))
    throw input_error(path + ": corrupt lockstep database (its content's checksum differs)");
  if (parts == 1) {
    check(h.offsets_at, h.names_at + h.names_bytes);  // all of it
  } else {
    check(h.offsets_at, h.residues_at);             // the offsets and the name offsets
    check(h.names_at, h.names_at + h.names_bytes);  // the names
  }
  check_host_memory(path, "the database",
                    8.0 * double(n1) + 40.0 * double(h.sequences) + double(h.names_bytes));
  SequenceSet db;
  const auto* offsets = reinterpret_cast<const int64_t*>(m->data + h.offsets_at);
  db.offsets.assign(offsets, offsets + h.sequences + 1);
  if (db.offsets.front() != 0 || db.offsets.back() != int64_t(h.residues))
    throw input_error(path + ": corrupt lockstep database (its sections disagree)");
  db.names.resize(h.sequences);  // (database_shares counts them)
  if (parts > 1) {
    const std::vector<size_t> b = database_shares(db, parts);
    db.held_begin = b[part], db.held_end = b[part + 1];
  }
  const uint64_t first = uint64_t(db.offsets[db.held_begin]), count = db.held_residues();
  if (parts > 1) check(h.residues_at + first, h.residues_at + first + count);  // its codes
  const uint8_t* codes = m->data + h.residues_at + first;
  const std::string stored(h.alphabet, h.alphabet_size);
  if (stored == s.alphabet && bool(h.dna) == s.dna) {
    db.mapped = codes;  // no copy: the map stays while the set (or a copy of it) lives
  } else {              // made for another scoring: each letter's code in this one
    int16_t to[256];
    std::fill(std::begin(to), std::end(to), int16_t(-1));
    for (size_t c = 0; c < stored.size(); ++c) try {
        to[c] = encode_exact(s, std::string(1, stored[c]))[0];
      } catch (const input_error&) {
      }
    db.residues.resize(count);
    for (size_t i = 0; i < count; ++i) {
      const int16_t c = to[codes[i]];
      if (c < 0) {
        const size_t rec =
            size_t(std::upper_bound(db.offsets.begin(), db.offsets.end(), int64_t(first + i)) -
                   db.offsets.begin());
        throw input_error(path + ": record " + std::to_string(rec) + ", residue " +
                          std::to_string(int64_t(first + i) - db.offsets[rec - 1] + 1) + ": '" +
                          (codes[i] < stored.size() ? stored[codes[i]] : '?') +
                          "' is not in the matrix (letters " + s.alphabet +
                          "; the database was made for " + (h.dna ? "DNA" : stored) + ")");
      }
      db.residues[i] = uint8_t(c);
    }
  }
  // the names, on the host's threads (an allocation each)
  const auto* name_at = reinterpret_cast<const uint64_t*>(m->data + h.name_offsets_at);
  const char* text = reinterpret_cast<const char*>(m->data + h.names_at);
  if (name_at[0] != 0 || name_at[h.sequences] != h.names_bytes)
    throw input_error(path + ": corrupt lockstep database (its sections disagree)");
  detail::split_over(h.sequences, detail::host_threads(), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i)
      if (name_at[i] < name_at[i + 1] && name_at[i + 1] <= h.names_bytes)
        db.names[i].assign(text + name_at[i], name_at[i + 1] - name_at[i] - 1);
  });
  db.skipped_empty = h.skipped_empty;
  if (db.mapped) db.mapping = std::shared_ptr<const void>(std::move(m));
  return db;
}

SequenceSet read_database(const std::string& path, const Scoring& s, size_t parts, size_t part) {
  return is_database(path) ? open_database(path, s, parts, part)
                           : read_sequences(path, s, parts, part);
}

}  // namespace lockstep
