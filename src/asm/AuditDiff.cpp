// The difference between two audits: count deltas per class, opcode, width
// and wait, and the hot loops aligned opcode by opcode.
#include "tilexform/asm/Audit.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace tilexform::asmfile {

namespace {

template <class K>
std::vector<CountDelta> deltas(const std::map<K, size_t> &a, const std::map<K, size_t> &b) {
  std::set<K> keys;
  for (auto &[k, n] : a)
    keys.insert(k);
  for (auto &[k, n] : b)
    keys.insert(k);
  std::vector<CountDelta> out;
  for (const K &k : keys) {
    CountDelta d;
    if constexpr (std::is_same_v<K, std::string>)
      d.key = k;
    else
      d.key = fmt::format("{}", k);
    auto ia = a.find(k);
    auto ib = b.find(k);
    d.a = ia == a.end() ? 0 : int64_t(ia->second);
    d.b = ib == b.end() ? 0 : int64_t(ib->second);
    out.push_back(std::move(d));
  }
  return out;
}

/// Myers' O((N+M)D) shortest edit script between two id sequences. Gives up
/// (empty result, false) when the trace would exceed `budget` entries.
bool myers(const std::vector<uint32_t> &a, const std::vector<uint32_t> &b,
           std::vector<AlignedStep> &out, size_t budget) {
  const int64_t n = int64_t(a.size()), m = int64_t(b.size());
  const int64_t max = n + m;
  const int64_t offset = max + 1;
  std::vector<int64_t> v(size_t(2 * max + 3), 0);
  std::vector<std::vector<int64_t>> trace;
  size_t used = 0;
  int64_t found = -1;
  for (int64_t d = 0; d <= max; ++d) {
    trace.emplace_back(v.begin() + (offset - d - 1), v.begin() + (offset + d + 2));
    used += trace.back().size();
    if (used > budget)
      return false;
    for (int64_t k = -d; k <= d; k += 2) {
      int64_t x;
      if (k == -d || (k != d && v[size_t(offset + k - 1)] < v[size_t(offset + k + 1)]))
        x = v[size_t(offset + k + 1)];
      else
        x = v[size_t(offset + k - 1)] + 1;
      int64_t y = x - k;
      while (x < n && y < m && a[size_t(x)] == b[size_t(y)]) {
        ++x;
        ++y;
      }
      v[size_t(offset + k)] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    if (found >= 0)
      break;
  }
  // Walk back: trace[d] holds v (diagonals -d-1 .. d+1) as it was before step d.
  std::vector<AlignedStep> rev;
  int64_t x = n, y = m;
  for (int64_t d = found; d >= 0; --d) {
    const auto &tv = trace[size_t(d)];
    auto at = [&](int64_t k) { return tv[size_t(k + d + 1)]; };
    int64_t k = x - y;
    int64_t prevK;
    if (k == -d || (k != d && at(k - 1) < at(k + 1)))
      prevK = k + 1;
    else
      prevK = k - 1;
    int64_t prevX = d == 0 ? 0 : at(prevK);
    int64_t prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      --x;
      --y;
      rev.push_back({'=', size_t(x), size_t(y)});
    }
    if (d == 0)
      break;
    if (x == prevX)
      rev.push_back({'+', std::nullopt, size_t(--y)});
    else
      rev.push_back({'-', size_t(--x), std::nullopt});
  }
  out.assign(rev.rbegin(), rev.rend());
  return true;
}

} // namespace

AuditDiff diffAudits(const AuditReport &a, const AuditReport &b) {
  AuditDiff d;
  d.comparedLoops = a.hotLoop && b.hotLoop;
  const Census &ca = d.comparedLoops ? *a.hotLoop : a.whole;
  const Census &cb = d.comparedLoops ? *b.hotLoop : b.whole;
  d.classes = deltas(ca.classes, cb.classes);
  d.opcodes = deltas(ca.opcodes, cb.opcodes);
  d.loads = deltas(ca.loads, cb.loads);
  d.stores = deltas(ca.stores, cb.stores);
  d.sharedReads = deltas(ca.sharedReads, cb.sharedReads);
  d.sharedWrites = deltas(ca.sharedWrites, cb.sharedWrites);
  d.asyncCopies = deltas(ca.asyncCopies, cb.asyncCopies);
  d.waits = deltas(ca.waits.values, cb.waits.values);

  // The work each side does: opcodes of every class but the schedule's.
  auto work = [](const AuditReport &r, const Census &c) {
    std::map<std::string, int64_t> n;
    for (size_t i = c.first; i <= c.last && i < r.kernel.instructions.size(); ++i) {
      const Instruction &in = r.kernel.instructions[i];
      switch (classify(r.kernel.isa, in)) {
      case InstrClass::Wait:
      case InstrClass::Nop:
      case InstrClass::Schedule:
      case InstrClass::Scalar:
        break;
      default:
        ++n[in.opcode];
      }
    }
    return n;
  };
  d.scheduleOnly = ca.instructions && cb.instructions && work(a, ca) == work(b, cb);

  std::unordered_map<std::string, uint32_t> ids;
  auto idsOf = [&](const AuditReport &r, const Census &c) {
    std::vector<uint32_t> out;
    for (size_t i = c.first; i <= c.last; ++i)
      out.push_back(
          ids.emplace(r.kernel.instructions[i].opcode, uint32_t(ids.size())).first->second);
    return out;
  };
  std::vector<uint32_t> sa = idsOf(a, ca), sb = idsOf(b, cb);
  std::vector<AlignedStep> steps;
  if (!myers(sa, sb, steps, size_t(1) << 25)) {
    // Too different for the exact script within the budget: the common
    // prefix and suffix, and everything between removed then added.
    d.approximate = true;
    steps.clear();
    size_t p = 0;
    while (p < sa.size() && p < sb.size() && sa[p] == sb[p])
      ++p;
    size_t q = 0;
    while (q < sa.size() - p && q < sb.size() - p && sa[sa.size() - 1 - q] == sb[sb.size() - 1 - q])
      ++q;
    for (size_t i = 0; i < p; ++i)
      steps.push_back({'=', i, i});
    for (size_t i = p; i < sa.size() - q; ++i)
      steps.push_back({'-', i, std::nullopt});
    for (size_t j = p; j < sb.size() - q; ++j)
      steps.push_back({'+', std::nullopt, j});
    for (size_t k = q; k > 0; --k)
      steps.push_back({'=', sa.size() - k, sb.size() - k});
  }
  {
    for (auto &s : steps) {
      if (s.a)
        s.a = *s.a + ca.first;
      if (s.b)
        s.b = *s.b + cb.first;
      if (s.op == '=')
        ++d.same;
      else if (s.op == '-')
        ++d.removed;
      else
        ++d.added;
    }
    d.alignment = std::move(steps);
  }
  return d;
}

} // namespace tilexform::asmfile
