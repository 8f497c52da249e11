// aptus's version order against dpkg's and APT's on every version in real
// archive snapshots: sorted with aptus, each neighbouring pair must get the
// same answer from python3-apt, and a sample from dpkg itself.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "support/test_support.hpp"
#include "aptus/base/compression.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/deb/tagfile.hpp"
#include "aptus/deb/version.hpp"

namespace {

using aptus::deb::compare_versions;

const char* const kIndexFiles[] = {
    "debian/bookworm-main-amd64-Packages.xz",
    "debian/trixie-main-amd64-Packages.xz",
    "debian/bookworm-main-Sources.xz",
};

void collect_versions(const std::string& text, const std::string& name, std::unordered_set<std::string>& out) {
    aptus::deb::TagFileReader reader(text, name);
    aptus::deb::Stanza stanza;
    while (reader.next(stanza))
        if (auto version = stanza.get("Version")) out.emplace(*version);
}

int sign(int x) { return (x > 0) - (x < 0); }
const char* relation(int s) { return s < 0 ? "lt" : (s > 0 ? "gt" : "eq"); }

struct Pair {
    std::string_view a, b;
};

class VersionRealData : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        std::string dir = APTUS_DATA_DIR;
        if (dir.empty() || !aptus::path_exists(dir + "/" + kIndexFiles[0])) return;
        std::unordered_set<std::string> distinct;
        for (const char* file : kIndexFiles) {
            std::string path = dir + "/" + file;
            collect_versions(aptus::read_decompressed(path), path, distinct);
        }
        sorted_ = new std::vector<std::string>(distinct.begin(), distinct.end());
        // Start from a fixed order so the run does not depend on hashing.
        std::sort(sorted_->begin(), sorted_->end());
        std::sort(sorted_->begin(), sorted_->end(),
                  [](const std::string& a, const std::string& b) { return compare_versions(a, b) < 0; });
    }
    static void TearDownTestSuite() {
        delete sorted_;
        sorted_ = nullptr;
    }
    void SetUp() override {
        if (sorted_ == nullptr) GTEST_SKIP() << "no real data: APTUS_DATA_DIR is '" << APTUS_DATA_DIR << "'";
    }

    static std::vector<Pair> neighbours() {
        std::vector<Pair> out;
        for (size_t i = 0; i + 1 < sorted_->size(); ++i) out.push_back({(*sorted_)[i], (*sorted_)[i + 1]});
        return out;
    }
    static std::vector<Pair> random_pairs(size_t n, unsigned seed) {
        std::mt19937 rng(seed);
        std::uniform_int_distribution<size_t> pick(0, sorted_->size() - 1);
        std::vector<Pair> out;
        for (size_t i = 0; i < n; ++i) out.push_back({(*sorted_)[pick(rng)], (*sorted_)[pick(rng)]});
        return out;
    }

    static std::vector<std::string>* sorted_;
};

std::vector<std::string>* VersionRealData::sorted_ = nullptr;


std::vector<std::string> read_lines(const std::string& path) {
    std::vector<std::string> lines;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

bool have_tool(const char* check) { return std::system(check) == 0; }

// python3-apt's answers (-1, 0, 1 as text) for many pairs, in one process.
std::vector<std::string> apt_pkg_answers(const std::vector<Pair>& pairs) {
    aptus::test::TempDir scratch("version");
    std::string input;
    for (const Pair& p : pairs) (((input += p.a) += ' ') += p.b) += '\n';
    aptus::write_file_atomic(scratch.file("pairs"), input);
    std::string command = "/usr/bin/python3 '" APTUS_TEST_DATA "/version/apt_pkg_compare.py' < " +
                          scratch.file("pairs") + " > " + scratch.file("answers");
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    return read_lines(scratch.file("answers"));
}

bool have_apt_pkg() { return have_tool("/usr/bin/python3 -c 'import apt_pkg' 2>/dev/null"); }

TEST_F(VersionRealData, EveryVersionIsValid) {
    size_t doubtful = 0;
    for (const std::string& v : *sorted_) {
        EXPECT_NO_THROW(aptus::deb::parse_version(v, aptus::deb::VersionCheck::Errors)) << v;
        if (!aptus::deb::version_warning(v).empty()) ++doubtful;
    }
    std::cout << "[   info   ] " << sorted_->size() << " distinct versions, " << doubtful
              << " that dpkg would warn about\n";
    EXPECT_GT(sorted_->size(), 30000u);  // 37766 in the current snapshots
}

TEST_F(VersionRealData, SortIsATotalOrder) {
    for (const Pair& p : neighbours()) {
        int forward = compare_versions(p.a, p.b);
        ASSERT_LE(forward, 0) << "'" << p.a << "' > '" << p.b << "'";
        ASSERT_EQ(compare_versions(p.b, p.a), -forward) << "'" << p.a << "' vs '" << p.b << "'";
        // The parsed form orders the same way.
        auto pa = aptus::deb::parse_version(p.a, aptus::deb::VersionCheck::Errors);
        auto pb = aptus::deb::parse_version(p.b, aptus::deb::VersionCheck::Errors);
        ASSERT_EQ(compare_versions(pa, pb), forward) << "'" << p.a << "' vs '" << p.b << "'";
    }
    // Not only neighbours: any two versions keep their sorted order.
    std::mt19937 rng(7);
    std::uniform_int_distribution<size_t> pick(0, sorted_->size() - 1);
    for (int i = 0; i < 200000; ++i) {
        size_t x = pick(rng), y = pick(rng);
        if (x > y) std::swap(x, y);
        ASSERT_LE(compare_versions((*sorted_)[x], (*sorted_)[y]), 0)
            << "'" << (*sorted_)[x] << "' sorted before '" << (*sorted_)[y] << "' but compares greater";
    }
}

TEST_F(VersionRealData, AgreesWithPythonAptPkg) {
    if (!have_apt_pkg()) GTEST_SKIP() << "python3-apt is not installed (/usr/bin/python3 cannot import apt_pkg)";
    std::vector<Pair> pairs = neighbours();
    size_t neighbour_count = pairs.size();
    std::vector<Pair> extra = random_pairs(200000, 42);
    pairs.insert(pairs.end(), extra.begin(), extra.end());

    std::vector<std::string> answers = apt_pkg_answers(pairs);
    ASSERT_EQ(answers.size(), pairs.size());
    size_t disagreements = 0;
    for (size_t i = 0; i < pairs.size(); ++i) {
        int ours = sign(compare_versions(pairs[i].a, pairs[i].b));
        if (std::to_string(ours) != answers[i] && ++disagreements <= 20)
            ADD_FAILURE() << "'" << pairs[i].a << "' vs '" << pairs[i].b << "': aptus " << ours << ", apt_pkg "
                          << answers[i];
    }
    EXPECT_EQ(disagreements, 0u);
    std::cout << "[   info   ] apt_pkg.version_compare agreed on " << neighbour_count << " neighbouring and "
              << extra.size() << " random pairs\n";
}

TEST_F(VersionRealData, AgreesWithDpkg) {
    if (!have_tool("command -v dpkg >/dev/null")) GTEST_SKIP() << "dpkg is not installed";
    // Neighbours spread over the whole order, then random pairs.
    std::vector<Pair> all = neighbours();
    std::vector<Pair> pairs;
    size_t step = std::max<size_t>(1, all.size() / 1500);
    for (size_t i = 0; i < all.size(); i += step) pairs.push_back(all[i]);
    std::vector<Pair> extra = random_pairs(1500, 1234);
    pairs.insert(pairs.end(), extra.begin(), extra.end());

    // dpkg costs a process per pair: two shards run side by side.
    aptus::test::TempDir scratch("version");
    const int kShards = 2;
    std::string input[kShards];
    for (size_t i = 0; i < pairs.size(); ++i) {
        std::string& in = input[i % kShards];
        (((((in += pairs[i].a) += ' ') += relation(compare_versions(pairs[i].a, pairs[i].b))) += ' ') +=
         pairs[i].b) += '\n';
    }
    std::string command;
    for (int s = 0; s < kShards; ++s) {
        std::string name = "shard" + std::to_string(s);
        aptus::write_file_atomic(scratch.file(name), input[s]);
        command += "sh '" APTUS_TEST_DATA "/version/dpkg_compare.sh' < " + scratch.file(name) + " > " +
                   scratch.file(name + ".out") + " & ";
    }
    command += "wait";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;

    size_t checked = 0, disagreements = 0;
    for (int s = 0; s < kShards; ++s) {
        std::vector<std::string> answers = read_lines(scratch.file("shard" + std::to_string(s) + ".out"));
        for (size_t k = 0; k < answers.size(); ++k) {
            size_t i = k * kShards + s;
            ASSERT_LT(i, pairs.size());
            ++checked;
            if (answers[k] != "ok" && ++disagreements <= 20)
                ADD_FAILURE() << "dpkg --compare-versions '" << pairs[i].a << "' "
                              << relation(compare_versions(pairs[i].a, pairs[i].b)) << " '" << pairs[i].b
                              << "' is false";
        }
    }
    EXPECT_EQ(checked, pairs.size());
    EXPECT_EQ(disagreements, 0u);
    std::cout << "[   info   ] dpkg --compare-versions agreed on " << checked << " pairs\n";
}

// Made-up versions built to hit the corners real data rarely does: shared
// prefixes ending inside digit runs, at a '-' or a '~', long zero runs,
// several hyphens, epochs. Each pair is a version and a small edit of it.
TEST(VersionDifferential, RandomVersionsAgreeWithAptPkg) {
    if (!have_apt_pkg()) GTEST_SKIP() << "python3-apt is not installed (/usr/bin/python3 cannot import apt_pkg)";
    std::mt19937 rng(2024);
    const std::string alphabet = "0000011119.~~+-aZ";
    auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
    auto make = [&] {
        std::string v;
        if (pick(4) == 0) v = std::to_string(pick(3)) + ":";
        v += char('0' + pick(10));
        for (size_t i = 0, n = pick(12); i < n; ++i) v += alphabet[pick(alphabet.size())];
        return v;
    };
    std::vector<std::string> texts;
    while (texts.size() < 200000) {
        std::string a = make();
        std::string b = a;
        switch (pick(4)) {
            case 0: b = make(); break;
            case 1: b += alphabet[pick(alphabet.size())]; break;
            case 2: b[pick(b.size())] = alphabet[pick(alphabet.size())]; break;
            case 3: b.insert(pick(b.size() + 1), 1, alphabet[pick(alphabet.size())]); break;
        }
        try {
            aptus::deb::parse_version(a, aptus::deb::VersionCheck::Errors);
            aptus::deb::parse_version(b, aptus::deb::VersionCheck::Errors);
        } catch (const aptus::Error&) {
            continue;  // only what dpkg accepts: elsewhere the epoch rules differ (see version.hpp)
        }
        texts.push_back(std::move(a));
        texts.push_back(std::move(b));
    }
    std::vector<Pair> pairs;
    for (size_t i = 0; i < texts.size(); i += 2) pairs.push_back({texts[i], texts[i + 1]});
    std::vector<std::string> answers = apt_pkg_answers(pairs);
    ASSERT_EQ(answers.size(), pairs.size());
    size_t disagreements = 0;
    for (size_t i = 0; i < pairs.size(); ++i) {
        int ours = sign(compare_versions(pairs[i].a, pairs[i].b));
        auto pa = aptus::deb::parse_version(pairs[i].a, aptus::deb::VersionCheck::Errors);
        auto pb = aptus::deb::parse_version(pairs[i].b, aptus::deb::VersionCheck::Errors);
        EXPECT_EQ(compare_versions(pa, pb), ours) << "'" << pairs[i].a << "' vs '" << pairs[i].b << "'";
        if (std::to_string(ours) != answers[i] && ++disagreements <= 20)
            ADD_FAILURE() << "'" << pairs[i].a << "' vs '" << pairs[i].b << "': aptus " << ours << ", apt_pkg "
                          << answers[i];
    }
    EXPECT_EQ(disagreements, 0u);
}

}  // namespace
