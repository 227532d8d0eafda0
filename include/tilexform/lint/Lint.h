// `lint`: the Gluon pitfalls that compile cleanly and then give wrong numbers
// or lose speed, found in a kernel's TTGIR. Each rule reads the module the
// reader loaded (ir::Module) and the linear layouts src/layout computes; a
// finding names the op, its IR position and source location, what goes
// wrong and how to fix it. Rules are rows of one table (allRules()), grouped
// in families, one source file per family under src/lint/.
#pragma once

#include "tilexform/ir/Module.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <bitset>
#include <optional>
#include <string>
#include <vector>

namespace tilexform::lint {

enum class Severity : uint8_t { Warning, Error };
/// "warning" or "error".
const char *severityName(Severity s);

enum class Rule : uint8_t {
  ProxyFence,
  MbarrierPhase,
  MbarrierShared,
  MbarrierInval,
  TmaStoreWait,
  ConvertInLoop,
  ConvertIdentity,
  NanRows,
  TmaAlignment,
  TargetOp,
  RegisterBudget,
};
constexpr size_t kRuleCount = size_t(Rule::RegisterBudget) + 1;

/// One row of the rule table: the name users type (`--rule proxy-fence`),
/// its default severity, and the words of docs/lint.md in short.
struct RuleInfo {
  Rule rule;
  const char *name;
  Severity severity;
  const char *title; // one line: what it finds
  const char *why;   // one line: what goes wrong
};

/// Every rule, in table order.
llvm::ArrayRef<RuleInfo> allRules();
const RuleInfo &ruleInfo(Rule rule);
/// The rule of a name, or none.
std::optional<Rule> parseRule(llvm::StringRef name);

struct Finding {
  Rule rule;
  Severity severity;
  std::string op;             // "ttg.local_store"
  unsigned line = 0, col = 0; // in the dump
  ir::SourceLoc source;       // from the op's loc(...), when it has one
  std::string message;
  std::string fix;
};

using RuleSet = std::bitset<kRuleCount>;

struct LintOptions {
  RuleSet rules = RuleSet().set(); // the rules to run
  /// The target, overriding the module's (`--arch`); empty: the module's.
  std::string arch;
  /// The dump's path: compile artifacts beside it (same stem, .cubin,
  /// .json) feed register-budget. Empty: none are looked for.
  std::string dumpPath;
};

struct LintReport {
  std::string arch;              // the target the rules were judged for ("" unknown)
  std::vector<Finding> findings; // by line, column, rule
  /// Remarks that are not findings: a rule that could not judge (no target,
  /// no artifacts, an analysis cut short).
  std::vector<std::string> notes;
};

/// Runs the rules of `options` over `module`.
llvm::Expected<LintReport> lintModule(const ir::Module &module, const LintOptions &options);

} // namespace tilexform::lint
