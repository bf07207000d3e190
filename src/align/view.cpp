// The readable three-line view of an alignment: A's residues (gaps '-'), a marks line ('|'
// identical residues, '.' a mismatch, ' ' a gap), B's residues, in blocks of `width` columns
// with 1-based start positions on the left.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "lockstep/align.hpp"

namespace lockstep {

std::string alignment_view(const std::string& a, const std::string& b, int64_t i, int64_t j,
                           const std::string& cigar, int width) {
  std::string la, mid, lb;
  for (const auto [run, op] : parse_cigar(cigar)) {
    for (int64_t k = 0; k < run; ++k) {
      const bool ua = op == 'M' || op == 'I', ub = op == 'M' || op == 'D';
      if ((ua && i >= int64_t(a.size())) || (ub && j >= int64_t(b.size())))
        throw input_error("cigar runs off the sequences");
      const char ca = ua ? a[size_t(i++)] : '-', cb = ub ? b[size_t(j++)] : '-';
      la += ca, lb += cb;
      mid += op != 'M' ? ' ' : (ca == cb && ca != 'N') ? '|' : '.';
    }
  }
  std::ostringstream out;
  int64_t pa = i - int64_t(std::count_if(la.begin(), la.end(), [](char c) { return c != '-'; }));
  int64_t pb = j - int64_t(std::count_if(lb.begin(), lb.end(), [](char c) { return c != '-'; }));
  for (size_t k = 0; k < la.size(); k += size_t(width)) {
    const std::string xa = la.substr(k, size_t(width)), xb = lb.substr(k, size_t(width));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%12lld ", static_cast<long long>(pa + 1));
    out << "A" << buf << xa << "\n" << std::string(14, ' ') << mid.substr(k, size_t(width)) << "\n";
    std::snprintf(buf, sizeof buf, "%12lld ", static_cast<long long>(pb + 1));
    out << "B" << buf << xb << "\n\n";
    pa += int64_t(std::count_if(xa.begin(), xa.end(), [](char c) { return c != '-'; }));
    pb += int64_t(std::count_if(xb.begin(), xb.end(), [](char c) { return c != '-'; }));
  }
  return out.str();
}

}  // namespace lockstep
