// apt's built-in configuration. The order of the entries matters: the tree
// keeps insertion order and `config dump` must list keys where apt does.
#include <algorithm>
#include <sys/stat.h>
#include <unistd.h>

#include <clocale>
#include <cstdlib>
#include <string>

#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/config/init.hpp"

namespace aptus::config {
namespace {

struct Default {
    const char* key;
    const char* value;
};

// What apt sets before any file is read (its pkgInitConfig).
constexpr Default initial_defaults[] = {
    {"APT::Build-Essential::", "build-essential"},
    {"APT::Install-Recommends", "1"},
    {"APT::Install-Suggests", "0"},
    {"Dir", "/"},
    {"Dir::State", "var/lib/apt"},
    {"Dir::State::lists", "lists/"},
    {"Dir::State::cdroms", "cdroms.list"},
    {"Dir::Cache", "var/cache/apt"},
    {"Dir::Cache::archives", "archives/"},
    {"Dir::Cache::srcpkgcache", "srcpkgcache.bin"},
    {"Dir::Cache::pkgcache", "pkgcache.bin"},
    {"Dir::Etc", "etc/apt"},
    {"Dir::Etc::sourcelist", "sources.list"},
    {"Dir::Etc::sourceparts", "sources.list.d"},
    {"Dir::Etc::main", "apt.conf"},
    {"Dir::Etc::netrc", "auth.conf"},
    {"Dir::Etc::netrcparts", "auth.conf.d"},
    {"Dir::Etc::parts", "apt.conf.d"},
    {"Dir::Etc::preferences", "preferences"},
    {"Dir::Etc::preferencesparts", "preferences.d"},
    {"Dir::Etc::trusted", "trusted.gpg"},
    {"Dir::Etc::trustedparts", "trusted.gpg.d"},
    {"Dir::Bin::methods", "/usr/lib/apt/methods"},
    {"Dir::Bin::solvers::", "/usr/lib/apt/solvers"},
    {"Dir::Bin::planners::", "/usr/lib/apt/planners"},
    {"Dir::Media::MountPath", "/media/apt"},
    {"Dir::Log", "var/log/apt"},
    {"Dir::Log::Terminal", "term.log"},
    {"Dir::Log::History", "history.log"},
    {"Dir::Log::Planner", "eipp.log.xz"},
    {"Dir::Ignore-Files-Silently::", "~$"},
    {"Dir::Ignore-Files-Silently::", "\\.disabled$"},
    {"Dir::Ignore-Files-Silently::", "\\.bak$"},
    {"Dir::Ignore-Files-Silently::", "\\.dpkg-[a-z]+$"},
    {"Dir::Ignore-Files-Silently::", "\\.ucf-[a-z]+$"},
    {"Dir::Ignore-Files-Silently::", "\\.save$"},
    {"Dir::Ignore-Files-Silently::", "\\.orig$"},
    {"Dir::Ignore-Files-Silently::", "\\.distUpgrade$"},
    {"Acquire::AllowInsecureRepositories", "0"},
    {"Acquire::AllowWeakRepositories", "0"},
    {"Acquire::AllowDowngradeToInsecureRepositories", "0"},
    {"Acquire::cdrom::mount", "/media/cdrom/"},
    {"APT::Sandbox::User", "_apt"},
    {"Acquire::IndexTargets::deb::Packages::MetaKey", "$(COMPONENT)/binary-$(ARCHITECTURE)/Packages"},
    {"Acquire::IndexTargets::deb::Packages::flatMetaKey", "Packages"},
    {"Acquire::IndexTargets::deb::Packages::ShortDescription", "Packages"},
    {"Acquire::IndexTargets::deb::Packages::Description", "$(RELEASE)/$(COMPONENT) $(ARCHITECTURE) Packages"},
    {"Acquire::IndexTargets::deb::Packages::flatDescription", "$(RELEASE) Packages"},
    {"Acquire::IndexTargets::deb::Packages::Optional", "0"},
    {"Acquire::IndexTargets::deb::Translations::MetaKey", "$(COMPONENT)/i18n/Translation-$(LANGUAGE)"},
    {"Acquire::IndexTargets::deb::Translations::flatMetaKey", "$(LANGUAGE)"},
    {"Acquire::IndexTargets::deb::Translations::ShortDescription", "Translation-$(LANGUAGE)"},
    {"Acquire::IndexTargets::deb::Translations::Description", "$(RELEASE)/$(COMPONENT) Translation-$(LANGUAGE)"},
    {"Acquire::IndexTargets::deb::Translations::flatDescription", "$(RELEASE) Translation-$(LANGUAGE)"},
    {"Acquire::IndexTargets::deb-src::Sources::MetaKey", "$(COMPONENT)/source/Sources"},
    {"Acquire::IndexTargets::deb-src::Sources::flatMetaKey", "Sources"},
    {"Acquire::IndexTargets::deb-src::Sources::ShortDescription", "Sources"},
    {"Acquire::IndexTargets::deb-src::Sources::Description", "$(RELEASE)/$(COMPONENT) Sources"},
    {"Acquire::IndexTargets::deb-src::Sources::flatDescription", "$(RELEASE) Sources"},
    {"Acquire::IndexTargets::deb-src::Sources::Optional", "0"},
    {"Acquire::Changelogs::URI::Origin::Debian",
     "https://metadata.ftp-master.debian.org/changelogs/@CHANGEPATH@_changelog"},
    {"Acquire::Changelogs::URI::Origin::Ubuntu", "https://changelogs.ubuntu.com/changelogs/pool/@CHANGEPATH@/changelog"},
    {"Acquire::Changelogs::AlwaysOnline::Origin::Ubuntu", "1"},
    {"DPkg::Path", "/usr/sbin:/usr/bin:/sbin:/bin"},
};

// What apt's own "apt" binary changes; every apt program records it under
// Binary::apt so that it shows in a dump.
constexpr Default apt_binary_defaults[] = {
    {"Binary::apt::APT::Color", "1"},
    {"Binary::apt::APT::Cache::Show::Version", "2"},
    {"Binary::apt::APT::Cache::AllVersions", "0"},
    {"Binary::apt::APT::Cache::ShowVirtuals", "1"},
    {"Binary::apt::APT::Cache::Search::Version", "2"},
    {"Binary::apt::APT::Cache::ShowDependencyType", "1"},
    {"Binary::apt::APT::Cache::ShowVersion", "1"},
    {"Binary::apt::APT::Get::Upgrade-Allow-New", "1"},
    {"Binary::apt::APT::Get::Update::InteractiveReleaseInfoChanges", "1"},
    {"Binary::apt::APT::Cmd::Show-Update-Stats", "1"},
    {"Binary::apt::APT::Cmd::Pattern-Only", "1"},
    {"Binary::apt::APT::Keep-Downloaded-Packages", "0"},
    {"Binary::apt::DPkg::Progress-Fancy", "1"},
};

struct Compressor {
    const char* name;
    const char* extension;
    const char* binary;
    const char* cost;
    std::initializer_list<const char*> compress_args;
    std::initializer_list<const char*> uncompress_args;
};

// The compressors apt knows, in apt's order ("." is "no compression").
const Compressor known_compressors[] = {
    {".", "", "", "0", {}, {}},
    {"zstd", ".zst", "zstd", "60", {"-19"}, {"-d"}},
    {"lz4", ".lz4", "lz4", "50", {"-1"}, {"-d"}},
    {"gzip", ".gz", "gzip", "100", {"-6n"}, {"-d"}},
    {"xz", ".xz", "xz", "200", {"-6"}, {"-d"}},
    {"bzip2", ".bz2", "bzip2", "300", {"-6"}, {"-d"}},
    {"lzma", ".lzma", "xz", "400", {"--format=lzma", "-6"}, {"--format=lzma", "-d"}},
};

// Acquire::CompressionTypes: file extension -> compressor, in apt's order.
constexpr Default compression_types[] = {
    {"xz", "xz"}, {"bz2", "bzip2"}, {"lzma", "lzma"}, {"gz", "gzip"}, {"lz4", "lz4"}, {"zst", "zstd"},
};

constexpr Default compressor_binaries[] = {
    {"Dir::Bin::gzip", "/bin/gzip"}, {"Dir::Bin::bzip2", "/bin/bzip2"}, {"Dir::Bin::xz", "/usr/bin/xz"},
    {"Dir::Bin::lz4", "/usr/bin/lz4"}, {"Dir::Bin::zstd", "/usr/bin/zstd"},
};

struct CompressorSettings {
    std::string name, extension, binary, cost;
    std::vector<std::string> compress_args, uncompress_args;
};

// A compressor's settings: what the configuration says, else the built-in
// value (a configured but unknown compressor gets apt's generic defaults).
CompressorSettings compressor_settings(const Config& config, const std::string& name) {
    const Compressor* known = nullptr;
    for (const auto& k : known_compressors)
        if (iequals(k.name, name)) known = &k;
    std::string base = "APT::Compressor::" + name + "::";
    CompressorSettings s;
    s.name = config.find(base + "Name", known ? known->name : name);
    s.extension = config.find(base + "Extension", known ? known->extension : "." + name);
    s.binary = config.find(base + "Binary", known ? known->binary : name);
    s.cost = config.find(base + "Cost", known ? known->cost : "1000");
    auto args = [&](const char* key, std::initializer_list<const char*> fallback) {
        if (config.exists(base + key)) return config.find_list(base + key);
        return std::vector<std::string>(fallback.begin(), fallback.end());
    };
    s.compress_args = args("CompressArg", known ? known->compress_args : std::initializer_list<const char*>{});
    s.uncompress_args = args("UncompressArg", known ? known->uncompress_args : std::initializer_list<const char*>{});
    return s;
}

void set_compressors(Config& config) {
    std::vector<std::string> names;
    for (const auto& k : known_compressors) names.emplace_back(k.name);
    for (const auto& [name, value] : config.children("APT::Compressor")) {
        bool seen = false;
        for (const auto& n : names) seen = seen || iequals(n, name);
        if (!seen && !name.empty()) names.push_back(name);
    }
    std::vector<CompressorSettings> all;
    for (const auto& n : names) all.push_back(compressor_settings(config, n));
    // Rebuilt from scratch so the list has apt's order whatever the files said.
    config.clear("APT::Compressor");
    for (const auto& s : all) {
        std::string base = "APT::Compressor::" + s.name + "::";
        config.set(base + "Name", s.name);
        config.set(base + "Extension", s.extension);
        config.set(base + "Binary", s.binary);
        config.set(base + "Cost", s.cost);
        for (const auto& a : s.compress_args) config.set(base + "CompressArg::", a);
        for (const auto& a : s.uncompress_args) config.set(base + "UncompressArg::", a);
    }
}

// dpkg's status file, under Dir unless configured.
std::string status_path(const Config& config) {
    if (config.exists("Dir::State::status")) return config.find_file("Dir::State::status");
    return config.find_dir("Dir", "/") + "var/lib/dpkg/status";
}

// dpkg records the architectures it was told about in <admindir>/arch.
std::vector<std::string> foreign_architectures(const Config& config, const std::string& native) {
    std::vector<std::string> out;
    std::string status = status_path(config);
    std::string admindir = status.substr(0, status.rfind('/') + 1);
    std::string path = admindir + "arch";
    if (!path_exists(path)) return out;
    for (std::string_view word : split_words(read_file(path)))
        if (word != native) out.emplace_back(word);
    return out;
}

// The translation languages the locale asks for, then English, as apt's
// "environment" default: "de_DE.UTF-8" gives de, en; C and POSIX give en.
std::vector<std::string> environment_languages() {
    std::vector<std::string> out;
    const char* locale = std::setlocale(LC_MESSAGES, nullptr);
    std::string name = locale ? locale : "C";
    if (name != "C" && name != "POSIX" && !starts_with(name, "C.")) {
        std::string code = name.substr(0, name.find_first_of("_.@"));
        if (!code.empty() && code != "en") out.push_back(code);
    }
    out.emplace_back("en");
    return out;
}

// The items of a list key the way apt reads it: a non-empty scalar value,
// split at commas, replaces any list items.
std::vector<std::string> scalar_or_list(const Config& config, std::string_view key) {
    std::vector<std::string> out;
    std::string value = config.find(key);
    if (!value.empty()) {
        size_t start = 0;
        for (;;) {
            size_t comma = value.find(',', start);
            std::string item = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            if (!item.empty()) out.push_back(std::move(item));
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
        return out;
    }
    for (const auto& child : config.find_list(key))
        if (!child.empty()) out.push_back(child);
    return out;
}

std::vector<std::string> unique_in_order(const std::vector<std::string>& items) {
    std::vector<std::string> out;
    for (const auto& item : items)
        if (std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
    return out;
}

void set_list(Config& config, std::string_view key, const std::vector<std::string>& items) {
    std::vector<std::string> unique = unique_in_order(items);
    config.clear(key);
    std::string list_key = std::string(key) + "::";
    for (const auto& item : unique) config.set(list_key, item);
}

}  // namespace

std::string native_architecture() {
#if defined(__x86_64__)
    return "amd64";
#elif defined(__aarch64__)
    return "arm64";
#elif defined(__i386__)
    return "i386";
#elif defined(__arm__) && defined(__ARM_PCS_VFP)
    return "armhf";
#elif defined(__arm__)
    return "armel";
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return "ppc64el";
#elif defined(__s390x__)
    return "s390x";
#elif defined(__riscv) && __riscv_xlen == 64
    return "riscv64";
#elif defined(__mips__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return "mips64el";
#else
#error "unknown architecture: add its dpkg name here"
#endif
}

void set_builtin_defaults(Config& config) {
    config.set("APT::Architecture", native_architecture());
    for (const auto& d : initial_defaults) config.set(d.key, d.value);
    // dpkg's DEB_BUILD_PROFILES is APT::Build-Profiles' default, as a list
    // ("nodoc stage1"); a file or -P sets the key over it.
    if (const char* env = std::getenv("DEB_BUILD_PROFILES"))
        for (std::string_view p : split_words(env)) config.set("APT::Build-Profiles::", p);
}

void apply_binary(Config& config, const std::string& binary) {
    config.set("Binary", binary);
    for (const auto& d : apt_binary_defaults) config.set_default(d.key, d.value);
    // APT 3.0: someone at a terminal waits for the lock as long as it takes
    // (and can press ^C); a script waits two minutes.
    config.set_default("Binary::apt::DPkg::Lock::Timeout", ::isatty(STDIN_FILENO) == 1 ? "-1" : "120");
    // Settings under Binary::<name> apply to that program only.
    std::string prefix = "Binary::" + binary;
    std::vector<std::pair<std::string, std::string>> overrides;
    config.for_each([&](const Config::Entry& e) {
        if (e.full_name.size() > prefix.size() + 2 && iequals(e.full_name.substr(0, prefix.size()), prefix) &&
            e.full_name.substr(prefix.size(), 2) == "::")
            overrides.emplace_back(std::string(e.full_name.substr(prefix.size() + 2)), std::string(e.value));
    });
    for (const auto& [key, value] : overrides) config.set(key, value);
}

void set_derived_defaults(Config& config) {

    // apt rewrites both lists in their normal form: a scalar value (split at
    // commas, blanks kept as apt keeps them) wins over list items, duplicates
    // go, and the native architecture is always one of the architectures.
    std::string native = config.find("APT::Architecture", native_architecture());
    std::vector<std::string> archs = scalar_or_list(config, "APT::Architectures");
    if (archs.empty()) archs = foreign_architectures(config, native);
    if (std::find(archs.begin(), archs.end(), native) == archs.end()) archs.insert(archs.begin(), native);
    set_list(config, "APT::Architectures", archs);

    set_compressors(config);

    // "environment" stands for the locale's languages; "none" counts only
    // when it is the only entry.
    std::vector<std::string> langs;
    std::vector<std::string> configured = scalar_or_list(config, "Acquire::Languages");
    if (configured.empty()) configured.emplace_back("environment");
    for (const auto& lang : configured) {
        if (lang == "environment")
            for (const auto& env : environment_languages()) langs.push_back(env);
        else
            langs.push_back(lang);
    }
    langs = unique_in_order(langs);
    if (langs.size() > 1) std::erase(langs, "none");
    set_list(config, "Acquire::Languages", langs);
    for (const auto& t : compression_types) config.set_default(std::string("Acquire::CompressionTypes::") + t.key, t.value);

    config.set_default("Dir::State::extended_states", "extended_states");
    if (!config.exists("Dir::State::status")) config.set("Dir::State::status", status_path(config));
    config.set_default("Dir::Bin::dpkg", "/usr/bin/dpkg");
    for (const auto& b : compressor_binaries) config.set_default(b.key, b.value);
    // lzma is a mode of xz when xz is there.
    std::string xz = config.find_file("Dir::Bin::xz");
    config.set_default("Dir::Bin::lzma", access(xz.c_str(), X_OK) == 0 ? xz : "/usr/bin/lzma");
}

}  // namespace aptus::config
