#include "tilexform/support/SourceFiles.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

using tilexform::SourceFiles;
using tilexform::SourceText;

namespace fs = std::filesystem;

namespace {

constexpr uint64_t kLimit = uint64_t(32) << 20;

/// A scratch directory with `root/` (the source root) and `outside/`
/// (holding a secret that must never be read), removed afterwards.
class SourceFilesTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "tilexform-sources-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    root_ = dir_ / "root";
    outside_ = dir_ / "outside";
    fs::create_directories(root_ / "sub");
    fs::create_directories(outside_);
    write(outside_ / "secret.py", "SECRET = 'the secret line'\n");
    write(root_ / "kernels.py", "import triton\n\n@triton.jit\ndef k(x):\n    pass\n");
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  static void write(const fs::path &p, const std::string &text) {
    std::ofstream out(p, std::ios::binary);
    out << text;
  }
  /// Refused, with a reason that quotes nothing of the secret.
  void expectRefused(SourceFiles &files, const std::string &name, const std::string &why) {
    EXPECT_EQ(files.lines(name), nullptr) << name;
    std::string reason = files.refusal(name);
    EXPECT_NE(reason.find(why), std::string::npos) << name << ": " << reason;
    EXPECT_EQ(reason.find("secret line"), std::string::npos) << reason;
    EXPECT_EQ(reason.find(outside_.string()), std::string::npos) << reason;
  }
  fs::path dir_, root_, outside_;
};

} // namespace

TEST_F(SourceFilesTest, GoodFileInside) {
  SourceFiles files({root_.string()}, kLimit);
  const SourceText *t = files.lines("kernels.py");
  ASSERT_NE(t, nullptr) << files.refusal("kernels.py");
  ASSERT_EQ(t->size(), 5u);
  EXPECT_EQ((*t)[0], "import triton");
  EXPECT_EQ(t->line(4), "def k(x):");
  EXPECT_EQ(t->line(6), "");
  EXPECT_EQ(t->line(0), "");
  EXPECT_EQ(files.refusal("kernels.py"), "");
  // Read once: the same text for the same name and for another spelling.
  EXPECT_EQ(files.lines("kernels.py"), t);
  EXPECT_EQ(files.lines((root_ / "kernels.py").string()), t);
  EXPECT_EQ(files.lines("sub/../kernels.py"), t);
}

TEST_F(SourceFilesTest, RelativePathUnderTheRoot) {
  write(root_ / "sub" / "helpers.py", "def h():\r\n    return 1");
  SourceFiles files({root_.string()}, kLimit);
  const SourceText *t = files.lines("sub/helpers.py");
  ASSERT_NE(t, nullptr) << files.refusal("sub/helpers.py");
  ASSERT_EQ(t->size(), 2u);
  EXPECT_EQ((*t)[0], "def h():");
  EXPECT_EQ((*t)[1], "    return 1");
  std::vector<std::string> all;
  for (llvm::StringRef l : *t)
    all.push_back(l.str());
  EXPECT_EQ(all, (std::vector<std::string>{"def h():", "    return 1"}));
}

TEST_F(SourceFilesTest, BaseNameBelowTheRoot) {
  // A dump made on another machine names the file by that machine's path.
  SourceFiles files({root_.string()}, kLimit);
  EXPECT_NE(files.lines("/home/someone/project/kernels.py"), nullptr);
  EXPECT_NE(files.lines("project/kernels.py"), nullptr);
}

TEST_F(SourceFilesTest, AbsolutePathOutside) {
  SourceFiles files({root_.string()}, kLimit);
  expectRefused(files, (outside_ / "secret.py").string(), "outside the source roots");
  expectRefused(files, "/etc/passwd", "outside the source roots");
}

TEST_F(SourceFilesTest, DotDotEscape) {
  SourceFiles files({root_.string()}, kLimit);
  expectRefused(files, "../outside/secret.py", "outside the source roots");
  expectRefused(files, "sub/../../outside/secret.py", "outside the source roots");
  expectRefused(files, (root_ / ".." / "outside" / "secret.py").string(),
                "outside the source roots");
}

TEST_F(SourceFilesTest, SymlinkInsidePointingOutside) {
  fs::create_symlink(outside_ / "secret.py", root_ / "link.py");
  fs::create_directory_symlink(outside_, root_ / "linkdir");
  SourceFiles files({root_.string()}, kLimit);
  expectRefused(files, "link.py", "outside the source roots");
  expectRefused(files, (root_ / "link.py").string(), "outside the source roots");
  expectRefused(files, "linkdir/secret.py", "outside the source roots");
}

TEST_F(SourceFilesTest, SymlinkInsidePointingInside) {
  fs::create_symlink(root_ / "kernels.py", root_ / "sub" / "alias.py");
  SourceFiles files({root_.string()}, kLimit);
  EXPECT_NE(files.lines("sub/alias.py"), nullptr) << files.refusal("sub/alias.py");
}

TEST_F(SourceFilesTest, RootThroughASymlink) {
  fs::create_directory_symlink(root_, dir_ / "rootlink");
  SourceFiles files({(dir_ / "rootlink").string()}, kLimit);
  EXPECT_NE(files.lines((dir_ / "rootlink" / "kernels.py").string()), nullptr);
  EXPECT_NE(files.lines("kernels.py"), nullptr);
  expectRefused(files, (outside_ / "secret.py").string(), "outside the source roots");
}

TEST_F(SourceFilesTest, FifoReturnsAtOnce) {
  std::string fifo = (root_ / "pipe.py").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto files = std::make_shared<SourceFiles>(std::vector<std::string>{root_.string()}, kLimit);
  // Run where a hang cannot take the test down with it.
  auto done = std::make_shared<std::promise<std::string>>();
  std::future<std::string> answer = done->get_future();
  std::thread([files, done] {
    const SourceText *t = files->lines("pipe.py");
    done->set_value(t ? "read" : files->refusal("pipe.py"));
  }).detach();
  ASSERT_EQ(answer.wait_for(std::chrono::seconds(10)), std::future_status::ready)
      << "blocked on a FIFO";
  EXPECT_NE(answer.get().find("FIFO"), std::string::npos);
}

TEST_F(SourceFilesTest, DevZero) {
  fs::create_symlink("/dev/zero", root_ / "zero.py");
  SourceFiles files({root_.string()}, kLimit);
  expectRefused(files, "/dev/zero", "outside the source roots");
  expectRefused(files, "zero.py", "outside the source roots");
  // Even with the device's folder as a root, a device is not a source.
  SourceFiles wide({"/dev", root_.string()}, kLimit);
  EXPECT_EQ(wide.lines("/dev/zero"), nullptr);
  EXPECT_EQ(wide.lines("zero.py"), nullptr);
}

TEST_F(SourceFilesTest, OversizeSparseFileIsNotRead) {
  std::string big = (root_ / "big.py").string();
  { std::ofstream touch(big); }
  ASSERT_EQ(::truncate(big.c_str(), off_t(3) << 30), 0);
  SourceFiles files({root_.string()}, kLimit);
  auto start = std::chrono::steady_clock::now();
  expectRefused(files, "big.py", "above the input limit");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  // The limit is the one handed in.
  write(root_ / "small.py", std::string(100, '#'));
  SourceFiles tight({root_.string()}, 50);
  expectRefused(tight, "small.py", "above the input limit of 50 bytes");
}

TEST_F(SourceFilesTest, OnlyPythonText) {
  write(root_ / "notes.txt", "text\n");
  write(root_ / "nul.py", std::string("x = 1\n\0\n", 8));
  SourceFiles files({root_.string()}, kLimit);
  expectRefused(files, "notes.txt", "not a .py file");
  expectRefused(files, "nul.py", "NUL");
  expectRefused(files, "sub", "not a .py file");
  expectRefused(files, "missing.py", "not found");
}

TEST_F(SourceFilesTest, NoRootsReadNothing) {
  SourceFiles files({}, kLimit);
  expectRefused(files, (root_ / "kernels.py").string(), "no source root");
  SourceFiles missing({(dir_ / "nope").string()}, kLimit);
  EXPECT_TRUE(missing.roots().empty());
  EXPECT_EQ(missing.lines((root_ / "kernels.py").string()), nullptr);
}

TEST(SourceText, Lines) {
  EXPECT_EQ(SourceText("").size(), 0u);
  EXPECT_EQ(SourceText("a").size(), 1u);
  EXPECT_EQ(SourceText("a\n").size(), 1u);
  SourceText t("a\n\nb\r\n");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[1], "");
  EXPECT_EQ(t[2], "b");
}
