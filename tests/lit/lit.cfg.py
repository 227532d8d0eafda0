import os
import lit.formats

config.name = "tilexform"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".test"]
config.test_source_root = os.path.join(config.source_root, "tests", "lit")
config.excludes = ["Inputs"]
config.substitutions.append(("%tilexform", config.tilexform))
config.substitutions.append(("%corpus", os.path.join(config.source_root, "tests", "corpus")))
config.substitutions.append(("%examples", os.path.join(config.source_root, "examples")))
config.substitutions.append(("%tools", os.path.join(config.source_root, "tests", "tools")))
config.substitutions.append(("FileCheck", config.filecheck))
config.substitutions.append(("%count", os.path.join(os.path.dirname(config.filecheck), "count")))
config.environment["PYTHONDONTWRITEBYTECODE"] = "1"
config.substitutions.append(("%closed-stdout", os.path.join(config.source_root, "tests", "tools", "closed-stdout")))
config.substitutions.append(("%expect-exit", os.path.join(config.source_root, "tests", "tools", "expect-exit")))
config.substitutions.append(("%docs", os.path.join(config.source_root, "docs")))
# The system interpreter: Debian's python3-jsonschema lives there.
config.substitutions.append(("%python", "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else "python3"))
config.substitutions.append(("%artifacts", os.path.join(config.source_root, "tests", "artifacts")))
config.substitutions.append(("%survey", os.path.join(config.source_root, "tests", "survey")))
# Sanitizer builds reserve terabytes of address space for shadow memory:
# memory-limit tests (ulimit -v) run only without them.
if not getattr(config, "sanitized", False):
    config.available_features.add("memlimit")
# Bounded time and memory for a command: %bounded (tests/tools/bounded).
config.environment["TILEXFORM_SANITIZED"] = "1" if getattr(config, "sanitized", False) else "0"
config.substitutions.append(("%bounded", os.path.join(config.source_root, "tests", "tools", "bounded")))
if getattr(config, "static_executable", False):
    config.available_features.add("static-executable")
# Headless Chromium for the report tests (Debian's `chromium`). CI installs
# it and must run them: there a missing browser fails the run instead of
# skipping the tests.
import shutil
chromium = shutil.which("chromium")
if chromium:
    config.available_features.add("chromium")
    config.substitutions.append(("%chromium", chromium))
elif os.environ.get("CI") == "true":
    lit_config.fatal("CI runs the report tests in headless Chromium, and chromium is not "
                     "installed (scripts/setup.sh installs it when CI=true)")
