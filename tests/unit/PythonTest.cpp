// The Python parser: tree shapes for the forms survey relies on, the rest of
// the grammar accepted, and syntax errors with their positions.
#include "TestUtil.h"

#include "tilexform/source/Python.h"
#include "tilexform/source/Survey.h"
#include "tilexform/support/InputError.h"

namespace tilexform::test {
namespace {

using source::Node;
using source::NodeKind;

std::unique_ptr<source::PyModule> parse(const std::string &text) {
  auto m = source::parsePython(text, "t.py");
  if (!m) {
    ADD_FAILURE() << llvm::toString(m.takeError()) << "\n" << text;
    return nullptr;
  }
  return std::move(*m);
}

std::string errorOf(const std::string &text) {
  auto m = source::parsePython(text, "t.py");
  if (m)
    return "parsed";
  return errorLine(m.takeError());
}

TEST(PythonParser, KernelShape) {
  auto m = parse("import triton.language as tl\n"
                 "@triton.jit\n"
                 "def k(x, n, BLOCK: tl.constexpr = 128, *args, **kw) -> None:\n"
                 "    for i in tl.range(0, n, BLOCK, num_stages=3):\n"
                 "        acc = tl.dot(a, b, acc)\n");
  ASSERT_TRUE(m);
  auto &body = m->root->body;
  ASSERT_EQ(body.size(), 2u);
  Node *def = body[1];
  EXPECT_EQ(def->kind, NodeKind::FunctionDef);
  EXPECT_EQ(def->text, "k");
  EXPECT_EQ(def->line, 3u); // the def line, not the decorator's
  ASSERT_EQ(def->decorators.size(), 1u);
  EXPECT_EQ(source::dottedName(def->decorators[0]), "triton.jit");
  ASSERT_EQ(def->params.size(), 5u);
  EXPECT_EQ(def->params[2]->text, "BLOCK");
  EXPECT_EQ(source::dottedName(def->params[2]->kids[0]), "tl.constexpr");
  EXPECT_EQ(def->params[2]->kids[1]->text, "128");
  EXPECT_EQ(def->params[3]->alias, "*");
  EXPECT_EQ(def->params[4]->alias, "**");
  Node *loop = def->body[0];
  ASSERT_EQ(loop->kind, NodeKind::For);
  EXPECT_EQ(loop->line, 4u);
  EXPECT_EQ(loop->col, 5u);
  Node *iter = loop->kids[1];
  ASSERT_EQ(iter->kind, NodeKind::Call);
  EXPECT_EQ(source::dottedName(iter->kids[0]), "tl.range");
  Node *kw = iter->kids.back();
  ASSERT_EQ(kw->kind, NodeKind::Keyword);
  EXPECT_EQ(kw->text, "num_stages");
  EXPECT_EQ(kw->kids[0]->text, "3");
  Node *assign = loop->body[0];
  ASSERT_EQ(assign->kind, NodeKind::Assign);
  EXPECT_EQ(assign->kids[1]->kind, NodeKind::Call);
}

TEST(PythonParser, PrecedenceAndLaunches) {
  auto m = parse("grid = lambda META: (triton.cdiv(M, META['BLOCK_M']), )\n"
                 "kernel[grid](x, y, n=-a ** 2 + b * c if d else e, num_warps=4)\n"
                 "z = not a == b and c or d\n");
  ASSERT_TRUE(m);
  Node *lambda = m->root->body[0]->kids[1];
  ASSERT_EQ(lambda->kind, NodeKind::Lambda);
  EXPECT_EQ(lambda->params[0]->text, "META");
  EXPECT_EQ(lambda->kids[0]->kind, NodeKind::Tuple);
  Node *launch = m->root->body[1]->kids[0];
  ASSERT_EQ(launch->kind, NodeKind::Call);
  ASSERT_EQ(launch->kids[0]->kind, NodeKind::Subscript);
  Node *n = launch->kids[3]->kids[0];
  ASSERT_EQ(n->kind, NodeKind::IfExp);
  Node *sum = n->kids[0];
  ASSERT_EQ(sum->kind, NodeKind::BinOp);
  EXPECT_EQ(sum->text, "+");
  EXPECT_EQ(sum->kids[0]->kind, NodeKind::UnaryOp); // -(a ** 2)
  EXPECT_EQ(sum->kids[0]->kids[0]->text, "**");
  EXPECT_EQ(sum->kids[1]->text, "*");
  Node *z = m->root->body[2]->kids[1];
  ASSERT_EQ(z->kind, NodeKind::BoolOp);
  EXPECT_EQ(z->text, "or");
  EXPECT_EQ(z->kids[0]->text, "and");
  EXPECT_EQ(z->kids[0]->kids[0]->text, "not");
}

TEST(PythonParser, WholeGrammarIsAccepted) {
  const char *src = R"PY(
from __future__ import annotations
from . import sibling
from ..pkg import (a as b,
                   c,)
import os, sys as system
x: int = 1_000 + 0x1F + 1e-5 + 2j + .5 + 3.
y = [i * 2 for i in range(10) if i % 2 if i > 2]
s = {k: v for k, v in d.items()}
g = (t for t in s)
st = {1, 2, *rest}
dd = {**base, "k": 1}
a, *b = c
a = b = c
a += 1; b <<= 2; c //= 3
x[1:2, ::3, ...] = y[:, None]
f"{x!r:>{width}} {'nested'} {"same quotes"}" rb"\d" r'\'' u"x" """tri
ple""" '''other'''
print(f'{a["k"]}', end="")
if (n := len(x)) > 3:
    pass
elif x:
    ...
else:
    raise ValueError("bad") from None
while True:
    break
else:
    continue_ = 1
try:
    pass
except* (A, B) as e:
    pass
except C:
    pass
else:
    pass
finally:
    pass
with open(p) as f, open(q) as (g, h):
    pass
with (
    open(p) as f,
    open(q) as g,
):
    pass
async def co():
    async with lock:
        await thing()
    async for i in aiter():
        yield i
    yield from other()
    return [await z async for z in q]
class C(Base, metaclass=Meta):
    "doc"
    attr: list[int] = []
    def m(self, /, a, *, b=2):
        global G
        nonlocal_ = 0
        del self.x, y[0]
        assert a, "msg"
        return lambda *a, **k: (a, k)
@decorator.with_args(1)(2)
def decorated(): pass
match command.split():
    case [action]:
        pass
    case [action, obj] if obj:
        pass
    case Point(x=0, y=0) | {"k": 1, **rest}:
        pass
    case (1 | 2 as n) as m:
        pass
    case _:
        pass
match = 1
match(x)
type Alias = list[int]
x = 1 if a else 2 if b else 3
cond = a < b <= c != d is not e not in f
print(*args, **kwargs)
lst[-1]
t = 1,
)PY";
  auto m = parse(src);
  ASSERT_TRUE(m);
  EXPECT_GT(m->root->body.size(), 30u);
}

TEST(PythonParser, LineJoiningAndIndentation) {
  auto m = parse("def f(a,\n      b):\n\tif a and \\\n\t   b:\n\t\treturn [\n  1,\n# comment\n"
                 "  2]\n\n    \n\treturn 0\r\n");
  ASSERT_TRUE(m);
  Node *f = m->root->body[0];
  ASSERT_EQ(f->body.size(), 2u);
  EXPECT_EQ(f->body[1]->kind, NodeKind::Return);
  EXPECT_EQ(f->body[1]->line, 11u);
}

TEST(PythonParser, SyntaxErrorsNamePosition) {
  EXPECT_EQ(errorOf("def f(:):\n    pass\n"), "t.py:1:7: error: syntax error: expected a name, "
                                              "found ':'");
  EXPECT_EQ(errorOf("def f(:\n    pass\n"), "t.py:1:6: error: syntax error: '(' was never closed");
  EXPECT_EQ(errorOf("x = (1,\ny = 2\n"), "t.py:1:5: error: syntax error: '(' was never closed");
  EXPECT_EQ(errorOf("x = 1)\n"), "t.py:1:6: error: syntax error: unmatched ')'");
  EXPECT_EQ(errorOf("if x:\npass\n"), "t.py:2:1: error: syntax error: expected an indented block");
  EXPECT_EQ(errorOf("if x:\n    a\n  b\n"),
            "t.py:3:3: error: syntax error: unindent does not match any outer indentation level");
  EXPECT_EQ(errorOf("s = 'abc\n"), "t.py:1:5: error: syntax error: unterminated string");
  EXPECT_EQ(errorOf("a = $\n"), "t.py:1:5: error: syntax error: invalid character '$'");
  EXPECT_EQ(errorOf("x = lambda\n"),
            "t.py:1:11: error: syntax error: expected ':', found end of line");
  EXPECT_EQ(errorOf("def = 3\n"), "t.py:1:5: error: syntax error: expected a name, found '='");
  EXPECT_EQ(errorOf("try:\n    pass\nx = 1\n"),
            "t.py:3:1: error: syntax error: expected 'except' or 'finally' block");
}

TEST(PythonParser, DeepNestingIsAnErrorNotACrash) {
  std::string deep = "x = " + std::string(5000, '(') + "1" + std::string(5000, ')') + "\n";
  EXPECT_NE(errorOf(deep).find("nesting too deep"), std::string::npos);
  std::string minus = "x = " + std::string(5000, '-') + "1\n";
  EXPECT_NE(errorOf(minus).find("nesting too deep"), std::string::npos);
}

TEST(PythonParser, LongButFlatInputsParse) {
  std::string table = "T = [";
  for (int i = 0; i < 100000; ++i)
    table += std::to_string(i) + ", ";
  table += "]\n";
  EXPECT_TRUE(parse(table));
  std::string elifs = "if x == 0:\n    pass\n";
  for (int i = 1; i < 3000; ++i)
    elifs += "elif x == " + std::to_string(i) + ":\n    pass\n";
  auto m = parse(elifs + "else:\n    pass\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->root->body.size(), 1u);
  // Chains that would nest the tree beyond any stack are refused.
  std::string sum = "x = 1";
  for (int i = 0; i < 30000; ++i)
    sum += " + 1";
  EXPECT_NE(errorOf(sum + "\n").find("expression too long"), std::string::npos);
  std::string calls = "x = f";
  for (int i = 0; i < 30000; ++i)
    calls += "()";
  EXPECT_NE(errorOf(calls + "\n").find("expression too long"), std::string::npos);
}

TEST(Survey, DeepTreesAreWalkedWithoutRecursion) {
  // 4,000 operators make a tree 4,000 deep; every analysis walks it.
  std::string chain = "k";
  for (int i = 0; i < 4000; ++i)
    chain += " + k";
  std::string attrs = "x";
  for (int i = 0; i < 4000; ++i)
    attrs += ".a";
  std::string src = "import triton\nimport triton.language as tl\nG = 1\n@triton.jit\n"
                    "def f(x, K: tl.constexpr):\n    for k in range(0, K):\n"
                    "        if " +
                    chain + " > G:\n            y = tl.load(" + attrs +
                    ")\n        acc = tl.dot(y, x)\n    return " + chain + "\n";
  auto r = source::surveySource(src, "deep.py");
  ASSERT_TRUE(static_cast<bool>(r)) << llvm::toString(r.takeError());
  ASSERT_EQ(r->kernels.size(), 1u);
  EXPECT_EQ(r->kernels[0].loops.size(), 1u);
  EXPECT_EQ(r->kernels[0].findings.size(), 2u); // the runtime if, the global G
}

TEST(PythonParser, TruncatedInputsNeverCrash) {
  std::string src = "import triton\nimport triton.language as tl\n@triton.jit\n"
                    "def k(x, BLOCK: tl.constexpr):\n    for i in tl.range(0, 4, num_stages=2):\n"
                    "        y = tl.dot(x[i, :], {'a': [1, (2, 3)]}, acc) if c else f'{x}'\n";
  for (size_t n = 0; n <= src.size(); ++n) {
    auto m = source::parsePython(llvm::StringRef(src).take_front(n), "t.py");
    if (!m)
      llvm::consumeError(m.takeError());
  }
}

TEST(Gitignore, Patterns) {
  using source::gitignoreMatch;
  EXPECT_TRUE(gitignoreMatch("build/", "build", true));
  EXPECT_FALSE(gitignoreMatch("build/", "build", false));
  EXPECT_TRUE(gitignoreMatch("build/", "a/build", true));
  EXPECT_TRUE(gitignoreMatch("*.tmp", "a/b/c.tmp", false));
  EXPECT_TRUE(gitignoreMatch("/top.py", "top.py", false));
  EXPECT_FALSE(gitignoreMatch("/top.py", "a/top.py", false));
  EXPECT_TRUE(gitignoreMatch("gen/*.py", "gen/x.py", false));
  EXPECT_FALSE(gitignoreMatch("gen/*.py", "gen/sub/x.py", false));
  EXPECT_TRUE(gitignoreMatch("third_party/**", "third_party/a/b.py", false));
  EXPECT_TRUE(gitignoreMatch("**/tests/*.py", "a/b/tests/t.py", false));
  EXPECT_TRUE(gitignoreMatch("**/tests/*.py", "tests/t.py", false));
  EXPECT_TRUE(gitignoreMatch("k[0-9].py", "k7.py", false));
  EXPECT_FALSE(gitignoreMatch("k[!0-9].py", "k7.py", false));
  EXPECT_TRUE(gitignoreMatch("?.py", "a.py", false));
  EXPECT_TRUE(gitignoreMatch("a/**/b", "a/b", false));
  EXPECT_TRUE(gitignoreMatch("a/**/b", "a/x/y/b", false));
  EXPECT_FALSE(gitignoreMatch("a/**/b", "a/xb", false));
  EXPECT_TRUE(gitignoreMatch("\\*.py", "*.py", false));
  EXPECT_FALSE(gitignoreMatch("\\*.py", "a.py", false));
  EXPECT_FALSE(gitignoreMatch("k[0-9.py", "k7.py", false));
}

// A pattern of many stars against a long name that almost matches: a
// backtracking matcher takes exponential time here (a fuzzer found it).
TEST(Gitignore, ManyStarsStayLinear) {
  std::string pattern, path(4000, 'a');
  for (int i = 0; i < 200; ++i)
    pattern += "*a";
  pattern += "*b";
  EXPECT_FALSE(source::gitignoreMatch(pattern, path, false));
  EXPECT_TRUE(source::gitignoreMatch(pattern, path + "b", false));
  std::string deep = "**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/x";
  EXPECT_FALSE(source::gitignoreMatch(deep, "a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/y", false));
  EXPECT_TRUE(source::gitignoreMatch(deep, "a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/x", false));
}

} // namespace
} // namespace tilexform::test
