#include "tilexform/cli/Generated.h"

#include "tilexform/Version.h"
#include "tilexform/cli/Output.h"
#include "tilexform/support/OutputFile.h"

#include <CLI/CLI.hpp>
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

std::string optionSpelling(const CLI::Option *o) {
  std::vector<std::string> names;
  for (auto &s : o->get_snames())
    names.push_back("\\fB\\-" + roff(s) + "\\fR");
  for (auto &l : o->get_lnames())
    names.push_back("\\fB\\-\\-" + roff(l) + "\\fR");
  std::string out = llvm::join(names, ", ");
  if (o->get_type_size() != 0 && !o->get_type_name().empty())
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

std::string commandPage(const CLI::App &root, const CLI::App &cmd) {
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
  out += kExitStatus;
  out += ".SH SEE ALSO\n\\fBtilexform\\fR(1)\n";
  return out;
}

std::string rootPage(const CLI::App &root) {
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
  out += kExitStatus;
  out += ".SH ENVIRONMENT\n.TP\nNO_COLOR\nwhen set and not empty, no colour (unless "
         "\\fB\\-\\-color always\\fR)\n";
  out += ".SH SEE ALSO\n" + llvm::join(seeAlso, ", ") + "\n";
  return out;
}

std::string bash(const CLI::App &root) {
  std::vector<std::string> names;
  std::string cases;
  for (const CLI::App *s : root.get_subcommands({})) {
    names.push_back(s->get_name());
    std::vector<std::string> words = optionSpellings(*s);
    for (const CLI::App *n : s->get_subcommands({})) {
      words.push_back(n->get_name());
      for (auto &f : optionSpellings(*n))
        if (std::find(words.begin(), words.end(), f) == words.end())
          words.push_back(f);
    }
    cases += "    " + s->get_name() + ") opts=\"" + llvm::join(words, " ") + "\" ;;\n";
  }
  return "# bash completion for tilexform (generated from its command line)\n"
         "_tilexform() {\n"
         "  local cur cmd opts i\n"
         "  cur=\"${COMP_WORDS[COMP_CWORD]}\"\n"
         "  cmd=\"\"\n"
         "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
         "    case \"${COMP_WORDS[i]}\" in -*) ;; *) cmd=\"${COMP_WORDS[i]}\"; break ;; esac\n"
         "  done\n"
         "  if [ -z \"$cmd\" ]; then\n"
         "    COMPREPLY=($(compgen -W \"" +
         llvm::join(names, " ") + " help " + llvm::join(optionSpellings(root), " ") +
         "\" -- \"$cur\"))\n"
         "    return\n"
         "  fi\n"
         "  case \"$cmd\" in\n" +
         cases +
         "    *) opts=\"\" ;;\n"
         "  esac\n"
         "  if [[ \"$cur\" == -* ]]; then\n"
         "    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
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
    std::string value =
        o->get_type_size() != 0 ? ":" + zshQuote(o->get_type_name()) + ":_files" : "";
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

int writeManPages(const CLI::App &root, const std::string &dir) {
  if (auto ec = llvm::sys::fs::create_directories(dir))
    return reportError(dir + ": cannot create the directory: " + ec.message(), kExitIO);
  auto write = [&](const std::string &name, const std::string &text) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, name);
    return writeOutFile(std::string(path), text, true);
  };
  if (int c = write("tilexform.1", rootPage(root)))
    return c;
  for (const CLI::App *s : root.get_subcommands({}))
    if (int c = write("tilexform-" + s->get_name() + ".1", commandPage(root, *s)))
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
