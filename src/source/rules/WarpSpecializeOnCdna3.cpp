// warp_specialize_on_cdna3: warp specialization has no CDNA3 (gfx942)
// lowering, so a kernel of a file that targets CDNA3 cannot use it.
#include "../SurveyRules.h"

namespace tilexform::source::detail::rules {

void warpSpecializeOnCdna3(FileAnalysis &file, KernelInfo &k) {
  if (!file.imports().targetsCdna3)
    return;
  walkBody(k.def->body, [&](Node *n) {
    if (n->kind == K::Call &&
        lastComponent(file.imports().resolve(n->kids[0])) == "warp_specialize")
      k.record.findings.push_back(
          file.finding("warp_specialize_on_cdna3", n, k.record.name,
                       "warp_specialize in a kernel for CDNA3 (gfx942): warp specialization has "
                       "no CDNA3 lowering; keep the single-partition schedule"));
  });
}

} // namespace tilexform::source::detail::rules
