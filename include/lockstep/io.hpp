// Reading inputs the way users hand them over: a regular file, a pipe or FIFO
// (`lockstep info <(zcat m.mtx.gz)`), `-` for standard input, and gzip-compressed content
// (recognised by its magic bytes, whatever the name) inflated through zlib. Every reader in
// lockstep (Matrix Market, graphs, FASTA) goes through read_input, so each of them refuses a
// directory or an unreadable path with the same clear message.
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

namespace lockstep {

/// The whole content of `path` (decompressed if it is gzip). Throws input_error:
/// "PATH: is a directory", "PATH: cannot open: <reason>", "PATH: corrupt gzip data (...)",
/// "PATH: read error: <reason>".
std::string read_input(const std::string& path);
/// The same content in blocks of `block` bytes (the last one shorter), handed to `each` as they
/// are read and inflated (it may move from the block); the same errors, thrown when met.
void read_input_blocks(const std::string& path, size_t block,
                       const std::function<void(std::string&)>& each);

/// The host memory lockstep plans for, in bytes: LOCKSTEP_HOST_MEMORY_MIB when set, else the
/// machine's physical memory, lowered to the address-space limit (ulimit -v) when there is one.
size_t host_memory_bytes();
/// Size checks before allocation: throws input_error "WHERE: WHAT needs N MiB of host memory,
/// more than the M MiB available (...)" when `bytes` exceeds host_memory_bytes(). `where` is the
/// file and line (or the option) that asked for the size.
void check_host_memory(const std::string& where, const std::string& what, double bytes);

/// One line-oriented view over a text: next() yields each line without its line break (and a
/// trailing '\r'), line() is its 1-based number, fail() throws input_error "PATH:LINE: what".
class LineReader {
 public:
  LineReader(std::string path, const std::string& text);
  bool next(std::string_view& line);
  int line() const { return line_; }
  [[noreturn]] void fail(const std::string& what) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  const char *p_, *end_;
  int line_ = 0;
};

/// The one writer of every output file (CLI --json, --out, --levels-out, gen -o, ...), so that a
/// failed run never leaves a partial or truncated file. A regular file (or a new path) is written
/// to a temporary file beside it and renamed over PATH by commit() once flushed and closed
/// without error; until then PATH is untouched, and without commit() (an exception, a failed
/// run) the temporary file is removed. The temporary is created when the first bytes are
/// written, and SIGINT/SIGTERM/SIGHUP remove it (the signal then ends the process as usual).
/// `-` is standard output; a device, FIFO or other non-regular file is written directly. Errors
/// throw input_error "PATH: cannot write: <reason>" ("PATH: is a directory"), at construction
/// (so a bad path fails before the work) or later.
class OutputFile {
 public:
  explicit OutputFile(std::string path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream();
  /// Flushes and closes, throwing on any write error; the destination is not yet replaced.
  void finish();
  /// finish(), then renames the temporary file over PATH.
  void commit();
  const std::string& path() const { return path_; }

 private:
  struct Impl;
  void plan_temporary(bool replaces, unsigned mode);
  int open_temporary();  // when the first bytes are written: the descriptor, or -1 (errno)
  std::string path_;
  std::unique_ptr<Impl> impl_;
};

/// Writes `text` to `path` through OutputFile.
void write_output(const std::string& path, std::string_view text);

/// `s` safe to print on a terminal and to write as JSON: control bytes (an escape sequence),
/// DEL, C1 controls, a byte order mark and bytes that are not UTF-8 become "\xNN" (each byte);
/// other UTF-8 stays as it is.
std::string printable(std::string_view s);

/// True when both paths name the same existing file (same device and inode).
bool same_file(const std::string& a, const std::string& b);

}  // namespace lockstep
