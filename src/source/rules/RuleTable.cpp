// The one table of survey's rules: id, title and why, for --fail-on, the
// docs and SARIF.
#include "tilexform/source/Survey.h"

namespace tilexform::source {

const std::vector<SurveyRule> &surveyRules() {
  static const std::vector<SurveyRule> rules = {
      {"runtime_if_in_dot_loop", "loads or stores under a runtime branch in a ping-pong loop",
       "Loads or stores under a runtime branch, in a pipelined Triton loop of one or two dots: "
       "AMD's BlockPingpong counts them as non-dot memory and leaves the loop without its "
       "ping-pong schedule. Mask them outside the branch or branch on a constexpr."},
      {"autotune_grid_ignores_meta", "autotuned grid reads host BLOCK_* instead of META",
       "The grid of an autotuned kernel must read the block sizes from the config (META); with "
       "host values every config runs on the grid of one, and the tuning result is wrong."},
      {"module_global_in_kernel", "module-level global read inside a kernel",
       "Since Triton 3.6 a kernel may read only constexpr globals; any other module global is a "
       "NameError at compile time in upstream Triton (a vendor fork on an older Triton may read "
       "it). Pass it as a tl.constexpr parameter or wrap it in "
       "tl.constexpr(...)."},
      {"fork_only_env_knob", "environment knob only a fork reads",
       "Setting an environment variable that upstream Triton never reads changes nothing: the "
       "experiment silently measures the default."},
      {"sched_hint_stub_import", "schedule hints imported with a no-op fallback",
       "sched_barrier / sched_group_barrier / set_prio imported in a try with stubs: where the "
       "import fails the kernel runs without its schedule and nobody is told."},
      {"waves_per_eu_in_gluon", "waves_per_eu carried into a Gluon kernel",
       "A Gluon anchor is compared with its plain kernel at the same register budget; a tuned "
       "waves_per_eu changes register allocation and breaks the comparison."},
      {"num_warps_sweep_on_gluon", "num_warps swept over a Gluon kernel",
       "A transcribed Gluon kernel's layouts encode one warp count (warpsPerCTA); sweeping "
       "num_warps runs mismatched layouts or fails to compile."},
      {"warp_specialize_on_cdna3", "warp_specialize in a kernel for CDNA3",
       "Warp specialization has no CDNA3 (gfx942) lowering; the kernel will not build there."},
      {"per_tensor_launch_loop", "one launch per tensor in a loop",
       "Launching the kernel once per tensor of a list pays the launch cost per tensor and "
       "leaves the GPU idle between launches; batch the tensors into one grouped launch."},
  };
  return rules;
}

} // namespace tilexform::source
