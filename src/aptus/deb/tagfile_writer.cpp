#include "aptus/deb/tagfile_writer.hpp"

#include <cstring>

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"

namespace aptus::deb {
namespace {

void check_name(std::string_view name) {
    bool ok = !name.empty() && name.front() != '#' && name.front() != '-';
    for (char c : name)
        if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f || c == ':') ok = false;
    if (!ok) throw Error("invalid field name '" + std::string(name) + "'");
}

bool all_blank(std::string_view s) {
    for (char c : s)
        if (!is_blank(c) && c != '\r') return false;
    return true;
}

// The bytes of `field` in `stanza`: from its name to the next field's name
// (or the stanza's end), so comment lines after it travel with it.
std::string_view segment(const Stanza& stanza, size_t i) {
    const char* begin = stanza.fields[i].name.data();
    const char* end = i + 1 < stanza.fields.size() ? stanza.fields[i + 1].name.data()
                                                   : stanza.raw.data() + stanza.raw.size();
    return std::string_view(begin, static_cast<size_t>(end - begin));
}

void append_with_newline(std::string& out, std::string_view bytes) {
    out.append(bytes);
    if (!bytes.empty() && bytes.back() != '\n') out += '\n';
}

}  // namespace

void append_field(std::string& out, std::string_view name, std::string_view text) {
    check_name(name);
    out.append(name);
    out += ':';
    size_t nl = text.find('\n');
    std::string_view first = text.substr(0, nl);
    if (!all_blank(first)) {
        out += ' ';
        out.append(first);
    }
    while (nl != std::string_view::npos) {
        size_t start = nl + 1;
        nl = text.find('\n', start);
        std::string_view line = text.substr(start, nl == std::string_view::npos ? nl : nl - start);
        out += "\n ";
        if (all_blank(line))
            out += '.';
        else
            out.append(line);
    }
    out += '\n';
}

StanzaEdits& StanzaEdits::set(std::string_view name, std::string_view text) {
    check_name(name);
    for (Edit& e : edits_)
        if (iequals(e.name, name)) {
            e.text = std::string(text);
            return *this;
        }
    edits_.push_back({std::string(name), std::string(text)});
    return *this;
}

StanzaEdits& StanzaEdits::remove(std::string_view name) {
    for (Edit& e : edits_)
        if (iequals(e.name, name)) {
            e.text.reset();
            return *this;
        }
    edits_.push_back({std::string(name), std::nullopt});
    return *this;
}

const StanzaEdits::Edit* StanzaEdits::find(std::string_view name) const {
    for (const Edit& e : edits_)
        if (iequals(e.name, name)) return &e;
    return nullptr;
}

void TagFileWriter::write_stanza(std::span<const FieldPair> fields) {
    for (const auto& [name, text] : fields) append_field(out_, name, text);
    out_ += '\n';
}

void TagFileWriter::write_stanza(const Stanza& stanza) {
    append_with_newline(out_, stanza.raw);
    out_ += '\n';
}

void TagFileWriter::write_stanza(const Stanza& stanza, const StanzaEdits& edits) {
    std::vector<bool> applied(edits.edits_.size(), false);
    for (size_t i = 0; i < stanza.fields.size(); ++i) {
        const Field& field = stanza.fields[i];
        std::string_view bytes = segment(stanza, i);
        const StanzaEdits::Edit* edit = edits.find(field.name);
        if (edit == nullptr) {
            append_with_newline(out_, bytes);
            continue;
        }
        applied[static_cast<size_t>(edit - edits.edits_.data())] = true;
        if (edit->text) append_field(out_, field.name, *edit->text);
        // Comment lines that followed the old value stay where they were.
        size_t value_end = static_cast<size_t>(field.value.data() + field.value.size() - bytes.data());
        size_t nl = bytes.find('\n', value_end);
        if (nl != std::string_view::npos) append_with_newline(out_, bytes.substr(nl + 1));
    }
    for (size_t k = 0; k < edits.edits_.size(); ++k)
        if (!applied[k] && edits.edits_[k].text) append_field(out_, edits.edits_[k].name, *edits.edits_[k].text);
    out_ += '\n';
}

void TagFileWriter::write_comment(std::string_view text) {
    size_t pos = 0;
    for (;;) {
        size_t nl = text.find('\n', pos);
        std::string_view line = text.substr(pos, nl == std::string_view::npos ? nl : nl - pos);
        out_ += line.empty() ? "#" : "# ";
        out_.append(line);
        out_ += '\n';
        if (nl == std::string_view::npos) break;
        pos = nl + 1;
    }
}

}  // namespace aptus::deb
