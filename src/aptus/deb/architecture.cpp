#include "aptus/deb/architecture.hpp"

#include <algorithm>
#include <array>

namespace aptus::deb {
namespace {

// The CPUs Debian knows (dpkg's cputable, first column).
constexpr std::array<std::string_view, 37> kCpus = {
    "alpha", "amd64",   "arc",       "armeb",  "arm",     "arm64",      "avr32",  "hppa",    "loong64", "i386",
    "ia64",  "m32r",    "m68k",      "mips",   "mipsel",  "mipsr6",     "mipsr6el", "mips64", "mips64el",
    "mips64r6", "mips64r6el", "nios2", "or1k", "powerpc", "powerpcel", "ppc64",  "ppc64el", "riscv64", "s390",
    "s390x", "sh3",     "sh3eb",     "sh4",    "sh4eb",   "sparc",      "sparc64", "tilegx"};

bool is_cpu(std::string_view s) { return std::find(kCpus.begin(), kCpus.end(), s) != kCpus.end(); }

// Names whose tuple is not the plain "<prefix><cpu>" pattern below; they are
// checked first, as the more specific entries of dpkg's tuple table win.
struct Special {
    std::string_view name;
    ArchTuple tuple;
};
constexpr Special kSpecials[] = {
    {"uclibc-linux-armel", {"eabi", "uclibc", "linux", "arm"}},
    {"musl-linux-armhf", {"eabihf", "musl", "linux", "arm"}},
    {"arm64ilp32", {"ilp32", "gnu", "linux", "arm64"}},
    {"armhf", {"eabihf", "gnu", "linux", "arm"}},
    {"armel", {"eabi", "gnu", "linux", "arm"}},
    {"mipsn32r6el", {"abin32", "gnu", "linux", "mips64r6el"}},
    {"mipsn32r6", {"abin32", "gnu", "linux", "mips64r6"}},
    {"mipsn32el", {"abin32", "gnu", "linux", "mips64el"}},
    {"mipsn32", {"abin32", "gnu", "linux", "mips64"}},
    {"mips64r6el", {"abi64", "gnu", "linux", "mips64r6el"}},
    {"mips64r6", {"abi64", "gnu", "linux", "mips64r6"}},
    {"mips64el", {"abi64", "gnu", "linux", "mips64el"}},
    {"mips64", {"abi64", "gnu", "linux", "mips64"}},
    {"powerpcspe", {"spe", "gnu", "linux", "powerpc"}},
    {"x32", {"x32", "gnu", "linux", "amd64"}},
    {"kfreebsd-armhf", {"eabihf", "gnu", "kfreebsd", "arm"}},
    {"uclinux-armel", {"eabi", "uclibc", "uclinux", "arm"}},
    {"mint-m68k", {"base", "tos", "mint", "m68k"}},
};

// "<prefix><cpu>" names: the system part of the tuple, cpu taken from the name.
struct Prefix {
    std::string_view prefix, abi, libc, os;
};
constexpr Prefix kPrefixes[] = {
    {"uclibc-linux-", "base", "uclibc", "linux"},     {"musl-linux-", "base", "musl", "linux"},
    {"kfreebsd-", "base", "gnu", "kfreebsd"},         {"knetbsd-", "base", "gnu", "knetbsd"},
    {"kopensolaris-", "base", "gnu", "kopensolaris"}, {"hurd-", "base", "gnu", "hurd"},
    {"dragonflybsd-", "base", "bsd", "dragonflybsd"}, {"freebsd-", "base", "bsd", "freebsd"},
    {"openbsd-", "base", "bsd", "openbsd"},           {"netbsd-", "base", "bsd", "netbsd"},
    {"darwin-", "base", "bsd", "darwin"},             {"aix-", "base", "sysv", "aix"},
    {"solaris-", "base", "sysv", "solaris"},          {"uclinux-", "base", "uclibc", "uclinux"},
};

// The tuple of a wildcard: one to four '-'-separated parts, missing leading
// parts are `any` (the last part keeps any further dashes, as dpkg splits at
// most four ways).
ArchTuple wildcard_tuple(std::string_view w) {
    std::string_view parts[4];
    size_t n = 0;
    while (n < 3) {
        size_t dash = w.find('-');
        if (dash == std::string_view::npos) break;
        parts[n++] = w.substr(0, dash);
        w.remove_prefix(dash + 1);
    }
    parts[n++] = w;
    ArchTuple t{"any", "any", "any", "any"};
    std::string_view* slots[4] = {&t.abi, &t.libc, &t.os, &t.cpu};
    if (n == 1) return t;  // a lone "any"
    for (size_t i = 0; i < n; ++i) *slots[4 - n + i] = parts[i];
    return t;
}

bool part_matches(std::string_view pattern, std::string_view real) { return pattern == "any" || pattern == real; }

}  // namespace

std::optional<ArchTuple> arch_tuple(std::string_view arch) {
    // dpkg still reads the old "linux-<arch>" spelling as "<arch>".
    if (arch.starts_with("linux-")) arch.remove_prefix(6);
    for (const Special& s : kSpecials)
        if (s.name == arch) return s.tuple;
    for (const Prefix& p : kPrefixes) {
        if (!arch.starts_with(p.prefix)) continue;
        std::string_view cpu = arch.substr(p.prefix.size());
        if (!is_cpu(cpu)) return std::nullopt;
        // The view must outlive the caller's string: take it from the table.
        return ArchTuple{p.abi, p.libc, p.os, *std::find(kCpus.begin(), kCpus.end(), cpu)};
    }
    if (!is_cpu(arch)) return std::nullopt;
    return ArchTuple{"base", "gnu", "linux", *std::find(kCpus.begin(), kCpus.end(), arch)};
}

bool is_arch_wildcard(std::string_view name) {
    while (true) {
        size_t dash = name.find('-');
        if (name.substr(0, dash) == "any") return true;
        if (dash == std::string_view::npos) return false;
        name.remove_prefix(dash + 1);
    }
}

bool arch_matches(std::string_view pattern, std::string_view arch) {
    if (pattern == arch) return true;
    if (arch == "all" || pattern == "all") return false;
    if (pattern == "any") return true;
    std::optional<ArchTuple> real = arch_tuple(arch);
    if (!real) return false;
    std::optional<ArchTuple> want = is_arch_wildcard(pattern) ? std::optional(wildcard_tuple(pattern)) : arch_tuple(pattern);
    if (!want) return false;
    return part_matches(want->abi, real->abi) && part_matches(want->libc, real->libc) &&
           part_matches(want->os, real->os) && part_matches(want->cpu, real->cpu);
}

bool arch_restrictions_match(std::span<const ArchRestriction> list, std::string_view host) {
    bool has_plain = false, plain_hit = false;
    for (const ArchRestriction& r : list) {
        bool hit = arch_matches(r.arch, host);
        if (r.negated && hit) return false;
        if (!r.negated) {
            has_plain = true;
            plain_hit = plain_hit || hit;
        }
    }
    return !has_plain || plain_hit;
}

}  // namespace aptus::deb
