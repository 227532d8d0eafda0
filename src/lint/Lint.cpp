// The rule table of `lint` and the engine that runs its families.
#include "LintContext.h"

#include <algorithm>
#include <iterator>
#include <tuple>

namespace tilexform::lint {

namespace {

constexpr RuleInfo kRules[] = {
    {Rule::ProxyFence, "proxy-fence", Severity::Error,
     "a generic-proxy shared-memory access next to an async-proxy access of the same buffer with "
     "no fence_async_shared between them",
     "the async proxy (TMA, wgmma, tcgen05) may read shared memory before the generic write is "
     "visible to it, or a generic read may see shared memory before the async write lands"},
    {Rule::MbarrierPhase, "mbarrier-phase", Severity::Error,
     "an mbarrier wait whose phase does not follow the buffer rotation (i // num_buffers & 1)",
     "a wait on the wrong parity returns at once (reading a buffer still being filled) or never "
     "(a hang)"},
    {Rule::MbarrierShared, "mbarrier-shared", Severity::Error,
     "one mbarrier used for both TMA and tcgen05 completion",
     "the two producers' arrivals and transaction bytes mix in one phase: a wait completes "
     "early or the phase never completes"},
    {Rule::MbarrierInval, "mbarrier-inval", Severity::Warning,
     "an mbarrier initialised and never invalidated",
     "shared memory that held a live mbarrier must be invalidated before it is reused for data"},
    {Rule::TmaStoreWait, "tma-store-wait", Severity::Error,
     "tma.store_wait waits only for the shared-memory read while the stored range is read back "
     "later in the kernel",
     "the wait does not make the global write visible: the read-back may see the old values"},
    {Rule::ConvertInLoop, "convert-in-loop", Severity::Warning,
     "a ttg.convert_layout in a loop that is not register-only (warp shuffles or shared memory)",
     "every iteration pays the shuffles or a shared-memory round trip with its barriers"},
    {Rule::ConvertIdentity, "convert-identity", Severity::Warning,
     "a ttg.convert_layout between two spellings of the same linear layout",
     "the conversion moves nothing and can be removed"},
    {Rule::NanRows, "nan-rows", Severity::Error,
     "a masked async copy into shared memory (no other=) whose dead elements feed a reduction "
     "across them or an MMA's reduction axis",
     "the masked-off elements are undefined (zeros on NVIDIA's cp.async): NaN or garbage poisons "
     "every row they reach, and zeros displace a max or min"},
    {Rule::TmaAlignment, "tma-alignment", Severity::Error,
     "a TMA descriptor's block shape, strides or base not 16-byte aligned where the dump shows "
     "them",
     "the descriptor is refused at creation or the copy faults (misaligned address)"},
    {Rule::TargetOp, "target-op", Severity::Error,
     "an op or layout the dump's target does not have (warp specialization on AMD, wgmma off "
     "sm_90, tcgen05 off sm_100, another vendor's ops), or a fork's layout",
     "the kernel does not compile for the target, or runs another path than the one written"},
    {Rule::RegisterBudget, "register-budget", Severity::Error,
     "a warp-specialized kernel whose registers times threads exceed the register file "
     "(artifacts beside the dump)",
     "the launch fails with too many resources requested, or the partitions' register "
     "reallocation cannot be met"},
};
static_assert(std::size(kRules) == kRuleCount, "every rule has one row");

/// The families in the order they run, with the rules each can report.
struct Family {
  void (*run)(LintContext &);
  std::initializer_list<Rule> rules;
};
const Family kFamilies[] = {
    {checkProxyFence, {Rule::ProxyFence}},
    {checkBarriers, {Rule::MbarrierPhase, Rule::MbarrierShared, Rule::MbarrierInval}},
    {checkTmaStoreWait, {Rule::TmaStoreWait}},
    {checkLayoutCost, {Rule::ConvertInLoop, Rule::ConvertIdentity}},
    {checkNanRows, {Rule::NanRows}},
    {checkTmaAlignment, {Rule::TmaAlignment}},
    {checkTarget, {Rule::TargetOp}},
    {checkRegisterBudget, {Rule::RegisterBudget}},
};

} // namespace

const char *severityName(Severity s) { return s == Severity::Error ? "error" : "warning"; }

llvm::ArrayRef<RuleInfo> allRules() { return kRules; }

const RuleInfo &ruleInfo(Rule rule) { return kRules[size_t(rule)]; }

std::optional<Rule> parseRule(llvm::StringRef name) {
  for (const RuleInfo &r : kRules)
    if (name == r.name)
      return r.rule;
  return std::nullopt;
}

void LintContext::add(Rule rule, const ir::Operation *op, std::string message, std::string fix) {
  if (!enabled(rule))
    return;
  Finding f{rule,    ruleInfo(rule).severity, op->name,      op->pos.line, op->pos.col,
            op->loc, std::move(message),      std::move(fix)};
  report.findings.push_back(std::move(f));
}

void LintContext::addAt(Rule rule, std::string what, ir::TextPos pos, std::string message,
                        std::string fix) {
  if (!enabled(rule))
    return;
  report.findings.push_back(Finding{rule, ruleInfo(rule).severity, std::move(what), pos.line,
                                    pos.col, ir::SourceLoc(), std::move(message), std::move(fix)});
}

std::optional<int> LintContext::smVersion() const {
  if (!nvidia())
    return std::nullopt;
  llvm::StringRef a(target->arch);
  int v = 0;
  if (!a.consume_front("sm_") || a.getAsInteger(10, v))
    return std::nullopt;
  return v;
}

llvm::Expected<LintReport> lintModule(const ir::Module &module, const LintOptions &options) {
  LintReport report;
  std::string arch = options.arch;
  if (arch.empty() && !module.facts.target.empty())
    arch = module.facts.target;
  LintContext ctx{module, options, std::nullopt, report};
  if (!arch.empty())
    ctx.target = hw::parseTarget(arch);
  report.arch = ctx.target ? ctx.target->arch : "";
  if (!ctx.target)
    report.notes.push_back(arch.empty() ? "the dump names no target (ttg.target): target-op and "
                                          "the vendor-specific rules are not judged"
                                        : "unknown target '" + arch +
                                              "': target-op and the "
                                              "vendor-specific rules are "
                                              "not judged");
  for (const Family &f : kFamilies) {
    bool any = false;
    for (Rule r : f.rules)
      any = any || ctx.enabled(r);
    if (any)
      f.run(ctx);
  }
  if (ctx.walkCutShort)
    report.notes.push_back("a path walk reached its step budget: proxy-fence and tma-store-wait "
                           "may have missed findings in this dump");
  std::stable_sort(report.findings.begin(), report.findings.end(),
                   [](const Finding &a, const Finding &b) {
                     return std::make_tuple(a.line, a.col, size_t(a.rule)) <
                            std::make_tuple(b.line, b.col, size_t(b.rule));
                   });
  // One finding per rule, op and message (a walk may meet a pair twice).
  report.findings.erase(std::unique(report.findings.begin(), report.findings.end(),
                                    [](const Finding &a, const Finding &b) {
                                      return a.rule == b.rule && a.line == b.line &&
                                             a.col == b.col && a.message == b.message;
                                    }),
                        report.findings.end());
  return report;
}

} // namespace tilexform::lint
