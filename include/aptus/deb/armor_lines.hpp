// Walking the lines of OpenPGP armour (RFC 4880 sections 6 and 7): the
// clearsign splitter and the armour checks before verification read the
// same way.
#pragma once

#include <cstddef>
#include <string_view>

namespace aptus::deb {

// A line excludes its '\n'; trailing blanks and CR are cut, because RFC 4880
// 7.1 ignores trailing whitespace on armour lines (and CRLF files exist).
class ArmorLines {
public:
    explicit ArmorLines(std::string_view s) : s_(s) {}
    bool next(std::string_view& line) {
        if (pos_ >= s_.size()) return false;
        size_t nl = s_.find('\n', pos_);
        size_t end = nl == std::string_view::npos ? s_.size() : nl;
        line = s_.substr(pos_, end - pos_);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
            line.remove_suffix(1);
        pos_ = nl == std::string_view::npos ? s_.size() : nl + 1;
        ++number_;
        return true;
    }
    unsigned number() const { return number_; }  // of the line last returned, from 1
    size_t position() const { return pos_; }     // offset just past it

private:
    std::string_view s_;
    size_t pos_ = 0;
    unsigned number_ = 0;
};

}  // namespace aptus::deb
