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

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
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
  /// `key = #ttg.xxx<...>`: a nested layout (a parent), null with the error
  /// reported when the value is no layout.
  virtual EncodingPtr encoding(const std::string &key) = 0;
  /// `key = f64`: the type as written, empty when the value is no type.
  virtual std::string typeText(const std::string &key) = 0;
  /// The whole attribute as written, `#ttg.<mnemonic><...>`.
  virtual std::string text() const = 0;
  /// AttrSyntax::DictAlignment: the `alignment = N` after the dictionary.
  virtual int64_t alignment() const = 0;
  /// AttrSyntax::PaddingsDict: the `[interval:+padding, ...]` before it.
  virtual const std::vector<std::pair<int64_t, int64_t>> &paddings() const = 0;
  /// Takes a key of the CGA part (CGALayout, or the legacy CTAsPerCGA,
  /// CTASplitNum, CTAOrder); false for any other key.
  virtual bool takeCga(const std::string &key, bool &ok) = 0;
  /// The CGA part taken, for a layout of `rank` dims.
  virtual std::optional<CGALayout> finishCga(unsigned rank) = 0;
  /// The rank the CGA part taken implies (its legacy lists' length, else
  /// its bases'), 0 when none was written.
  virtual unsigned cgaRank() const = 0;
  virtual void error(const std::string &message) = 0;
  /// validateBasesRank, its error reported.
  bool basesRank(const std::vector<const Bases *> &all, unsigned &rank);
};

/// A constructor call's arguments bound to its class's fields, as the Gluon
/// reader holds them. An accessor that cannot read its argument records a
/// message naming the class and the argument and returns an empty value;
/// error() records the kind's own. The first message recorded is the
/// reading's error, whatever the kind returns after it (a kind returns
/// nullptr where going on would read what is not there).
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
  /// A nested constructor call (a parent layout).
  virtual EncodingPtr layout(const std::string &key) const = 0;
  /// A list of `[a, b]` pairs: false when the value is no list; an item
  /// that is no pair of integers is none.
  virtual bool intPairs(const std::string &key,
                        std::vector<std::optional<std::pair<int64_t, int64_t>>> &out) const = 0;
  virtual void error(const std::string &message) const = 0;
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
  /// A nested layout's constructor (a parent's), or none with its reason.
  virtual std::optional<std::string> nested(const Encoding &enc) = 0;
};

/// How the printer writes a nested layout (a slice's or dot_op's parent):
/// by its alias where the module has one, else inline.
class AttrPrinter {
public:
  virtual ~AttrPrinter() = default;
  virtual std::string nested(const EncodingPtr &enc) const = 0;
};

/// How a kind's `#ttg.<mnemonic><...>` body is written around its dictionary.
enum class AttrSyntax {
  Dict,          // <{key = value, ...}>
  DictAlignment, // <{...}, alignment = N> (shared_linear)
  PaddingsDict,  // <[interval:+padding, ...] {...}> (padded_shared)
};

/// What a layout lays out: a distributed tensor or a shared-memory buffer.
enum class KindRole { Distributed, Shared };

struct KindInfo {
  /// Triton's mnemonic, `#ttg.<mnemonic><...>`.
  const char *mnemonic;
  /// The Gluon class (`gl.amd.AMDWMMALayout` is "AMDWMMALayout"), null when
  /// Gluon has none.
  const char *gluonClass = nullptr;
  /// The class's fields in positional order (the CGA ones included).
  std::vector<std::string> gluonFields = {};
  /// Which alternative of EncodingVariant the kind is.
  size_t variant;
  /// Where two kinds share an alternative (swizzled_shared and
  /// amd_rotating_shared), which values are this kind; null: all of them.
  bool (*accepts)(const Encoding &) = nullptr;
  KindRole role = KindRole::Distributed;
  AttrSyntax attrSyntax = AttrSyntax::Dict;
  EncodingPtr (*parseAttr)(AttrFields &);
  std::string (*print)(const Encoding &, const AttrPrinter &);
  EncodingPtr (*parseGluon)(const GluonArgs &) = nullptr;
  std::optional<std::string> (*emitGluon)(const Encoding &, GluonSpelling &);
  std::string (*validate)(const Encoding &);
  /// An error when the layout and the shape do not fit.
  llvm::Expected<LinearLayout> (*linear)(const Encoding &, const std::vector<int64_t> &shape);
  /// The number of tensor dims the layout describes.
  unsigned (*rank)(const Encoding &);
  /// The product of warpsPerCTA (a parent's for slice and dot_op); null
  /// when the kind does not define it.
  unsigned (*warps)(const Encoding &) = nullptr;
  /// The name of a module constant holding the layout, by what it is
  /// (`NVMMA_SHARED_128B`, `SWIZZLED_SHARED_V8_P1_M8`); null: the constant is
  /// named by the role of its first use.
  std::string (*constantName)(const Encoding &) = nullptr;
  /// The layout it stands on (slice, dot_op); null when none.
  const EncodingPtr *(*parent)(const Encoding &) = nullptr;
  /// The linear layout of a dot_op whose parent is this kind; null when
  /// the kind cannot be a dot operand's parent.
  llvm::Expected<LinearLayout> (*dotOperandLinear)(const Encoding &parent,
                                                   const DotOperandEncoding &dot,
                                                   const std::vector<int64_t> &shape) = nullptr;
};

/// The index of alternative T in EncodingVariant (KindInfo::variant).
template <typename T> size_t variantIndexOf() {
  return EncodingVariant(std::in_place_type<T>).index();
}

/// Every kind, one entry per mnemonic.
const std::vector<KindInfo> &kindTable();
const KindInfo *kindOfMnemonic(const std::string &mnemonic);
const KindInfo *kindOfGluonClass(const std::string &cls);
const KindInfo *kindOf(const Encoding &enc);

/// The fields Gluon's classes share for the CGA part.
std::vector<std::string> withGluonCgaFields(std::vector<std::string> fields);

} // namespace tilexform::layout
