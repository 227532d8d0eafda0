// The transcriber's model of Python: parentheses come from the tree's
// precedences, strings are escaped by the printer.
#include "TestUtil.h"

#include "tilexform/transcribe/Py.h"

using namespace tilexform::transcribe;

TEST(Py, BinaryOperatorsGroupFromTheLeft) {
  auto a = py::name("a"), b = py::name("b"), c = py::name("c");
  EXPECT_EQ(py::print(py::binary("-", py::binary("-", a, b), c)), "a - b - c");
  EXPECT_EQ(py::print(py::binary("-", a, py::binary("-", b, c))), "a - (b - c)");
  EXPECT_EQ(py::print(py::binary("*", py::binary("+", a, b), c)), "(a + b) * c");
  EXPECT_EQ(py::print(py::binary("+", a, py::binary("*", b, c))), "a + b * c");
  EXPECT_EQ(py::print(py::binary("//", a, py::binary("*", b, c))), "a // (b * c)");
  EXPECT_EQ(py::print(py::binary("&", py::binary("<<", a, b), c)), "a << b & c");
  EXPECT_EQ(py::print(py::binary("<<", py::binary("&", a, b), c)), "(a & b) << c");
  // Comparisons chain in Python: a comparison inside one is wrapped on
  // either side.
  EXPECT_EQ(py::print(py::binary("==", py::binary("<", a, b), c)), "(a < b) == c");
  EXPECT_EQ(py::print(py::binary("<", a, py::binary("+", b, c))), "a < b + c");
}

TEST(Py, NumbersAndOperatorsAreWrappedAsReceivers) {
  auto to = [](py::Expr x) { return py::print(py::method(x, "to", {py::name("gl.float32")})); };
  EXPECT_EQ(to(py::name("x")), "x.to(gl.float32)");
  EXPECT_EQ(to(py::literal(1024)), "(1024).to(gl.float32)");
  EXPECT_EQ(to(py::literal("-1.5")), "(-1.5).to(gl.float32)");
  EXPECT_EQ(to(py::binary("+", py::name("a"), py::name("b"))), "(a + b).to(gl.float32)");
  EXPECT_EQ(to(py::call("f", {py::name("a")})), "f(a).to(gl.float32)");
  EXPECT_EQ(py::print(py::subscript(py::binary("+", py::name("a"), py::name("b")),
                                    {py::name(":"), py::none()})),
            "(a + b)[:, None]");
}

TEST(Py, UnaryOperators) {
  EXPECT_EQ(py::print(py::unary("-", py::name("x"))), "-x");
  EXPECT_EQ(py::print(py::unary("-", py::binary("+", py::name("a"), py::name("b")))), "-(a + b)");
  EXPECT_EQ(py::print(py::unary("not", py::paren(py::name("c")))), "not (c)");
  // A negative literal binds as a unary minus: no parentheses on the right
  // of an addition, a number to wrap before an attribute.
  EXPECT_EQ(py::print(py::binary("-", py::name("a"), py::literal(-1))), "a - -1");
  EXPECT_EQ(py::literal(-1).precedence(), py::kUnary);
  EXPECT_TRUE(py::literal(-1).isNumber());
}

TEST(Py, CallsListsTuplesAndDicts) {
  EXPECT_EQ(py::print(py::call("gl.full", {py::intList(std::vector<int>{128, 64}), py::literal(0)},
                               {{"layout", py::name("BLOCKED")}})),
            "gl.full([128, 64], 0, layout=BLOCKED)");
  EXPECT_EQ(py::print(py::call("f", {}, {{"k", py::boolean(true)}})), "f(k=True)");
  EXPECT_EQ(py::print(py::call("f")), "f()");
  EXPECT_EQ(py::print(py::tuple({py::name("a"), py::name("b")})), "(a, b)");
  EXPECT_EQ(py::print(py::tuple({py::name("a")}, true)), "(a,)");
  EXPECT_EQ(py::print(py::dict({{py::tuple({py::name("gl.float32"), py::name("gl.float32")}, true),
                                 py::tuple({py::string("sym"), py::name("gl.float32")})}})),
            "{(gl.float32, gl.float32,): (\"sym\", gl.float32)}");
}

TEST(Py, StringsAreEscapedByThePrinterAlone) {
  // The node keeps the raw value; no byte of it reaches the text unescaped.
  EXPECT_EQ(py::print(py::string("a\"b\\c")), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(py::print(py::string("x\ry\n")), "\"x\\ry\\n\"");
  std::string printed = py::print(py::string("\xe2\x80\xa8"));
  EXPECT_EQ(printed.find('\xe2'), std::string::npos) << printed;
  EXPECT_EQ(py::print(py::call("gl.static_assert", {py::boolean(false), py::string("no \"x\"")})),
            "gl.static_assert(False, \"no \\\"x\\\"\")");
}

TEST(Py, Kinds) {
  EXPECT_TRUE(py::name("acc").isIdentifier());
  EXPECT_FALSE(py::name("gl.float32").isIdentifier());
  EXPECT_TRUE(py::none().isNone());
  EXPECT_FALSE(py::name("None_").isNone());
  EXPECT_EQ(py::binaryPrecedence("//"), py::kMul);
  EXPECT_EQ(py::binaryPrecedence("!="), py::kCompare);
}
