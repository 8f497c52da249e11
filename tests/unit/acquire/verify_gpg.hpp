// Throw-away OpenPGP keys for the verification tests: a private GNUPGHOME in
// a temporary directory, real gpg making real keys and signatures, and the
// gpg-agent it starts shut down again when the object goes. Never the host's
// keyrings.
#pragma once

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "aptus/base/subprocess.hpp"
#include "support/test_support.hpp"

namespace aptus::test {

class TestGpg {
public:
    TestGpg() : dir_("verify-gpg") {
        home_ = dir_.mkdir("home");
        std::filesystem::permissions(home_, std::filesystem::perms::owner_all);
    }
    ~TestGpg() {
        try {
            SubprocessOptions o;
            o.environment = {{"GNUPGHOME", home_}};
            run_subprocess({"gpgconf", "--kill", "all"}, o);
        } catch (...) {
        }
    }
    TestGpg(const TestGpg&) = delete;
    TestGpg& operator=(const TestGpg&) = delete;

    const TempDir& dir() const { return dir_; }

    // A new key for `uid` ("Name <mail>"); returns its primary fingerprint.
    std::string generate(const std::string& uid, const std::string& algo = "ed25519",
                         const std::string& usage = "sign", const std::string& expire = "1y",
                         const std::string& faked_time = "") {
        run(with_time({"--quick-gen-key", uid, algo, usage, expire}, faked_time));
        return fingerprints(uid).at(0);
    }
    // Adds a signing subkey; returns its fingerprint.
    std::string add_signing_subkey(const std::string& primary) {
        run({"--quick-add-key", primary, "ed25519", "sign", "1y"});
        return fingerprints(primary).back();
    }
    void set_expire(const std::string& fingerprint, const std::string& expire, const std::string& faked_time) {
        run(with_time({"--quick-set-expire", fingerprint, expire}, faked_time));
    }
    // Revokes the key with the certificate gpg stored when it made it
    // (guarded by a leading ':' that has to go before it can be imported).
    void revoke(const std::string& fingerprint) {
        std::ifstream f(home_ + "/openpgp-revocs.d/" + fingerprint + ".rev");
        std::string cert((std::istreambuf_iterator<char>(f)), {});
        size_t guard = cert.find(":-----BEGIN");
        if (guard == std::string::npos) throw std::runtime_error("no revocation certificate for " + fingerprint);
        cert.erase(guard, 1);
        run({"--import", dir_.write("revocation.asc", cert)});
    }
    // Primary fingerprint first, then the subkeys'.
    std::vector<std::string> fingerprints(const std::string& who) {
        std::string out = run({"--with-colons", "--list-keys", who});
        std::vector<std::string> fprs;
        size_t pos = 0;
        while ((pos = out.find("\nfpr:", pos)) != std::string::npos) {
            size_t line_end = out.find('\n', pos + 1);
            std::string line = out.substr(pos + 1, line_end - pos - 1);
            // fpr:::::::::<fingerprint>:
            size_t start = 0;
            for (int i = 0; i < 9; ++i) start = line.find(':', start) + 1;
            fprs.push_back(line.substr(start, line.find(':', start) - start));
            pos = line_end;
        }
        if (fprs.empty()) throw std::runtime_error("no key for " + who);
        return fprs;
    }
    // The public key(s) of `who`, binary or armoured.
    std::string export_key(const std::string& who, bool armor = false) {
        std::vector<std::string> args{"--export"};
        if (armor) args.push_back("--armor");
        args.push_back(who);
        return run(args);
    }
    std::string export_to(const std::string& who, const std::string& file, bool armor = false) {
        return dir_.write(file, export_key(who, armor));
    }

    std::string clearsign(const std::string& text, const std::vector<std::string>& signers,
                          const std::string& digest = "SHA512", const std::string& faked_time = "") {
        return sign(text, signers, digest, faked_time, {"--clearsign"});
    }
    std::string detach_sign(const std::string& text, const std::vector<std::string>& signers, bool armor = true,
                            const std::string& digest = "SHA512", const std::string& faked_time = "") {
        std::vector<std::string> mode{"--detach-sign"};
        if (armor) mode.push_back("--armor");
        return sign(text, signers, digest, faked_time, mode);
    }

private:
    std::vector<std::string> with_time(std::vector<std::string> args, const std::string& faked_time) {
        if (!faked_time.empty()) args.insert(args.begin(), {"--faked-system-time", faked_time});
        return args;
    }
    std::string sign(const std::string& text, const std::vector<std::string>& signers, const std::string& digest,
                     const std::string& faked_time, const std::vector<std::string>& mode) {
        std::string in = dir_.write("to-sign-" + std::to_string(counter_), text);
        std::string out = dir_.file("signed-" + std::to_string(counter_++));
        std::vector<std::string> args{"--digest-algo", digest};
        if (digest == "MD5") args.push_back("--allow-weak-digest-algos");
        for (const auto& s : signers) args.insert(args.end(), {"--local-user", s});
        args.insert(args.end(), mode.begin(), mode.end());
        args.insert(args.end(), {"--output", out, in});
        run(with_time(args, faked_time));
        std::ifstream f(out, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(f), {});
    }
    std::string run(const std::vector<std::string>& args) {
        std::vector<std::string> argv{"gpg", "--batch", "--yes", "--no-tty", "--pinentry-mode", "loopback",
                                      "--passphrase", ""};
        argv.insert(argv.end(), args.begin(), args.end());
        SubprocessOptions o;
        o.environment = {{"GNUPGHOME", home_}, {"LC_ALL", "C"}};
        SubprocessResult r = run_subprocess(argv, o);
        if (!r.success()) {
            std::string cmd;
            for (const auto& a : args) cmd += a + " ";
            throw std::runtime_error("gpg " + cmd + "failed: " + r.err);
        }
        return r.out;
    }

    TempDir dir_;
    std::string home_;
    unsigned counter_ = 0;
};

}  // namespace aptus::test
