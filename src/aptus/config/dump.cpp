#include "aptus/config/dump.hpp"

#include "aptus/base/strings.hpp"

namespace aptus::config {

std::string quote_value(std::string_view value) {
    std::string out;
    for (unsigned char c : value) {
        if (c <= 0x20 || c >= 0x7f || c == '%' || c == '"' || c == '=') {
            out += '%';
            append_hex(out, c);
        } else {
            out += char(c);
        }
    }
    return out;
}

std::string dump(const Config& config, std::string_view format, bool include_empty) {
    std::string out;
    config.for_each([&](const Config::Entry& e) {
        if (!include_empty && e.value.empty()) return;
        for (size_t i = 0; i < format.size(); ++i) {
            if (format[i] != '%' || i + 1 == format.size()) {
                out += format[i];
                continue;
            }
            switch (format[++i]) {
                case 'f': out += e.full_name; break;
                case 't': out += e.name; break;
                case 'v': out += e.value; break;
                case 'F': out += quote_value(e.full_name); break;
                case 'T': out += quote_value(e.name); break;
                case 'V': out += quote_value(e.value); break;
                case 'n': out += '\n'; break;
                case 'N': out += '\t'; break;
                case '%': out += '%'; break;
                default:
                    out += '%';
                    out += format[i];
            }
        }
    });
    return out;
}

}  // namespace aptus::config
