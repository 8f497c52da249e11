// Decompression a chunk at a time, for the bytes of a transfer as they
// arrive: the work overlaps the network and the compressed file is never
// held whole in memory. base/compression.hpp decompresses whole buffers; this
// is its streaming twin for the formats a mirror serves.
#pragma once

#include <functional>
#include <memory>
#include <string_view>

#include "aptus/base/compression.hpp"

namespace aptus::acquire {

class StreamDecompressor {
public:
    using Output = std::function<void(std::string_view)>;
    virtual ~StreamDecompressor() = default;
    // Feed compressed bytes; decompressed bytes go to the output as they come.
    // Throws aptus::Error on corrupt data.
    virtual void write(std::string_view in) = 0;
    // The input is complete: throws aptus::Error if the stream was truncated.
    virtual void finish() = 0;
};

// `name` labels errors. Compression::None passes the bytes through.
std::unique_ptr<StreamDecompressor> make_stream_decompressor(Compression c, std::string name,
                                                             StreamDecompressor::Output out);

}  // namespace aptus::acquire
