#include "tilexform/analysis/Verify.h"
#include "tilexform/ir/Module.h"
#include "tilexform/ir/OpSchema.h"
#include "tilexform/support/Text.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace tilexform::analysis {

namespace {

bool isMma(const std::string &kind) {
  return kind == "nvidia_mma" || kind == "amd_mfma" || kind == "amd_wmma";
}

// Layout uses of one module, grouped by (memory, shape, linear layout).
std::map<std::string, LayoutUse> usesOf(const RecoverReport &r) {
  std::map<std::string, LayoutUse> uses;
  std::map<std::string, std::string> normalForms;
  for (auto &l : r.layouts) {
    for (auto &s : l.sites) {
      std::vector<int64_t> llShape = layout::bufferShape(*l.encoding, s.shape);
      // Sites of one layout repeat a few shapes: compute each normal form once.
      auto [it, fresh] = normalForms.try_emplace(l.attr + "@" + shapeText(llShape));
      if (fresh) {
        if (auto ll = layout::linearLayoutAt(*l.encoding, llShape)) {
          it->second = ll->toString();
        } else {
          llvm::consumeError(ll.takeError());
          it->second = "text:" + l.attr; // no linear layout (tensor memory): compare by text
        }
      }
      const std::string &normal = it->second;
      std::string key = s.memory + "|" + shapeText(s.shape) + "|" + normal;
      auto &u = uses[key];
      if (u.key.empty()) {
        u.key = key;
        u.attr = l.attr;
        u.encoding = l.encoding;
        u.gluon = l.gluon;
        u.kind = l.kind;
        u.status = l.status;
        u.shape = s.shape;
        u.memory = s.memory;
      }
      for (auto &role : l.roles)
        if (std::find(u.roles.begin(), u.roles.end(), role) == u.roles.end())
          u.roles.push_back(role);
      u.sites.push_back(s);
    }
  }
  return uses;
}

// Top-level `key = value` fields of an attribute body `#x.kind<{...}>`.
std::vector<std::pair<std::string, std::string>> fields(const std::string &attr) {
  std::vector<std::pair<std::string, std::string>> out;
  auto open = attr.find("<{");
  auto close = attr.rfind("}>");
  if (open == std::string::npos || close == std::string::npos || close < open)
    return out;
  std::string body = attr.substr(open + 2, close - open - 2);
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= body.size(); ++i) {
    char c = i < body.size() ? body[i] : ',';
    if (c == '[' || c == '<' || c == '{' || c == '(')
      ++depth;
    else if (c == ']' || c == '>' || c == '}' || c == ')')
      --depth;
    else if (c == ',' && depth == 0) {
      std::string part = body.substr(start, i - start);
      auto eq = part.find(" = ");
      if (eq != std::string::npos) {
        auto k = part.substr(0, eq);
        k.erase(0, k.find_first_not_of(' '));
        out.emplace_back(k, part.substr(eq + 3));
      }
      start = i + 1;
    }
  }
  return out;
}

std::string describeDifference(const LayoutUse &a, const LayoutUse &b) {
  if (a.kind != b.kind)
    return fmt::format("kind {} vs {}", a.kind, b.kind);
  auto fa = fields(a.attr), fb = fields(b.attr);
  std::vector<std::string> diffs;
  for (auto &[k, v] : fa) {
    auto it = std::find_if(fb.begin(), fb.end(), [&](auto &p) { return p.first == k; });
    if (it == fb.end())
      diffs.push_back(fmt::format("{} {} vs absent", k, v));
    else if (it->second != v)
      diffs.push_back(fmt::format("{} {} vs {}", k, v, it->second));
  }
  for (auto &[k, v] : fb)
    if (std::none_of(fa.begin(), fa.end(), [&](auto &p) { return p.first == k; }))
      diffs.push_back(fmt::format("{} absent vs {}", k, v));
  if (a.shape != b.shape)
    diffs.push_back(fmt::format("shape {} vs {}", shapeText(a.shape), shapeText(b.shape)));
  if (diffs.empty())
    return a.attr == b.attr ? "same layout at another shape" : "linear layouts differ";
  return fmt::format("{}", fmt::join(diffs, ", "));
}

/// Gluon's keyword for a TTGIR layout field, and its value in Python.
std::string gluonKeyword(const std::string &field) {
  static const std::map<std::string, std::string> names = {
      {"sizePerThread", "size_per_thread"},
      {"threadsPerWarp", "threads_per_warp"},
      {"warpsPerCTA", "warps_per_cta"},
      {"order", "order"},
      {"CTAsPerCGA", "ctas_per_cga"},
      {"CTASplitNum", "cta_split_num"},
      {"CTAOrder", "cta_order"},
      {"kWidth", "k_width"},
      {"opIdx", "operand_index"},
      {"dim", "dim"},
      {"instrShape", "instr_shape"},
      {"isTransposed", "transposed"},
      {"vec", "vec"},
      {"perPhase", "per_phase"},
      {"maxPhase", "max_phase"},
      {"swizzlingByteWidth", "swizzle_byte_width"},
      {"elementBitWidth", "element_bitwidth"},
      {"transposed", "transposed"},
      {"fp4Padded", "fp4_padded"},
      {"warpsPerCTA_", "warps_per_cta"},
      {"tilesPerWarp", "tiles_per_warp"},
      {"version", "version"}};
  auto it = names.find(field);
  return it == names.end() ? "" : it->second;
}

std::string pythonValue(std::string v) {
  if (v == "true")
    return "True";
  if (v == "false")
    return "False";
  auto colon = v.find(" : ");
  if (colon != std::string::npos)
    v = v.substr(0, colon); // "4 : i32"
  return v;
}

/// The keyword edits that turn the anchor's layout into plain's: only for
/// two layouts of one kind whose every differing field has a Gluon keyword.
std::vector<FieldFix> fixesFor(const LayoutUse &plain, const LayoutUse &anchor) {
  std::vector<FieldFix> out;
  if (plain.kind != anchor.kind)
    return out;
  auto fp = fields(plain.attr), fa = fields(anchor.attr);
  for (auto &[k, v] : fp) {
    auto it = std::find_if(fa.begin(), fa.end(), [&](auto &p) { return p.first == k; });
    std::string anchorValue = it == fa.end() ? "" : it->second;
    if (anchorValue == v)
      continue;
    std::string kw = gluonKeyword(k);
    if (kw.empty())
      return {}; // a field Gluon spells otherwise: no safe edit to suggest
    out.push_back({k, kw, pythonValue(v), anchorValue.empty() ? "" : pythonValue(anchorValue)});
  }
  return out;
}

// The closest use on the other side: same memory, then same kind, same shape,
// sharing a role, fewest differing fields.
std::optional<Nearest> nearestIn(const LayoutUse &u,
                                 const std::map<std::string, LayoutUse> &other) {
  const LayoutUse *best = nullptr;
  int bestScore = -1;
  for (auto &[k, o] : other) {
    if (o.memory != u.memory)
      continue;
    int score = 0;
    score += (o.kind == u.kind) * 8;
    score += (o.shape == u.shape) * 4;
    for (auto &r : u.roles)
      if (std::find(o.roles.begin(), o.roles.end(), r) != o.roles.end()) {
        score += 2;
        break;
      }
    if (o.kind == u.kind) {
      auto fa = fields(u.attr), fb = fields(o.attr);
      int same = 0;
      for (auto &p : fa)
        same += std::find(fb.begin(), fb.end(), p) != fb.end();
      score = score * 16 + same;
    } else {
      score *= 16;
    }
    if (score > bestScore) {
      bestScore = score;
      best = &o;
    }
  }
  if (!best)
    return std::nullopt;
  return Nearest{best->attr, describeDifference(u, *best)};
}

std::string mmaSignature(const RecoverReport &r) {
  std::set<std::string> sigs;
  for (auto &l : r.layouts) {
    if (!isMma(l.kind))
      continue;
    auto f = fields(l.attr);
    std::string sig = l.kind;
    for (auto &[k, v] : f)
      if (k == "version" || k == "versionMajor" || k == "versionMinor" || k == "instrShape")
        sig += " " + k + "=" + v;
    sigs.insert(sig);
  }
  return fmt::format("{}", fmt::join(sigs, "; "));
}

bool sharesRole(const LayoutUse &a, const LayoutUse &b) {
  for (auto &r : a.roles)
    if (std::find(b.roles.begin(), b.roles.end(), r) != b.roles.end())
      return true;
  return a.roles.empty() && b.roles.empty();
}

void pairDifferences(VerifyReport &v) {
  std::vector<bool> used(v.extra.size(), false);
  for (auto &m : v.missing) {
    PairedDifference d;
    d.plain = m.use;
    if (m.nearest) {
      d.differs = m.nearest->differs;
      for (size_t j = 0; j < v.extra.size(); ++j)
        if (!used[j] && v.extra[j].use.attr == m.nearest->attr &&
            v.extra[j].use.memory == m.use.memory) {
          used[j] = true;
          d.anchor = v.extra[j].use;
          d.differs = describeDifference(m.use, v.extra[j].use);
          d.fixes = fixesFor(m.use, v.extra[j].use);
          break;
        }
    }
    v.differences.push_back(std::move(d));
  }
  for (size_t j = 0; j < v.extra.size(); ++j)
    if (!used[j]) {
      PairedDifference d;
      d.anchor = v.extra[j].use;
      d.differs = "the anchor uses a layout plain has no counterpart of";
      v.differences.push_back(std::move(d));
    }
}

} // namespace

std::string gluonEvidence(const ir::Module &mod) {
  std::string gluonOp, sourceFile;
  mod.walk([&](const ir::Operation *op) {
    if (gluonOp.empty() && llvm::StringRef(op->name).starts_with("gluon."))
      gluonOp = op->name;
    if (sourceFile.empty() && op->isFunction() && !op->loc.file.empty() &&
        llvm::StringRef(op->loc.file).lower().find("gluon") != std::string::npos)
      sourceFile = op->loc.file;
  });
  if (!gluonOp.empty())
    return "it uses the gluon dialect (" + gluonOp + ")";
  if (size_t at = mod.source().find("#gluon."); at != llvm::StringRef::npos)
    return "it uses the gluon dialect (" +
           mod.source()
               .substr(at)
               .take_until([](char c) { return c == '>' || c == ' ' || c == '<' || c == '\n'; })
               .str() +
           ")";
  if (!sourceFile.empty())
    return "its kernel's source is " + sourceFile;
  return "";
}

VerifyReport verify(const ir::Module &plainMod, const ir::Module &anchorMod, gluon::GluonApi api,
                    const std::string &arch) {
  VerifyReport v;
  v.plain = recover(plainMod, api, arch);
  v.anchor = recover(anchorMod, api, arch);
  std::vector<ArgumentFacts> plainArgs = signatureOf(plainMod), anchorArgs = signatureOf(anchorMod);
  v.signature = compareSignatures(plainArgs, anchorArgs);
  const auto &pf = plainMod.facts, &af = anchorMod.facts;

  std::vector<std::string> reasons;
  if (pf.target != af.target)
    reasons.push_back(fmt::format("target {} vs {}", pf.target, af.target));
  if (pf.numWarps != af.numWarps)
    reasons.push_back(
        fmt::format("num_warps {} vs {}", pf.numWarps.value_or(0), af.numWarps.value_or(0)));
  if (pf.threadsPerWarp != af.threadsPerWarp)
    reasons.push_back(fmt::format("threads_per_warp {} vs {}", pf.threadsPerWarp.value_or(0),
                                  af.threadsPerWarp.value_or(0)));
  // Two files of layout aliases alone hold no kernel: nothing was compared,
  // so nothing passed.
  const ir::Operation *plainKernel = plainMod.firstFunction(),
                      *anchorKernel = anchorMod.firstFunction();
  for (auto [kernel, side] : {std::pair{plainKernel, "plain"}, std::pair{anchorKernel, "anchor"}})
    if (!kernel)
      reasons.push_back(fmt::format("{} defines no function (layout aliases only?): no layout "
                                    "is used to compare",
                                    side));
  // Two kernels, not a kernel and its anchor: another name and other
  // arguments (an anchor keeps plain's arguments; --kernel-name renames
  // only the kernel).
  {
    auto argumentNames = [](const std::vector<ArgumentFacts> &args) {
      std::vector<std::string> names;
      for (auto &a : args)
        names.push_back(a.name);
      return names;
    };
    auto pa = argumentNames(plainArgs), aa = argumentNames(anchorArgs);
    if (plainKernel && anchorKernel && plainKernel->symbol != anchorKernel->symbol && pa != aa)
      reasons.insert(reasons.begin(),
                     fmt::format("different kernels: plain is {}({}), the anchor {}({})",
                                 plainKernel->symbol, fmt::join(pa, ", "), anchorKernel->symbol,
                                 fmt::join(aa, ", ")));
  }
  std::string ps = mmaSignature(v.plain), as = mmaSignature(v.anchor);
  if (ps != as)
    reasons.push_back(fmt::format("MMA instruction signature [{}] vs [{}]",
                                  ps.empty() ? "none" : ps, as.empty() ? "none" : as));
  auto &sp = v.plain.shared, &sa = v.anchor.shared;
  v.anchorCrossesCapacity = sa.capacity && sa.peakBytes > sa.capacity->value &&
                            !(sp.capacity && sp.peakBytes > sp.capacity->value);
  if (!reasons.empty()) {
    v.verdict = Verdict::NotComparable;
    v.notComparableReason = fmt::format("{}", fmt::join(reasons, "; "));
    return v;
  }

  auto plainUses = usesOf(v.plain), anchorUses = usesOf(v.anchor);
  std::vector<LayoutUse> missing, extra;
  for (auto &[k, u] : plainUses)
    if (!anchorUses.count(k))
      missing.push_back(u);
  for (auto &[k, u] : anchorUses)
    if (!plainUses.count(k))
      extra.push_back(u);

  std::set<std::string> noBuiltin;
  for (auto &u : v.plain.unsupportedOps)
    noBuiltin.insert(u.name);
  std::vector<bool> missingDone(missing.size()), extraDone(extra.size());

  // 1. A layout Gluon cannot construct, replaced by the anchor at the same sites.
  for (size_t i = 0; i < missing.size(); ++i) {
    if (missing[i].status != Verdict::Unrecoverable)
      continue;
    for (size_t j = 0; j < extra.size(); ++j) {
      if (extraDone[j] || extra[j].memory != missing[i].memory ||
          extra[j].shape != missing[i].shape || !sharesRole(missing[i], extra[j]))
        continue;
      std::string detail = fmt::format(
          "plain's {} has no Gluon constructor; the anchor uses {} at the same {} sites",
          missing[i].attr, extra[j].attr, missing[i].roles.empty() ? "" : missing[i].roles.front());
      v.reconciled.push_back({"unconstructible_replaced", detail, "plain", missing[i]});
      v.reconciled.push_back({"unconstructible_replaced", detail, "anchor", extra[j]});
      missingDone[i] = extraDone[j] = true;
      break;
    }
  }
  // 2. Staging the pipeliner created: multi-buffered shared memory.
  // A ring of one (AMD's stream pipeliner at num_stages 2 keeps num_stages
  // - 1 buffers) counts when the anchor holds the same layout at the tile.
  auto multiBuffered = [&](const LayoutUse &u) {
    if (u.memory != "shared" || u.shape.size() < 3 || u.shape.front() < 1)
      return false;
    if (u.shape.front() >= 2)
      return true;
    std::vector<int64_t> tile(u.shape.begin() + 1, u.shape.end());
    return std::any_of(anchorUses.begin(), anchorUses.end(), [&](auto &kv) {
      return kv.second.memory == "shared" && kv.second.attr == u.attr && kv.second.shape == tile;
    });
  };
  for (size_t i = 0; i < missing.size(); ++i) {
    if (missingDone[i] || !multiBuffered(missing[i]))
      continue;
    std::vector<int64_t> tile(missing[i].shape.begin() + 1, missing[i].shape.end());
    v.reconciled.push_back(
        {"pipeliner_staging",
         fmt::format("plain's pipeliner stages this operand in {} buffer{} of {} ({}); the "
                     "anchor does not stage it",
                     missing[i].shape.front(), missing[i].shape.front() == 1 ? "" : "s",
                     shapeText(tile), missing[i].attr),
         "plain", missing[i]});
    missingDone[i] = true;
  }
  for (size_t j = 0; j < extra.size(); ++j) {
    if (extraDone[j] || extra[j].memory != "shared")
      continue;
    // The anchor's single buffer where plain multi-buffers the same layout.
    bool plainMulti = std::any_of(plainUses.begin(), plainUses.end(), [&](auto &kv) {
      auto &p = kv.second;
      return p.attr == extra[j].attr && p.shape.size() >= 3 && p.shape.front() >= 2;
    });
    if (!plainMulti)
      continue;
    v.reconciled.push_back(
        {"pipeliner_staging",
         fmt::format("the anchor stages {} in a single {} buffer where plain's pipeliner "
                     "multi-buffers it",
                     extra[j].attr, shapeText(extra[j].shape)),
         "anchor", extra[j]});
    extraDone[j] = true;
  }
  // 3. A layout only an op without a Gluon builtin produces.
  for (size_t i = 0; i < missing.size(); ++i) {
    if (missingDone[i])
      continue;
    std::set<std::string> producers;
    for (auto &s : missing[i].sites)
      if (s.position.rfind("result", 0) == 0)
        producers.insert(s.op);
    if (producers.empty() || !std::all_of(producers.begin(), producers.end(),
                                          [&](auto &p) { return noBuiltin.count(p) > 0; }))
      continue;
    v.reconciled.push_back({"op_without_builtin",
                            fmt::format("{} is produced only by {}, which Gluon has no builtin for",
                                        missing[i].attr, fmt::join(producers, ", ")),
                            "plain", missing[i]});
    missingDone[i] = true;
  }

  // 4. The result of a reshape plain may reorder (allow_reorder: the
  // flattening before a reduction over every element), which Gluon reshapes
  // in order: the same registers under other element numbers, used only by
  // the reduction. Only a flattening (a 1-D result) reduces every element
  // whatever their order; a reordered tensor of more dimensions reduced
  // along one axis groups other elements than the in-order one.
  std::set<std::pair<unsigned, unsigned>> reorderingReshapes;
  plainMod.walk([&](const ir::Operation *op) {
    if (op->name == "tt.reshape" && op->hasKeyword("allow_reorder"))
      reorderingReshapes.insert({op->pos.line, op->pos.col});
  });
  auto onlyReshapeAndReduce = [](const LayoutUse &u, auto &&isReshape) {
    bool reshaped = false;
    for (auto &s : u.sites) {
      if (s.op == "tt.reshape" && s.position == "result 0" && isReshape(s))
        reshaped = true;
      else if (s.op != "tt.reduce" || s.position.rfind("operand", 0) != 0)
        return false;
    }
    return reshaped;
  };
  for (size_t i = 0; i < missing.size() && !reorderingReshapes.empty(); ++i) {
    if (missingDone[i] || missing[i].memory != "registers" || missing[i].shape.size() != 1 ||
        !onlyReshapeAndReduce(missing[i], [&](const UseSite &s) {
          return reorderingReshapes.count({s.line, s.col}) > 0;
        }))
      continue;
    auto detail = [&](const std::string &anchorAttr) {
      return fmt::format(
          "plain's reshape to {} may reorder elements (allow_reorder) and numbers them by {}; "
          "the anchor reshapes in order ({}), as Gluon does: a reshape that moves no data, "
          "read only by the reduction",
          shapeText(missing[i].shape), missing[i].attr, anchorAttr);
    };
    // The anchor's in-order layout is new to it (an extra use), or one it
    // also uses elsewhere: then the reshape (or, where the shape does not
    // change, the reduction it folded into) is one more site of that use.
    for (size_t j = 0; j < extra.size() && !missingDone[i]; ++j) {
      if (extraDone[j] || extra[j].memory != "registers" || extra[j].shape != missing[i].shape ||
          !onlyReshapeAndReduce(extra[j], [](const UseSite &) { return true; }))
        continue;
      v.reconciled.push_back({"reorder_reshape", detail(extra[j].attr), "plain", missing[i]});
      v.reconciled.push_back({"reorder_reshape", detail(extra[j].attr), "anchor", extra[j]});
      missingDone[i] = extraDone[j] = true;
    }
    for (auto it = anchorUses.begin(); it != anchorUses.end() && !missingDone[i]; ++it) {
      const LayoutUse &a = it->second;
      // A reshape that changes no shape folds away in the anchor: then the
      // reduction reads the reshape's source directly.
      bool reshapes = std::any_of(a.sites.begin(), a.sites.end(), [](const UseSite &s) {
        return (s.op == "tt.reshape" && s.position == "result 0") ||
               (s.op == "tt.reduce" && s.position.rfind("operand", 0) == 0);
      });
      if (a.memory != "registers" || a.shape != missing[i].shape || !reshapes)
        continue;
      v.reconciled.push_back({"reorder_reshape", detail(a.attr), "plain", missing[i]});
      missingDone[i] = true;
    }
  }

  for (size_t i = 0; i < missing.size(); ++i)
    if (!missingDone[i])
      v.missing.push_back({missing[i], nearestIn(missing[i], anchorUses)});
  for (size_t j = 0; j < extra.size(); ++j)
    if (!extraDone[j])
      v.extra.push_back({extra[j], nearestIn(extra[j], plainUses)});

  pairDifferences(v);

  // Multiplicity of use sites per role and shape (informational).
  std::map<std::pair<std::string, std::string>, Multiplicity> mult;
  auto count = [&](const std::map<std::string, LayoutUse> &uses, bool isPlain) {
    for (auto &[k, u] : uses) {
      std::string role = u.roles.empty() ? "elementwise" : u.roles.front();
      auto &m = mult[{role, shapeText(u.shape)}];
      m.role = role;
      m.shape = u.shape;
      (isPlain ? m.plainSites : m.anchorSites) += u.sites.size();
    }
  };
  count(plainUses, true);
  count(anchorUses, false);
  for (auto &[k, m] : mult)
    v.multiplicity.push_back(m);

  if (!v.missing.empty() || !v.extra.empty())
    v.verdict = Verdict::Fail;
  else if (!v.reconciled.empty())
    v.verdict = Verdict::Reconciled;
  else
    v.verdict = Verdict::Pass;
  return v;
}

} // namespace tilexform::analysis
