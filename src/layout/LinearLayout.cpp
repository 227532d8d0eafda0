#include "tilexform/layout/LinearLayout.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <fmt/format.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/Support/ErrorHandling.h>
#include <set>

namespace tilexform::layout {

namespace {

/// A precondition of the algebra broken by the model's own derivation (a
/// bug, as Triton's LinearLayout asserts): input never reaches here, since
/// create() and the kinds' checks refuse it first.
[[noreturn]] void invariantBroken(const std::string &what) {
  llvm::report_fatal_error(llvm::Twine("linear layout invariant: ") + what);
}

int log2Exact(int64_t v) {
  if (v <= 0 || (v & (v - 1)) != 0)
    invariantBroken(fmt::format("{} is not a power of two", v));
  return std::countr_zero(uint64_t(v));
}

llvm::Error notContained() {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "invertAndCompose: image not contained");
}

// llvm::NextPowerOf2: strictly greater power of two.
int32_t nextPowerOf2(int32_t v) {
  uint32_t x = uint32_t(v);
  x |= x >> 1;
  x |= x >> 2;
  x |= x >> 4;
  x |= x >> 8;
  x |= x >> 16;
  return int32_t(x + 1);
}

/// Each out-dim's size: the smallest power of two above the largest
/// component of any basis along it (Triton's inferred sizes).
std::vector<LinearLayout::OutDim> inferOutDims(const std::vector<LinearLayout::DimBases> &bases,
                                               const std::vector<std::string> &outNames) {
  std::vector<LinearLayout::OutDim> outs;
  for (size_t o = 0; o < outNames.size(); ++o) {
    int32_t size = 1;
    for (auto &[name, vecs] : bases)
      for (auto &b : vecs)
        if (o < b.size())
          size = std::max(size, nextPowerOf2(b[o]));
    outs.emplace_back(outNames[o], size);
  }
  return outs;
}

} // namespace

LinearLayout::LinearLayout(std::vector<DimBases> bases, std::vector<OutDim> outDims)
    : bases_(std::move(bases)), outDims_(std::move(outDims)) {
  for (auto &[name, size] : outDims_)
    log2Exact(size);
  for (auto &[name, vecs] : bases_)
    for (auto &b : vecs)
      if (b.size() != outDims_.size())
        invariantBroken("basis length differs from out-dim count");
}

llvm::Expected<LinearLayout> LinearLayout::create(std::vector<DimBases> bases,
                                                  std::vector<OutDim> outDims,
                                                  bool requireSurjective) {
  auto fail = [](std::string message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  std::set<std::string> outNames, inNames;
  for (auto &[name, size] : outDims) {
    if (size <= 0 || (size & (size - 1)) != 0)
      return fail(fmt::format("out-dim {} has size {}, not a power of two", name, size));
    if (!outNames.insert(name).second)
      return fail("out-dim " + name + " given twice");
  }
  for (auto &[name, vecs] : bases) {
    if (!inNames.insert(name).second)
      return fail("in-dim " + name + " given twice");
    for (size_t i = 0; i < vecs.size(); ++i) {
      const Basis &b = vecs[i];
      if (b.size() != outDims.size())
        return fail(fmt::format("{} basis {} has {} components for {} out-dims", name, i, b.size(),
                                outDims.size()));
      for (size_t o = 0; o < b.size(); ++o)
        if (b[o] < 0 || b[o] >= outDims[o].second)
          return fail(fmt::format("{} basis {} gives {} = {}, outside its size {}", name, i,
                                  outDims[o].first, b[o], outDims[o].second));
    }
  }
  LinearLayout l(std::move(bases), std::move(outDims));
  if (requireSurjective && !l.isSurjective())
    return fail(fmt::format("the layout is not surjective: its bases reach 2^{} of the 2^{} "
                            "output positions",
                            l.rank(), l.totalOutBits()));
  return l;
}

llvm::Expected<LinearLayout> LinearLayout::createInferred(std::vector<DimBases> bases,
                                                          const std::vector<std::string> &outNames,
                                                          bool requireSurjective) {
  for (auto &[name, vecs] : bases)
    for (auto &b : vecs)
      for (int32_t v : b)
        if (v < 0 || v >= (int32_t(1) << 30))
          return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                         fmt::format("{} basis component {} is outside "
                                                     "[0, 2^30)",
                                                     name, v));
  std::vector<OutDim> outs = inferOutDims(bases, outNames);
  return create(std::move(bases), std::move(outs), requireSurjective);
}

LinearLayout LinearLayout::inferred(std::vector<DimBases> bases,
                                    const std::vector<std::string> &outNames) {
  std::vector<OutDim> outs = inferOutDims(bases, outNames);
  return LinearLayout(std::move(bases), std::move(outs));
}

LinearLayout LinearLayout::strided1D(int32_t size, int32_t stride, const std::string &in,
                                     const std::string &out) {
  if (size == 0)
    return empty();
  int bits = log2Exact(size);
  std::vector<Basis> vecs;
  for (int i = 0; i < bits; ++i)
    vecs.push_back({stride * (int32_t(1) << i)});
  return LinearLayout({{in, vecs}}, {{out, stride * size}});
}

LinearLayout LinearLayout::identity1D(int32_t size, const std::string &in, const std::string &out) {
  return strided1D(size, 1, in, out);
}

LinearLayout LinearLayout::zeros1D(int32_t size, const std::string &in, const std::string &out,
                                   int32_t outSize) {
  if (size == 0)
    return empty();
  int bits = log2Exact(size);
  return LinearLayout({{in, std::vector<Basis>(bits, Basis{0})}}, {{out, outSize}});
}

std::vector<std::string> LinearLayout::inDimNames() const {
  std::vector<std::string> r;
  for (auto &[n, v] : bases_)
    r.push_back(n);
  return r;
}

std::vector<std::string> LinearLayout::outDimNames() const {
  std::vector<std::string> r;
  for (auto &[n, s] : outDims_)
    r.push_back(n);
  return r;
}

bool LinearLayout::hasInDim(const std::string &name) const {
  for (auto &[n, v] : bases_)
    if (n == name)
      return true;
  return false;
}

bool LinearLayout::hasOutDim(const std::string &name) const { return outDimIndex(name) >= 0; }

int LinearLayout::inDimSizeLog2(const std::string &name) const {
  for (auto &[n, v] : bases_)
    if (n == name)
      return int(v.size());
  return 0;
}

int LinearLayout::outDimIndex(const std::string &name) const {
  for (size_t i = 0; i < outDims_.size(); ++i)
    if (outDims_[i].first == name)
      return int(i);
  return -1;
}

int32_t LinearLayout::outDimSize(const std::string &name) const {
  int i = outDimIndex(name);
  return i < 0 ? 1 : outDims_[i].second;
}

int LinearLayout::outDimSizeLog2(const std::string &name) const {
  return log2Exact(outDimSize(name));
}

int LinearLayout::totalInBits() const {
  int t = 0;
  for (auto &[n, v] : bases_)
    t += int(v.size());
  return t;
}

int LinearLayout::totalOutBits() const {
  int t = 0;
  for (auto &[n, s] : outDims_)
    t += log2Exact(s);
  return t;
}

const std::vector<LinearLayout::Basis> &LinearLayout::basesOf(const std::string &inDim) const {
  static const std::vector<Basis> none;
  for (auto &[n, v] : bases_)
    if (n == inDim)
      return v;
  return none;
}

std::vector<LinearLayout::Basis> &LinearLayout::mutableBasesOf(const std::string &inDim) {
  for (auto &[n, v] : bases_)
    if (n == inDim)
      return v;
  invariantBroken("no in-dim " + inDim);
}

std::vector<std::string> supremum(const std::vector<std::string> &x,
                                  const std::vector<std::string> &y) {
  std::vector<std::string> result;
  auto contains = [&](const std::string &s) {
    return std::find(result.begin(), result.end(), s) != result.end();
  };
  auto pos = [](const std::vector<std::string> &v, const std::string &s) {
    auto it = std::find(v.begin(), v.end(), s);
    return it == v.end() ? -1 : int(it - v.begin());
  };
  const int inf = std::numeric_limits<int>::max();
  size_t i = 0, j = 0;
  while (i < x.size() || j < y.size()) {
    while (i < x.size() && contains(x[i]))
      ++i;
    while (j < y.size() && contains(y[j]))
      ++j;
    if (i >= x.size() && j >= y.size())
      break;
    if (i < x.size() && j < y.size() && x[i] == y[j]) {
      result.push_back(x[i]);
      ++i, ++j;
      continue;
    }
    int candX = inf, candY = inf;
    if (i < x.size()) {
      int p = pos(y, x[i]);
      if (p >= 0 && p >= int(j))
        candX = p;
    }
    if (j < y.size()) {
      int p = pos(x, y[j]);
      if (p >= 0 && p >= int(i))
        candY = p;
    }
    if (i < x.size() && candX == inf) {
      result.push_back(x[i++]);
      continue;
    }
    if (j < y.size() && candY == inf) {
      result.push_back(y[j++]);
      continue;
    }
    if (candX <= candY)
      result.push_back(x[i++]);
    else
      result.push_back(y[j++]);
  }
  return result;
}

LinearLayout operator*(const LinearLayout &inner, const LinearLayout &outer) {
  auto ins = supremum(inner.inDimNames(), outer.inDimNames());
  auto outs = supremum(inner.outDimNames(), outer.outDimNames());
  std::vector<LinearLayout::OutDim> outDims;
  for (auto &o : outs)
    outDims.emplace_back(o, inner.outDimSize(o) * outer.outDimSize(o));
  std::vector<LinearLayout::DimBases> bases;
  for (auto &d : ins) {
    int nInner = inner.inDimSizeLog2(d), nOuter = outer.inDimSizeLog2(d);
    std::vector<LinearLayout::Basis> vecs(nInner + nOuter, LinearLayout::Basis(outs.size(), 0));
    for (size_t oi = 0; oi < outs.size(); ++oi) {
      const auto &o = outs[oi];
      int innerIdx = inner.outDimIndex(o);
      int outerIdx = outer.outDimIndex(o);
      int shift = innerIdx >= 0 ? inner.outDimSizeLog2(o) : 0;
      if (innerIdx >= 0)
        for (int i = 0; i < nInner; ++i)
          vecs[i][oi] = inner.basesOf(d)[i][innerIdx];
      if (outerIdx >= 0)
        for (int i = 0; i < nOuter; ++i)
          vecs[nInner + i][oi] = outer.basesOf(d)[i][outerIdx] << shift;
    }
    bases.emplace_back(d, std::move(vecs));
  }
  return LinearLayout(std::move(bases), std::move(outDims));
}

bool operator==(const LinearLayout &a, const LinearLayout &b) {
  return a.outDims_ == b.outDims_ && a.bases_ == b.bases_;
}

bool LinearLayout::equalIgnoringOutDimSizes(const LinearLayout &other) const {
  return outDimNames() == other.outDimNames() && bases_ == other.bases_;
}

LinearLayout LinearLayout::transposeOuts(const std::vector<std::string> &names) const {
  if (names.size() != outDims_.size())
    invariantBroken("transposeOuts: out-dim count differs");
  std::vector<int> perm;
  std::vector<OutDim> outs;
  for (auto &n : names) {
    int i = outDimIndex(n);
    if (i < 0)
      invariantBroken("transposeOuts: no out-dim " + n);
    perm.push_back(i);
    outs.push_back(outDims_[i]);
  }
  auto bases = bases_;
  for (auto &[n, vecs] : bases)
    for (auto &b : vecs) {
      Basis nb;
      for (int p : perm)
        nb.push_back(b[p]);
      b = std::move(nb);
    }
  return LinearLayout(std::move(bases), std::move(outs));
}

LinearLayout LinearLayout::transposeIns(const std::vector<std::string> &names) const {
  std::vector<DimBases> bases;
  for (auto &n : names)
    bases.emplace_back(n, basesOf(n));
  return LinearLayout(std::move(bases), outDims_);
}

LinearLayout LinearLayout::reshapeIns(const std::vector<OutDim> &newIns) const {
  std::vector<Basis> all;
  for (auto &[n, v] : bases_)
    all.insert(all.end(), v.begin(), v.end());
  std::vector<DimBases> bases;
  size_t k = 0;
  for (auto &[n, size] : newIns) {
    int bits = log2Exact(size);
    std::vector<Basis> v(all.begin() + k, all.begin() + k + bits);
    k += bits;
    bases.emplace_back(n, std::move(v));
  }
  if (k != all.size())
    invariantBroken("reshapeIns: size mismatch");
  return LinearLayout(std::move(bases), outDims_);
}

LinearLayout LinearLayout::reshapeOuts(const std::vector<OutDim> &newOuts) const {
  std::vector<int> shifts;
  int shift = 0;
  for (auto &[n, s] : outDims_) {
    shifts.push_back(shift);
    shift += log2Exact(s);
  }
  int newTotal = 0;
  for (auto &[n, s] : newOuts)
    newTotal += log2Exact(s);
  if (newTotal != shift)
    invariantBroken("reshapeOuts: size mismatch");
  auto bases = bases_;
  for (auto &[n, vecs] : bases)
    for (auto &b : vecs) {
      uint64_t flat = 0;
      for (size_t i = 0; i < b.size(); ++i)
        flat |= uint64_t(b[i]) << shifts[i];
      Basis nb;
      for (auto &[on, s] : newOuts) {
        nb.push_back(int32_t(flat % uint64_t(s)));
        flat /= uint64_t(s);
      }
      b = std::move(nb);
    }
  return LinearLayout(std::move(bases), newOuts);
}

LinearLayout LinearLayout::sublayout(const std::vector<std::string> &ins,
                                     const std::vector<std::string> &outs) const {
  std::vector<int> keepOut;
  std::vector<OutDim> outDims;
  for (size_t i = 0; i < outDims_.size(); ++i)
    if (std::find(outs.begin(), outs.end(), outDims_[i].first) != outs.end()) {
      keepOut.push_back(int(i));
      outDims.push_back(outDims_[i]);
    }
  std::vector<DimBases> bases;
  for (auto &[n, vecs] : bases_) {
    if (std::find(ins.begin(), ins.end(), n) == ins.end())
      continue;
    std::vector<Basis> nv;
    for (auto &b : vecs) {
      Basis nb;
      for (int k : keepOut)
        nb.push_back(b[k]);
      nv.push_back(std::move(nb));
    }
    bases.emplace_back(n, std::move(nv));
  }
  return LinearLayout(std::move(bases), std::move(outDims));
}

bool LinearLayout::sublayoutIsZero(const std::vector<std::string> &ins,
                                   const std::vector<std::string> &outs) const {
  auto s = sublayout(ins, outs);
  for (auto &[n, vecs] : s.bases_)
    for (auto &b : vecs)
      for (auto v : b)
        if (v != 0)
          return false;
  return true;
}

std::vector<std::pair<std::string, int32_t>>
LinearLayout::apply(const std::vector<std::pair<std::string, int32_t>> &ins) const {
  std::vector<int32_t> out(outDims_.size(), 0);
  for (auto &[name, value] : ins) {
    const auto &vecs = basesOf(name);
    for (size_t k = 0; k < vecs.size(); ++k)
      if ((value >> k) & 1)
        for (size_t o = 0; o < out.size(); ++o)
          out[o] ^= vecs[k][o];
  }
  std::vector<std::pair<std::string, int32_t>> r;
  for (size_t o = 0; o < out.size(); ++o)
    r.emplace_back(outDims_[o].first, out[o]);
  return r;
}

LinearLayout LinearLayout::compose(const LinearLayout &outer) const {
  std::vector<DimBases> bases;
  for (auto &[n, vecs] : bases_) {
    std::vector<Basis> nv;
    for (auto &b : vecs) {
      std::vector<std::pair<std::string, int32_t>> in;
      for (size_t o = 0; o < outDims_.size(); ++o)
        in.emplace_back(outDims_[o].first, b[o]);
      Basis nb;
      for (auto &[on, v] : outer.apply(in))
        nb.push_back(v);
      nv.push_back(std::move(nb));
    }
    bases.emplace_back(n, std::move(nv));
  }
  return LinearLayout(std::move(bases), outer.outDims_);
}

std::vector<uint64_t> LinearLayout::matrixRows() const {
  std::vector<uint64_t> rows;
  for (size_t o = 0; o < outDims_.size(); ++o) {
    int bits = log2Exact(outDims_[o].second);
    for (int j = 0; j < bits; ++j) {
      uint64_t row = 0;
      int col = 0;
      for (auto &[n, vecs] : bases_)
        for (auto &b : vecs) {
          if ((b[o] >> j) & 1)
            row |= uint64_t(1) << col;
          ++col;
        }
      rows.push_back(row);
    }
  }
  return rows;
}

namespace {
// Reduced row echelon form over GF(2), pivot = lowest set column.
void rref(std::vector<uint64_t> &rows) {
  size_t pivotRow = 0;
  for (int col = 0; col < 64 && pivotRow < rows.size(); ++col) {
    uint64_t bit = uint64_t(1) << col;
    size_t r = pivotRow;
    while (r < rows.size() && !(rows[r] & bit))
      ++r;
    if (r == rows.size())
      continue;
    std::swap(rows[r], rows[pivotRow]);
    for (size_t k = 0; k < rows.size(); ++k)
      if (k != pivotRow && (rows[k] & bit))
        rows[k] ^= rows[pivotRow];
    ++pivotRow;
  }
}
} // namespace

int LinearLayout::rank() const {
  auto rows = matrixRows();
  rref(rows);
  int r = 0;
  for (auto row : rows)
    if (row)
      ++r;
  return r;
}

std::vector<std::pair<std::string, uint64_t>> LinearLayout::freeVariableMasks() const {
  auto rows = matrixRows();
  rref(rows);
  uint64_t pivots = 0;
  for (auto row : rows)
    if (row)
      pivots |= row & (~row + 1);
  std::vector<std::pair<std::string, uint64_t>> masks;
  int col = 0;
  for (auto &[n, vecs] : bases_) {
    uint64_t m = 0;
    for (size_t k = 0; k < vecs.size(); ++k, ++col)
      if (!((pivots >> col) & 1))
        m |= uint64_t(1) << k;
    masks.emplace_back(n, m);
  }
  return masks;
}

llvm::Expected<LinearLayout> LinearLayout::invertAndCompose(const LinearLayout &outerIn) const {
  const LinearLayout &B = *this;
  auto outNames = B.outDimNames();
  if (outerIn.numOutDims() != B.numOutDims() ||
      !llvm::all_of(outNames, [&](const std::string &o) { return outerIn.hasOutDim(o); }))
    return notContained();
  LinearLayout A = outerIn.transposeOuts(outNames);
  for (auto &o : outNames)
    if (A.outDimSize(o) < B.outDimSize(o))
      return notContained();

  // Dims mapped identically by both layouts stay identities.
  std::vector<std::string> identityDims;
  for (auto &d : B.inDimNames())
    if (A.hasInDim(d) && A.sublayout({d}, outNames) == B.sublayout({d}, outNames))
      identityDims.push_back(d);
  auto without = [&](const LinearLayout &L) {
    std::vector<std::string> keep;
    for (auto &d : L.inDimNames())
      if (std::find(identityDims.begin(), identityDims.end(), d) == identityDims.end())
        keep.push_back(d);
    return L.sublayout(keep, L.outDimNames());
  };
  LinearLayout Ared = without(A), Bred = without(B);

  int nA = Ared.totalInBits(), nB = Bred.totalInBits();
  if (nA + nB > 64)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "invertAndCompose: more than 64 input bits");
  std::vector<uint64_t> aRows = Ared.matrixRows();
  std::vector<uint64_t> rows = aRows;
  // B's rows go into the rows of the same out-dim (B may be smaller).
  {
    size_t rowBase = 0;
    for (auto &[o, size] : Ared.outDims()) {
      int bitsA = log2Exact(size);
      int bitsB = log2Exact(Bred.outDimSize(o));
      int oB = Bred.outDimIndex(o);
      for (int j = 0; j < bitsB; ++j) {
        uint64_t row = 0;
        int col = 0;
        for (auto &[n, vecs] : Bred.bases())
          for (auto &b : vecs) {
            if ((b[oB] >> j) & 1)
              row |= uint64_t(1) << col;
            ++col;
          }
        rows[rowBase + j] |= row << nA;
      }
      rowBase += bitsA;
    }
  }
  rref(rows);
  std::vector<uint64_t> X(nA, 0);
  for (auto row : rows) {
    if (!row)
      continue;
    int pivot = std::countr_zero(row);
    if (pivot >= nA)
      return notContained();
    X[pivot] = row >> nA;
  }
  std::vector<Basis> flat;
  for (int j = 0; j < nB; ++j) {
    int32_t v = 0;
    for (int r = 0; r < nA; ++r)
      if ((X[r] >> j) & 1)
        v |= int32_t(1) << r;
    flat.push_back({v});
  }
  LinearLayout C({{"__in", flat}}, {{"__out", int32_t(1) << nA}});
  std::vector<OutDim> bIns, aIns;
  for (auto &[n, v] : Bred.bases())
    bIns.emplace_back(n, int32_t(1) << v.size());
  for (auto &[n, v] : Ared.bases())
    aIns.emplace_back(n, int32_t(1) << v.size());
  if (bIns.empty())
    C = LinearLayout({}, {{"__out", int32_t(1) << nA}});
  else
    C = C.reshapeIns(bIns);
  C = C.reshapeOuts(aIns);
  for (auto &d : identityDims)
    C *= identity1D(A.inDimSize(d), d, d);
  return C.transposeIns(B.inDimNames()).transposeOuts(A.inDimNames());
}

llvm::Expected<LinearLayout> LinearLayout::pseudoinvert() const {
  LinearLayout id;
  for (auto &[o, size] : outDims_)
    id *= identity1D(size, o, o);
  return id.invertAndCompose(*this);
}

std::optional<LinearLayout> LinearLayout::invert() const {
  if (!isInvertible())
    return std::nullopt;
  auto inverse = pseudoinvert();
  if (!inverse) {
    llvm::consumeError(inverse.takeError());
    return std::nullopt;
  }
  return std::move(*inverse);
}

std::string LinearLayout::toString() const {
  if (bases_.empty() && outDims_.empty())
    return "\n(empty layout)";
  std::string s;
  for (auto &[n, vecs] : bases_) {
    if (vecs.empty()) {
      s += " - " + n + " is a size 1 dimension\n";
      continue;
    }
    s += " - ";
    for (size_t k = 0; k < vecs.size(); ++k) {
      if (k)
        s += "\n   ";
      s += fmt::format("{}={} -> ({})", n, 1 << k, fmt::join(vecs[k], ", "));
    }
    s += "\n";
  }
  std::vector<std::string> outs;
  for (auto &[o, size] : outDims_)
    outs.push_back(fmt::format("{} (size {})", o, size));
  return "\n" + s + fmt::format("where out dims are: [{}]", fmt::join(outs, ", "));
}

std::vector<std::string> standardOutDimNames(int rank) {
  std::vector<std::string> r;
  for (int i = 0; i < rank; ++i)
    r.push_back("dim" + std::to_string(i));
  return r;
}

LinearLayout identityStandardND(const std::string &inDim, const std::vector<int32_t> &shape,
                                const std::vector<unsigned> &order) {
  auto names = standardOutDimNames(int(shape.size()));
  LinearLayout r;
  for (size_t i = 0; i < shape.size(); ++i) {
    unsigned d = order.at(i);
    r *= LinearLayout::identity1D(shape.at(d), inDim, names.at(d));
  }
  return r;
}

static int64_t lookupShape(const std::vector<std::pair<std::string, int64_t>> &shape,
                           const std::string &name) {
  for (auto &[n, v] : shape)
    if (n == name)
      return v;
  invariantBroken("shape has no dim " + name);
}

LinearLayout ensureLayoutNotLargerThan(const LinearLayout &layout,
                                       const std::vector<std::pair<std::string, int64_t>> &shape,
                                       bool broadcastRegisters) {
  if (shape.empty())
    return layout;
  auto bases = layout.bases();
  std::set<size_t> dropRegs;
  auto outNames = layout.outDimNames();
  for (size_t oi = 0; oi < outNames.size(); ++oi) {
    int64_t actual = layout.outDimSize(outNames[oi]);
    int64_t desired = lookupShape(shape, outNames[oi]);
    if (actual <= desired)
      continue;
    struct Entry {
      size_t dim;
      size_t idx;
      int32_t value;
    };
    std::vector<Entry> sorted;
    for (size_t d = 0; d < bases.size(); ++d)
      for (size_t k = 0; k < bases[d].second.size(); ++k)
        if (int32_t v = bases[d].second[k][oi])
          sorted.push_back({d, k, v});
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Entry &a, const Entry &b) { return a.value > b.value; });
    for (auto &e : sorted) {
      if (actual <= desired)
        break;
      if (!broadcastRegisters && bases[e.dim].first == "register")
        dropRegs.insert(e.idx);
      else
        bases[e.dim].second[e.idx][oi] = 0;
      actual >>= 1;
    }
  }
  if (!broadcastRegisters)
    for (auto &[n, vecs] : bases)
      if (n == "register") {
        std::vector<LinearLayout::Basis> kept;
        for (size_t k = 0; k < vecs.size(); ++k)
          if (!dropRegs.count(k))
            kept.push_back(vecs[k]);
        vecs = std::move(kept);
      }
  return LinearLayout::inferred(std::move(bases), outNames);
}

LinearLayout ensureLayoutNotSmallerThan(const LinearLayout &layout,
                                        const std::vector<std::pair<std::string, int64_t>> &shape) {
  if (shape.empty())
    return layout;
  std::string k = layout.inDimNames().at(0);
  LinearLayout r = layout;
  for (auto &o : layout.outDimNames()) {
    int64_t actual = layout.outDimSize(o);
    int64_t desired = lookupShape(shape, o);
    r *= LinearLayout::identity1D(int32_t(desired / actual), k, o);
  }
  return r;
}

LinearLayout removeStandardDim(const LinearLayout &layout, int dim) {
  auto outs = layout.outDims();
  std::vector<std::string> keep;
  for (auto &[n, s] : outs)
    if (n != "dim" + std::to_string(dim))
      keep.push_back(n);
  auto sub = layout.sublayout(layout.inDimNames(), keep);
  std::vector<LinearLayout::OutDim> renamed;
  int i = 0;
  for (auto &[n, s] : sub.outDims())
    renamed.emplace_back("dim" + std::to_string(i++), s);
  return LinearLayout(sub.bases(), renamed);
}

LinearLayout reshapeLayout(const LinearLayout &layout, const std::vector<int64_t> &shape) {
  auto src = layout.outDimNames();
  std::reverse(src.begin(), src.end());
  std::vector<LinearLayout::OutDim> newOuts;
  for (size_t i = 0; i < shape.size(); ++i)
    newOuts.emplace_back("dim" + std::to_string(i), int32_t(shape[i]));
  std::reverse(newOuts.begin(), newOuts.end());
  return layout.transposeOuts(src).reshapeOuts(newOuts).transposeOuts(
      standardOutDimNames(int(shape.size())));
}

LinearLayout transposeLinearLayout(const LinearLayout &layout, const std::vector<int> &order) {
  auto bases = layout.bases();
  for (auto &[n, vecs] : bases)
    for (auto &b : vecs) {
      LinearLayout::Basis nb;
      for (int i : order)
        nb.push_back(b.at(i));
      b = std::move(nb);
    }
  return LinearLayout::inferred(std::move(bases), layout.outDimNames());
}

LinearLayout combineCtaCgaWithShape(const LinearLayout &ctaIn, const LinearLayout &cgaIn,
                                    const std::vector<int64_t> &shape) {
  int rank = int(shape.size());
  auto names = standardOutDimNames(rank);
  std::vector<std::pair<std::string, int64_t>> labeled;
  for (int i = 0; i < rank; ++i)
    labeled.emplace_back(names[i], shape[i]);
  // A CGA layout always spans every tensor dim, even with one CTA.
  LinearLayout cgaFull = cgaIn;
  for (auto &n : names)
    if (!cgaFull.hasOutDim(n))
      cgaFull *= LinearLayout::identity1D(1, "block", n);
  if (!cgaFull.hasInDim("block"))
    cgaFull *= LinearLayout::identity1D(1, "block", names.at(0));
  LinearLayout cga = ensureLayoutNotLargerThan(cgaFull, labeled).transposeOuts(ctaIn.outDimNames());
  std::vector<std::pair<std::string, int64_t>> ctaShape;
  for (auto &n : ctaIn.outDimNames())
    ctaShape.emplace_back(n, std::max<int64_t>(1, lookupShape(labeled, n) / cga.outDimSize(n)));
  LinearLayout cta =
      ensureLayoutNotLargerThan(ensureLayoutNotSmallerThan(ctaIn, ctaShape), ctaShape);
  LinearLayout r = (cta * cga).transposeOuts(names);
  return r;
}

LinearLayout removeZeroBasesAlongDim(const LinearLayout &layout, const std::string &inDim) {
  auto bases = layout.bases();
  for (auto &[n, vecs] : bases)
    if (n == inDim) {
      std::vector<LinearLayout::Basis> kept;
      for (auto &b : vecs)
        if (std::any_of(b.begin(), b.end(), [](int32_t v) { return v != 0; }))
          kept.push_back(b);
      vecs = std::move(kept);
    }
  return LinearLayout(std::move(bases), layout.outDims());
}

} // namespace tilexform::layout
