// waves_per_eu_in_gluon: a Gluon kernel's autotune configs or launch carry
// waves_per_eu, so the anchor would not run at the transcribed kernel's
// register budget. waves_per_eu=0 is the compiler's default and sets no
// limit: a value that is 0 on every path that reaches the launch (a literal,
// a local only ever bound to 0, a config builder that hard-codes 0, the
// builder chosen under the same condition as the launch) is no finding.
#include "../SurveyRules.h"

namespace tilexform::source::detail::rules {

void wavesPerEuInGluonConfigs(FileAnalysis &file, KernelInfo &k) {
  if (!k.autotune || k.dialect != Dialect::Gluon || !k.configs.wavesPerEu)
    return;
  k.record.findings.push_back(file.finding(
      "waves_per_eu_in_gluon", k.configs.wavesPerEu, k.record.name,
      "waves_per_eu in the autotune configs of a Gluon kernel: the anchor must run with "
      "the transcribed kernel's register budget, not a tuned occupancy hint"));
}

void wavesPerEuAtGluonLaunch(FileAnalysis &file, Launch &launch) {
  if (launch.kernel->dialect != Dialect::Gluon)
    return;
  const Node *w = keywordArg(launch.call, "waves_per_eu");
  if (!w || file.zeroOnEveryPath(w, launch))
    return;
  launch.kernel->record.findings.push_back(
      file.finding("waves_per_eu_in_gluon", w, launch.kernel->record.name,
                   "waves_per_eu passed to a Gluon kernel's launch: the anchor must run with the "
                   "transcribed kernel's register budget, not a tuned occupancy hint"));
}

} // namespace tilexform::source::detail::rules
