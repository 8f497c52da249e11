// Every compression a Debian mirror or an apt lists directory may hold.
#pragma once

#include <string>
#include <string_view>

namespace aptus {

enum class Compression { None, Gzip, Xz, Lzma, Lz4, Zstd, Bzip2 };

// From a file name's extension: "Packages.xz" -> Xz, "Packages" -> None.
Compression compression_from_path(std::string_view path);
// The extension apt uses, without the dot ("" for None).
std::string_view compression_extension(Compression c);

// Decompress a whole buffer; `name` only labels errors.
std::string decompress(std::string_view data, Compression c, std::string_view name);

// Read a file and decompress it according to its extension.
std::string read_decompressed(const std::string& path);

}  // namespace aptus
