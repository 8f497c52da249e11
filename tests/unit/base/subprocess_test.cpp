#include "aptus/base/subprocess.hpp"

#include <fcntl.h>
#include <csignal>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "aptus/base/error.hpp"
#include "support/test_support.hpp"

namespace aptus {
namespace {

TEST(Subprocess, CapturesBothStreamsAndTheExitStatus) {
    SubprocessResult r = run_subprocess({"/bin/sh", "-c", "printf out; printf err >&2; exit 3"});
    EXPECT_EQ(r.out, "out");
    EXPECT_EQ(r.err, "err");
    EXPECT_EQ(r.exit_status, 3);
    EXPECT_EQ(r.signal, 0);
    EXPECT_FALSE(r.success());
    EXPECT_TRUE(run_subprocess({"true"}).success());
}

TEST(Subprocess, ArgumentsAreNeverReparsedByAShell) {
    SubprocessResult r = run_subprocess({"printf", "%s|", "a b", "$(echo no)", ";", "*"});
    EXPECT_EQ(r.out, "a b|$(echo no)|;|*|");
}

TEST(Subprocess, StdinIsEmptyAndOurDescriptorsDoNotLeak) {
    // A descriptor opened without O_CLOEXEC, as a careless library might.
    int fd = ::open("/dev/null", O_RDONLY);
    ASSERT_GE(fd, 3);
    std::string n = std::to_string(fd);
    SubprocessResult r =
        run_subprocess({"/bin/sh", "-c", "cat; if [ -e /proc/$$/fd/" + n + " ]; then echo leaked; else echo closed; fi"});
    ::close(fd);
    EXPECT_EQ(r.out, "closed\n");
}

TEST(Subprocess, EnvironmentIsPassedAndOverridden) {
    SubprocessOptions o;
    o.environment = {{"APTUS_TEST_VALUE", "one two"}, {"LC_ALL", "C"}};
    SubprocessResult r = run_subprocess({"/bin/sh", "-c", "printf '%s' \"$APTUS_TEST_VALUE\""}, o);
    EXPECT_EQ(r.out, "one two");
    o.clear_environment = true;
    r = run_subprocess({"/usr/bin/env"}, o);
    EXPECT_EQ(r.out, "APTUS_TEST_VALUE=one two\nLC_ALL=C\n");
}

TEST(Subprocess, SignalsAndMissingPrograms) {
    SubprocessResult r = run_subprocess({"/bin/sh", "-c", "kill -TERM $$"});
    EXPECT_EQ(r.signal, 15);
    EXPECT_FALSE(r.success());
    EXPECT_THROW(run_subprocess({"/nonexistent/program"}), Error);
    EXPECT_THROW(run_subprocess({"aptus-no-such-program-anywhere"}), Error);
    EXPECT_THROW(run_subprocess({}), Error);
}

TEST(Subprocess, OutputIsBounded) {
    SubprocessOptions o;
    o.max_output = 1000;
    SubprocessResult r = run_subprocess({"/bin/sh", "-c", "yes"}, o);
    EXPECT_TRUE(r.output_truncated);
    EXPECT_EQ(r.out.size(), 1000u);
    EXPECT_FALSE(r.success());
}

TEST(Subprocess, InputIsFedWhileOutputIsRead) {
    // More than a pipe holds either way: feeding first and reading after
    // (or the other way round) would deadlock.
    std::string big(8 << 20, 'x');
    for (size_t i = 0; i < big.size(); i += 4096) big[i] = '\n';
    SubprocessOptions o;
    o.input = big;
    SubprocessResult r = run_subprocess({"cat"}, o);
    EXPECT_TRUE(r.success());
    EXPECT_TRUE(r.input_complete);
    EXPECT_EQ(r.out.size(), big.size());
    EXPECT_TRUE(r.out == big);
    std::string empty;
    o.input = empty;
    r = run_subprocess({"cat"}, o);
    EXPECT_TRUE(r.success());
    EXPECT_EQ(r.out, "");
}

TEST(Subprocess, AChildThatReadsNoInputIsNoSigpipe) {
    std::string big(4 << 20, 'y');
    SubprocessOptions o;
    o.input = big;
    SubprocessResult r = run_subprocess({"/bin/sh", "-c", "exec 0<&-; echo answered; exit 4"}, o);
    EXPECT_EQ(r.exit_status, 4);
    EXPECT_EQ(r.out, "answered\n");
    EXPECT_FALSE(r.input_complete);
    // We are still here (SIGPIPE would have ended the test binary), and none is pending.
    sigset_t pending;
    sigpending(&pending);
    EXPECT_EQ(sigismember(&pending, SIGPIPE), 0);
}

TEST(Subprocess, StderrCanStayOurs) {
    SubprocessOptions o;
    o.inherit_stderr = true;
    SubprocessResult r = run_subprocess({"/bin/sh", "-c", "printf out; printf 'expected on the test stderr\\n' >&2"}, o);
    EXPECT_TRUE(r.success());
    EXPECT_EQ(r.out, "out");
    EXPECT_EQ(r.err, "");
}

// A build's output goes straight to ours; the child may start elsewhere.
TEST(Subprocess, StdoutCanStayOursAndTheDirectoryBeChosen) {
    test::TempDir dir("subprocess-cwd");
    SubprocessOptions o;
    o.working_directory = dir.file("");
    SubprocessResult r = run_subprocess({"/bin/sh", "-c", "pwd"}, o);
    EXPECT_TRUE(r.success());
    EXPECT_EQ(std::filesystem::canonical(r.out.substr(0, r.out.find('\n'))),
              std::filesystem::canonical(dir.file("")));
    o.inherit_stdout = true;
    o.inherit_stderr = true;
    r = run_subprocess({"/bin/sh", "-c", "printf 'expected on the test stdout\\n'; exit 3"}, o);
    EXPECT_EQ(r.exit_status, 3);
    EXPECT_EQ(r.out, "");
}

// With both streams ours, the input is still written (dpkg --set-selections
// reads its selections so): it once was never sent.
TEST(Subprocess, InputReachesAChildWhoseOutputIsOurs) {
    test::TempDir dir("subprocess-input");
    SubprocessOptions o;
    o.inherit_stdout = true;
    o.inherit_stderr = true;
    const std::string input = "hold me\n";
    o.input = input;
    SubprocessResult r = run_subprocess({"/bin/sh", "-c", "cat >'" + dir.file("got") + "'"}, o);
    EXPECT_TRUE(r.success());
    EXPECT_TRUE(r.input_complete);
    std::ifstream in(dir.file("got"));
    std::string got((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(got, input);
}

}  // namespace
}  // namespace aptus
