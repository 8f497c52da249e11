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

namespace {

// `name` is `root` or below it; names compare as the tree does, without case.
bool within(std::string_view name, std::string_view root) {
    if (name.size() < root.size() || !iequals(name.substr(0, root.size()), root)) return false;
    return name.size() == root.size() || name.substr(root.size()).starts_with("::");
}

}  // namespace

std::string dump(const Config& config, std::string_view format, bool include_empty, std::string_view subtree) {
    std::string out;
    config.for_each([&](const Config::Entry& e) {
        if (!include_empty && e.value.empty()) return;
        if (!subtree.empty() && !within(e.full_name, subtree)) return;
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
