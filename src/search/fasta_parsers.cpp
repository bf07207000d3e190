// The whole-file reader's parallel half (src/search/sequences.cpp reads and cuts the blocks):
// FastaParsers parse the pieces on the host's threads as they come; merge_parts joins their parts
// into one set, its pages populated and its parts copied on the host's threads.
#include <sys/mman.h>

#include <algorithm>
#include <string>
#include <thread>

#include "search/fasta_parts.hpp"

namespace lockstep::detail {
namespace {

// `bytes` of fresh storage at `p` faulted in on the host's threads (MADV_POPULATE_WRITE, Linux
// 5.14; elsewhere, or where it fails, the first writes fault them in as before).
void populate(uint8_t* p, size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  constexpr uintptr_t kPage = 4096, kStep = uintptr_t(4) << 20;
  const uintptr_t first = (uintptr_t(p) + kPage - 1) / kPage * kPage,
                  end = (uintptr_t(p) + bytes) / kPage * kPage;
  const int64_t steps = end > first ? int64_t((end - first + kStep - 1) / kStep) : 0;
#pragma omp parallel for schedule(dynamic)
  for (int64_t i = 0; i < steps; ++i) {
    const uintptr_t a = first + uintptr_t(i) * kStep;
    madvise(reinterpret_cast<void*>(a), std::min(kStep, end - a), MADV_POPULATE_WRITE);
  }
#else
  (void)p, (void)bytes;
#endif
}

}  // namespace

FastaParsers::FastaParsers(const std::string& path, const Scoring& s)
    : path_(path), s_(s), code_(code_table(s)) {
  const unsigned n = std::max(1u, std::min(15u, std::thread::hardware_concurrency() - 1));
  for (unsigned t = 0; t < n; ++t) pool_.emplace_back([this] { work(); });
}

FastaParsers::~FastaParsers() { finish(); }

void FastaParsers::add(std::string&& piece) {
  std::lock_guard<std::mutex> lock(m_);
  pieces_.push_back(std::move(piece));
  parts_.emplace_back();
  failed_.push_back(0);
  todo_.push_back(pieces_.size() - 1);
  cv_.notify_one();
}

void FastaParsers::finish() {
  {
    std::lock_guard<std::mutex> lock(m_);
    closed_ = true;
  }
  cv_.notify_all();
  for (auto& t : pool_) t.join();
  pool_.clear();
}

bool FastaParsers::failed() const {
  return std::find(failed_.begin(), failed_.end(), 1) != failed_.end();
}

void FastaParsers::work() {
  for (;;) {
    size_t k = 0;
    const std::string* piece = nullptr;
    FastaPart* part = nullptr;
    {
      std::unique_lock<std::mutex> lock(m_);
      cv_.wait(lock, [&] { return closed_ || !todo_.empty(); });
      if (todo_.empty()) return;
      k = todo_.front();
      todo_.pop_front();
      piece = &pieces_[k], part = &parts_[k];  // a deque's elements stay put as it grows
    }
    try {
      parse(path_, *piece, code_, s_, *part);
    } catch (const std::exception&) {
      std::lock_guard<std::mutex> lock(m_);
      failed_[k] = 1;  // the whole text again on one thread names the error exactly
    }
  }
}

std::vector<uint8_t> merge_parts(std::deque<FastaPart>& parts, std::vector<std::string>& names,
                                 std::vector<int64_t>& offsets, size_t& skipped_empty,
                                 size_t& stand_ins) {
  const int64_t count = int64_t(parts.size());
  std::vector<size_t> at(parts.size() + 1, 0), named(parts.size() + 1, 0);
  size_t records = 0;  // before part k
  for (size_t k = 0; k < parts.size(); ++k) {
    at[k + 1] = at[k] + parts[k].residues.size();
    named[k + 1] = named[k] + parts[k].names.size();
    skipped_empty += parts[k].skipped_empty;
    stand_ins += parts[k].stand_ins;
    size_t u = 0;  // an empty header's id: its record number in the file
    for (std::string& name : parts[k].names)
      if (name.empty()) name = std::to_string(records + parts[k].unnamed[u++]);
    records += parts[k].records;
  }
  if (count == 1) {  // one part (a small file, or one long record): its storage as it is
    FastaPart& p = parts[0];
    names = std::move(p.names);
    offsets.assign(1, 0);
    offsets.insert(offsets.end(), p.ends.begin(), p.ends.end());
    p.ends = {};
    return std::move(p.residues);
  }
  std::vector<uint8_t> residues;
  residues.reserve(at.back());
  populate(residues.data(), at.back());
  residues.resize(at.back());
  names.resize(named.back());
  offsets.assign(named.back() + 1, 0);
#pragma omp parallel for schedule(dynamic)
  for (int64_t k = 0; k < count; ++k) {
    FastaPart& p = parts[size_t(k)];
    std::copy(p.residues.begin(), p.residues.end(),
              residues.begin() + std::ptrdiff_t(at[size_t(k)]));
    for (size_t j = 0; j < p.names.size(); ++j) {
      names[named[size_t(k)] + j] = std::move(p.names[j]);
      offsets[named[size_t(k)] + j + 1] = int64_t(at[size_t(k)]) + p.ends[j];
    }
    p.residues = {}, p.names = {}, p.ends = {};
  }
  return residues;
}

}  // namespace lockstep::detail
