// survey's finding rules, one unit each (src/source/rules/<Rule>.cpp). A
// kernel rule reads one kernel's facts, a launch rule one launch, a file rule
// the whole file; each adds its findings to the kernel record or the file.
#pragma once

#include "SurveyFile.h"

namespace tilexform::source::detail::rules {

// kernel rules
void runtimeIfInDotLoop(FileAnalysis &file, KernelInfo &k, const Scope &scope);
void moduleGlobalInKernel(FileAnalysis &file, KernelInfo &k, const Scope &scope);
void warpSpecializeOnCdna3(FileAnalysis &file, KernelInfo &k);
void wavesPerEuInGluonConfigs(FileAnalysis &file, KernelInfo &k);
void numWarpsSweepInGluonConfigs(FileAnalysis &file, KernelInfo &k);

// launch rules
void autotuneGridIgnoresMeta(FileAnalysis &file, Launch &launch);
void wavesPerEuAtGluonLaunch(FileAnalysis &file, Launch &launch);
void numWarpsSweepAtGluonLaunch(FileAnalysis &file, Launch &launch);
void perTensorLaunchLoop(FileAnalysis &file, Launch &launch);

// file rules
void forkOnlyEnvKnob(FileAnalysis &file);
void schedHintStubImport(FileAnalysis &file);

} // namespace tilexform::source::detail::rules
