// Debian architecture names and wildcards (linux-any, any-amd64, any), and the
// `[amd64 !i386]` restriction lists of source relations.
//
// Matching follows dpkg's tuple rules: every architecture stands for an
// abi-libc-os-cpu tuple (amd64 = base-gnu-linux-amd64, armhf =
// eabihf-gnu-linux-arm, x32 = x32-gnu-linux-amd64); a wildcard is a tuple with
// `any` in some places, written with one to four parts (linux-any means
// any-any-linux-any, musl-linux-any means any-musl-linux-any). One deliberate
// difference from dpkg's debarch_is(): `all` is not an architecture but the
// absence of one, so it matches only `all`, never `any`.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace aptus::deb {

struct ArchTuple {
    std::string_view abi, libc, os, cpu;
    friend bool operator==(const ArchTuple&, const ArchTuple&) = default;
};

// The tuple of a known architecture name; nullopt for unknown names and for
// `all` and `any`.
std::optional<ArchTuple> arch_tuple(std::string_view arch);

// True when the name has an `any` part, i.e. stands for several architectures.
bool is_arch_wildcard(std::string_view name);

// Does `pattern` (an architecture or a wildcard) cover architecture `arch`?
// Unknown names match only themselves.
bool arch_matches(std::string_view pattern, std::string_view arch);

// One entry of a `[...]` list: `amd64` or `!i386`.
struct ArchRestriction {
    std::string_view arch;  // without the '!'
    bool negated = false;
    friend bool operator==(const ArchRestriction&, const ArchRestriction&) = default;
};

// Whether a relation restricted by `list` applies on `host`. Policy 7.1 wants
// a list all plain (host must match one) or all negated (host must match
// none); a mixed list, which Policy forbids and apt and dpkg each read their
// own odd way, is read as both conditions at once: one plain entry matches and
// no negated one does. An empty list applies everywhere.
bool arch_restrictions_match(std::span<const ArchRestriction> list, std::string_view host);

}  // namespace aptus::deb
