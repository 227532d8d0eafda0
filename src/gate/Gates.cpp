// Name tables of the gates: verdicts, check statuses, element types.
#include "tilexform/gate/Gates.h"

#include <utility>

namespace tilexform::gate {

const char *checkStatusName(CheckStatus s) {
  switch (s) {
  case CheckStatus::Pass:
    return "PASS";
  case CheckStatus::Fail:
    return "FAIL";
  case CheckStatus::Unverified:
    return "UNVERIFIED";
  }
  return "FAIL";
}

namespace {
const std::pair<DType, const char *> kDTypes[] = {
    {DType::F16, "float16"}, {DType::BF16, "bfloat16"}, {DType::F32, "float32"},
    {DType::F64, "float64"}, {DType::I8, "int8"},       {DType::I16, "int16"},
    {DType::I32, "int32"},   {DType::I64, "int64"},     {DType::U8, "uint8"},
    {DType::U16, "uint16"},  {DType::U32, "uint32"},    {DType::U64, "uint64"}};
} // namespace

std::optional<DType> parseDType(const std::string &name) {
  static const std::pair<const char *, DType> aliases[] = {
      {"f16", DType::F16},    {"half", DType::F16},  {"fp16", DType::F16}, {"bf16", DType::BF16},
      {"f32", DType::F32},    {"float", DType::F32}, {"fp32", DType::F32}, {"f64", DType::F64},
      {"double", DType::F64}, {"fp64", DType::F64}};
  for (auto &[t, n] : kDTypes)
    if (name == n)
      return t;
  for (auto &[n, t] : aliases)
    if (name == n)
      return t;
  return std::nullopt;
}

const char *dtypeName(DType t) {
  for (auto &[d, n] : kDTypes)
    if (d == t)
      return n;
  return "?";
}

} // namespace tilexform::gate
