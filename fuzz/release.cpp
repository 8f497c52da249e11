// Release and InRelease files: the clearsigned-message splitter, the Release
// fields, the armour reader and the shape checks made before a verifier runs
// (detached signatures, keyrings), and the readers of sqv's and gpgv's
// answers (which quote key and user ID text from the repository's keys).
#include <cstdint>
#include <string>

#include "aptus/acquire/verify_detail.hpp"
#include "aptus/base/error.hpp"
#include "aptus/deb/release_file.hpp"
#include "fuzz/fuzz_util.hpp"

using namespace aptus;

namespace {
void walk(const deb::ReleaseFile& r) {
    for (auto h : {deb::ReleaseHash::Md5, deb::ReleaseHash::Sha1, deb::ReleaseHash::Sha256, deb::ReleaseHash::Sha512})
        for (const deb::ReleaseEntry& e : r.entries(h)) {
            if (r.find(e.path, h) == nullptr) fuzz::broken("a Release entry find() cannot find");
            if (!r.strongest(e.path)) fuzz::broken("a Release entry without a strongest hash");
        }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view in = fuzz::text(data, size);
    try {
        std::string body = deb::clearsigned_text(in, "InRelease");
        std::string_view sig = acquire::detail::clearsigned_signature(in);
        if (sig.empty() || !fuzz::within(sig, in)) fuzz::broken("an accepted message without its signature block");
        try {
            (void)acquire::detail::dearmor(sig, "PGP SIGNATURE", "InRelease");
        } catch (const Error&) {
        }
        walk(deb::parse_release(body, "InRelease"));
    } catch (const Error&) {
    }
    try {
        walk(deb::parse_release(in, "Release"));
    } catch (const Error&) {
    }
    (void)acquire::detail::check_detached_signature(in);
    try {
        (void)acquire::detail::dearmor(in, "PGP PUBLIC KEY BLOCK", "key.asc");
    } catch (const Error&) {
    }
    (void)acquire::detail::keyring_format("key.asc", in);
    (void)acquire::detail::keyring_format("key.gpg", in);
    std::vector<acquire::KeyFingerprint> fprs = {{"0123456789ABCDEF0123456789ABCDEF01234567", true}, {"89ABCDEF01234567", false}};
    auto answer = fuzz::parts(in, 2);
    (void)acquire::detail::read_gpgv_status(answer[0], 0, fprs);
    (void)acquire::detail::read_gpgv_status(answer[0], 1, {});
    (void)acquire::detail::read_sqv_answer(answer[0], answer[1], 0, fprs);
    (void)acquire::detail::read_sqv_answer(answer[0], answer[1], 1, {});
    return 0;
}
