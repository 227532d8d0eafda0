// One table of layout kinds. Each kind lives in one file,
// src/layout/kinds/<Kind>.cpp (its fields in include/tilexform/layout/kinds/):
// its `#ttg.<mnemonic><...>` reading and printing, its `gl.<Class>(...)`
// reading and writing, its validation rule and its linear layout. The
// readers (the MLIR attribute parser in ir, the constructor parser in gluon)
// and the printers reach it through this table; they supply the syntax
// (AttrFields, GluonArgs, GluonSpelling) and the kind says what the fields
// mean. Adding a kind is its file and one line of kindTable().
#pragma once

#include "tilexform/layout/Encoding.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilexform::layout {

/// An attribute body `{key = value, ...}` as the MLIR reader holds it. Every
/// accessor reports its own error (with the reader's position) and says
/// whether it read; the kind reports what the fields together lack.
class AttrFields {
public:
  virtual ~AttrFields() = default;
  /// The keys as written, in the dictionary's order.
  virtual std::vector<std::string> keys() const = 0;
  virtual bool has(const std::string &key) const = 0;
  virtual bool uintValue(const std::string &key, unsigned &out) = 0;
  virtual bool boolValue(const std::string &key, bool &out) = 0;
  /// On error `ok` becomes false.
  virtual std::vector<unsigned> uintList(const std::string &key, bool &ok) = 0;
  virtual Bases basesList(const std::string &key, bool &ok) = 0;
  /// `key = {...}`: null when the value is no dictionary.
  virtual std::unique_ptr<AttrFields> dictionary(const std::string &key) = 0;
  /// Takes a key of the CGA part (CGALayout, or the legacy CTAsPerCGA,
  /// CTASplitNum, CTAOrder); false for any other key.
  virtual bool takeCga(const std::string &key, bool &ok) = 0;
  /// The CGA part taken, for a layout of `rank` dims.
  virtual std::optional<CGALayout> finishCga(unsigned rank) = 0;
  virtual void error(const std::string &message) = 0;
  /// validateBasesRank, its error reported.
  bool basesRank(const std::vector<const Bases *> &all, unsigned &rank);
};

/// A constructor call's arguments bound to its class's fields, as the Gluon
/// reader holds them. Accessors throw std::invalid_argument naming the
/// class and the argument.
class GluonArgs {
public:
  virtual ~GluonArgs() = default;
  virtual bool has(const std::string &key) const = 0;
  virtual int64_t integer(const std::string &key) const = 0;
  virtual int64_t integer(const std::string &key, int64_t dflt) const = 0;
  virtual bool boolean(const std::string &key, bool dflt) const = 0;
  virtual std::vector<unsigned> ints(const std::string &key) const = 0;
  virtual std::vector<unsigned> ints(const std::string &key, std::vector<unsigned> dflt) const = 0;
  virtual Bases bases(const std::string &key) const = 0;
  /// cga_layout, or the 3.5 ctas_per_cga/cta_split_num/cta_order.
  virtual CGALayout cga(unsigned rank) const = 0;
};

/// How the Gluon API being written spells what several classes share.
class GluonSpelling {
public:
  virtual ~GluonSpelling() = default;
  /// The CGA keyword arguments (", cga_layout=..."), empty for one CTA.
  virtual std::string cga(const CGALayout &cga, unsigned rank) const = 0;
  /// Whether the 3.5 API is written (no defaults some 3.6 fields have).
  virtual bool api35() const = 0;
  /// Why the kind has no constructor (emit returns none then).
  virtual void decline(std::string reason) = 0;
};

struct KindInfo {
  /// Triton's mnemonic, `#ttg.<mnemonic><...>`.
  const char *mnemonic;
  /// The Gluon class (`gl.amd.AMDWMMALayout` is "AMDWMMALayout").
  const char *gluonClass;
  /// The class's fields in positional order (the CGA ones included).
  std::vector<std::string> gluonFields;
  /// Which alternative of EncodingVariant the kind is.
  size_t variant;
  EncodingPtr (*parseAttr)(AttrFields &);
  std::string (*print)(const Encoding &);
  EncodingPtr (*parseGluon)(const GluonArgs &);
  std::optional<std::string> (*emitGluon)(const Encoding &, GluonSpelling &);
  std::string (*validate)(const Encoding &);
  /// Throws std::invalid_argument when the layout and the shape do not fit.
  LinearLayout (*linear)(const Encoding &, const std::vector<int64_t> &shape);
};

/// The index of alternative T in EncodingVariant (KindInfo::variant).
template <typename T> size_t variantIndexOf() {
  return EncodingVariant(std::in_place_type<T>).index();
}

/// Every kind that lives in its own file.
const std::vector<KindInfo> &kindTable();
const KindInfo *kindOfMnemonic(const std::string &mnemonic);
const KindInfo *kindOfGluonClass(const std::string &cls);
const KindInfo *kindOf(const Encoding &enc);

/// The fields Gluon's classes share for the CGA part.
std::vector<std::string> withGluonCgaFields(std::vector<std::string> fields);

} // namespace tilexform::layout
