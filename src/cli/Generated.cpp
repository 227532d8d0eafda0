#include "tilexform/cli/Generated.h"

#include "tilexform/Version.h"
#include "tilexform/cli/Output.h"
#include "tilexform/hw/ArchData.h"
#include "tilexform/hw/Products.h"
#include "tilexform/support/InputError.h"
#include "tilexform/support/OutputFile.h"

#include <CLI/CLI.hpp>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

namespace tilexform::cli {

namespace {

/// Text escaped for roff: backslashes, leading dots and quotes, hyphens.
std::string roff(llvm::StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\''))
    out = "\\&" + out;
  return out;
}

/// Whether an option takes a value (a flag takes none).
bool takesValue(const CLI::Option *o) { return o->get_items_expected_max() > 0; }

std::string optionSpelling(const CLI::Option *o) {
  std::vector<std::string> names;
  for (auto &s : o->get_snames())
    names.push_back("\\fB\\-" + roff(s) + "\\fR");
  for (auto &l : o->get_lnames())
    names.push_back("\\fB\\-\\-" + roff(l) + "\\fR");
  std::string out = llvm::join(names, ", ");
  if (takesValue(o) && !o->get_type_name().empty())
    out += " \\fI" + roff(o->get_type_name()) + "\\fR";
  return out;
}

void describeOptions(std::string &out, const CLI::App &app) {
  std::string positionals, options;
  for (const CLI::Option *o : app.get_options()) {
    if (o->get_group().empty())
      continue;
    std::string text = roff(o->get_description());
    if (!o->get_default_str().empty())
      text += " (default: " + roff(o->get_default_str()) + ")";
    if (o->get_positional() && o->get_lnames().empty() && o->get_snames().empty())
      positionals += ".TP\n\\fI" + roff(o->get_name()) + "\\fR\n" + text + "\n";
    else
      options += ".TP\n" + optionSpelling(o) + "\n" + text + "\n";
  }
  if (!positionals.empty())
    out += ".SH ARGUMENTS\n" + positionals;
  if (!options.empty())
    out += ".SH OPTIONS\n" + options;
}

std::string synopsis(const CLI::App &app, const std::string &prefix) {
  std::string out = ".B " + roff(prefix) + "\n[\\fIOPTIONS\\fR]";
  for (const CLI::Option *o : app.get_options())
    if (o->get_positional() && o->get_lnames().empty() && o->get_snames().empty() &&
        !o->get_group().empty())
      out += " " + std::string(o->get_required() ? "" : "[") + "\\fI" + roff(o->get_name()) +
             "\\fR" + (o->get_items_expected_max() > 1 ? "..." : "") +
             (o->get_required() ? "" : "]");
  return out + "\n";
}

const char *kExitStatus = ".SH EXIT STATUS\n"
                          ".TP\n0\nthe command's answer is yes\n"
                          ".TP\n1\nits answer is no (a layout that differs or is unrecoverable, "
                          "verify FAIL, transcribe BLOCKED)\n"
                          ".TP\n2\na gate not passed (FAIL, NOT_RESOLVED, NOT_CLEARED)\n"
                          ".TP\n3\nverify: the modules cannot be compared\n"
                          ".TP\n4\nrecover: layouts disagree with num_warps\n"
                          ".TP\n64\na bad command line\n"
                          ".TP\n65\nbad input, named as FILE:LINE:COL\n"
                          ".TP\n70\nan internal error\n"
                          ".TP\n74\nthe output could not be written\n";

std::string header(const std::string &name, const std::string &summary) {
  std::string upper = llvm::StringRef(name).upper();
  return ".TH " + upper + " 1 \"\" \"tilexform " + kVersion + "\" \"tilexform manual\"\n" +
         ".SH NAME\n" + roff(name) + " \\- " + roff(summary) + "\n";
}

/// One entry of examples/commands.txt (its header states the format).
struct Example {
  std::string command; // the command it runs
  int exitCode = 0;    // the exit its heading states
  std::string what;
  std::string line; // the command line
};

llvm::Expected<std::vector<Example>> readExamples(const std::string &path) {
  std::vector<Example> out;
  if (path.empty())
    return out;
  auto buf = readInputFile(path);
  if (!buf)
    return buf.takeError();
  llvm::SmallVector<llvm::StringRef> lines;
  (*buf)->getBuffer().split(lines, '\n');
  std::optional<Example> heading;
  for (size_t i = 0; i < lines.size(); ++i) {
    llvm::StringRef l = lines[i].rtrim("\r");
    if (l.trim().empty() || l.starts_with("#"))
      continue;
    auto bad = [&](const std::string &why) {
      return llvm::make_error<InputError>(path, unsigned(i + 1), 1, why);
    };
    if (l.starts_with("[")) {
      auto [name, rest] = l.drop_front().split("] ");
      if (name.empty() || rest.empty())
        return bad("expected '[COMMAND] WHAT IT SHOWS'");
      Example e;
      e.command = name.str();
      if (rest.consume_front("exit ")) {
        auto [code, what] = rest.split(": ");
        if (code.getAsInteger(10, e.exitCode) || what.empty())
          return bad("expected '[COMMAND] exit N: WHAT IT SHOWS'");
        rest = what;
      }
      e.what = rest.str();
      heading = e;
      continue;
    }
    if (!heading || !l.starts_with("tilexform " + heading->command + " "))
      return bad("expected a heading, or the command line of the heading above");
    heading->line = l.str();
    out.push_back(*heading);
    heading.reset();
  }
  return out;
}

/// The EXAMPLES section: each example's purpose and its command line.
std::string examplesSection(const std::vector<const Example *> &examples) {
  if (examples.empty())
    return "";
  std::string out = ".SH EXAMPLES\n";
  for (const Example *e : examples) {
    std::string what = roff(e->what);
    if (!what.empty())
      what[0] = char(std::toupper(static_cast<unsigned char>(what[0])));
    out += ".PP\n" + what + (e->exitCode ? " (exit " + std::to_string(e->exitCode) + ")" : "") +
           ":\n.PP\n.RS 4\n.nf\n" + roff(e->line) + "\n.fi\n.RE\n";
  }
  out += ".PP\nThe paths are those of the examples folder of tilexform's source tree, which "
         "the package installs under share/doc/tilexform (/usr/share/doc/tilexform for the "
         "Debian package): run them from the folder above examples.\n";
  return out;
}

std::string commandPage(const CLI::App &root, const CLI::App &cmd,
                        const std::vector<Example> &examples) {
  std::string name = "tilexform-" + cmd.get_name();
  std::string out = header(name, cmd.get_description());
  out += ".SH SYNOPSIS\n";
  auto subs = cmd.get_subcommands({});
  if (subs.empty()) {
    out += synopsis(cmd, "tilexform " + cmd.get_name());
  } else {
    for (const CLI::App *s : subs)
      out += synopsis(*s, "tilexform " + cmd.get_name() + " " + s->get_name()) + ".br\n";
  }
  out += ".SH DESCRIPTION\n" + roff(cmd.get_description()) + ".\n";
  describeOptions(out, cmd);
  for (const CLI::App *s : subs) {
    out += ".SH " + roff(llvm::StringRef(cmd.get_name() + " " + s->get_name()).upper()) + "\n" +
           roff(s->get_description()) + "\n";
    std::string opts;
    describeOptions(opts, *s);
    // Nested: the section headings become subsections.
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef(opts).split(lines, '\n');
    for (auto l : lines)
      if (!l.empty())
        out += (l.starts_with(".SH ") ? ".SS " + l.drop_front(4).str() : l.str()) + "\n";
  }
  out += ".SH GLOBAL OPTIONS\n";
  std::string global;
  describeOptions(global, root);
  out += llvm::StringRef(global).drop_front(strlen(".SH OPTIONS\n")).str();
  std::vector<const Example *> own;
  for (const Example &e : examples)
    if (e.command == cmd.get_name())
      own.push_back(&e);
  out += examplesSection(own);
  out += kExitStatus;
  out += ".SH SEE ALSO\n\\fBtilexform\\fR(1)\n";
  return out;
}

std::string rootPage(const CLI::App &root, const std::vector<Example> &examples) {
  std::string out = header("tilexform", "Triton to Gluon porting toolchain");
  out += ".SH SYNOPSIS\n.B tilexform\n[\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]\n";
  out += ".SH DESCRIPTION\n" + roff(root.get_description()) + ".\n.SH COMMANDS\n";
  std::vector<std::string> seeAlso;
  for (const CLI::App *s : root.get_subcommands({})) {
    out += ".TP\n\\fB" + roff(s->get_name()) + "\\fR\n" + roff(s->get_description()) +
           " (\\fBtilexform\\-" + roff(s->get_name()) + "\\fR(1))\n";
    seeAlso.push_back("\\fBtilexform\\-" + roff(s->get_name()) + "\\fR(1)");
  }
  describeOptions(out, root);
  // The first example of each command.
  std::vector<const Example *> first;
  for (const Example &e : examples)
    if (std::none_of(first.begin(), first.end(),
                     [&](const Example *f) { return f->command == e.command; }))
      first.push_back(&e);
  out += examplesSection(first);
  out += kExitStatus;
  out += ".SH ENVIRONMENT\n.TP\nNO_COLOR\nwhen set and not empty, no colour (unless "
         "\\fB\\-\\-color always\\fR)\n";
  out += ".SH SEE ALSO\n" + llvm::join(seeAlso, ", ") + "\n";
  return out;
}

/// The values an option takes when they are a fixed set: the choices of its
/// check (`--format`: text, json, jsonl) or, for `--arch`, the arch names
/// and GPU names (written without spaces, as `--arch` also reads them).
std::vector<std::string> optionValues(const CLI::Option *o) {
  std::vector<std::string> values;
  auto lnames = o->get_lnames();
  if (std::find(lnames.begin(), lnames.end(), "arch") != lnames.end()) {
    values = hw::knownArchs();
    for (auto &p : hw::products()) {
      std::string name;
      for (char c : p.name)
        if (c != ' ')
          name += c;
      if (std::find(values.begin(), values.end(), name) == values.end())
        values.push_back(name);
    }
    return values;
  }
  std::string typeName = o->get_type_name();
  llvm::StringRef type(typeName);
  size_t open = type.find('{'), close = type.find('}');
  if (open == llvm::StringRef::npos || close == llvm::StringRef::npos || close < open)
    return values;
  llvm::SmallVector<llvm::StringRef> parts;
  type.slice(open + 1, close).split(parts, ',');
  for (auto part : parts)
    values.push_back(part.str());
  return values;
}

/// Every option of `app` and its parents that takes a value.
std::vector<const CLI::Option *> valuedOptions(const CLI::App &app) {
  std::vector<const CLI::Option *> out;
  for (const CLI::App *a = &app; a; a = a->get_parent())
    for (const CLI::Option *o : a->get_options())
      if (takesValue(o) && !o->get_positional())
        out.push_back(o);
  return out;
}

std::vector<std::string> spellingsOf(const CLI::Option *o) {
  std::vector<std::string> out;
  for (auto &l : o->get_lnames())
    out.push_back("--" + l);
  for (auto &s : o->get_snames())
    out.push_back("-" + s);
  return out;
}

void addOnce(std::vector<std::string> &words, const std::string &w) {
  if (std::find(words.begin(), words.end(), w) == words.end())
    words.push_back(w);
}

std::string bash(const CLI::App &root) {
  std::vector<std::string> names, valued;
  std::string cases, valueCases;
  auto valuesOf = [&](const std::string &command, const CLI::App &app) {
    for (const CLI::Option *o : valuedOptions(app)) {
      for (auto &f : spellingsOf(o))
        addOnce(valued, f);
      std::vector<std::string> values = optionValues(o);
      if (values.empty())
        continue;
      std::string key = llvm::join(
          llvm::map_range(spellingsOf(o),
                          [&](const std::string &f) { return "\"" + command + " " + f + "\""; }),
          "|");
      std::string line = "    " + key + ") COMPREPLY=($(compgen -W \"" + llvm::join(values, " ") +
                         "\" -- \"$cur\")); return ;;\n";
      if (valueCases.find(line) == std::string::npos)
        valueCases += line;
    }
  };
  valuesOf("", root);
  for (const CLI::App *s : root.get_subcommands({})) {
    names.push_back(s->get_name());
    std::vector<std::string> words, modes;
    for (auto &f : optionSpellings(*s))
      addOnce(words, f);
    valuesOf(s->get_name(), *s);
    for (const CLI::App *n : s->get_subcommands({})) {
      modes.push_back(n->get_name());
      for (auto &f : optionSpellings(*n))
        addOnce(words, f);
      valuesOf(s->get_name(), *n);
    }
    cases += "    " + s->get_name() + ") opts=\"" + llvm::join(words, " ") + "\"; modes=\"" +
             llvm::join(modes, " ") + "\" ;;\n";
  }
  std::vector<std::string> rootWords = names;
  rootWords.push_back("help");
  for (auto &f : optionSpellings(root))
    addOnce(rootWords, f);
  return "# bash completion for tilexform (generated from its command line)\n"
         "_tilexform() {\n"
         "  local cur prev cmd mode opts modes i\n"
         "  cur=\"${COMP_WORDS[COMP_CWORD]}\"\n"
         "  prev=\"\"\n"
         "  [ \"$COMP_CWORD\" -gt 0 ] && prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
         "  local valued=\" " +
         llvm::join(valued, " ") +
         " \"\n"
         "  cmd=\"\"\n"
         "  mode=\"\"\n"
         "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
         "    case \"${COMP_WORDS[i]}\" in\n"
         "      -*) [[ \"$valued\" == *\" ${COMP_WORDS[i]} \"* ]] && ((i++)) ;;\n"
         "      *) if [ -z \"$cmd\" ]; then cmd=\"${COMP_WORDS[i]}\";\n"
         "         elif [ -z \"$mode\" ]; then mode=\"${COMP_WORDS[i]}\"; fi ;;\n"
         "    esac\n"
         "  done\n"
         "  # The value of an option with a fixed set of values.\n"
         "  case \"$cmd $prev\" in\n" +
         valueCases +
         "  esac\n"
         "  if [[ \"$valued\" == *\" $prev \"* ]]; then\n"
         "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
         "    return\n"
         "  fi\n"
         "  if [ -z \"$cmd\" ]; then\n"
         "    COMPREPLY=($(compgen -W \"" +
         llvm::join(rootWords, " ") +
         "\" -- \"$cur\"))\n"
         "    return\n"
         "  fi\n"
         "  if [ \"$cmd\" = help ]; then\n"
         "    [ -z \"$mode\" ] && COMPREPLY=($(compgen -W \"" +
         llvm::join(names, " ") +
         " dumps\" -- \"$cur\"))\n"
         "    return\n"
         "  fi\n"
         "  case \"$cmd\" in\n" +
         cases +
         "    *) opts=\"\"; modes=\"\" ;;\n"
         "  esac\n"
         "  if [[ \"$cur\" == -* ]]; then\n"
         "    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
         "  elif [ -n \"$modes\" ] && [ -z \"$mode\" ]; then\n"
         "    COMPREPLY=($(compgen -W \"$modes\" -- \"$cur\"))\n"
         "  else\n"
         "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
         "  fi\n"
         "}\n"
         "complete -o filenames -F _tilexform tilexform\n";
}

std::string zshQuote(llvm::StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '\'')
      out += "'\\''";
    else if (c == '[' || c == ']' || c == ':')
      out += std::string("\\") + c;
    else
      out += c;
  }
  return out;
}

std::string zshArgs(const CLI::App &app) {
  std::string out;
  for (const CLI::Option *o : app.get_options()) {
    if (o->get_group().empty() || (o->get_lnames().empty() && o->get_snames().empty()))
      continue;
    std::string value;
    if (takesValue(o)) {
      std::vector<std::string> values = optionValues(o);
      value = ":" + zshQuote(o->get_type_name()) + ":" +
              (values.empty() ? "_files" : "(" + llvm::join(values, " ") + ")");
    }
    for (auto &l : o->get_lnames())
      out += "    '--" + l + "[" + zshQuote(o->get_description()) + "]" + value + "' \\\n";
    for (auto &s : o->get_snames())
      out += "    '-" + s + "[" + zshQuote(o->get_description()) + "]" + value + "' \\\n";
  }
  return out;
}

std::string zsh(const CLI::App &root) {
  std::string commands, cases;
  for (const CLI::App *s : root.get_subcommands({})) {
    commands += "    '" + s->get_name() + ":" + zshQuote(s->get_description()) + "'\n";
    cases += "    " + s->get_name() + ")\n      _arguments \\\n" + zshArgs(*s);
    for (const CLI::App *n : s->get_subcommands({}))
      cases += "    '" + n->get_name() + "' \\\n" + zshArgs(*n);
    cases += "    '*:file:_files' ;;\n";
  }
  return "#compdef tilexform\n# zsh completion for tilexform (generated from its command line)\n"
         "_tilexform() {\n"
         "  local -a commands\n"
         "  commands=(\n" +
         commands +
         "  )\n"
         "  if (( CURRENT == 2 )); then\n"
         "    _describe 'command' commands\n"
         "    return\n"
         "  fi\n"
         "  case \"$words[2]\" in\n" +
         cases +
         "  esac\n"
         "}\n"
         "_tilexform \"$@\"\n";
}

} // namespace

std::vector<std::string> optionSpellings(const CLI::App &app) {
  std::vector<std::string> flags;
  for (const CLI::App *a = &app; a; a = a->get_parent())
    for (const CLI::Option *o : a->get_options()) {
      for (auto &l : o->get_lnames())
        flags.push_back("--" + l);
      for (auto &s : o->get_snames())
        flags.push_back("-" + s);
    }
  return flags;
}

int writeManPages(const CLI::App &root, const std::string &dir, const std::string &examplesFile) {
  auto examples = readExamples(examplesFile);
  if (!examples)
    return reportError(examples.takeError());
  for (const Example &e : *examples)
    if (std::none_of(root.get_subcommands({}).begin(), root.get_subcommands({}).end(),
                     [&](const CLI::App *s) { return s->get_name() == e.command; }))
      return reportError(examplesFile + ": an example of '" + e.command + "', which is no command",
                         kExitInput);
  if (auto ec = llvm::sys::fs::create_directories(dir))
    return reportError(dir + ": cannot create the directory: " + ec.message(), kExitIO);
  auto write = [&](const std::string &name, const std::string &text) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, name);
    return writeOutFile(std::string(path), text, true);
  };
  if (int c = write("tilexform.1", rootPage(root, *examples)))
    return c;
  for (const CLI::App *s : root.get_subcommands({}))
    if (int c = write("tilexform-" + s->get_name() + ".1", commandPage(root, *s, *examples)))
      return c;
  return kExitOk;
}

std::string completionScript(const CLI::App &root, const std::string &shell) {
  if (shell == "bash")
    return bash(root);
  if (shell == "zsh")
    return zsh(root);
  return "";
}

} // namespace tilexform::cli
