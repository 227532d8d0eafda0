// The champion gate: the plain champion bundle is what was timed.
#include "tilexform/gate/Gates.h"
#include "tilexform/ir/Module.h"
#include "tilexform/support/InputError.h"
#include "tilexform/support/Json.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA256.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace tilexform::gate {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

std::string sha256Hex(llvm::StringRef bytes) {
  auto digest = llvm::SHA256::hash(llvm::arrayRefFromStringRef(bytes));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

// A path in the bundle: absolute, or relative to the bundle's directory.
std::string resolvePath(const fs::path &bundleDir, const std::string &p) {
  fs::path q(p);
  return (q.is_absolute() ? q : bundleDir / q).lexically_normal().string();
}

// The tile constexprs a dump shows: M and N of the dot result, K of its
// A operand (the first dot of the module).
struct DotTile {
  int64_t m = 0, n = 0, k = 0;
};

std::optional<DotTile> dotTile(const ir::Module &mod) {
  std::optional<DotTile> tile;
  mod.walk([&](ir::Operation *op) {
    if (tile || !op->schema || !op->schema->is(ir::OpFlagDot) || op->results.empty() ||
        op->operands.empty())
      return;
    auto d = ir::layoutShapeOf(op->results[0]->type);
    auto a = ir::layoutShapeOf(op->operands[0]->type);
    if (op->results[0]->type == nullptr || d.size() < 2 || a.size() < 2)
      return;
    tile = DotTile{d[d.size() - 2], d[d.size() - 1], a[a.size() - 1]};
  });
  return tile;
}

} // namespace

llvm::Expected<ChampionReport> checkChampion(const std::string &bundlePath, unsigned minSamples) {
  auto parsed = readJsonFile(bundlePath);
  if (!parsed)
    return parsed.takeError();
  Json b = std::move(*parsed);
  if (!b.is_object())
    return llvm::make_error<InputError>(
        bundlePath, 0, 0, std::string(jsonKind(b)) + ", not a champion bundle (a JSON object)");
  fs::path dir = fs::path(bundlePath).parent_path();
  ChampionReport rep;
  auto add = [&](std::string name, CheckStatus s, std::string msg) {
    rep.checks.push_back({std::move(name), s, std::move(msg)});
  };
  auto str = [&](const Json &j, const char *key) -> std::string {
    return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
  };
  rep.kernel = str(b, "kernel");

  // SCHEMA: the fields every later check reads, each of its type
  // (docs/schema/champion.schema.json); a field of the wrong type is as
  // unreadable as a missing one.
  std::vector<std::string> missing, mistyped;
  auto expect = [&](const Json &obj, const std::string &where, const char *key, bool ok,
                    const char *type) {
    if (!obj.contains(key))
      missing.push_back(where + key);
    else if (!ok)
      mistyped.push_back(fmt::format("{}{} is {}, not {}", where, key, jsonKind(obj[key]), type));
  };
  auto has = [&](const Json &obj, const char *key, auto pred) {
    return obj.contains(key) && pred(obj[key]);
  };
  expect(b, "", "kernel", has(b, "kernel", [](const Json &j) { return j.is_string(); }),
         "a string");
  for (const char *k : {"source", "live"})
    expect(b, "", k, has(b, k, [](const Json &j) { return j.is_object(); }),
           "an object {path, sha256}");
  expect(b, "", "config",
         has(b, "config", [](const Json &j) { return j.is_object() || j.is_string(); }),
         "an object or a sidecar path");
  expect(b, "", "ttgir", has(b, "ttgir", [](const Json &j) { return j.is_string(); }), "a path");
  expect(b, "", "time_ms", has(b, "time_ms", [](const Json &j) { return j.is_number(); }),
         "a number");
  expect(b, "", "samples_ms", has(b, "samples_ms", [](const Json &j) { return j.is_array(); }),
         "a list of numbers");
  // SOURCE and LIVE: each file exists and still hashes to what was timed.
  for (auto [key, name] : {std::pair{"source", "SOURCE"}, std::pair{"live", "LIVE"}}) {
    if (!b.contains(key))
      continue;
    std::string path = str(b[key], "path"), want = llvm::StringRef(str(b[key], "sha256")).lower();
    if (path.empty() || want.empty()) {
      add(name, CheckStatus::Fail, std::string("\"") + key + "\" needs \"path\" and \"sha256\"");
      continue;
    }
    std::string full = resolvePath(dir, path);
    auto file = readInputFile(full);
    if (!file) {
      add(name, CheckStatus::Fail, path + ": " + errorLine(file.takeError()));
      continue;
    }
    std::string got = sha256Hex((*file)->getBuffer());
    if (got != want)
      add(name, CheckStatus::Fail,
          fmt::format("{}: sha256 {} but the bundle records {} (changed since it was timed)", path,
                      got, want));
    else
      add(name, CheckStatus::Pass, path + ": sha256 matches");
  }

  // CONFIG: inline, or a sidecar file.
  Json config;
  if (b.contains("config")) {
    if (b["config"].is_string()) {
      std::string side = resolvePath(dir, b["config"].get<std::string>());
      auto f = readInputFile(side);
      if (f) {
        auto sidecar = parseJson((*f)->getBuffer(), side);
        if (!sidecar) {
          add("CONFIG", CheckStatus::Fail, errorLine(sidecar.takeError()));
        } else if (!sidecar->is_object()) {
          add("CONFIG", CheckStatus::Fail, b["config"].get<std::string>() + ": not a JSON object");
        } else {
          config = std::move(*sidecar);
        }
      } else {
        add("CONFIG", CheckStatus::Fail, errorLine(f.takeError()));
      }
    } else if (b["config"].is_object()) {
      config = b["config"];
    } else {
      add("CONFIG", CheckStatus::Fail, "\"config\" must be an object or a sidecar path");
    }
  }
  if (config.is_object()) {
    for (const char *k : {"num_warps", "num_stages"})
      expect(config, "config.", k,
             has(config, k, [](const Json &j) { return j.is_number_integer(); }), "an integer");
    expect(config, "config.", "constexprs",
           has(config, "constexprs", [](const Json &j) { return j.is_object(); }),
           "an object {NAME: value}");
  }
  if (!missing.empty() || !mistyped.empty()) {
    std::vector<std::string> parts;
    if (!missing.empty())
      parts.push_back("missing " + llvm::join(missing, ", "));
    parts.insert(parts.end(), mistyped.begin(), mistyped.end());
    rep.checks.insert(rep.checks.begin(), {"SCHEMA", CheckStatus::Fail, llvm::join(parts, "; ")});
  } else {
    rep.checks.insert(rep.checks.begin(), {"SCHEMA", CheckStatus::Pass, "every field present"});
  }
  auto configInt = [&](const char *key) -> std::optional<int64_t> {
    if (config.is_object() && config.contains(key) && config[key].is_number_integer())
      return config[key].get<int64_t>();
    return std::nullopt;
  };

  // TTGIR: the dump the champion was compiled to agrees with the config.
  std::string ttgir = str(b, "ttgir");
  if (!ttgir.empty()) {
    std::string full = resolvePath(dir, ttgir);
    auto mod = ir::loadModuleFile(full);
    if (!mod) {
      add("TTGIR", CheckStatus::Fail, errorLine(mod.takeError()));
    } else {
      // The dump is the champion's: it defines the bundle's kernel.
      std::vector<std::string> functions;
      (*mod)->walk([&](ir::Operation *op) {
        if (op->name == "tt.func" && llvm::StringRef(op->symbol).starts_with("@"))
          functions.push_back(op->symbol.substr(1));
      });
      if (rep.kernel.empty())
        add("TTGIR", CheckStatus::Fail, ttgir + " loads, but the bundle names no kernel");
      else if (std::find(functions.begin(), functions.end(), rep.kernel) == functions.end())
        add("TTGIR", CheckStatus::Fail,
            fmt::format("{} is not the dump of {}: it defines {}", ttgir, rep.kernel,
                        functions.empty() ? std::string("no tt.func")
                                          : llvm::join(functions, ", ")));
      else
        add("TTGIR", CheckStatus::Pass, ttgir + " loads and defines " + rep.kernel);
      auto warps = configInt("num_warps");
      auto dumpWarps = (*mod)->facts.numWarps;
      if (!warps)
        add("NUM_WARPS", CheckStatus::Fail, "the config names no num_warps");
      else if (!dumpWarps)
        add("NUM_WARPS", CheckStatus::Unverified, "the dump records no ttg.num-warps");
      else if (*warps != *dumpWarps)
        add("NUM_WARPS", CheckStatus::Fail,
            fmt::format("config num_warps = {}, the dump runs {}", *warps, *dumpWarps));
      else
        add("NUM_WARPS", CheckStatus::Pass, fmt::format("{} in the config and the dump", *warps));

      // num_stages: Triton's metadata beside the dump, else the loops.
      auto stages = configInt("num_stages");
      std::optional<int64_t> dumpStages;
      std::string from;
      fs::path meta = fs::path(full).replace_extension(".json");
      std::optional<std::string> metaError;
      std::error_code ec;
      // Any file of that name is read (a FIFO or a directory is refused by
      // readInputFile): a sidecar that cannot be read is a failed check, not
      // a silent fallback.
      if (fs::symlink_status(meta, ec).type() != fs::file_type::not_found && !ec) {
        auto m = readJsonFile(meta.string());
        if (!m)
          metaError = errorLine(m.takeError());
        else if (!m->is_object())
          metaError = meta.filename().string() + ": not a JSON object (Triton's metadata is one)";
        else if (m->contains("num_stages") && !(*m)["num_stages"].is_number_integer())
          metaError = meta.filename().string() + ": num_stages is not an integer";
        else if (m->contains("num_stages")) {
          dumpStages = (*m)["num_stages"].get<int64_t>();
          from = meta.filename().string();
        }
      }
      if (!dumpStages)
        (*mod)->walk([&](ir::Operation *op) {
          if (auto s = op->intAttr("tt.num_stages"); s && !dumpStages) {
            dumpStages = s;
            from = "tt.num_stages on a loop";
          }
        });
      if (metaError)
        add("NUM_STAGES", CheckStatus::Fail, "Triton's metadata beside the dump: " + *metaError);
      else if (!stages)
        add("NUM_STAGES", CheckStatus::Fail, "the config names no num_stages");
      else if (!dumpStages)
        add("NUM_STAGES", CheckStatus::Unverified,
            "neither Triton's metadata beside the dump nor a loop records num_stages");
      else if (*stages != *dumpStages)
        add("NUM_STAGES", CheckStatus::Fail,
            fmt::format("config num_stages = {}, the dump's is {} ({})", *stages, *dumpStages,
                        from));
      else
        add("NUM_STAGES", CheckStatus::Pass, fmt::format("{} ({})", *stages, from));

      // Tile constexprs against the dot the dump computes.
      if (config.is_object() && config.contains("constexprs") && config["constexprs"].is_object()) {
        auto tile = dotTile(**mod);
        for (auto &[name, value] : config["constexprs"].items()) {
          std::string check = "CONSTEXPR " + name;
          if (!value.is_number_integer()) {
            add(check, CheckStatus::Unverified, "not an integer");
            continue;
          }
          int64_t v = value.get<int64_t>();
          std::optional<int64_t> seen;
          llvm::StringRef n(name);
          if (tile && (n == "BLOCK_M" || n == "BLOCK_SIZE_M"))
            seen = tile->m;
          else if (tile && (n == "BLOCK_N" || n == "BLOCK_SIZE_N"))
            seen = tile->n;
          else if (tile && (n == "BLOCK_K" || n == "BLOCK_SIZE_K"))
            seen = tile->k;
          if (!seen)
            add(check, CheckStatus::Unverified,
                fmt::format("{} = {}: not visible in the dump", name, v));
          else if (*seen != v)
            add(check, CheckStatus::Fail,
                fmt::format("config {} = {}, the dump's dot tile has {}", name, v, *seen));
          else
            add(check, CheckStatus::Pass, fmt::format("{} = {} (the dump's dot tile)", name, v));
        }
      }
    }
  }

  // SAMPLES and TIME: the measurement is real and the time is the samples'.
  std::vector<double> samples;
  bool samplesOk = b.contains("samples_ms") && b["samples_ms"].is_array();
  if (b.contains("samples_ms") && !samplesOk)
    add("SAMPLES", CheckStatus::Fail,
        fmt::format("samples_ms is {}: expected a list of times in ms", jsonKind(b["samples_ms"])));
  if (samplesOk)
    for (auto &s : b["samples_ms"]) {
      double x = s.is_number() ? s.get<double>() : NAN;
      if (!std::isfinite(x) || x <= 0) {
        add("SAMPLES", CheckStatus::Fail,
            fmt::format("sample {} is {}: every sample must be a finite time above 0",
                        samples.size(), s.dump()));
        samplesOk = false;
        break;
      }
      samples.push_back(x);
    }
  if (samplesOk && samples.size() < minSamples)
    add("SAMPLES", CheckStatus::Fail,
        fmt::format("{} samples; at least {} are needed (--min-samples)", samples.size(),
                    minSamples));
  else if (samplesOk && samples.empty())
    add("SAMPLES", CheckStatus::Fail, "no samples: the time cannot be checked");
  else if (samplesOk)
    add("SAMPLES", CheckStatus::Pass, fmt::format("{} finite positive samples", samples.size()));
  if (b.contains("time_ms")) {
    double t = b["time_ms"].is_number() ? b["time_ms"].get<double>() : NAN;
    if (!std::isfinite(t) || t <= 0) {
      add("TIME", CheckStatus::Fail, "time_ms must be a finite time above 0");
    } else if (!samplesOk || samples.empty()) {
      // A time is verified against its samples or not at all.
      add("TIME", CheckStatus::Fail,
          fmt::format("time_ms {:.6g}: no valid samples to check it against", t));
    } else {
      std::vector<double> s = samples;
      std::sort(s.begin(), s.end());
      double med = s.size() % 2 ? s[s.size() / 2] : (s[s.size() / 2 - 1] + s[s.size() / 2]) / 2;
      double mean = 0;
      for (double x : s)
        mean += x / double(s.size());
      bool close = std::fabs(t - med) <= 0.01 * med || std::fabs(t - mean) <= 0.01 * mean;
      add("TIME", close ? CheckStatus::Pass : CheckStatus::Fail,
          fmt::format("time_ms {:.6g} vs the samples' median {:.6g} and mean {:.6g}{}", t, med,
                      mean, close ? "" : ": not the time these samples measured"));
    }
  }
  bool failed = std::any_of(rep.checks.begin(), rep.checks.end(),
                            [](const Check &c) { return c.status == CheckStatus::Fail; });
  rep.verdict = failed ? Verdict::Fail : Verdict::Pass;
  return rep;
}

} // namespace tilexform::gate
