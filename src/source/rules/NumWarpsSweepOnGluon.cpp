// num_warps_sweep_on_gluon: a transcribed Gluon kernel's layouts encode one
// warp count; autotune configs with several num_warps, or a launch whose
// num_warps is a loop variable, run it with mismatched layouts. Configs that
// pass the same value to the kernel as a constexpr (`{"NW": w}, num_warps=w`)
// let its layouts follow the sweep: no finding.
#include "../SurveyRules.h"

namespace tilexform::source::detail::rules {

void numWarpsSweepInGluonConfigs(FileAnalysis &file, KernelInfo &k) {
  if (!k.autotune || k.dialect != Dialect::Gluon)
    return;
  if ((k.configs.numWarps.size() > 1 || k.configs.numWarpsSwept) && !k.configs.numWarpsPassed)
    k.record.findings.push_back(file.finding(
        "num_warps_sweep_on_gluon", k.autotune, k.record.name,
        "autotune sweeps num_warps over a Gluon kernel: its layouts are written for one "
        "warp count, so other configs run mismatched layouts (or fail)"));
}

void numWarpsSweepAtGluonLaunch(FileAnalysis &file, Launch &launch) {
  if (launch.kernel->dialect != Dialect::Gluon)
    return;
  const Node *nw = keywordArg(launch.call, "num_warps");
  if (!nw || nw->kind != K::Name)
    return;
  for (auto it = launch.ancestors.rbegin(); it != launch.ancestors.rend(); ++it) {
    Node *a = *it;
    if (a->kind == K::FunctionDef)
      break;
    std::set<std::string> vars;
    if (a->kind == K::For)
      targetNames(a->kids[0], vars);
    if (vars.count(nw->text)) {
      launch.kernel->record.findings.push_back(file.finding(
          "num_warps_sweep_on_gluon", launch.call, launch.kernel->record.name,
          "num_warps swept over a Gluon kernel's launch: its layouts are written for one "
          "warp count, so other values run mismatched layouts (or fail)"));
      return;
    }
  }
}

} // namespace tilexform::source::detail::rules
