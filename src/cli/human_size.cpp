#include "cli/human_size.hpp"

#include <cstdio>

namespace aptus::cli {

std::string human_size(double bytes) {
    static constexpr char units[] = {'\0', 'k', 'M', 'G', 'T', 'P', 'E', 'Z', 'Y'};
    double size = bytes < 0 ? -bytes : bytes;
    char buf[64];
    for (size_t unit = 0; unit < sizeof units; ++unit) {
        if (unit != 0 && size < 100) {
            std::snprintf(buf, sizeof buf, "%'.1f %c", size, units[unit]);
            return buf;
        }
        if (size < 10000) {
            if (unit == 0) std::snprintf(buf, sizeof buf, "%'.0f ", size);
            else std::snprintf(buf, sizeof buf, "%'.0f %c", size, units[unit]);
            return buf;
        }
        size /= 1000.0;
    }
    std::snprintf(buf, sizeof buf, "%'.0f Y", size);
    return buf;
}

}  // namespace aptus::cli
