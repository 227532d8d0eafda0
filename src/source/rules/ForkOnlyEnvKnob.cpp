// fork_only_env_knob: a string naming an environment knob that only a fork
// or a patched compiler reads; upstream Triton never reads it.
#include "../SurveyRules.h"

namespace tilexform::source::detail::rules {

void forkOnlyEnvKnob(FileAnalysis &file) {
  static const std::pair<const char *, const char *> forkOnly[] = {
      {"TRITON_GLUON_SWP_PIPELINE", "a fork's Gluon software-pipelining switch"},
      {"TRITON_GLUON_COOP_LDS", "a fork's cooperative-LDS switch"},
      {"TRITON_GLUON_PINGPONG", "a fork's Gluon ping-pong switch"},
      {"TRITON_ENABLE_LLIR_SCHED", "a fork's LLVM-IR scheduling switch"},
      {"TRITON_GLUON_SWP", "armed only by a patched compiler that re-injects the pipeliner"},
      {"TRITON_GLUON_SWP_NOPP", "armed only by a patched compiler that re-injects the pipeliner"},
      {"TRITON_GLUON_SWP_BUF", "armed only by a patched compiler that re-injects the pipeliner"},
      {"TRITON_GLUON_ASYNC", "armed only by a patched compiler that re-injects async copies"},
  };
  walkAll(file.module().root, [&](Node *n) {
    if (n->kind != K::Str)
      return;
    for (auto &[name, what] : forkOnly)
      if (n->value == name)
        file.addFileFinding(
            file.finding("fork_only_env_knob", n, "",
                         std::string(name) + " is " + what +
                             ": upstream Triton never reads it, so setting it changes nothing"));
  });
}

} // namespace tilexform::source::detail::rules
