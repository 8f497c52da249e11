#include "aptus/base/subprocess.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "aptus/base/error.hpp"

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

}  // namespace
}  // namespace aptus
