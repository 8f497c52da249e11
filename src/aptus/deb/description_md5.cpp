#include "aptus/deb/description_md5.hpp"

#include <openssl/evp.h>

namespace aptus::deb {

std::string description_md5(std::string_view description) {
    std::string text(description);
    text += '\n';
    unsigned char sum[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_Digest(text.data(), text.size(), sum, &len, EVP_md5(), nullptr);
    static const char hex[] = "0123456789abcdef";
    std::string out;
    for (unsigned i = 0; i < len; ++i) {
        out += hex[sum[i] >> 4];
        out += hex[sum[i] & 15];
    }
    return out;
}

}  // namespace aptus::deb
