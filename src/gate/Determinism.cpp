// The determinism gate: every run bit-identical to the first.
#include "tilexform/gate/Gates.h"
#include "tilexform/support/InputError.h"

#include <fmt/format.h>
#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>

namespace tilexform::gate {

namespace {

size_t sizeOf(DType t) {
  switch (t) {
  case DType::I8:
  case DType::U8:
    return 1;
  case DType::F16:
  case DType::BF16:
  case DType::I16:
  case DType::U16:
    return 2;
  case DType::F32:
  case DType::I32:
  case DType::U32:
    return 4;
  case DType::F64:
  case DType::I64:
  case DType::U64:
    return 8;
  }
  return 1;
}

bool isFloat(DType t) {
  return t == DType::F16 || t == DType::BF16 || t == DType::F32 || t == DType::F64;
}

uint64_t bitsAt(const char *p, size_t size) {
  uint64_t v = 0;
  std::memcpy(&v, p, size); // little-endian hosts, as the files are written
  return v;
}

double f16ToDouble(uint16_t h) {
  int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (exp == 0)
    return sign * std::ldexp(mant, -24);
  if (exp == 31)
    return mant ? std::nan("") : sign * INFINITY;
  return sign * std::ldexp(mant | 0x400, exp - 25);
}

double valueOf(uint64_t bits, DType t) {
  switch (t) {
  case DType::F16:
    return f16ToDouble(uint16_t(bits));
  case DType::BF16: {
    uint32_t f = uint32_t(bits) << 16;
    float x;
    std::memcpy(&x, &f, 4);
    return x;
  }
  case DType::F32: {
    uint32_t f = uint32_t(bits);
    float x;
    std::memcpy(&x, &f, 4);
    return x;
  }
  case DType::F64: {
    double x;
    std::memcpy(&x, &bits, 8);
    return x;
  }
  case DType::I8:
    return double(int8_t(bits));
  case DType::I16:
    return double(int16_t(bits));
  case DType::I32:
    return double(int32_t(bits));
  case DType::I64:
    return double(int64_t(bits));
  default:
    return double(bits);
  }
}

// Floats as integers ordered like their values (sign-magnitude folded), so
// the distance of two is their distance in ulps.
int64_t ordered(uint64_t bits, DType t) {
  unsigned width = unsigned(sizeOf(t) * 8);
  uint64_t sign = uint64_t(1) << (width - 1);
  uint64_t mag = bits & (sign - 1);
  return (bits & sign) ? -int64_t(mag) : int64_t(mag);
}

struct RawRun {
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  llvm::StringRef data; // the elements
  DType dtype;
  std::vector<int64_t> shape;
};

llvm::Error npyError(const std::string &path, const std::string &why) {
  return llvm::make_error<InputError>(path, 0, 0, "not a .npy this gate reads: " + why);
}

// A .npy file: magic, version, header dict ('descr', 'fortran_order',
// 'shape'), then the elements.
llvm::Expected<RawRun> readNpy(const std::string &path, std::unique_ptr<llvm::MemoryBuffer> buf) {
  llvm::StringRef all = buf->getBuffer();
  if (all.size() < 10 || !all.starts_with("\x93NUMPY"))
    return npyError(path, "no \\x93NUMPY magic");
  unsigned major = uint8_t(all[6]);
  size_t headerLen, start;
  if (major == 1) {
    headerLen = uint8_t(all[8]) | (size_t(uint8_t(all[9])) << 8);
    start = 10;
  } else if (major == 2 || major == 3) {
    if (all.size() < 12)
      return npyError(path, "truncated header");
    headerLen = uint8_t(all[8]) | (size_t(uint8_t(all[9])) << 8) |
                (size_t(uint8_t(all[10])) << 16) | (size_t(uint8_t(all[11])) << 24);
    start = 12;
  } else {
    return npyError(path, fmt::format("format version {}", major));
  }
  if (start + headerLen > all.size())
    return npyError(path, "truncated header");
  llvm::StringRef header = all.substr(start, headerLen);
  auto field = [&](llvm::StringRef key) -> llvm::StringRef {
    std::string quoted;
    quoted += '\'';
    quoted += key;
    quoted += '\'';
    size_t at = header.find(quoted);
    if (at == llvm::StringRef::npos)
      return {};
    llvm::StringRef rest = header.drop_front(at + key.size() + 2).ltrim(" :");
    return rest;
  };
  llvm::StringRef descr = field("descr");
  if (descr.empty() || descr[0] != '\'')
    return npyError(path, "no 'descr'");
  descr = descr.drop_front().take_until([](char c) { return c == '\''; });
  static const std::pair<const char *, DType> descrs[] = {
      {"<f2", DType::F16}, {"<f4", DType::F32}, {"<f8", DType::F64}, {"|i1", DType::I8},
      {"<i2", DType::I16}, {"<i4", DType::I32}, {"<i8", DType::I64}, {"|u1", DType::U8},
      {"<u2", DType::U16}, {"<u4", DType::U32}, {"<u8", DType::U64}, {"|b1", DType::U8}};
  std::optional<DType> t;
  for (auto &[d, k] : descrs)
    if (descr == d)
      t = k;
  if (!t)
    return npyError(path, "element type '" + descr.str() + "' (little-endian numbers only)");
  if (field("fortran_order").starts_with("True"))
    return npyError(path, "Fortran order");
  llvm::StringRef shapeText = field("shape");
  if (shapeText.empty() || shapeText[0] != '(')
    return npyError(path, "no 'shape'");
  shapeText = shapeText.drop_front().take_until([](char c) { return c == ')'; });
  std::vector<int64_t> shape;
  llvm::SmallVector<llvm::StringRef> dims;
  shapeText.split(dims, ',', -1, false);
  for (auto d : dims) {
    d = d.trim();
    if (d.empty())
      continue;
    int64_t v;
    if (d.getAsInteger(10, v) || v < 0)
      return npyError(path, "bad shape");
    shape.push_back(v);
  }
  RawRun r;
  r.data = all.drop_front(start + headerLen);
  r.dtype = *t;
  r.shape = shape;
  r.buffer = std::move(buf);
  return r;
}

} // namespace

llvm::Expected<DeterminismReport> checkDeterminism(const std::vector<std::string> &paths,
                                                   std::optional<DType> dtype,
                                                   const std::vector<int64_t> &shape,
                                                   size_t minRuns) {
  // Directories give their regular files, in name order.
  std::vector<std::string> files;
  for (auto &p : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      std::vector<std::string> inDir;
      for (auto &e : std::filesystem::directory_iterator(p, ec))
        if (isRegularFile(e.path().string()) && e.path().filename().string()[0] != '.')
          inDir.push_back(e.path().string());
      std::sort(inDir.begin(), inDir.end());
      files.insert(files.end(), inDir.begin(), inDir.end());
    } else {
      files.push_back(p);
    }
  }
  if (files.empty())
    return llvm::make_error<InputError>(paths.empty() ? std::string("determinism") : paths.front(),
                                        0, 0, "no runs to compare");
  if (files.size() < minRuns)
    return llvm::make_error<InputError>(
        paths.empty() ? std::string("determinism") : paths.front(), 0, 0,
        fmt::format("{} runs; the gate needs at least {} (--min-runs)", files.size(), minRuns));

  // Each run is read, checked and compared with the first as it comes, then
  // dropped: memory holds two runs, however many there are.
  auto readRun = [&](const std::string &f) -> llvm::Expected<RawRun> {
    auto buf = readInputFile(f);
    if (!buf)
      return buf.takeError();
    if (llvm::StringRef(f).ends_with(".npy"))
      return readNpy(f, std::move(*buf));
    if (!dtype)
      return llvm::make_error<InputError>(f, 0, 0,
                                          "a raw output needs --dtype (and --shape) to be read");
    RawRun r;
    r.data = (*buf)->getBuffer();
    r.dtype = *dtype;
    r.shape = shape;
    r.buffer = std::move(*buf);
    return r;
  };
  auto firstRead = readRun(files[0]);
  if (!firstRead)
    return firstRead.takeError();
  RawRun first = std::move(*firstRead);

  DeterminismReport rep;
  rep.runs = files.size();
  rep.dtype = first.dtype;
  rep.shape = first.shape;
  size_t esize = sizeOf(rep.dtype);
  uint64_t elements = 1, bytes = 0;
  for (auto d : rep.shape)
    if (__builtin_mul_overflow(elements, uint64_t(d), &elements))
      return llvm::make_error<InputError>(files[0], 0, 0,
                                          "the shape's element count overflows 64 bits");
  if (rep.shape.empty())
    elements = first.data.size() / esize;
  if (__builtin_mul_overflow(elements, uint64_t(esize), &bytes))
    return llvm::make_error<InputError>(
        files[0], 0, 0,
        fmt::format("{} elements of {} overflow 64 bits of bytes", elements, dtypeName(rep.dtype)));
  rep.elements = size_t(elements);
  bool fp = isFloat(rep.dtype);
  for (size_t i = 0; i < files.size(); ++i) {
    RawRun later;
    if (i > 0) {
      auto r = readRun(files[i]);
      if (!r)
        return r.takeError();
      later = std::move(*r);
    }
    const RawRun &r = i == 0 ? first : later;
    if (r.dtype != rep.dtype || r.shape != rep.shape)
      return llvm::make_error<InputError>(files[i], 0, 0,
                                          "element type or shape differs from the first run");
    if (r.data.size() != bytes)
      return llvm::make_error<InputError>(
          files[i], 0, 0,
          fmt::format("{} bytes, but {} elements of {} are {} bytes", r.data.size(), elements,
                      dtypeName(rep.dtype), bytes));
    bool differs = false, nan = false, inf = false;
    for (size_t e = 0; e < rep.elements; ++e) {
      uint64_t a = bitsAt(first.data.data() + e * esize, esize);
      uint64_t b = bitsAt(r.data.data() + e * esize, esize);
      double vb = valueOf(b, rep.dtype);
      if (fp && std::isnan(vb))
        nan = true;
      if (fp && std::isinf(vb))
        inf = true;
      if (a == b)
        continue;
      differs = true;
      ++rep.differingElements;
      if (!rep.firstDifferingRun) {
        rep.firstDifferingRun = i;
        rep.firstDifferingElement = e;
      }
      double va = valueOf(a, rep.dtype);
      if (std::isfinite(va) && std::isfinite(vb)) {
        double abs = std::fabs(va - vb);
        rep.maxAbsDiff = std::max(rep.maxAbsDiff, abs);
        double scale = std::max(std::fabs(va), std::fabs(vb));
        if (scale > 0)
          rep.maxRelDiff = std::max(rep.maxRelDiff, abs / scale);
        if (fp) {
          int64_t d = ordered(a, rep.dtype) - ordered(b, rep.dtype);
          rep.maxUlps = std::max(rep.maxUlps, uint64_t(d < 0 ? -d : d));
        }
      }
    }
    rep.differingRuns += differs;
    rep.nanRuns += nan;
    rep.infRuns += inf;
  }
  if (rep.nanRuns)
    rep.reasons.push_back(
        fmt::format("{} of {} runs hold a NaN (a NaN always fails)", rep.nanRuns, rep.runs));
  if (rep.differingRuns)
    rep.reasons.push_back(fmt::format("{} of {} runs differ from the first in {} elements",
                                      rep.differingRuns, rep.runs - 1, rep.differingElements));
  rep.verdict = rep.reasons.empty() ? Verdict::Pass : Verdict::Fail;
  return rep;
}

} // namespace tilexform::gate
