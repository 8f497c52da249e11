#include "cli/pager.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <functional>
#include <string>

namespace aptus::cli {
namespace {

TEST(PagerCommand, AptPagerBeatsPager) {
    EXPECT_EQ(pager_command("most", "less"), "most");
    EXPECT_EQ(pager_command(nullptr, "less -R"), "less -R");
}

TEST(PagerCommand, DefaultIsPager) { EXPECT_EQ(pager_command(nullptr, nullptr), "pager"); }

TEST(PagerCommand, EmptyOrCatMeansNone) {
    EXPECT_EQ(pager_command("", "less"), std::nullopt);  // a set but empty APT_PAGER wins
    EXPECT_EQ(pager_command(nullptr, ""), std::nullopt);
    EXPECT_EQ(pager_command("cat", "less"), std::nullopt);
    EXPECT_EQ(pager_command(nullptr, "cat"), std::nullopt);
    // Only the bare name: a cat with arguments is a pager like any other.
    EXPECT_EQ(pager_command(nullptr, "cat -u"), "cat -u");
}

TEST(PagerNeedsShell, PlainNamesRunDirectly) {
    EXPECT_FALSE(pager_needs_shell("less"));
    EXPECT_FALSE(pager_needs_shell("/usr/bin/less"));
    EXPECT_FALSE(pager_needs_shell("./my_pager-2.0+x=y"));
}

TEST(PagerNeedsShell, AnythingElseGoesThroughTheShell) {
    EXPECT_TRUE(pager_needs_shell("less -R"));
    EXPECT_TRUE(pager_needs_shell("cat|./head3"));
    EXPECT_TRUE(pager_needs_shell("echo $LESS"));
    EXPECT_TRUE(pager_needs_shell("'less'"));
}

bool contains(const std::vector<std::string>& env, const std::string& entry) {
    return std::find(env.begin(), env.end(), entry) != env.end();
}

TEST(PagerEnvironment, AddsAptsDefaults) {
    const char* env[] = {"HOME=/root", "LESSOPEN=|lesspipe %s", nullptr};
    auto out = pager_environment(env);
    EXPECT_TRUE(contains(out, "HOME=/root"));
    EXPECT_TRUE(contains(out, "LESSOPEN=|lesspipe %s"));
    EXPECT_TRUE(contains(out, "LESS=FRSXMK"));
    EXPECT_TRUE(contains(out, "MORE=FRX"));
    EXPECT_TRUE(contains(out, "LV=-c"));
    EXPECT_EQ(out.size(), 5u);
}

TEST(PagerEnvironment, KeepsWhatTheUserSet) {
    const char* env[] = {"LESS=XYZ", "MORE=", "LV=-a", nullptr};
    auto out = pager_environment(env);
    EXPECT_EQ(out, (std::vector<std::string>{"LESS=XYZ", "MORE=", "LV=-a"}));
}

// Runs `body` in a child whose stdin, stdout and stderr are a new terminal;
// returns everything shown on it and the child's wait status.
struct PtyRun {
    std::string screen;
    int status;
};

PtyRun run_in_pty(const std::function<int()>& body) {
    int master = -1;
    pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
    if (pid < 0) throw std::runtime_error("forkpty failed");
    if (pid == 0) {
        int rc = body();
        std::fflush(stdout);
        std::fflush(stderr);
        _exit(rc);
    }
    PtyRun run{"", 0};
    char buf[4096];
    for (;;) {
        pollfd p{master, POLLIN, 0};
        if (poll(&p, 1, 10000) <= 0) break;  // a hang fails the test instead of blocking it
        ssize_t n = read(master, buf, sizeof buf);
        if (n <= 0) break;  // EIO: every holder of the terminal has closed it
        run.screen.append(buf, size_t(n));
    }
    close(master);
    waitpid(pid, &run.status, 0);
    std::string clean;
    for (char c : run.screen)
        if (c != '\r') clean += c;
    run.screen = clean;
    return run;
}

config::Config config_with_pager(const char* value) {
    config::Config config;
    if (value) config.set("Pager", value);
    return config;
}

std::string link_target(const char* path) {
    char buf[PATH_MAX];
    ssize_t n = readlink(path, buf, sizeof buf - 1);
    return n < 0 ? "" : std::string(buf, size_t(n));
}

TEST(Pager, PagesThroughTheProgramAndRestoresTheTerminal) {
    auto run = run_in_pty([] {
        unsetenv("APT_PAGER");
        // Marks its output so the test can tell paged text from direct text.
        setenv("PAGER", "sed 's/^/paged: /'", 1);
        auto pager = Pager::start(config_with_pager(nullptr));
        if (!pager) return 10;
        if (link_target("/proc/self/fd/0") != "/dev/null") return 11;
        std::printf("content\n");
        if (!WIFEXITED(pager->finish())) return 12;
        if (pager->finish() != -1) return 13;  // idempotent
        std::printf("after\n");
        return isatty(0) && isatty(1) ? 0 : 14;
    });
    EXPECT_TRUE(WIFEXITED(run.status) && WEXITSTATUS(run.status) == 0) << run.status << "\n" << run.screen;
    EXPECT_EQ(run.screen, "paged: content\nafter\n");
}

TEST(Pager, StderrOnATerminalIsPagedToo) {
    auto run = run_in_pty([] {
        unsetenv("APT_PAGER");
        setenv("PAGER", "sed 's/^/paged: /'", 1);
        auto pager = Pager::start(config_with_pager(nullptr));
        std::fprintf(stderr, "warning\n");
        return pager ? 0 : 10;
    });
    EXPECT_EQ(run.screen, "paged: warning\n");
}

TEST(Pager, ExecFailureIsReportedFromTheChild) {
    auto run = run_in_pty([] {
        unsetenv("APT_PAGER");
        setenv("PAGER", "/nonexistent/pager", 1);
        auto pager = Pager::start(config_with_pager(nullptr));
        std::printf("content\n");
        return pager ? 10 : 0;
    });
    EXPECT_TRUE(WIFEXITED(run.status) && WEXITSTATUS(run.status) == 0) << run.screen;
    EXPECT_EQ(run.screen, "W: Could not execute pager - PagerSetup (2: No such file or directory)\ncontent\n");
}

TEST(Pager, NotAPagerWhenAskedNotTo) {
    for (const char* value : {"false", "no", "0"}) {
        auto run = run_in_pty([value] {
            unsetenv("APT_PAGER");
            setenv("PAGER", "sed 's/^/paged: /'", 1);
            return Pager::start(config_with_pager(value)) ? 10 : 0;
        });
        EXPECT_TRUE(WIFEXITED(run.status) && WEXITSTATUS(run.status) == 0) << value;
    }
}

TEST(Pager, NotAPagerWhenStdoutIsNoTerminal) {
    auto run = run_in_pty([] {
        unsetenv("APT_PAGER");
        setenv("PAGER", "sed 's/^/paged: /'", 1);
        int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 1);
        return Pager::start(config_with_pager(nullptr)) ? 10 : 0;
    });
    EXPECT_TRUE(WIFEXITED(run.status) && WEXITSTATUS(run.status) == 0);
    EXPECT_EQ(run.screen, "");
}

TEST(Pager, SignalWaitsForThePagerThenKills) {
    auto run = run_in_pty([] {
        unsetenv("APT_PAGER");
        // Shows its input, then a line of its own once the input has ended.
        setenv("PAGER", "cat; sleep 0.2; echo pager done", 1);
        auto pager = Pager::start(config_with_pager(nullptr));
        if (!pager) return 10;
        std::printf("content\n");
        std::fflush(stdout);
        raise(SIGTERM);
        return 11;
    });
    EXPECT_TRUE(WIFSIGNALED(run.status) && WTERMSIG(run.status) == SIGTERM) << run.status;
    EXPECT_EQ(run.screen, "content\npager done\n");
}

}  // namespace
}  // namespace aptus::cli
